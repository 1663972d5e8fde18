"""What a returned review workbook may hold that is not what a reviewer meant, or not a review
sheet at all: each is named in one line, never a traceback, and nothing of it passes unseen
(docs/faults.md, Review sheets)."""

from __future__ import annotations

import json
import re
import shutil
import zipfile
from pathlib import Path

import pytest
from openpyxl import load_workbook
from openpyxl.chart import BarChart
from typer.testing import CliRunner

from extractor.cli.app import app
from extractor.review import apply_review, export_review, load_reviewed
from extractor.review.sheet import MAX_NEW_ROWS
from extractor.runs import Run
from extractor.runs.files import STORE_FILE
from extractor.schema import ClaimDraft, ExtractionDraft
from tests.runs import write_run
from tests.test_review import claim_id, drafts, edit, history_size, letter, make_run, paper

runner = CliRunner()


@pytest.fixture
def run(tmp_path: Path) -> Path:
    return make_run(tmp_path / "run")


@pytest.fixture
def book(run: Path, tmp_path: Path) -> Path:
    out = tmp_path / "review.xlsx"
    export_review(Run.open(run), out)
    return out


def _apply(book: Path, run: Path, reviewer: str = "alice"):
    result = runner.invoke(app, ["review", "apply", str(book), str(run), "--reviewer", reviewer], env={"COLUMNS": "400"})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result


def _rewrite(book: Path, member: str, change) -> None:
    """Rewrite one part of the workbook's zip with ``change(text) -> text``."""
    with zipfile.ZipFile(book) as source:
        parts = {info.filename: source.read(info) for info in source.infolist()}
    parts[member] = change(parts[member].decode()).encode()
    with zipfile.ZipFile(book, "w", zipfile.ZIP_DEFLATED) as target:
        for name, data in parts.items():
            target.writestr(name, data)


def _set_base(book: Path, row_id: str, text: str) -> int:
    """Replace the hidden base of one Claims row by ``text``; its row number."""
    return edit(book, book, "Claims", row_id, base=text, decision="accept")


# --- the hidden base ---------------------------------------------------------------------


TAMPERED = {
    "a list": "[1,2]",
    "a number": "12",
    "values as a list": '{"id": "%s", "values": [1, 2]}',
    "values as a number": '{"id": "%s", "values": 7}',
    "a decision as a list": '{"id": "%s", "values": {}, "decision": ["accept"]}',
    "nested 30,000 deep": "[" * 30_000 + "]" * 30_000,
}


def test_a_tampered_hidden_base_refuses_its_row_in_one_line_and_the_others_apply(run: Path, book: Path) -> None:
    claims = [claim_id(run, "p1", v) for v in (83.6, 2.57, 9)] + [claim_id(run, "p2", v) for v in (3.2, 71.2, 1.9)]
    rows = {}
    for (case, text), row_id in zip(TAMPERED.items(), claims):
        rows[case] = _set_base(book, row_id, text % row_id if "%s" in text else text)
    result = _apply(book, run)
    assert result.exit_code == 1, result.output
    refused = [line for line in result.output.splitlines() if line.startswith("refused ")]
    assert sorted(refused) == sorted(
        f"refused sheet Claims, row {row}, column base ({letter('Claims', 'base')}): the hidden base column was altered; "
        "export the run again"
        for row in rows.values()
    )
    assert "refused 6" in result.output and history_size(run) == 0


# --- workbooks that are broken, or no review sheet --------------------------------------------


def test_a_broken_review_workbook_is_one_line_and_nothing_is_applied(run: Path, book: Path, tmp_path: Path) -> None:
    edit(book, book, "Claims", claim_id(run, "p1", 83.6), decision="reject")
    strings = tmp_path / "strings.xlsx"
    shutil.copy(book, strings)
    # A cell naming a shared string the workbook does not have (as a spreadsheet saves strings).
    _rewrite(strings, "xl/worksheets/sheet2.xml",
             lambda xml: re.sub(r'(<c r="A2"[^>]*) t="inlineStr"><is><t>[^<]*</t></is>', r'\g<1> t="s"><v>999999</v>', xml))
    truncated = tmp_path / "truncated.xlsx"
    shutil.copy(book, truncated)
    _rewrite(truncated, "xl/worksheets/sheet2.xml", lambda xml: xml[: len(xml) // 2])
    chart = tmp_path / "chart.xlsx"
    wb = load_workbook(book)
    index = wb.sheetnames.index("Claims")
    wb.remove(wb["Claims"])
    wb.create_chartsheet("Claims", index).add_chart(BarChart())
    wb.save(chart)
    for broken, why in ((strings, "IndexError"), (truncated, "Error"), (chart, "is a chart sheet, not the review rows")):
        result = _apply(broken, run)
        assert result.exit_code == 2, result.output
        (line,) = result.output.strip().splitlines()
        assert line.startswith(f"error: {broken}: ") and why in line and "nothing was applied" in line, line
    assert not (run / STORE_FILE).exists()


def test_a_renamed_review_sheet_is_named_and_nothing_is_applied(run: Path, book: Path) -> None:
    edit(book, book, "Claims", claim_id(run, "p1", 83.6), decision="reject")
    wb = load_workbook(book)
    wb["Claims"].title = "Claims (checked)"
    wb.save(book)
    result = _apply(book, run)
    assert result.exit_code == 2, result.output
    assert (
        f"error: {book}: sheet 'Claims (checked)' (named 'Claims' when exported) holds review rows under another "
        "name; a sheet is read by its name: give it back its name; nothing was applied"
    ) in " ".join(result.output.split())
    assert not (run / STORE_FILE).exists()


def test_a_leaderboard_or_an_unrelated_workbook_is_no_review_sheet(run: Path, tmp_path: Path) -> None:
    board = tmp_path / "leaderboard.xlsx"
    assert runner.invoke(app, ["leaderboard", str(run), "--out", str(board)]).exit_code == 0
    result = _apply(board, run)
    assert result.exit_code == 2, result.output
    assert (
        f"error: {board}: a leaderboard (extractor leaderboard's workbook), not a review sheet; export one with "
        "'extractor review export RUN_DIR --out review.xlsx'"
    ) in " ".join(result.output.split())
    other = tmp_path / "other.xlsx"
    wb = load_workbook(board)
    for name in wb.sheetnames[1:]:
        wb.remove(wb[name])
    wb.active.title = "Budget"
    wb.save(other)
    result = _apply(other, run)
    assert result.exit_code == 2 and "not a review sheet: none of its sheets ('Budget')" in result.output, result.output
    assert not (run / STORE_FILE).exists()


# --- what a round trip must keep ----------------------------------------------------------


def test_a_sheet_applied_back_untouched_records_nothing_and_control_characters_can_be_accepted(tmp_path: Path) -> None:
    """Spaces at the ends of a field and control characters (shown as symbols: XLSX cannot
    hold them) come back as exported; the claim whose evidence holds a vertical tab and an
    ESC can be accepted."""
    abstract = "TabNet reaches 91.5%\x0baccuracy on CIFAR-10.\x1b[31m It also cuts latency by 12 ms."
    draft = ExtractionDraft(claims=[
        ClaimDraft(value=91.5, unit="%", metric=" top-1  accuracy ", evidence="TabNet reaches 91.5%\x0baccuracy on CIFAR-10.\x1b[31m"),
        ClaimDraft(value=12, unit="ms", metric="latency", evidence="cuts latency by 12 ms"),
    ])
    run = write_run(tmp_path / "run", [paper("p1", drafts()["p1"]), paper("p9", draft, abstract)], {})
    book = tmp_path / "review.xlsx"
    export_review(Run.open(run), book)
    assert apply_review(book, Run.open(run), "alice").counts["applied"] == 0
    assert history_size(run) == 0
    first = claim_id(run, "p9", 91.5)
    edit(book, book, "Claims", first, decision="accept")
    report = apply_review(book, Run.open(run), "alice")
    assert report.refused == [] and report.counts["applied"] == 1 and report.decisions == {"accept": 1}
    _, marks = load_reviewed(Run.open(run))
    assert marks[first].decision == "accept" and set(marks[first].fields) == {"decision"}


def test_new_rows_past_the_bound_stop_the_apply_before_anything_is_recorded(run: Path, book: Path) -> None:
    wb = load_workbook(book)
    ws = wb["Claims"]
    header = {c.value: c.column for c in ws[1]}
    first = ws.max_row + 1
    for row in range(first, first + MAX_NEW_ROWS + 1):  # copies of one filled row
        for column, value in (("id", "new"), ("paper_id", "p2"), ("value", 13), ("evidence", "Llama-2-13B")):
            ws.cell(row, header[column]).value = value
    wb.save(book)
    result = _apply(book, run)
    assert result.exit_code == 2, result.output
    assert (
        f"sheet Claims has more than {MAX_NEW_ROWS:,} filled new rows, the most one sheet may add (copies of one row?); "
        "keep the ones meant, or split them over several sheets; nothing was applied"
    ) in " ".join(result.output.split())
    assert not (run / STORE_FILE).exists()


def test_copies_of_a_filled_new_row_add_their_item_once_or_are_a_conflict(run: Path, book: Path, tmp_path: Path) -> None:
    """A filled new row copied down adds one item (and the store holds it once); copies that
    give it different fields are a conflict, recorded nowhere."""
    other = tmp_path / "other.xlsx"
    rows = [edit(book, book, "Claims", "new", paper_id="p2", value=13, evidence="Llama-2-13B") for _ in range(5)]
    rows.append(edit(book, other, "Claims", "new", paper_id="p2", value=13, evidence="Llama-2-13B", metric="parameters"))
    report = apply_review(book, Run.open(run), "alice")
    assert report.counts["applied"] == 1 and history_size(run) == 1
    assert report.notes == [f"sheet Claims, row {r}: a copy of Claims!{rows[0]}, added once" for r in rows[1:5]]
    fresh = make_run(tmp_path / "fresh")
    report = apply_review(other, Run.open(fresh), "alice")
    assert report.counts["conflict"] == 6 and report.batch_id is None and history_size(fresh) == 0
    assert report.conflicts[0].endswith(
        f"Claims!{rows[0]}, Claims!{rows[1]}, Claims!{rows[2]} and 3 more add this one item and say different things; "
        "nothing of them recorded: keep one"
    )


def test_a_paper_new_row_adds_a_claim_with_only_its_value_and_evidence(run: Path, book: Path) -> None:
    """The new row under a paper's claims has its paper filled in: value and evidence are enough."""
    wb = load_workbook(book)
    ws = wb["Claims"]
    header = {c.value: c.column for c in ws[1]}
    row = next(r for r in range(2, ws.max_row + 1) if ws.cell(r, 1).value == "new" and ws.cell(r, header["paper_id"]).value == "p1")
    assert "27" in ws.cell(row, header["context"]).value  # 'numbers no claim holds: ... 27 ...'
    ws.cell(row, header["value"]).value = 27
    ws.cell(row, header["evidence"]).value = "On Qwen3.8-27B"
    wb.save(book)
    report = apply_review(book, Run.open(run), "alice")
    assert report.counts["applied"] == 1 and report.refused == []
    papers, _ = load_reviewed(Run.open(run))
    assert 27 in [c.value for p in papers if p.id == "p1" for c in p.extraction.claims]


# --- what passed unseen -----------------------------------------------------------------------


def test_an_edit_in_a_grey_column_and_a_deleted_row_are_named(run: Path, book: Path) -> None:
    acc, speed = claim_id(run, "p1", 83.6), claim_id(run, "p1", 2.57)
    row = edit(book, book, "Claims", acc, context="GANQ reaches 84.0% accuracy", title="GANQ v2", metric="EM accuracy")
    items = edit(book, book, "Items", "p1/model/qwen3827b", aliases="Qwen")  # aliases are a method's
    wb = load_workbook(book)
    ws = wb["Claims"]
    ws.delete_rows(next(r for r in range(2, ws.max_row + 1) if ws.cell(r, 1).value == speed))
    wb.save(book)
    result = _apply(book, run)
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    for sheet, at, column in (("Claims", row, "title"), ("Claims", row, "context"), ("Items", items, "aliases")):
        assert (
            f"sheet {sheet}, row {at}, column {column} ({letter(sheet, column)}): the column is grey (read-only), "
            "so the edit in it is not applied"
        ) in said
    assert (
        f"sheet Claims: 1 exported rows are not in it (deleted?): {speed}; deleting a row changes nothing: "
        "to take an item out, choose reject"
    ) in said
    papers, _ = load_reviewed(Run.open(run))
    claims = {c.id: c for p in papers for c in p.extraction.claims}
    assert claims[acc].metric == "EM accuracy" and speed in claims  # the white column applied, the deleted row kept


def test_a_fresh_export_and_its_manifest_hold_every_row(run: Path, book: Path) -> None:
    wb = load_workbook(book)
    listed = [tuple(r) for r in wb["exported"].iter_rows(min_row=2, values_only=True)]
    rows = [(name, wb[name].cell(r, 1).value) for name in ("Claims", "Items", "Papers")
            for r in range(2, wb[name].max_row + 1) if wb[name].cell(r, 1).value != "new"]
    assert listed == rows and len(rows) == 6 + 6 + 2
    assert json.loads(wb["Claims"].cell(2, len(wb["Claims"][1])).value)["grey"]  # read-only cells fingerprinted
