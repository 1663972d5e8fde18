"""The review core that the sheet and the page share: what a reviewer meant is what is
recorded, and what would otherwise pass unseen is named (each case once silent)."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook

from extractor.grounding import ground
from extractor.review import apply_review, export_review, load_reviewed, load_state
from extractor.review.apply import view_of
from extractor.review.record import clear_names, decide, undo
from extractor.runs import Run
from extractor.runs.corrections import CorrectionStore
from extractor.runs.files import STORE_FILE
from extractor.schema import ClaimDraft, ExtractionDraft, Method, Model, PaperResult
from tests.runs import write_run
from tests.test_review import claim_id, claims_of, edit, make_run

WORDS = (
    "We present FooNet, built on LLaMA-2, which runs three times faster than BarNet. "
    "FooNet reaches 88.5 F1 on SQuAD 2.0 with 1/2 of the data and 71.0 top-1 accuracy on ImageNet."
)


@pytest.fixture
def run(tmp_path: Path) -> Path:
    return make_run(tmp_path / "run")


@pytest.fixture
def book(run: Path, tmp_path: Path) -> Path:
    out = tmp_path / "review.xlsx"
    export_review(Run.open(run), out)
    return out


@pytest.fixture
def words_run(tmp_path: Path) -> Path:
    draft = ExtractionDraft(
        methods=[Method(name="FooNet"), Method(name="BarNet", proposed=False)],
        models=[Model(name="LLaMA-2")],
        claims=[
            ClaimDraft(value=88.5, metric="F1", benchmark="SQuAD 2.0", model="LLaMA-2", setting="1/2",
                       evidence="FooNet reaches 88.5 F1 on SQuAD 2.0 with 1/2 of the data"),
            ClaimDraft(value=71.0, metric="top-1 accuracy", benchmark="ImageNet", method="BarNet",
                       evidence="71.0 top-1 accuracy on ImageNet"),
        ],
    )
    extraction, rejected = ground(draft, WORDS, "w1")
    paper = PaperResult(id="w1", title="FooNet", status="ok", abstract=WORDS, extraction=extraction, rejected=rejected)
    run_dir = tmp_path / "words"
    write_run(run_dir, [paper], {"backend": "test"})
    return run_dir


def export(run_dir: Path, tmp_path: Path, name: str = "sheet.xlsx") -> Path:
    out = tmp_path / name
    export_review(Run.open(run_dir), out)
    return out


def rows(run_dir: Path, field: str | None = None) -> list:
    with CorrectionStore(run_dir / STORE_FILE) as db:
        return [c for c in db.history() if field is None or c.field == field]


def view(run_dir: Path, item_id: str) -> dict:
    state = load_state(Run.open(run_dir))
    target = state.targets[item_id]
    paper = next(p for p in state.papers if p.id == target.target.paper_id)
    return view_of(target, paper.abstract)


def copy_row(book: Path, out: Path, sheet: str, row_id: str, **cells: object) -> None:
    """Copy a row (hidden base and all) below the last one, as a reviewer copies a row, then
    set some of the copy's cells."""
    wb = load_workbook(book)
    ws = wb[sheet]
    header = {c.value: c.column for c in ws[1]}
    source = next(r for r in range(2, ws.max_row + 1) if ws.cell(r, 1).value == row_id)
    target = ws.max_row + 1
    for column in range(1, ws.max_column + 1):
        ws.cell(target, column).value = ws.cell(source, column).value
    for column, value in cells.items():
        ws.cell(target, header[column]).value = value
    wb.save(out)


# --- the sheet's silent mistakes, each named now --------------------------------------------


def test_accept_with_an_edited_field_is_recorded_as_an_edit_not_both(run: Path, book: Path, tmp_path: Path) -> None:
    acc = claim_id(run, "p1", 83.6)
    sheet = tmp_path / "a.xlsx"
    edit(book, sheet, "Claims", acc, metric="EM accuracy", decision="accept")
    report = apply_review(sheet, Run.open(run), "alice")
    assert [c.new_value for c in rows(run, "decision")] == ["edit"]
    assert any("'accept' with changed fields is recorded as 'edit'" in n for n in report.notes)


def test_a_copied_row_saying_two_things_is_a_conflict_and_records_neither(run: Path, book: Path, tmp_path: Path) -> None:
    acc = claim_id(run, "p1", 83.6)
    sheet = tmp_path / "copied.xlsx"
    edit(book, sheet, "Claims", acc, metric="EM accuracy", decision="accept")
    copy_row(sheet, sheet, "Claims", acc, metric="accuracy", decision="reject")
    report = apply_review(sheet, Run.open(run), "alice")
    assert report.counts["conflict"] == 2 and len(report.conflicts) == 2
    assert "copies of one row that say different things" in report.conflicts[0]
    assert not (run / STORE_FILE).exists() or [c for c in rows(run) if c.target_id == acc] == []


def test_an_identical_copy_of_a_row_is_recorded_once(run: Path, book: Path, tmp_path: Path) -> None:
    acc = claim_id(run, "p1", 83.6)
    sheet = tmp_path / "copied.xlsx"
    edit(book, sheet, "Claims", acc, decision="reject")
    copy_row(sheet, sheet, "Claims", acc)
    report = apply_review(sheet, Run.open(run), "alice")
    assert report.counts["applied"] == 1 and report.conflicts == []
    assert [c.new_value for c in rows(run, "decision")] == ["reject"]


def test_a_value_moved_onto_another_claims_number_is_refused_naming_it(run: Path, book: Path, tmp_path: Path) -> None:
    memory, mmlu = claim_id(run, "p2", 3.2), claim_id(run, "p2", 71.2)
    sheet = tmp_path / "v.xlsx"
    edit(book, sheet, "Claims", memory, value=71.2, unit="%", evidence="cuts memory to 3.2 GiB and reaches 71.2% on MMLU")
    report = apply_review(sheet, Run.open(run), "alice")
    [message] = report.refused
    assert f"is claim {mmlu}'s" in message and "column value" in message
    assert report.batch_id is None


def test_a_setting_edit_that_moves_a_score_to_another_block_says_so(run: Path, book: Path, tmp_path: Path) -> None:
    acc = claim_id(run, "p1", 83.6)
    sheet = tmp_path / "s.xlsx"
    edit(book, sheet, "Claims", acc, setting="5-shot")
    report = apply_review(sheet, Run.open(run), "alice")
    assert report.counts["applied"] == 1
    assert any("moves this score to another block" in n for n in report.notes)


def test_rejecting_a_name_claims_carry_names_them_and_they_can_be_cleared(words_run: Path, tmp_path: Path) -> None:
    sheet = export(words_run, tmp_path)
    edit(sheet, sheet, "Items", "w1/method/barnet", decision="reject")
    report = apply_review(sheet, Run.open(words_run), "alice")
    imagenet = next(c.id for c in load_reviewed(Run.open(words_run))[0][0].extraction.claims if c.value == 71.0)
    [offer] = report.offers
    assert (offer.claim_id, offer.field, offer.name) == (imagenet, "method", "BarNet")
    assert any("claims still name it" in n and imagenet in n for n in report.notes)
    cleared = clear_names(Run.open(words_run), "alice", report.offers, "page:test")
    assert cleared.counts["applied"] == 1
    papers, _ = load_reviewed(Run.open(words_run))
    assert claims_of(papers, "w1")[imagenet].method is None


def test_a_claim_whose_number_is_a_word_can_be_added(words_run: Path, tmp_path: Path) -> None:
    sheet = export(words_run, tmp_path)
    edit(sheet, sheet, "Claims", "new", paper_id="w1", value=3, unit="x", kind="change", evidence="runs three times faster than BarNet")
    report = apply_review(sheet, Run.open(words_run), "alice")
    assert report.refused == [] and report.counts["applied"] == 1
    papers, _ = load_reviewed(Run.open(words_run))
    [added] = [c for c in papers[0].extraction.claims if c.value == 3]
    assert WORDS[slice(*added.value_span)] == "three"


def test_a_name_the_abstract_writes_otherwise_is_refused_with_its_spelling(words_run: Path, tmp_path: Path) -> None:
    sheet = export(words_run, tmp_path)
    imagenet = next(c.id for c in load_reviewed(Run.open(words_run))[0][0].extraction.claims if c.value == 71.0)
    edit(sheet, sheet, "Claims", imagenet, benchmark="SQuAD v2.0")
    [message] = apply_review(sheet, Run.open(words_run), "alice").refused
    assert "'SQuAD v2.0' does not occur" in message and "it writes 'SQuAD 2.0'" in message


def test_a_new_row_matching_an_existing_claim_is_refused_not_turned_into_an_edit(run: Path, book: Path, tmp_path: Path) -> None:
    acc = claim_id(run, "p1", 83.6)
    sheet = tmp_path / "n.xlsx"
    edit(book, sheet, "Claims", "new", paper_id="p1", value=83.6, unit="%", metric="EM", evidence="GANQ reaches 83.6% accuracy")
    report = apply_review(sheet, Run.open(run), "alice")
    [message] = report.refused
    assert f"already in the run as {acc}" in message
    papers, _ = load_reviewed(Run.open(run))
    assert claims_of(papers, "p1")[acc].metric == "accuracy"


@pytest.mark.parametrize(
    ("column", "typed", "kept"),
    [("model", "LlaMA-2", "LLaMA-2"), ("setting", "\u00bd", "1/2"), ("metric", "Top-1 accuracy", "top-1 accuracy")],
)
def test_autocorrect_changes_are_kept_out_of_the_outputs(words_run: Path, tmp_path: Path, column, typed, kept) -> None:
    sheet = export(words_run, tmp_path)
    claims = load_reviewed(Run.open(words_run))[0][0].extraction.claims
    claim = next(c for c in claims if getattr(c, column) == kept)
    edit(sheet, sheet, "Claims", claim.id, **{column: typed})
    report = apply_review(sheet, Run.open(words_run), "alice")
    assert report.batch_id is None and any("only as AutoCorrect changes text" in n for n in report.notes)
    papers, _ = load_reviewed(Run.open(words_run))
    assert getattr(claims_of(papers, "w1")[claim.id], column) == kept


def test_a_typed_name_in_another_case_than_the_text_is_refused_unless_confirmed(words_run: Path) -> None:
    claims = load_reviewed(Run.open(words_run))[0][0].extraction.claims
    imagenet = next(c for c in claims if c.value == 71.0)
    ask = dict(kind="claim", item_id=imagenet.id, paper_id="w1", fields={"model": "llama-2"})
    refused = decide(Run.open(words_run), "alice", view=view(words_run, imagenet.id), **ask)
    [problem] = [p for o in refused.outcomes for p in o.problems]
    assert problem.field == "model" and "written 'LLaMA-2'" in problem.message
    confirmed = decide(Run.open(words_run), "alice", view=view(words_run, imagenet.id), confirm=True, **ask)
    assert confirmed.counts["applied"] == 1


def test_a_cell_of_spaces_keeps_the_field(run: Path, book: Path, tmp_path: Path) -> None:
    acc = claim_id(run, "p1", 83.6)
    sheet = tmp_path / "sp.xlsx"
    edit(book, sheet, "Claims", acc, metric=" ")
    report = apply_review(sheet, Run.open(run), "alice")
    assert report.batch_id is None and any("only spaces" in n for n in report.notes)
    papers, _ = load_reviewed(Run.open(run))
    assert claims_of(papers, "p1")[acc].metric == "accuracy"


def test_a_decision_from_a_sheet_exported_before_anothers_is_a_conflict(run: Path, book: Path, tmp_path: Path) -> None:
    acc = claim_id(run, "p1", 83.6)
    alice, bob = tmp_path / "alice.xlsx", tmp_path / "bob.xlsx"
    edit(book, alice, "Claims", acc, decision="reject")
    edit(book, bob, "Claims", acc, decision="accept")
    apply_review(bob, Run.open(run), "bob")
    report = apply_review(alice, Run.open(run), "alice")
    [conflict] = report.field_conflicts
    assert (conflict.field, conflict.theirs, conflict.yours, conflict.by) == ("decision", "accept", "reject", "bob")
    assert load_state(Run.open(run)).targets[acc].decision == "accept"


def test_an_accept_of_an_item_another_reviewer_accepted_is_recorded(run: Path, book: Path, tmp_path: Path) -> None:
    acc = claim_id(run, "p1", 83.6)
    for reviewer in ("alice", "bob"):
        sheet = tmp_path / f"{reviewer}.xlsx"
        edit(book, sheet, "Claims", acc, decision="accept")
        assert apply_review(sheet, Run.open(run), reviewer).counts["applied"] == 1
    assert [(c.reviewer, c.new_value) for c in rows(run, "decision")] == [("alice", "accept"), ("bob", "accept")]
    sheet = tmp_path / "bob.xlsx"
    assert apply_review(sheet, Run.open(run), "bob").batch_id is None  # the same sheet again: nothing


# --- the page's path -------------------------------------------------------------------------


def test_an_accept_on_the_page_is_stored_even_when_nothing_changed(run: Path) -> None:
    acc = claim_id(run, "p1", 83.6)
    for reviewer in ("alice", "alice", "bob"):
        decide(Run.open(run), reviewer, kind="claim", item_id=acc, paper_id="p1", view=view(run, acc), decision="accept")
    assert [c.reviewer for c in rows(run, "decision")] == ["alice", "bob"]


def test_a_change_from_a_stale_view_returns_both_values_and_records_nothing(run: Path) -> None:
    acc = claim_id(run, "p1", 83.6)
    seen = view(run, acc)  # two tabs show the claim
    first = decide(Run.open(run), "alice", kind="claim", item_id=acc, paper_id="p1", view=seen, fields={"metric": "EM accuracy"})
    assert first.counts["applied"] == 1
    later = decide(Run.open(run), "bob", kind="claim", item_id=acc, paper_id="p1", view=seen, fields={"metric": "top-1 accuracy"})
    [conflict] = later.field_conflicts
    assert (conflict.seen, conflict.theirs, conflict.yours, conflict.by) == ("accuracy", "EM accuracy", "top-1 accuracy", "alice")
    stale_accept = decide(Run.open(run), "bob", kind="claim", item_id=acc, paper_id="p1", view=seen, decision="accept")
    assert stale_accept.field_conflicts[0].theirs == "EM accuracy"
    assert [c.new_value for c in rows(run, "metric")] == ["EM accuracy"]
    # Chosen from the current view, bob's value is recorded.
    chosen = decide(Run.open(run), "bob", kind="claim", item_id=acc, paper_id="p1", view=view(run, acc), fields={"metric": "top-1 accuracy"})
    assert chosen.counts["applied"] == 1


def test_undo_takes_back_the_last_decision_as_new_rows(run: Path) -> None:
    acc, speed = claim_id(run, "p1", 83.6), claim_id(run, "p1", 2.57)
    page = Run.open(run)
    decide(page, "alice", kind="claim", item_id=acc, paper_id="p1", view=view(run, acc), fields={"metric": "EM accuracy"})
    decide(page, "alice", kind="claim", item_id=speed, paper_id="p1", view=view(run, speed), decision="reject")
    before = len(rows(run))
    assert undo(page, "alice").counts["applied"] == 1
    state = load_state(page)
    assert state.targets[speed].decision is None and state.targets[acc].values["metric"] == "EM accuracy"
    assert undo(page, "alice").counts["applied"] == 1
    assert load_state(page).targets[acc].values["metric"] == "accuracy"
    assert len(rows(run)) == before + 3  # nothing deleted: undo is new rows
    assert undo(page, "alice").batch_id is None  # nothing left to take back


def test_undo_of_an_added_claim_removes_it(run: Path) -> None:
    page = Run.open(run)
    added = decide(page, "alice", kind="claim", item_id=None, paper_id="p1", view=None,
                   fields={"value": 27, "evidence": "On Qwen3.8-27B", "metric": "model size"})
    new_id = added.written[0].target_id
    assert new_id in claims_of(load_reviewed(page)[0], "p1")
    undo(page, "alice")
    assert new_id not in claims_of(load_reviewed(page)[0], "p1")


def test_undo_does_not_take_back_what_another_reviewer_changed_since(run: Path) -> None:
    acc = claim_id(run, "p1", 83.6)
    page = Run.open(run)
    decide(page, "alice", kind="claim", item_id=acc, paper_id="p1", view=view(run, acc), fields={"metric": "EM accuracy"})
    decide(page, "bob", kind="claim", item_id=acc, paper_id="p1", view=view(run, acc), fields={"metric": "exact match"})
    report = undo(page, "alice")
    assert report.batch_id is None and report.field_conflicts[0].theirs == "exact match"
    assert load_state(page).targets[acc].values["metric"] == "exact match"
