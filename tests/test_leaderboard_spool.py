"""The board's long tables on disk: the spool's order and re-entrant reads, the sorted merge
against a stable global sort, papers merged across runs through the spool, lengths read
without loading, and the CSV written chunk by chunk equal to the whole frame's."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pandas as pd
import pytest

from extractor.leaderboard import build, build_leaderboard
from extractor.leaderboard.columns import CLAIM_COLUMNS
from extractor.leaderboard.spool import SortedSpool, Spool
from extractor.leaderboard.tables import csv_text, write_csv
from extractor.schema import PaperResult
from tests.test_leaderboard import A, B, gsm, paper


def test_spool_reads_chunks_in_order_and_interleaved() -> None:
    spool = Spool()
    for n in range(5):
        spool.append([(n, f"row {n}")])
    first, second = iter(spool), iter(spool)
    assert next(first) == [(0, "row 0")]
    assert next(second) == [(0, "row 0")]
    assert next(second) == [(1, "row 1")]
    spool.append([(5, "row 5")])  # an append between reads
    assert [chunk[0][0] for chunk in first] == [1, 2, 3, 4, 5]
    assert [chunk[0][0] for chunk in second] == [2, 3, 4, 5]
    assert spool.read(3) == [(3, "row 3")] and len(spool) == 6


def _benchmark(rng: random.Random) -> str | None:
    return rng.choice([None, "GSM8K", "gsm8k", "MMLU", "ÄRC", "arc", "Straße", "STRASSE"])


def test_sorted_merge_is_a_stable_global_sort_with_missing_values_and_ties() -> None:
    rng = random.Random(24)
    fields = build._ROW_FIELDS
    rows = []
    for n in range(400):
        row = [None] * len(fields)
        row[build._BENCHMARK] = _benchmark(rng)
        row[build._METRIC_LABEL] = rng.choice(["accuracy \u2191", "latency \u2193", "speedup"])
        row[build._VALUE] = rng.choice([1.0, 2.5, 2.5, -0.0, 0.0, math.nan, None, 10.0])
        row[fields.index("claim_id")] = n  # where it came: ties must keep this order
        rows.append(tuple(row))
    spool = SortedSpool(build._change_order, piece_rows=3)
    at = 0
    while at < len(rows):  # runs of uneven lengths, read 3 rows at a time
        size = rng.randint(1, 60)
        spool.append(rows[at : at + size])
        at += size
    came = fields.index("claim_id")
    merged = [row[came] for row in spool]
    assert merged == [row[came] for row in sorted(rows, key=build._change_order)]
    assert merged == [row[came] for row in spool]  # read again: the same
    # the order the board sorted its changes frame in before it was spooled (pandas, stable)
    frame = pd.DataFrame(rows, columns=fields)
    frame["_order"] = frame["benchmark"].fillna("\uffff").str.casefold()
    expected = frame.sort_values(["_order", "metric_label", "value"], ascending=[True, True, False])["claim_id"]
    assert merged == expected.tolist()


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Spool two rows a chunk, so even a small board's tables span several."""
    monkeypatch.setattr(build, "SPOOL_ROWS", 2)


def _runs() -> list[PaperResult]:
    """Three runs' papers, in order: a paper that failed and then came back ok, a paper seen
    twice with one claim id in both, and a paper only in the last run (with an unranked score)."""
    a = paper("2401.00001", A, [
        gsm(83.6, "GANQ reaches 83.6% accuracy on GSM8K", "GANQ"),
        dict(value=5.42, metric="perplexity", benchmark="WikiText-2", method="GANQ", model="Llama-3-8B",
             evidence="a perplexity of 5.42 on WikiText-2"),
        dict(value=2.57, unit="x", metric="speedup", method="GANQ", baseline="FP16", kind="change",
             direction="increase", evidence="a 2.57x speedup over FP16"),
    ])
    b = paper("2401.00002", B, [gsm(80.1, "QuIP reaches 80.1% with Llama 3-8B", "QuIP", "Llama 3-8B")])
    b_again = paper("2401.00002", B, [
        gsm(80.1, "QuIP reaches 80.1% with Llama 3-8B", "QuIP", "Llama 3-8B"),  # the same claim id
        gsm(84.1, "GANQ reaches 84.1%", "GANQ", "Llama 3-8B"),
    ])
    failed = PaperResult(id="2401.00001", status="failed", error="backend timed out")
    c = paper("p-c", "FastNet is 3x faster than FP16. FastNet reaches 70% accuracy.", [
        dict(value=3, unit="x", metric="speedup", method="FastNet", baseline="FP16", kind="change",
             direction="increase", evidence="FastNet is 3x faster than FP16"),
        dict(value=70, unit="%", metric="accuracy", method="FastNet", evidence="FastNet reaches 70% accuracy"),
    ])
    return [failed, b, a, b_again, c]


def test_papers_merge_across_runs_through_the_spool(small_chunks: None) -> None:
    board = build_leaderboard(_runs())
    papers = board.papers
    assert papers["paper_id"].tolist() == ["2401.00001", "2401.00002", "p-c"]  # first seen, first listed
    first = papers.iloc[0]
    assert first["status"] == "ok" and pd.isna(first["error"]) and first["title"] == "Paper 2401.00001"
    assert papers[["scores", "changes", "claims"]].values.tolist() == [[2, 1, 3], [2, 0, 2], [1, 1, 2]]
    claims = board.claims
    assert len(claims) == 7 and not claims.duplicated(["paper_id", "claim_id"]).any()
    assert claims["paper_id"].tolist() == ["2401.00002", *["2401.00001"] * 3, "2401.00002", "p-c", "p-c"]
    assert board.unranked["unranked"].tolist() == ["missing benchmark"]
    assert board.changes["value"].tolist() == [3.0, 2.57]  # one benchmark (none), one metric: value descending


def test_chunks_assemble_the_whole_tables(small_chunks: None) -> None:
    board = build_leaderboard(_runs())
    for table in build.TABLES:
        whole = getattr(board, table)
        chunks = list(board.chunks(table, rows=2))
        assert len(chunks) == -(-board.length(table) // 2)
        # a chunk's column may be typed otherwise than the whole one's (all missing: None, not NaN)
        pd.testing.assert_frame_equal(_cells(pd.concat(chunks, ignore_index=True)), _cells(whole))


def _cells(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame's values as the writers take them: Python objects, None for a missing one."""
    return frame.astype(object).where(frame.notna(), None)


def test_lengths_and_id_widths_read_nothing(small_chunks: None, monkeypatch: pytest.MonkeyPatch) -> None:
    board = build_leaderboard(_runs())

    def unread(self: Spool, index: int) -> object:
        raise AssertionError("a length read the spool")

    monkeypatch.setattr(Spool, "read", unread)
    assert {table: board.length(table) for table in build.TABLES} == {"claims": 7, "unranked": 1, "changes": 2, "papers": 3}
    assert board.id_width("claims") == len(board.scores["claim_id"].iloc[0])
    assert board.id_width("papers") == len("2401.00001")


def test_csv_written_in_chunks_equals_the_whole_frame_csv(small_chunks: None, tmp_path: Path) -> None:
    board = build_leaderboard(_runs())
    out = tmp_path / "board.csv"
    write_csv(board, out, excel=True)
    assert out.read_bytes().decode("utf-8") == "\ufeff" + csv_text(board.claims, [name for name, _ in CLAIM_COLUMNS])
    empty = build_leaderboard([])
    write_csv(empty, out)
    assert out.read_bytes().decode("utf-8") == csv_text(empty.claims, [name for name, _ in CLAIM_COLUMNS])
