"""The review round trip: export a run to a workbook, edit it as a reviewer would, apply it.

The run is hand-made (grounded drafts over two abstracts) so the tests do not move when the
rules extractor improves.
"""

from __future__ import annotations

import csv
import datetime
import json
import re
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from openpyxl import load_workbook
from openpyxl.cell.rich_text import TextBlock
from openpyxl.utils import get_column_letter
from typer.testing import CliRunner

from extractor.runs import Run
from extractor.cli.app import app
from extractor.eval.score import evaluate, read_gold
from extractor.grounding import ground
from tests.runs import read_papers, write_run
from extractor.review import (
    apply_review,
    export_review,
    load_reviewed,
    load_state,
    review_status,
)
from extractor.eval.reviewed_gold import export_gold
from extractor.runs.corrections import CorrectionStore
from extractor.runs.files import STORE_FILE
from extractor.schema import (
    Benchmark,
    ClaimDraft,
    ExtractionDraft,
    Method,
    Model,
    PaperResult,
)

GANQ = (
    "We propose GANQ (GPU-Adaptive Non-Uniform Quantization), a framework for LLMs. "
    "On Qwen3.8-27B, GANQ reaches 83.6% accuracy on GSM8K and achieves up to 2.57times "
    "speedup over the FP16 baseline, with 9--34 accuracy points of gain."
)
SQUEEZE = (
    "=cmd|' /C calc'!A0 is not a formula here. SqueezeLLM cuts memory to 3.2 GiB and reaches "
    "71.2% on MMLU with Llama-2-13B, running 1.9x faster than AWQ."
)


def drafts() -> dict[str, ExtractionDraft]:
    return {
        "p1": ExtractionDraft(
            methods=[Method(name="GANQ", aliases=["GPU-Adaptive Non-Uniform Quantization"])],
            models=[Model(name="Qwen3.8-27B", params_b=27)],
            benchmarks=[Benchmark(name="GSM8K")],
            claims=[
                ClaimDraft(value=83.6, unit="%", metric="accuracy", benchmark="GSM8K", evidence="GANQ reaches 83.6% accuracy on GSM8K"),
                ClaimDraft(value=2.57, unit="x", metric="speedup", kind="change", direction="increase", evidence="up to 2.57times speedup"),
                ClaimDraft(value=9, value_max=34, unit="points", evidence="9--34 accuracy points of gain"),
            ],
        ),
        "p2": ExtractionDraft(
            methods=[Method(name="SqueezeLLM")],
            models=[Model(name="Llama-2-13B", params_b=13)],
            benchmarks=[Benchmark(name="MMLU")],
            claims=[
                ClaimDraft(value=3.2, unit="GiB", metric="memory", evidence="cuts memory to 3.2 GiB"),
                ClaimDraft(value=71.2, unit="%", benchmark="MMLU", evidence="reaches 71.2% on MMLU"),
                ClaimDraft(value=1.9, unit="x", kind="change", baseline="AWQ", evidence="1.9x faster than AWQ"),
            ],
        ),
    }


ABSTRACTS = {"p1": GANQ, "p2": SQUEEZE}
TITLES = {"p1": "GANQ: quantization", "p2": "=HYPERLINK(\"http://evil\") SqueezeLLM"}


def paper(paper_id: str, draft: ExtractionDraft, abstract: str | None = None) -> PaperResult:
    abstract = abstract or ABSTRACTS[paper_id]
    extraction, rejected = ground(draft, abstract, paper_id)
    return PaperResult(
        id=paper_id, title=TITLES.get(paper_id), status="ok", abstract=abstract,
        extraction=extraction, rejected=rejected,
    )


def make_run(run_dir: Path, changes: dict[str, ExtractionDraft] | None = None, failed: bool = False) -> Path:
    """Write a run; ``changes`` replaces some papers' drafts (as a re-extraction would)."""
    results = [paper(pid, (changes or {}).get(pid, draft)) for pid, draft in drafts().items()]
    if failed:
        results.append(PaperResult(id="p3", title="broken", status="failed", error="BackendError: timeout", abstract="Some text."))
    write_run(run_dir, results, {"backend": "test"})
    return run_dir


def claim_id(run_dir: Path, paper_id: str, value: float) -> str:
    for result in read_papers(run_dir):
        if result.id == paper_id:
            return next(c.id for c in result.extraction.claims if c.value == value)
    raise KeyError(value)


def edit(book: Path, out: Path, sheet: str, row_id: str, **cells: object) -> int:
    """Set cells (by column header) of the row whose id is ``row_id`` ('new': the first blank
    new row of any paper, at the sheet's foot); returns the row number."""
    wb = load_workbook(book)
    ws = wb[sheet]
    header = {c.value: c.column for c in ws[1]}
    if row_id == "new":
        blank = header["paper_id"]
        row = next(r for r in range(2, ws.max_row + 1) if ws.cell(r, 1).value == "new" and ws.cell(r, blank).value is None)
    else:
        row = next(r for r in range(2, ws.max_row + 1) if ws.cell(r, 1).value == row_id)
    for column, value in cells.items():
        ws.cell(row, header[column]).value = value
    wb.save(out)
    return row


def letter(sheet: str, column: str) -> str:
    """The letter of a column of the review workbook, as refusals name it."""
    from extractor.review.sheet import SHEETS

    return get_column_letter([c.name for c in SHEETS[sheet]].index(column) + 1)


def cell(book: Path, sheet: str, row_id: str, column: str) -> object:
    wb = load_workbook(book)
    ws = wb[sheet]
    header = {c.value: c.column for c in ws[1]}
    row = next(r for r in range(2, ws.max_row + 1) if ws.cell(r, 1).value == row_id)
    return ws.cell(row, header[column]).value


@pytest.fixture
def run(tmp_path: Path) -> Path:
    return make_run(tmp_path / "run")


@pytest.fixture
def book(run: Path, tmp_path: Path) -> Path:
    out = tmp_path / "review.xlsx"
    export_review(Run.open(run), out)
    return out


def history_size(run: Path) -> int:
    with CorrectionStore(run / STORE_FILE) as db:
        return len(db.history())


def claims_of(papers, paper_id: str) -> dict[str, object]:
    return {c.id: c for p in papers if p.id == paper_id for c in p.extraction.claims}


# --- the workbook ---------------------------------------------------------------------------


def test_export_has_a_row_per_item_grey_columns_dropdowns_and_new_rows(run: Path, book: Path) -> None:
    wb = load_workbook(book)
    assert wb.sheetnames == ["Read me", "Claims", "Items", "Papers", "exported"]
    assert wb["exported"].sheet_state == "hidden"  # the rows each sheet was exported with
    claims = wb["Claims"]
    header = [c.value for c in claims[1]]
    ids = [claims.cell(r, 1).value for r in range(2, claims.max_row + 1)]
    # Each paper's claims, then a new row for a claim it missed; blank new rows at the foot.
    assert ids[:8] == [claim_id(run, "p1", 83.6), claim_id(run, "p1", 2.57), claim_id(run, "p1", 9), "new",
                       claim_id(run, "p2", 3.2), claim_id(run, "p2", 71.2), claim_id(run, "p2", 1.9), "new"]
    assert ids[8:] == ["new"] * 20
    # Not protected: no spreadsheet sorts a protected range with locked cells. Read-only is grey.
    assert not claims.protection.sheet and claims.auto_filter.ref == f"A1:{claims.cell(1, len(header)).column_letter}29"
    row = {h: claims.cell(2, i + 1) for i, h in enumerate(header)}
    assert row["id"].fill.fgColor.rgb.endswith("E7E6E6") and row["context"].fill.fgColor.rgb.endswith("E7E6E6")
    assert row["metric"].fill.fgColor.rgb == row["decision"].fill.fgColor.rgb == "00000000"
    assert claims.column_dimensions[row["base"].column_letter].hidden
    # Text columns are formatted as text (what is typed stays text); numbers stay numbers.
    assert {h: row[h].number_format for h in ("id", "paper_id", "evidence", "setting", "baseline", "value", "value_max")} == {
        "id": "@", "paper_id": "@", "evidence": "@", "setting": "@", "baseline": "@", "value": "General", "value_max": "General"}
    new = {h: claims.cell(5, i + 1) for i, h in enumerate(header)}
    assert new["id"].value == "new" and new["paper_id"].number_format == new["setting"].number_format == "@"
    # Ids are never cut: the id column fits the longest id.
    assert claims.column_dimensions["A"].width >= len(ids[0]) + 2
    items = wb["Items"]
    longest = max(len(str(items.cell(r, 1).value)) for r in range(2, items.max_row + 1))
    assert items.column_dimensions["A"].width >= longest + 2
    validations = {str(v.sqref): v.formula1 for v in claims.data_validations.dataValidation}
    decision_letter = row["decision"].column_letter
    assert validations[f"{decision_letter}2:{decision_letter}29"] == '"accept,reject,edit"'
    assert row["title"].value == "GANQ: quantization" and row["title"].fill.fgColor.rgb.endswith("E7E6E6")
    assert row["proposed"].fill.fgColor.rgb == "00000000"
    assert validations[f"{row['proposed'].column_letter}2:{row['proposed'].column_letter}29"] == '"yes,no"'
    item_header = [c.value for c in items[1]]
    kinds = [items.cell(r, item_header.index("kind") + 1).value for r in range(2, 8)]
    assert kinds == ["method", "model", "benchmark"] * 2
    assert [items.cell(r, 1).value for r in range(2, 4)] == ["p1/method/ganq", "p1/model/qwen3827b"]
    papers = wb["Papers"]
    assert [papers.cell(r, 1).value for r in range(2, papers.max_row + 1)] == ["p1", "p2"]


def test_the_decision_is_frozen_beside_the_value_and_the_evidence(book: Path) -> None:
    """Whatever a reviewer scrolls to, the id, the evidence, the value and the decision stay on
    screen: they are the first columns, and the panes are frozen right of the decision."""
    wb = load_workbook(book)
    first = {"Claims": ["id", "evidence", "value", "decision"], "Items": ["id", "kind", "name", "decision"],
             "Papers": ["id", "decision"]}
    for name, columns in first.items():
        ws = wb[name]
        assert [c.value for c in ws[1]][: len(columns)] == columns
        assert ws.freeze_panes == f"{get_column_letter(len(columns) + 1)}2"
    # On a 1920 px screen the frozen columns leave room for the fields beside them.
    claims = wb["Claims"]
    header = [c.value for c in claims[1]]
    shown = header[: header.index("setting") + 1]
    assert sum(claims.column_dimensions[get_column_letter(i + 1)].width for i in range(len(shown))) * 7.5 < 1800


def test_the_number_is_bold_in_its_evidence_its_context_and_its_abstract(run: Path, book: Path) -> None:
    """Claims that share one evidence differ by their number: it is bold where the evidence
    writes it, in the evidence, in the context around it (the evidence in red) and in the whole
    abstract on the Papers sheet."""
    wb = load_workbook(book, rich_text=True)
    claims = wb["Claims"]
    header = [c.value for c in claims[1]]
    rows = {claims.cell(r, 1).value: r for r in range(2, claims.max_row + 1)}

    def bold(row_id: str, column: str) -> list[str]:
        value = claims.cell(rows[row_id], header.index(column) + 1).value
        return [block.text for block in value if isinstance(block, TextBlock) and block.font.b]

    assert bold(claim_id(run, "p1", 83.6), "evidence") == ["83.6"]
    assert bold(claim_id(run, "p1", 9), "evidence") == ["9--34"]
    assert bold(claim_id(run, "p1", 83.6), "context") == ["83.6"]
    context = claims.cell(rows[claim_id(run, "p1", 2.57)], header.index("context") + 1).value
    red = "".join(b.text for b in context if isinstance(b, TextBlock) and b.font.color is not None)
    assert red == "up to 2.57times speedup"
    papers = wb["Papers"]
    abstract = papers.cell(2, [c.value for c in papers[1]].index("abstract") + 1).value
    assert str(abstract) == GANQ
    assert [b.text for b in abstract if isinstance(b, TextBlock) and b.font.b] == ["83.6", "2.57", "9--34"]
    # Read back as plain text: an untouched evidence is no edit.
    assert apply_review(book, Run.open(run), "alice").counts["applied"] == 0


def test_rows_are_as_tall_as_their_text_and_an_abstract_is_never_cut(tmp_path: Path) -> None:
    """Every row fits its wrapped text (one line when it has none), the Papers sheet's to the
    whole abstract: its column widens until the longest abstract fits the tallest row."""
    from extractor.review.fit import LINE_POINTS, MAX_ROW_POINTS, line_count

    long = " ".join([GANQ] * 20)  # about 4,800 characters
    run = tmp_path / "run"
    write_run(run, [paper("p1", drafts()["p1"]), paper("p2", drafts()["p2"], SQUEEZE + " " + long)], {})
    book = tmp_path / "review.xlsx"
    export_review(Run.open(run), book)
    wb = load_workbook(book)
    papers = wb["Papers"]
    header = [c.value for c in papers[1]]
    width = papers.column_dimensions[get_column_letter(header.index("abstract") + 1)].width
    for row in (2, 3):
        abstract = str(papers.cell(row, header.index("abstract") + 1).value)
        lines = line_count(abstract, width)
        assert papers.row_dimensions[row].height == lines * LINE_POINTS <= MAX_ROW_POINTS
    assert width > 130 and line_count(SQUEEZE + " " + long, 130) * LINE_POINTS > MAX_ROW_POINTS
    claims = wb["Claims"]
    wrapped = [i + 1 for i, c in enumerate(claims[1]) if c.alignment.wrap_text or claims.cell(2, i + 1).alignment.wrap_text]
    assert {claims.cell(1, i).value for i in wrapped} >= {"evidence", "context", "metric", "note"}
    for row in range(2, claims.max_row + 1):
        needed = [line_count(str(text), claims.column_dimensions[get_column_letter(i)].width)
                  for i in wrapped if (text := claims.cell(row, i).value)]
        assert claims.row_dimensions[row].height == max(needed, default=1) * LINE_POINTS


def test_a_context_cuts_no_word_and_says_where_it_is_cut() -> None:
    from extractor.review.sheet import _window

    text = " ".join(f"word{i}" for i in range(200))
    start = text.index("word100")
    shown = str(_window(text, (start, start + len("word100"))))
    assert shown.startswith("…") and shown.endswith("…") and "word100" in shown
    assert all(re.fullmatch(r"…?word\d+…?", w) for w in shown.split())
    head = str(_window(text, None))  # the evidence not found: the abstract's start
    assert head.startswith("word0 ") and head.endswith("…") and all(re.fullmatch(r"word\d+…?", w) for w in head.split())


def test_a_line_count_breaks_at_spaces_and_inside_a_word_wider_than_the_cell() -> None:
    from extractor.review.fit import line_count

    assert line_count("", 10) == line_count("short", 10) == 1
    assert line_count("one\ntwo\nthree", 40) == 3
    assert line_count("word " * 40, 20) > line_count("word " * 40, 40) > 1
    assert 1 < line_count("x" * 200, 10) and line_count("x" * 400, 10) >= 2 * line_count("x" * 200, 10) - 1


def test_export_neutralizes_formula_text_and_reads_it_back(tmp_path: Path) -> None:
    run = tmp_path / "run"
    write_run(run, [paper("p1", drafts()["p1"]).model_copy(update={"id": "=1+1"}), paper("p2", drafts()["p2"])], {})
    book = tmp_path / "review.xlsx"
    export_review(Run.open(run), book)
    papers = load_workbook(book)["Papers"]
    header = [c.value for c in papers[1]]
    assert [papers.cell(r, 1).value for r in (2, 3)] == ["=1+1", "p2"]
    title = papers.cell(3, header.index("title") + 1)
    abstract = papers.cell(3, header.index("abstract") + 1)
    assert title.value.startswith("=HYPERLINK") and abstract.value.startswith("=cmd")
    assert title.quotePrefix and abstract.quotePrefix and papers.cell(2, 1).quotePrefix
    assert not any(c.data_type == "f" for row in papers.iter_rows() for c in row)
    # The id comes back as it was written: it still names its paper.
    edit(book, book, "Papers", "=1+1", decision="accept")
    assert apply_review(book, Run.open(run), "alice").counts["applied"] == 1
    assert load_reviewed(Run.open(run))[1]["=1+1"].decision == "accept"


# --- round trip -----------------------------------------------------------------------------


def test_round_trip_edit_reject_add_then_reexport_shows_the_corrections(run: Path, book: Path, tmp_path: Path) -> None:
    acc, speed = claim_id(run, "p1", 83.6), claim_id(run, "p1", 2.57)
    edited = tmp_path / "edited.xlsx"
    edit(book, edited, "Claims", acc, metric="exact-match accuracy", note="EM, per the paper")
    edit(edited, edited, "Claims", speed, decision="reject")
    edit(edited, edited, "Claims", "new", paper_id="p1", value=27, evidence="On Qwen3.8-27B", metric="model size")
    edit(edited, edited, "Items", "p2/benchmark/mmlu", decision="accept")
    report = apply_review(edited, Run.open(run), "alice")
    assert report.counts == {"applied": 4, "unchanged": 11, "refused": 0, "stale": 0, "conflict": 0}
    assert report.refused == [] and report.conflicts == []

    papers, marks = load_reviewed(Run.open(run))
    p1 = claims_of(papers, "p1")
    assert p1[acc].metric == "exact-match accuracy"
    assert speed not in p1
    rejected = next(p for p in papers if p.id == "p1").rejected
    assert [r.item["id"] for r in rejected] == [speed]
    assert rejected[0].reason.startswith("rejected by alice ")
    added = [c for c in p1.values() if c.value == 27]
    assert len(added) == 1 and GANQ[added[0].value_span[0] : added[0].value_span[1]] == "27B"
    assert marks[acc].fields["metric"].reviewer == "alice" and marks[acc].decision == "edit"
    assert marks[added[0].id].added and marks["p2/benchmark/mmlu"].decision == "accept"

    again = tmp_path / "again.xlsx"
    export_review(Run.open(run), again)
    assert cell(again, "Claims", acc, "metric") == "exact-match accuracy"
    assert cell(again, "Claims", acc, "note") == "EM, per the paper"
    assert cell(again, "Claims", speed, "decision") == "reject"
    assert "edited by alice" in cell(again, "Claims", acc, "review")


def test_applying_an_unchanged_sheet_or_the_same_sheet_twice_changes_nothing(run: Path, book: Path, tmp_path: Path) -> None:
    report = apply_review(book, Run.open(run), "alice")
    assert report.counts["applied"] == 0 and report.batch_id is None
    assert history_size(run) == 0
    edited = tmp_path / "edited.xlsx"
    edit(book, edited, "Claims", claim_id(run, "p2", 3.2), unit="GB", decision="edit")
    edit(edited, edited, "Claims", "new", paper_id="p2", value=13, evidence="Llama-2-13B")
    first = apply_review(edited, Run.open(run), "alice")
    assert first.counts["applied"] == 2
    size = history_size(run)
    second = apply_review(edited, Run.open(run), "alice")
    assert second.counts == {"applied": 0, "unchanged": first.counts["applied"] + first.counts["unchanged"],
                             "refused": 0, "stale": 0, "conflict": 0}
    assert second.batch_id is None and history_size(run) == size
    # A fresh export of the corrected run is unchanged too.
    fresh = tmp_path / "fresh.xlsx"
    export_review(Run.open(run), fresh)
    assert apply_review(fresh, Run.open(run), "bob").counts["applied"] == 0


def test_percent_formatted_cells_are_read_as_written(run: Path, book: Path, tmp_path: Path) -> None:
    acc = claim_id(run, "p2", 71.2)
    edited = tmp_path / "edited.xlsx"
    edit(book, edited, "Claims", acc, value=0.712, value_max=None)
    wb = load_workbook(edited)
    ws = wb["Claims"]
    header = [c.value for c in ws[1]]
    row = next(r for r in range(2, ws.max_row + 1) if ws.cell(r, 1).value == acc)
    ws.cell(row, header.index("value") + 1).number_format = "0.0%"
    wb.save(edited)
    assert apply_review(edited, Run.open(run), "alice").counts["applied"] == 0  # 71.2% is what was there


# --- bad rows -------------------------------------------------------------------------------


BAD_ROWS = [
    ("value", {"value": "eighty"}, "value", "valid number"),
    ("unit", {"unit": "furlongs per fortnight"}, "unit", "unit 'furlongs per fortnight' is not known"),
    ("evidence", {"evidence": "GANQ reaches 99% accuracy"}, "evidence", "evidence is not found in the abstract"),
    ("value not in evidence", {"value": 84}, "value", "value 84 is not written in the evidence"),
    ("range", {"value_max": 80}, "value_max", "value_max 80"),
    ("benchmark", {"benchmark": "MATH-500"}, "benchmark", "'MATH-500' does not occur in the title or the abstract"),
    ("kind", {"kind": "absolute"}, "kind", "'absolute' is not one of score, change"),
    ("decision", {"decision": "maybe"}, "decision", "'maybe' is not one of accept, reject, edit"),
    ("formula", {"metric": "=1+1"}, "metric", "formulas are not accepted"),
    ("required", {"evidence": None}, "evidence", "a value is required"),
]


@pytest.mark.parametrize(("case", "cells", "column", "message"), BAD_ROWS, ids=[b[0] for b in BAD_ROWS])
def test_a_bad_row_is_refused_with_sheet_row_and_column_and_the_rest_applied(
    run: Path, book: Path, tmp_path: Path, case: str, cells: dict, column: str, message: str
) -> None:
    edited = tmp_path / "edited.xlsx"
    bad = edit(book, edited, "Claims", claim_id(run, "p1", 83.6), **cells)
    good = claim_id(run, "p2", 3.2)
    edit(edited, edited, "Claims", good, metric="peak memory")
    report = apply_review(edited, Run.open(run), "alice")
    assert report.counts["refused"] == 1 and report.counts["applied"] == 1
    [refusal] = report.refused
    assert refusal.startswith(f"sheet Claims, row {bad}, column {column} (")
    assert message in refusal
    papers, _ = load_reviewed(Run.open(run))
    assert claims_of(papers, "p2")[good].metric == "peak memory"
    assert claims_of(papers, "p1")[claim_id(run, "p1", 83.6)].metric == "accuracy"


def test_units_are_checked_where_the_reviewer_types_them(tmp_path: Path) -> None:
    new = drafts()
    new["p2"].claims[0] = new["p2"].claims[0].model_copy(update={"unit": "GPU-hours"})
    run = make_run(tmp_path / "run", new)
    book = tmp_path / "review.xlsx"
    export_review(Run.open(run), book)
    memory, accuracy = claim_id(run, "p2", 3.2), claim_id(run, "p2", 71.2)
    edit(book, book, "Claims", memory, metric="peak memory")  # its extracted unit is unknown: not blocking
    edit(book, book, "Claims", accuracy, unit="percent")  # another spelling of a known unit
    report = apply_review(book, Run.open(run), "alice")
    assert report.counts["applied"] == 2 and report.refused == []
    papers, _ = load_reviewed(Run.open(run))
    assert claims_of(papers, "p2")[accuracy].unit == "percent"
    assert claims_of(papers, "p2")[memory].metric == "peak memory"


def test_a_date_in_a_text_or_number_column_is_refused_by_sheet_row_and_column(run: Path, book: Path) -> None:
    """A spreadsheet that turned `1/2` or `2024-01-05` into a date has lost what was typed."""
    acc, memory = claim_id(run, "p1", 83.6), claim_id(run, "p2", 3.2)
    setting_row = edit(book, book, "Claims", acc, setting=datetime.datetime(2026, 1, 2))
    value_row = edit(book, book, "Claims", memory, value=datetime.date(2024, 1, 5), metric="peak memory")
    report = apply_review(book, Run.open(run), "alice")
    assert report.counts["refused"] == 2 and report.counts["applied"] == 0
    assert report.refused == [
        f"sheet Claims, row {setting_row}, column setting ({letter('Claims', 'setting')}): the cell holds a date (2026-01-02), "
        "not what was typed; format the cell as text and type it again",
        f"sheet Claims, row {value_row}, column value ({letter('Claims', 'value')}): the cell holds a date (2024-01-05), "
        "not what was typed; format the cell as text and type it again",
    ]


def test_unknown_ids_and_bad_new_rows_are_refused(run: Path, book: Path, tmp_path: Path) -> None:
    edited = tmp_path / "edited.xlsx"
    wb = load_workbook(book)
    ws = wb["Claims"]
    ws.cell(2, 1).value = "p1#deadbeef"
    ws.cell(2, ws.max_column).value = None  # a typed id has no base
    wb.save(edited)
    edit(edited, edited, "Claims", "new", paper_id="p9", value=1, evidence="x")
    edit(edited, edited, "Items", "new", paper_id="p1", name="LoRA")
    edit(edited, edited, "Items", "new", paper_id="p1", kind="benchmark", name="MATH")
    report = apply_review(edited, Run.open(run), "alice")
    assert report.counts["refused"] == 4
    assert any("column id (A): unknown id 'p1#deadbeef'" in m for m in report.refused)
    assert any(f"column paper_id ({letter('Claims', 'paper_id')}): paper 'p9' is not in this run" in m for m in report.refused)
    assert any("sheet Items" in m and f"column kind ({letter('Items', 'kind')}): choose what the new row is" in m for m in report.refused)
    assert any(f"column name ({letter('Items', 'name')}): name 'MATH' does not occur in the title or the abstract" in m for m in report.refused)


def test_items_are_validated_like_extraction(run: Path, book: Path, tmp_path: Path) -> None:
    edited = tmp_path / "edited.xlsx"
    edit(book, edited, "Items", "p1/model/qwen3827b", params_b=70)
    edit(edited, edited, "Items", "p1/method/ganq", aliases="GPU-Adaptive Non-Uniform Quantization; Fast GANQ")
    edit(edited, edited, "Items", "p2/method/squeezellm", proposed="no")
    edit(edited, edited, "Items", "new", paper_id="p2", kind="method", name="AWQ", proposed="no")
    report = apply_review(edited, Run.open(run), "alice")
    assert report.counts["refused"] == 2 and report.counts["applied"] == 2
    assert any(f"column params_b ({letter('Items', 'params_b')}): parameter count is not written" in m for m in report.refused)
    assert any(f"column aliases ({letter('Items', 'aliases')}): alias 'Fast GANQ' does not occur" in m for m in report.refused)
    papers, marks = load_reviewed(Run.open(run))
    methods = {m.name: m.proposed for p in papers for m in p.extraction.methods}
    assert methods == {"GANQ": True, "SqueezeLLM": False, "AWQ": False}
    assert marks["p2/method/awq"].added


# --- re-extraction ----------------------------------------------------------------------------


def test_corrections_survive_reextraction_and_changed_or_vanished_ones_are_stale(run: Path, book: Path, tmp_path: Path) -> None:
    acc, speed, memory = claim_id(run, "p1", 83.6), claim_id(run, "p1", 2.57), claim_id(run, "p2", 3.2)
    edited = tmp_path / "edited.xlsx"
    edit(book, edited, "Claims", acc, metric="EM accuracy")
    edit(edited, edited, "Claims", speed, baseline="FP16")
    edit(edited, edited, "Claims", memory, decision="accept")
    apply_review(edited, Run.open(run), "alice")
    before = history_size(run)

    # A new model: the 2.57 claim is gone; the 3.2 GiB claim now has another metric;
    # the 83.6 claim is extracted exactly as before.
    new = drafts()
    new["p1"].claims = [c for c in new["p1"].claims if c.value != 2.57]
    new["p2"].claims[0] = new["p2"].claims[0].model_copy(update={"metric": "GPU memory"})
    make_run(run, new)

    status = review_status(Run.open(run))
    stale = {s.target_id: s for s in status.stale}
    assert set(stale) == {speed, memory}
    assert stale[speed].reason == "the extractor no longer produces this item"
    assert [c.new_value for c in stale[speed].corrections] == ["FP16", "edit"]
    assert "metric 'memory' -> 'GPU memory'" in stale[memory].reason
    assert status.corrections == before  # nothing dropped

    papers, marks = load_reviewed(Run.open(run))
    assert claims_of(papers, "p1")[acc].metric == "EM accuracy" and not marks[acc].stale
    assert marks[memory].stale

    # The CLI says so too.
    result = CliRunner().invoke(app, ["review", "status", str(run)])
    assert result.exit_code == 0
    assert "stale: 2" in result.output and speed in result.output and "the extractor no longer produces" in result.output

    # Re-reviewing the changed item (choosing a decision again) clears it; the vanished stays.
    fresh = tmp_path / "fresh.xlsx"
    export_review(Run.open(run), fresh)
    assert cell(fresh, "Claims", memory, "decision") is None
    assert "STALE" in cell(fresh, "Claims", memory, "review")
    edit(fresh, fresh, "Claims", memory, decision="accept")
    assert apply_review(fresh, Run.open(run), "alice").counts["applied"] == 1
    assert [s.target_id for s in review_status(Run.open(run)).stale] == [speed]


def test_a_correction_recorded_before_a_field_existed_is_not_stale(run: Path, book: Path, tmp_path: Path) -> None:
    """A history written by a version whose claims had no ``bound`` field: the field, unset
    now, is no change to the extraction, so the correction stays in force."""
    acc = claim_id(run, "p1", 83.6)
    edited = tmp_path / "edited.xlsx"
    edit(book, edited, "Claims", acc, metric="EM accuracy")
    apply_review(edited, Run.open(run), "alice")
    with sqlite3.connect(run / STORE_FILE) as db:  # as an older version wrote it
        db.execute("DROP TRIGGER corrections_no_update")
        db.execute("UPDATE corrections SET extracted = json_remove(extracted, '$.bound')")
    with CorrectionStore(run / STORE_FILE) as db:
        assert all("bound" not in c.extracted for c in db.history() if c.extracted)
    assert review_status(Run.open(run)).stale == []
    papers, marks = load_reviewed(Run.open(run))
    assert claims_of(papers, "p1")[acc].metric == "EM accuracy" and not marks[acc].stale


def test_a_row_of_an_older_export_whose_item_vanished_is_kept_as_stale(run: Path, book: Path, tmp_path: Path) -> None:
    speed = claim_id(run, "p1", 2.57)
    new = drafts()
    new["p1"].claims = [c for c in new["p1"].claims if c.value != 2.57]
    make_run(run, new)
    edited = tmp_path / "edited.xlsx"
    edit(book, edited, "Claims", speed, setting="batch 1")
    report = apply_review(edited, Run.open(run), "alice")
    assert report.counts["stale"] == 1 and report.counts["refused"] == 0
    assert any("no longer extracted" in n for n in report.notes)
    assert [s.target_id for s in review_status(Run.open(run)).stale] == [speed]
    # If a later extraction produces it again, the correction applies.
    make_run(run)
    papers, _ = load_reviewed(Run.open(run))
    assert claims_of(papers, "p1")[speed].setting == "batch 1"


def test_an_added_claim_keeps_the_reviewers_fields_when_the_extractor_finds_it_later(run: Path, book: Path, tmp_path: Path) -> None:
    edit(book, book, "Claims", "new", paper_id="p1", value=27, evidence="On Qwen3.8-27B", metric="model size", unit="")
    assert apply_review(book, Run.open(run), "alice").counts["applied"] == 1
    [added] = [t for t, m in load_reviewed(Run.open(run))[1].items() if m.added]
    new = drafts()
    new["p1"].claims.append(ClaimDraft(value=27, evidence="On Qwen3.8-27B", setting="27B"))
    make_run(run, new)
    papers, marks = load_reviewed(Run.open(run))
    claim = claims_of(papers, "p1")[added]
    assert (claim.metric, claim.setting) == ("model size", "27B")  # the reviewer's, then the extractor's
    assert not marks[added].added and not marks[added].stale and review_status(Run.open(run)).stale == []


# --- two reviewers ----------------------------------------------------------------------------


@pytest.mark.parametrize("order", [("alice", "bob"), ("bob", "alice")])
def test_two_reviewers_in_either_order_end_with_both_sets(run: Path, book: Path, tmp_path: Path, order) -> None:
    acc, memory = claim_id(run, "p1", 83.6), claim_id(run, "p2", 3.2)
    sheets = {"alice": tmp_path / "alice.xlsx", "bob": tmp_path / "bob.xlsx"}
    edit(book, sheets["alice"], "Claims", acc, metric="EM accuracy")
    edit(book, sheets["bob"], "Claims", memory, unit="GB", metric="peak memory")
    for reviewer in order:
        report = apply_review(sheets[reviewer], Run.open(run), reviewer)
        assert report.counts["applied"] == 1 and report.conflicts == []
    papers, marks = load_reviewed(Run.open(run))
    assert claims_of(papers, "p1")[acc].metric == "EM accuracy"
    assert claims_of(papers, "p2")[memory].unit == "GB"
    assert marks[acc].reviewer == "alice" and marks[memory].reviewer == "bob"


def test_two_reviewers_applying_at_the_same_moment_to_a_fresh_shared_store(run: Path, book: Path, tmp_path: Path) -> None:
    acc, memory = claim_id(run, "p1", 83.6), claim_id(run, "p2", 3.2)
    sheets = {"alice": tmp_path / "alice.xlsx", "bob": tmp_path / "bob.xlsx"}
    edit(book, sheets["alice"], "Claims", acc, metric="EM accuracy")
    edit(book, sheets["bob"], "Claims", memory, metric="peak memory")
    store = tmp_path / "shared" / "corrections.sqlite"
    with ThreadPoolExecutor(max_workers=2) as pool:
        reports = list(pool.map(lambda who: apply_review(sheets[who], Run.open(run, store), who), sheets))
    assert [r.counts["applied"] for r in reports] == [1, 1]
    papers, _ = load_reviewed(Run.open(run, store))
    assert claims_of(papers, "p1")[acc].metric == "EM accuracy"
    assert claims_of(papers, "p2")[memory].metric == "peak memory"


@pytest.mark.parametrize("order", [("alice", "bob"), ("bob", "alice")])
def test_same_field_edited_differently_is_a_conflict_nothing_overridden(
    run: Path, book: Path, tmp_path: Path, order
) -> None:
    """A sheet exported before another reviewer's apply does not override her: the later
    apply records nothing of that row and names both values; exported again, it applies."""
    acc = claim_id(run, "p1", 83.6)
    values = {"alice": "EM accuracy", "bob": "top-1 accuracy"}
    sheets = {}
    for reviewer, value in values.items():
        sheets[reviewer] = tmp_path / f"{reviewer}.xlsx"
        edit(book, sheets[reviewer], "Claims", acc, metric=value)
    first, later = order
    assert apply_review(sheets[first], Run.open(run), first).conflicts == []
    report = apply_review(sheets[later], Run.open(run), later)
    [message] = report.conflicts
    assert f"{first} set {values[first]!r}" in message and f"this one sets {values[later]!r}" in message
    assert "showed 'accuracy'" in message and report.counts["conflict"] == 1 and report.batch_id is None
    papers, _ = load_reviewed(Run.open(run))
    assert claims_of(papers, "p1")[acc].metric == values[first]
    with CorrectionStore(run / STORE_FILE) as db:
        assert [c.new_value for c in db.history() if c.field == "metric"] == [values[first]]
    # Seen now (a new export), the later reviewer's choice is recorded.
    fresh = tmp_path / "fresh.xlsx"
    export_review(Run.open(run), fresh)
    edit(fresh, fresh, "Claims", acc, metric=values[later])
    assert apply_review(fresh, Run.open(run), later).counts["applied"] == 1
    papers, _ = load_reviewed(Run.open(run))
    assert claims_of(papers, "p1")[acc].metric == values[later]
    result = CliRunner().invoke(app, ["review", "status", str(run)])
    assert "conflicts: 0" in result.output


# --- gold -------------------------------------------------------------------------------------


def test_export_gold_holds_reviewed_items_and_leaves_the_rest_optional(run: Path, book: Path, tmp_path: Path) -> None:
    acc, speed = claim_id(run, "p1", 83.6), claim_id(run, "p1", 2.57)
    edited = tmp_path / "edited.xlsx"
    edit(book, edited, "Claims", acc, decision="accept")
    edit(edited, edited, "Claims", speed, decision="reject")
    edit(edited, edited, "Items", "p1/method/ganq", decision="accept")
    edit(edited, edited, "Papers", "p2", decision="accept")
    apply_review(edited, Run.open(run), "alice")
    out = tmp_path / "gold.jsonl"
    assert export_gold(Run.open(run), out) == 2
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    p1, p2 = lines
    assert set(p1) == {"id", "version", "methods", "benchmarks", "params_b", "claims", "optional", "notes"}
    assert p1["version"] == 3
    assert p1["claims"] == [{  # the claim as accepted, attribution included (contract version 3)
        "value": 83.6, "value_max": None, "unit": "%", "metric": ["accuracy"], "benchmark": ["GSM8K"],
        "subject": None, "kind": "score", "direction": None, "baseline": None, "setting": None,
        "evidence": "GANQ reaches 83.6% accuracy on GSM8K", "proposed": False,
    }]
    assert p1["methods"] == [["GANQ", "GPU-Adaptive Non-Uniform Quantization"]]
    # The model was not reviewed: its size is optional, neither rewarded nor punished.
    assert p1["optional"] == {"methods": [], "benchmarks": [["GSM8K"]], "values": [9.0, 34.0], "params_b": [27.0]}
    assert p1["params_b"] == []
    assert [c["value"] for c in p2["claims"]] == [3.2, 71.2, 1.9]  # the whole paper was checked
    assert p2["params_b"] == [13.0] and p2["optional"]["values"] == []
    # It reads as gold, and the reviewed run scores perfectly against it.
    gold = read_gold(out)
    papers, _ = load_reviewed(Run.open(run))
    totals = evaluate(papers, gold).totals
    assert totals["claims"].fp == totals["claims"].fn == 0
    assert (totals["model_sizes"].tp, totals["model_sizes"].fp, totals["model_sizes"].fn) == (1, 0, 0)


def test_a_rejected_paper_leaves_the_tables_and_the_gold(run: Path, book: Path, tmp_path: Path) -> None:
    edited = tmp_path / "edited.xlsx"
    edit(book, edited, "Papers", "p2", decision="reject", note="not an ML paper")
    apply_review(edited, Run.open(run), "alice")
    papers, _ = load_reviewed(Run.open(run))
    p2 = next(p for p in papers if p.id == "p2")
    assert p2.extraction.claims == [] and p2.extraction.methods == []
    assert all(r.reason.startswith("paper rejected by alice") and r.reason.endswith("not an ML paper")
               for r in p2.rejected)
    assert export_gold(Run.open(run), tmp_path / "gold.jsonl") == 0


# --- stores -----------------------------------------------------------------------------------


def test_a_shared_store_serves_several_runs(tmp_path: Path) -> None:
    first = make_run(tmp_path / "a")
    second = make_run(tmp_path / "b", {"p1": ExtractionDraft()})
    store = tmp_path / "shared.sqlite"
    book = tmp_path / "a.xlsx"
    export_review(Run.open(first, store), book)
    acc = claim_id(first, "p1", 83.6)
    edit(book, book, "Claims", acc, metric="EM accuracy")
    apply_review(book, Run.open(first, store), "alice")
    assert not (first / STORE_FILE).exists()
    # In run b, p1 has no claims now: the correction is stale there, kept, and still in force in a.
    assert [s.target_id for s in review_status(Run.open(second, store)).stale] == [acc]
    papers, _ = load_reviewed(Run.open(first, store))
    assert claims_of(papers, "p1")[acc].metric == "EM accuracy"
    assert review_status(Run.open(first)).corrections == 0  # the run's own store is untouched


def test_reading_never_creates_a_store(run: Path) -> None:
    load_state(Run.open(run))
    review_status(Run.open(run))
    assert not (run / STORE_FILE).exists()


# --- command line -----------------------------------------------------------------------------


def test_cli_round_trip(run: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    book = tmp_path / "review.xlsx"
    result = runner.invoke(app, ["review", "export", str(run), "--out", str(book), "-q"])
    assert result.exit_code == 0, result.output
    steps: list[tuple[str, int, int]] = []
    export_review(Run.open(run), tmp_path / "again.xlsx", step=lambda *s: steps.append(s))
    assert {stage: total for stage, _, total in steps} == {
        "laying out rows": 14, "writing the Claims sheet": 6 + 2 + 20, "writing the Items sheet": 6 + 20, "writing the Papers sheet": 2}
    assert "6 claims" in result.output and "2 papers" in result.output
    edit(book, book, "Claims", claim_id(run, "p1", 83.6), metric="EM accuracy")
    edit(book, book, "Claims", claim_id(run, "p1", 2.57), value="fast")
    edit(book, book, "Claims", claim_id(run, "p2", 71.2), decision="reject")
    result = runner.invoke(app, ["review", "apply", str(book), str(run), "--reviewer", "alice"])
    assert result.exit_code == 1  # a row was refused
    # A refused row is not a reject decision: each is counted under its own name.
    assert "applied 2 (decisions: 1 edit, 1 reject), unchanged 11, refused 1, stale 0; 0 conflicts" in result.output
    assert f"refused sheet Claims, row 3, column value ({letter('Claims', 'value')})" in result.output
    result = runner.invoke(app, ["review", "apply", str(book), str(run)])
    assert result.exit_code == 2 and "--reviewer" in result.output
    gold = tmp_path / "gold.jsonl"
    result = runner.invoke(app, ["review", "export-gold", str(run), "--out", str(gold)])
    assert result.exit_code == 0 and "2 reviewed papers" in result.output
    assert read_gold(gold)[0].claims[0].metric == ["em accuracy"]  # gold phrasings are lower case
    # A workbook is never written under another format's name.
    result = runner.invoke(app, ["review", "export", str(run), "--out", str(tmp_path / "x.csv")], env={"COLUMNS": "400"})
    assert result.exit_code == 2 and not (tmp_path / "x.csv").exists()
    assert "x.csv: the review workbook is an .xlsx file; give --out a name ending in .xlsx" in result.output
    not_a_sheet = tmp_path / "review.csv"
    not_a_sheet.write_text("id,metric\n")
    result = runner.invoke(app, ["review", "apply", str(not_a_sheet), str(run), "-r", "alice"], env={"COLUMNS": "400"})
    assert result.exit_code == 2 and "cannot read the review sheet" in result.output
    result = runner.invoke(app, ["review", "status", str(tmp_path)], env={"COLUMNS": "400"})
    assert result.exit_code == 2 and "not a run directory (no papers.jsonl)" in result.output


# --- every export applies the corrections -----------------------------------------------------


def test_corrections_are_in_the_leaderboard_with_who_and_when(run: Path, book: Path, tmp_path: Path) -> None:
    acc, speed = claim_id(run, "p1", 83.6), claim_id(run, "p1", 2.57)
    edit(book, book, "Claims", acc, metric="answer accuracy")
    edit(book, book, "Claims", speed, decision="reject")
    apply_review(book, Run.open(run), "alice")
    out = tmp_path / "board.csv"
    result = CliRunner().invoke(app, ["leaderboard", str(run), "--out", str(out), "--no-charts"])
    assert result.exit_code == 0, result.output
    rows = {r["claim_id"]: r for r in csv.DictReader(out.open(encoding="utf-8"))}
    assert speed not in rows and len(rows) == 5
    assert rows[acc]["metric"] == "answer accuracy"
    assert rows[acc]["reviewed"].startswith("alice 20")
    assert rows[acc]["reviewed"].endswith(": decision edit, metric \u201caccuracy\u201d \u2192 \u201canswer accuracy\u201d")
    assert rows[claim_id(run, "p1", 9)]["reviewed"] == ""


def test_rerunning_extraction_into_a_reviewed_run_keeps_the_corrections(tmp_path: Path) -> None:
    runner = CliRunner()
    run = tmp_path / "demo"
    inputs = tmp_path / "papers.jsonl"
    inputs.write_text("".join(json.dumps({"id": k, "abstract": v}) + "\n" for k, v in ABSTRACTS.items()))
    command = ["run", str(inputs), "--out", str(run), "--backend", "rules", "-q"]
    assert runner.invoke(app, [*command, "--no-leaderboard"]).exit_code == 0
    book = tmp_path / "review.xlsx"
    export_review(Run.open(run), book)
    wb = load_workbook(book)
    first = wb["Claims"].cell(2, 1).value
    edit(book, book, "Claims", first, metric="reviewed metric", note="checked by hand")
    assert apply_review(book, Run.open(run), "alice").counts["applied"] == 1
    # The same command again (a re-extraction) rewrites papers.jsonl and the run's leaderboard.
    assert runner.invoke(app, command).exit_code == 0
    claims = load_workbook(run / "leaderboard.xlsx")["Claims"]
    header = [c.value for c in claims[1]]
    rows = [dict(zip(header, r)) for r in claims.iter_rows(min_row=2, values_only=True)]
    [row] = [r for r in rows if r["Claim id"] == first]
    assert row["Metric"] == "reviewed metric"
    assert row["Reviewed"].startswith("alice ")


def test_review_apply_rewrites_the_runs_leaderboard_and_reviewed_claims(tmp_path: Path) -> None:
    """The files a user already has take the corrections: leaderboard.xlsx (as `extractor run`
    left it) and claims.reviewed.csv; claims.csv stays the raw extraction."""
    runner = CliRunner()
    run = tmp_path / "demo"
    inputs = tmp_path / "papers.jsonl"
    inputs.write_text("".join(json.dumps({"id": k, "abstract": v}) + "\n" for k, v in ABSTRACTS.items()))
    assert runner.invoke(app, ["run", str(inputs), "--out", str(run), "--backend", "rules", "-q"]).exit_code == 0
    raw = (run / "claims.csv").read_bytes()
    before = {r["claim_id"] for r in csv.DictReader((run / "claims.reviewed.csv").open(encoding="utf-8"))}
    book = tmp_path / "review.xlsx"
    export_review(Run.open(run), book)
    first, second = (load_workbook(book)["Claims"].cell(r, 1).value for r in (2, 3))
    edit(book, book, "Claims", first, decision="reject")
    edit(book, book, "Claims", second, metric="reviewed metric")
    result = runner.invoke(app, ["review", "apply", str(book), str(run), "-r", "alice"], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    assert f"-> {run / 'leaderboard.xlsx'}" in result.output and f"-> {run / 'claims.reviewed.csv'}" in result.output
    reviewed = {r["claim_id"]: r for r in csv.DictReader((run / "claims.reviewed.csv").open(encoding="utf-8"))}
    assert set(reviewed) == before - {first} and reviewed[second]["metric"] == "reviewed metric"
    assert (run / "claims.csv").read_bytes() == raw
    board = load_workbook(run / "leaderboard.xlsx")["Claims"]
    header = [c.value for c in board[1]]
    ids = {row[header.index("Claim id")] for row in board.iter_rows(min_row=2, values_only=True)}
    assert first not in ids and second in ids
    assert json.loads((run / "run.json").read_text())["files"]["claims.csv"].startswith("raw extraction")


def test_review_apply_leaves_a_run_without_a_leaderboard_without_one(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run")
    book = tmp_path / "review.xlsx"
    export_review(Run.open(run), book)
    edit(book, book, "Claims", claim_id(run, "p1", 2.57), decision="reject")
    result = CliRunner().invoke(app, ["review", "apply", str(book), str(run), "-r", "alice"], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    assert not (run / "leaderboard.xlsx").exists() and (run / "claims.reviewed.csv").exists()
