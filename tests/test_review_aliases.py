"""Reviewers merge names: a claim row's benchmark_same_as / metric_same_as says that
the name is another name of X; the store keeps it like any correction, and every leaderboard
built with that store applies it to every paper of every run on it."""

from __future__ import annotations

from pathlib import Path

from extractor.runs import Run
from extractor.grounding import ground
from extractor.leaderboard import build_leaderboard, load_runs
from tests.runs import write_run
from extractor.review import apply_review, export_review
from extractor.runs.corrections import CorrectionStore
from extractor.runs.files import STORE_FILE
from extractor.schema import ClaimDraft, ExtractionDraft, PaperResult

from .test_review import cell, claim_id, edit

A1 = "RelNet reaches 84.2 official score on RelBench X."
A2 = "On RelBench X, GraphRel gets 83.1 official score, and 12.5 on an unnamed split."
B1 = "CNN-Att reaches 82.7 macro-F1 on SemEval-2010 Task 8."


def result(paper_id: str, abstract: str, claims: list[dict]) -> PaperResult:
    extraction, rejected = ground(ExtractionDraft(claims=[ClaimDraft(**c) for c in claims]), abstract, paper_id)
    assert not rejected, rejected
    return PaperResult(id=paper_id, title=paper_id, status="ok", abstract=abstract, extraction=extraction)


def runs(tmp_path: Path) -> tuple[Path, Path]:
    a, b = tmp_path / "a", tmp_path / "b"
    write_run(a, [
        result("a1", A1, [dict(value=84.2, metric="official score", benchmark="RelBench X", method="RelNet", evidence=A1)]),
        result("a2", A2, [
            dict(value=83.1, metric="official score", benchmark="RelBench X", method="GraphRel",
                 evidence="On RelBench X, GraphRel gets 83.1 official score"),
            dict(value=12.5, method="GraphRel", evidence="12.5 on an unnamed split"),
        ]),
    ], {"backend": "test"})
    write_run(b, [result("b1", B1, [dict(value=82.7, metric="macro-F1", benchmark="SemEval-2010 Task 8", method="CNN-Att", evidence=B1)])], {"backend": "test"})
    return a, b


def blocks(*run_dirs: Path) -> list[tuple[str, int]]:
    board = build_leaderboard(*load_runs([Run.open(d) for d in run_dirs]))
    return sorted(zip(board.blocks["title"], board.blocks["papers"]))


def test_a_reviewers_alias_merges_the_name_on_every_paper_of_every_run_on_the_board(tmp_path: Path) -> None:
    a, b = runs(tmp_path)
    assert len(blocks(a, b)) == 2  # RelBench X (a1, a2) and SemEval-2010 Task 8 (b1)
    book = tmp_path / "review.xlsx"
    export_review(Run.open(a), book)
    edit(book, book, "Claims", claim_id(a, "a1", 84.2), benchmark_same_as="SemEval-2010 Task 8", metric_same_as="macro-F1")
    report = apply_review(book, Run.open(a), "alice")
    assert not report.refused
    with CorrectionStore(a / STORE_FILE) as db:
        kept = {(c.field, c.old_value, c.new_value, c.reviewer) for c in db.history()}
    assert ("benchmark_same_as", "RelBench X", "SemEval-2010 Task 8", "alice") in kept
    assert ("metric_same_as", "official score", "macro-F1", "alice") in kept
    # a2 was never edited and b1 is another run: the names merge for both.
    assert blocks(a, b) == [("SemEval-2010 Task 8 \u00b7 macro-F1 \u2191 (%)", 3)]
    board = build_leaderboard(*load_runs([Run.open(a), Run.open(b)]))
    assert set(board.scores["benchmark_as_written"].dropna()) == {"RelBench X"}  # the paper's words stay


def test_the_alias_shows_on_the_next_sheet_reapplying_changes_nothing_and_clearing_takes_it_back(tmp_path: Path) -> None:
    a, b = runs(tmp_path)
    book = tmp_path / "review.xlsx"
    export_review(Run.open(a), book)
    target = claim_id(a, "a1", 84.2)
    edit(book, book, "Claims", target, benchmark_same_as="SemEval-2010 Task 8")
    apply_review(book, Run.open(a), "alice")
    with CorrectionStore(a / STORE_FILE) as db:
        size = len(db.history())
    apply_review(book, Run.open(a), "alice")
    with CorrectionStore(a / STORE_FILE) as db:
        assert len(db.history()) == size
    again = tmp_path / "again.xlsx"
    export_review(Run.open(a), again)
    assert cell(again, "Claims", target, "benchmark_same_as") == "SemEval-2010 Task 8"
    edit(again, again, "Claims", target, benchmark_same_as=None)
    apply_review(again, Run.open(a), "bob")
    assert len(blocks(a, b)) == 2


def test_an_alias_for_a_name_the_claim_lacks_is_refused(tmp_path: Path) -> None:
    a, _ = runs(tmp_path)
    book = tmp_path / "review.xlsx"
    export_review(Run.open(a), book)
    edit(book, book, "Claims", claim_id(a, "a2", 12.5), benchmark_same_as="SemEval-2010 Task 8")
    report = apply_review(book, Run.open(a), "alice")
    assert len(report.refused) == 1
    assert report.refused[0].startswith("sheet Claims, row ") and "column benchmark_same_as" in report.refused[0]
    assert report.refused[0].endswith("this claim has no benchmark to merge; fill its benchmark first")


def test_the_sheet_suggests_a_registry_entry_for_an_unknown_benchmark(tmp_path: Path) -> None:
    text = "ResNet reaches 76.1% top-1 accuracy on ImagNet."
    run = tmp_path / "run"
    write_run(run, [result("p", text, [dict(value=76.1, unit="%", metric="top-1 accuracy", benchmark="ImagNet", method="ResNet", evidence=text)])], {"backend": "test"})
    book = tmp_path / "review.xlsx"
    export_review(Run.open(run), book)
    assert cell(book, "Claims", claim_id(run, "p", 76.1), "benchmark_suggested") == "ImageNet"
    assert len(blocks(run)) == 1 and blocks(run)[0][0].startswith("ImagNet")  # proposed, not merged


def test_reapplying_an_old_sheet_never_undoes_a_newer_alias(tmp_path: Path) -> None:
    a, _ = runs(tmp_path)
    first, second = tmp_path / "first.xlsx", tmp_path / "second.xlsx"
    export_review(Run.open(a), first)
    target = claim_id(a, "a1", 84.2)
    edit(first, first, "Claims", target, benchmark_same_as="SemEval-2010 Task 8")
    apply_review(first, Run.open(a), "alice")
    export_review(Run.open(a), second)
    edit(second, second, "Claims", target, benchmark_same_as="KBP37")
    apply_review(second, Run.open(a), "bob")
    apply_review(first, Run.open(a), "alice")  # alice's old sheet again
    third = tmp_path / "third.xlsx"
    export_review(Run.open(a), third)
    assert cell(third, "Claims", target, "benchmark_same_as") == "KBP37"


def test_an_alias_from_a_sheet_exported_before_anothers_is_a_conflict(tmp_path: Path) -> None:
    a, _ = runs(tmp_path)
    book, alice, bob = tmp_path / "review.xlsx", tmp_path / "alice.xlsx", tmp_path / "bob.xlsx"
    export_review(Run.open(a), book)
    target = claim_id(a, "a1", 84.2)
    edit(book, alice, "Claims", target, benchmark_same_as="SemEval-2010 Task 8")
    edit(book, bob, "Claims", target, benchmark_same_as="KBP37")
    apply_review(alice, Run.open(a), "alice")
    report = apply_review(bob, Run.open(a), "bob")
    [conflict] = report.field_conflicts
    assert (conflict.field, conflict.theirs, conflict.yours, conflict.by) == (
        "benchmark_same_as", "SemEval-2010 Task 8", "KBP37", "alice")
    with CorrectionStore(a / STORE_FILE) as db:
        assert [c.new_value for c in db.history() if c.field == "benchmark_same_as"] == ["SemEval-2010 Task 8"]
