"""The run object: a run directory opened once and asked for its parts; reading never writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extractor.errors import NotARunError
from extractor.runs import Run
from extractor.runs.corrections import Batch, NewCorrection
from extractor.runs.files import NAMES_FILE, STORE_FILE
from extractor.runs.names import NameAnswer, names_text
from extractor.schema import PaperResult
from tests.runs import write_run


def _run(directory: Path) -> Path:
    return write_run(directory, [PaperResult(id="p1", status="ok"), PaperResult(id="p2", status="failed", error="x")], {"backend": "test"})


def _correct(run: Run, paper_id: str) -> None:
    batch = Batch("b-1", "alice", "2026-01-01T00:00:00+00:00", None, None, str(run.path), {})
    with run.store() as db:
        db.append(batch, [NewCorrection(paper_id, paper_id, "paper", "decision", None, "accept")])


def test_a_run_answers_its_papers_info_names_and_corrections(tmp_path: Path) -> None:
    run = Run.open(_run(tmp_path / "run"))
    assert [p.id for p in run.papers()] == ["p1", "p2"]
    assert run.info() == {"backend": "test"}
    assert run.names() == [] and run.corrections() == []
    (run.path / NAMES_FILE).write_text(names_text([NameAnswer("benchmark", "IN-1k", "ImageNet", "m", "v1")]))
    assert [a.same_as for a in run.names()] == ["ImageNet"]
    _correct(run, "p2")
    assert [c.paper_id for c in run.corrections()] == ["p2"]
    assert run.corrections({"p1"}) == []


def test_reading_a_run_never_creates_its_store(tmp_path: Path) -> None:
    run = Run.open(_run(tmp_path / "run"))
    list(run.papers()), run.info(), run.corrections()
    assert not (run.path / STORE_FILE).exists()


def test_a_store_shared_by_two_runs_serves_both(tmp_path: Path) -> None:
    shared = tmp_path / "shared.sqlite"
    a, b = Run.open(_run(tmp_path / "a"), shared), Run.open(_run(tmp_path / "b"), shared)
    _correct(a, "p1")
    assert [c.paper_id for c in b.corrections()] == ["p1"]
    assert not (a.path / STORE_FILE).exists()


def test_papers_jsonl_given_directly_opens_its_directory(tmp_path: Path) -> None:
    run = Run.open(_run(tmp_path / "run") / "papers.jsonl")
    assert run.path == tmp_path / "run" and run.store_path == tmp_path / "run" / STORE_FILE


@pytest.mark.parametrize("name", ["empty", "missing"])
def test_a_path_that_holds_no_run_is_refused_at_once(tmp_path: Path, name: str) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(NotARunError, match="not a run directory"):
        Run.open(tmp_path / name)


def test_a_bad_line_is_skipped_with_a_warning_naming_it(tmp_path: Path) -> None:
    run = Run.open(_run(tmp_path / "run"))
    with run.papers_path.open("a") as handle:
        handle.write(json.dumps({"id": 3}) + "\n")
    with pytest.warns(UserWarning, match=r"papers\.jsonl:3: line skipped"):
        assert [p.id for p in run.papers()] == ["p1", "p2"]
