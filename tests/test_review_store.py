"""The correction store: numbered migrations, append-only history enforced by the database."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from extractor.runs.corrections import MIGRATIONS, Batch, CorrectionStore, NewCorrection


def correction(field: str = "metric", new: object = "accuracy") -> NewCorrection:
    return NewCorrection(
        paper_id="p1", target_id="p1#abc", target_kind="claim", field=field,
        old_value=None, new_value=new, base_value=None, extracted={"value": 83.6, "metric": None},
        source="Claims!2",
    )


def batch(n: int) -> Batch:
    return Batch(f"b-{n}", "alice", f"2026-01-0{n}T00:00:00+00:00", "review.xlsx", "0" * 64, "runs/x", {"applied": 1})


def test_migrations_run_once_in_order_and_are_recorded(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    with CorrectionStore(path) as db:
        assert db.applied_migrations() == ["m001_initial", "m002_batches"] == [n for n, _ in MIGRATIONS]
    with CorrectionStore(path) as db:
        assert db.migrate() == []


def test_history_keeps_types_order_and_never_shrinks(tmp_path: Path) -> None:
    with CorrectionStore(tmp_path / "c.sqlite") as db:
        db.append(batch(1), [correction(), correction("value_max", 34.0)])
        db.append(batch(2), [correction(new="EM accuracy"), correction("aliases", ["A", "B"])])
        history = db.history()
        assert [c.new_value for c in history] == ["accuracy", 34.0, "EM accuracy", ["A", "B"]]
        assert [c.batch_id for c in history] == ["b-1", "b-1", "b-2", "b-2"]
        assert history[0].extracted == {"value": 83.6, "metric": None} and history[0].reviewer == "alice"
        with pytest.raises(sqlite3.IntegrityError, match="append-only: UPDATE refused"):
            db.db.execute("UPDATE corrections SET new_value = '\"x\"' WHERE id = 1")
        with pytest.raises(sqlite3.IntegrityError, match="append-only: DELETE refused"):
            db.db.execute("DELETE FROM corrections")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.db.execute("DELETE FROM batches")
        assert len(db.history()) == 4 and [b.id for b in db.batches()] == ["b-1", "b-2"]


def test_a_failed_batch_leaves_no_trace(tmp_path: Path) -> None:
    with CorrectionStore(tmp_path / "c.sqlite") as db:
        bad = NewCorrection(paper_id="p1", target_id="t", target_kind="table", field="f", old_value=None, new_value=1)  # type: ignore[arg-type]
        with pytest.raises(sqlite3.IntegrityError):
            db.append(batch(1), [correction(), bad])
        assert db.history() == [] and db.batches() == []
