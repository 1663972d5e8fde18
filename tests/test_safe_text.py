"""Untrusted text through every writer: no live formula in a CSV a naive reader splits at CR,
no crash on characters XLSX cannot hold, formula-like text typed as text in XLSX (no visible
apostrophe), and ids, cells and reviewer names printed as plain text (no rich markup, no raw
escape sequences)."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from openpyxl import load_workbook
from typer.testing import CliRunner

from extractor.runs import Run
from extractor.cli.app import app
from extractor.grounding import ground
from extractor.leaderboard import build_leaderboard, export
from extractor.pipeline.ingest import read_inputs
from tests.runs import write_run
from extractor.review import apply_review, export_review, load_reviewed
from extractor.report import write_report
from extractor.schema import ClaimDraft, ExtractionDraft, PaperResult
from extractor.text.safe import csv_cell, html_text, printable, xlsx_text

runner = CliRunner()

FORMULA = re.compile(r'^"?[=+\-@]')
CR_ATTACK = "We measure accuracy. GANQ reaches 83.6% on GSM8K\r=cmd|' /C calc'!A0 and 12.5% on MATH."
CONTROL = "We measure accuracy. GANQ\x00 reaches 83.6% on GSM8K.\x0c It runs 2.5x faster\x1b[31m than AWQ."


def grounded(paper_id: str, abstract: str, evidence: list[tuple[float, str]], title: str | None = None) -> PaperResult:
    """A grounded paper of accuracies (the abstract must say so); a claim whose evidence names
    GSM8K is on that benchmark."""
    draft = ExtractionDraft(claims=[
        ClaimDraft(value=v, unit="%", metric="accuracy", benchmark="GSM8K" if "GSM8K" in e else None, evidence=e)
        for v, e in evidence
    ])
    extraction, rejected = ground(draft, abstract, paper_id)
    assert not rejected, rejected
    return PaperResult(id=paper_id, title=title, status="ok", abstract=abstract, extraction=extraction)


def naive_lines(raw: bytes) -> list[str]:
    """What a reader that ends a row at every CR or LF sees (LibreOffice did, for a bare CR)."""
    return re.split(r"\r\n|\r|\n", raw.decode("utf-8"))


# --- the one safe-text function --------------------------------------------------------------


def test_csv_cell_guards_every_line_a_reader_may_split_at() -> None:
    assert csv_cell("=1+1") == "'=1+1"
    assert csv_cell("ok\r=cmd|x") == "ok\r'=cmd|x"
    assert csv_cell("a\r\n@SUM(1)\n+2") == "a\r\n'@SUM(1)\n'+2"
    assert csv_cell("\rx") == "'\rx" and csv_cell("\tx") == "'\tx"
    assert csv_cell("plain text") == "plain text" and csv_cell(3.5) == 3.5 and csv_cell(None) is None


def test_control_characters_are_made_visible_one_for_one() -> None:
    assert xlsx_text("a\x00b\x0cc\td\ne") == "a\u2400b\u240cc\td\ne"
    assert printable("id\x1b[31m\r\n") == "id\u241b[31m\u240d\u240a"
    assert printable("[/]") == "[/]"
    assert html_text("<b>\x00") == "&lt;b&gt;\u2400"
    assert len(xlsx_text(CONTROL)) == len(CONTROL)


def test_an_id_with_control_characters_is_read_as_one_visible_line(tmp_path: Path) -> None:
    data = tmp_path / "in.jsonl"
    data.write_text(json.dumps({"id": "a\x1b[2Jb\nc", "abstract": "GANQ reaches 83.6% on GSM8K."}) + "\n")
    [paper] = read_inputs([str(data)])
    assert paper.id == "a\u241b[2Jb\u240ac"


# --- CSV --------------------------------------------------------------------------------------


def test_a_bare_cr_in_claims_csv_is_quoted_and_gives_no_formula(tmp_path: Path) -> None:
    result = grounded("p1", CR_ATTACK, [(83.6, CR_ATTACK[:-1])])
    write_run(tmp_path / "run", [result], {})
    raw = (tmp_path / "run" / "claims.csv").read_bytes()
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8"), newline="")))
    assert len(rows) == 1 and "\r'=cmd" in rows[0]["evidence"]  # one record: the CR is quoted
    assert not [line for line in naive_lines(raw) if FORMULA.match(line)]


@pytest.mark.parametrize("wide", [False, True])
def test_a_bare_cr_in_a_leaderboard_csv_gives_no_formula(tmp_path: Path, wide: bool) -> None:
    result = grounded("p1\r=cmd|' /C calc'!A0", CR_ATTACK, [(83.6, CR_ATTACK[:-1]), (12.5, "12.5% on MATH")])
    out = tmp_path / "board.csv"
    export(build_leaderboard([result]), out, wide=wide, charts=False)
    raw = out.read_bytes()
    assert list(csv.reader(io.StringIO(raw.decode("utf-8"), newline="")))
    assert not [line for line in naive_lines(raw) if FORMULA.match(line)]


# --- XLSX -------------------------------------------------------------------------------------


def test_review_export_holds_nul_form_feed_and_escape(tmp_path: Path) -> None:
    result = grounded("p1", CONTROL, [(83.6, "reaches 83.6% on GSM8K")], title="T\x00itle")
    run = tmp_path / "run"
    write_run(run, [result], {})
    book = tmp_path / "review.xlsx"
    export_review(Run.open(run), book)
    papers = load_workbook(book)["Papers"]
    header = [c.value for c in papers[1]]
    row = {h: papers.cell(2, i + 1).value for i, h in enumerate(header)}
    assert row["abstract"] == xlsx_text(CONTROL) and "\u2400" in row["abstract"]
    assert row["title"] == "T\u2400itle"
    # Nothing changed by the reviewer: applying the sheet records nothing and refuses nothing.
    report = apply_review(book, Run.open(run), "alice")
    assert report.counts["refused"] == 0 and report.counts["applied"] == 0, report.refused


def test_leaderboard_xlsx_holds_control_characters(tmp_path: Path) -> None:
    out = tmp_path / "board.xlsx"
    result = grounded("p1", CONTROL, [(83.6, "reaches 83.6% on GSM8K.\x0c It")], title="T\x00itle")
    export(build_leaderboard([result]), out, charts=False)
    texts = [c.value for ws in load_workbook(out) for row in ws.iter_rows() for c in row if isinstance(c.value, str)]
    assert "T\u2400itle" in texts and "reaches 83.6% on GSM8K.\u240c It" in texts


EVIL = '=HYPERLINK("http://evil.example","x") scores 12.5% on GSM8K. -0.52 points on MMLU.'


def formula_cells(path: Path) -> list:
    return [
        c for ws in load_workbook(path) for row in ws.iter_rows() for c in row
        if isinstance(c.value, str) and c.value[:1] in "=+-@"
    ]


def test_xlsx_keeps_formula_like_text_typed_as_text_without_an_apostrophe(tmp_path: Path) -> None:
    result = grounded("=1+1", EVIL, [(12.5, EVIL[:52]), (-0.52, "-0.52 points on MMLU")], title="@SUM(A1)")
    out = tmp_path / "board.xlsx"
    export(build_leaderboard([result]), out, charts=False)
    run = tmp_path / "run"
    write_run(run, [result], {})
    book = tmp_path / "review.xlsx"
    export_review(Run.open(run), book)
    for path in (out, book):
        cells = formula_cells(path)
        assert any(c.value.startswith("=HYPERLINK") for c in cells), path
        assert all(c.data_type == "s" and c.quotePrefix for c in cells), path
        texts = [c.value for ws in load_workbook(path) for row in ws.iter_rows() for c in row if isinstance(c.value, str)]
        assert not [t for t in texts if t.startswith("'")], path
    # The review sheet comes back with the ids as they are, and applies.
    wb = load_workbook(book)
    papers = wb["Papers"]
    header = {c.value: c.column for c in papers[1]}
    papers.cell(2, header["decision"]).value = "accept"
    wb.save(book)
    assert apply_review(book, Run.open(run), "alice").counts["applied"] == 1
    assert load_reviewed(Run.open(run))[1]["=1+1"].decision == "accept"


# --- the terminal -----------------------------------------------------------------------------


def test_run_prints_ids_as_plain_text(tmp_path: Path) -> None:
    data = tmp_path / "in.jsonl"
    data.write_text(
        json.dumps({"id": "[/]\x1b[2J", "abstract": ""}) + "\n"
        + json.dumps({"id": "[bold]ok", "abstract": "GANQ reaches 83.6% accuracy on GSM8K."}) + "\n"
    )
    result = runner.invoke(app, ["run", str(data), "--out", str(tmp_path / "run"), "--no-leaderboard"])
    assert result.exit_code == 1, result.output
    assert "failed [/]\u241b[2J: " in result.output
    assert "\x1b" not in result.output


BIDI = "\u202e\u2066\u2067\u2068\u2069"  # an override and the four isolates


def test_bidirectional_controls_are_shown_by_code_point_never_sent() -> None:
    assert printable(f"invoice{BIDI}fdp.exe") == "invoice<U+202E><U+2066><U+2067><U+2068><U+2069>fdp.exe"
    assert html_text("a\u202eb") == "a&lt;U+202E&gt;b"


def test_an_id_and_a_warning_with_bidirectional_controls_print_in_reading_order(tmp_path: Path) -> None:
    """The id of a record, and a warning naming a file (the library's log warnings), alike."""
    first = tmp_path / "old\u202etxt\x1b[2J.jsonl"
    first.write_text(json.dumps({"id": f"p{BIDI}1", "abstract": "GANQ reaches 83.6% accuracy on GSM8K."}) + "\n")
    second = tmp_path / "new.jsonl"
    second.write_text(json.dumps({"id": "p\u202e2", "abstract": ""}) + "\n")
    out = str(tmp_path / "run")
    assert runner.invoke(app, ["run", str(first), "--out", out, "--no-leaderboard"]).exit_code == 0
    result = runner.invoke(app, ["run", str(second), "--out", out, "--no-leaderboard", "--overwrite"])
    assert result.exit_code == 1, result.output
    assert "failed p<U+202E>2: " in result.output
    assert "old<U+202E>txt\u241b[2J.jsonl" in result.output  # the warning that the earlier run was replaced
    assert not any(ch in result.output for ch in BIDI + "\x1b")
    [paper] = read_inputs([str(first)])
    assert paper.id == "p<U+202E><U+2066><U+2067><U+2068><U+2069>1"


def test_reviewer_names_and_cells_with_markup_never_break_review_commands(tmp_path: Path) -> None:
    result = grounded("p[/]", "We measure accuracy. GANQ reaches 83.6% on GSM8K. It is [red]fast[/].", [(83.6, "reaches 83.6% on GSM8K")])
    run = tmp_path / "run"
    write_run(run, [result], {})
    book = tmp_path / "review.xlsx"
    assert runner.invoke(app, ["review", "export", str(run), "--out", str(book)]).exit_code == 0
    wb = load_workbook(book)
    claims = wb["Claims"]
    header = {c.value: c.column for c in claims[1]}
    claims.cell(2, header["value"]).value = "[/]about 90"  # refused, and the message quotes it
    claims.cell(2, header["metric"]).value = "[/]"
    wb["Items"].cell(2, 1).value = "new"
    wb.save(book)
    applied = runner.invoke(app, ["review", "apply", str(book), str(run), "--reviewer", "[/]\x1b[31m"])
    assert applied.exit_code == 1 and "Traceback" not in applied.output, applied.output
    assert "[/]about 90" in applied.output
    papers = wb["Papers"]
    papers.cell(2, {c.value: c.column for c in papers[1]}["decision"]).value = "accept"
    claims.cell(2, header["value"]).value = 83.6
    wb.save(book)
    applied = runner.invoke(app, ["review", "apply", str(book), str(run), "--reviewer", "[/]\x1b[31m"])
    assert applied.exit_code == 0, applied.output
    status = runner.invoke(app, ["review", "status", str(run)])
    assert status.exit_code == 0, status.output
    assert "by [/]\u241b[31m" in status.output and "\x1b" not in status.output


def test_the_html_report_shows_control_characters_instead_of_sending_them(tmp_path: Path) -> None:
    run = tmp_path / "run"
    write_run(run, [grounded("p1", CONTROL, [(83.6, "reaches 83.6% on GSM8K")], title="<T\x00>")], {})
    out = tmp_path / "report.html"
    write_report(Run.open(run), out)
    html = out.read_text(encoding="utf-8")
    assert "&lt;T\u2400&gt;" in html and "\u240c It runs" in html
    assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", html)


def test_a_review_row_whose_id_was_changed_to_another_rows_id_is_refused(tmp_path: Path) -> None:
    abstract = "GANQ reaches 83.6% on GSM8K and 71.2% on MMLU in accuracy."
    run = tmp_path / "run"
    write_run(run, [grounded("p1", abstract, [(83.6, "83.6% on GSM8K"), (71.2, "71.2% on MMLU")])], {})
    book = tmp_path / "review.xlsx"
    export_review(Run.open(run), book)
    wb = load_workbook(book)
    claims = wb["Claims"]
    header = {c.value: c.column for c in claims[1]}
    own, other = claims.cell(2, 1).value, claims.cell(3, 1).value
    claims.cell(2, 1).value = other  # row 2 now claims to be row 3's item
    claims.cell(2, header["metric"]).value = "edited"
    wb.save(book)
    report = apply_review(book, Run.open(run), "alice")
    assert report.counts["applied"] == 0 and report.counts["refused"] == 1
    assert report.refused == [
        f"sheet Claims, row 2, column id (A): the id was changed to {other!r}; the row was exported as "
        f"{own!r} (ids are read-only: put it back, or fill a new row)"
    ]
    assert not load_reviewed(Run.open(run))[1]
