"""Workbooks a hostile or unlucky user gives (docs/faults.md, "Input files and workbooks"): a
sheet that claims the whole grid, a zip bomb, malformed cells, chart sheets, a sheet named with
'#', formulas without values and error cells. No traceback, nothing hangs, and the other inputs
are read."""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
import xlsxwriter
from typer.testing import CliRunner

from extractor import workbook
from extractor.cli.app import app
from extractor.errors import InputError
from extractor.pipeline.ingest import count_records, read_inputs
from tests.runs import read_papers

GOOD = "FooNet achieves 80.1% top-1 accuracy on ImageNet."
OTHER = "BarNet achieves 79.3% top-1 accuracy on ImageNet."
SHEET = "xl/worksheets/sheet1.xml"


def _book(path: Path, rows: list[list], sheet: str = "Papers") -> Path:
    """A workbook as Excel writes one (XlsxWriter: shared strings, a stated dimension)."""
    book = xlsxwriter.Workbook(str(path))
    worksheet = book.add_worksheet(sheet)
    for number, row in enumerate(rows):
        worksheet.write_row(number, 0, row)
    book.close()
    return path


def _patched(path: Path, part: str, edit: Callable[[str], str]) -> Path:
    """The workbook with one of its XML parts edited as text."""
    source = zipfile.ZipFile(io.BytesIO(path.read_bytes()))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for info in source.infolist():
            data = source.read(info.filename)
            out.writestr(info.filename, edit(data.decode()).encode() if info.filename == part else data)
    return path


def _papers_book(path: Path) -> Path:
    return _book(path, [["id", "abstract"], ["p1", GOOD], ["p2", OTHER], ["p3", 5]])


def _run(*args: str):
    return CliRunner().invoke(app, ["run", *args, "--backend", "rules", "-q", "--no-leaderboard"])


def _good_jsonl(path: Path) -> Path:
    path.write_text(json.dumps({"id": "g1", "abstract": GOOD}) + "\n")
    return path


@pytest.mark.timeout(60)  # before: every row widened to 16,384 cells, 1,048,576 rows, read twice (hours)
def test_a_sheet_that_claims_the_whole_grid_is_read_as_the_rows_it_has(tmp_path: Path) -> None:
    path = _patched(_book(tmp_path / "grid.xlsx", [["id", "abstract"], ["p1", GOOD]]), SHEET, lambda xml: xml.replace(
        '<dimension ref="A1:B2"/>', '<dimension ref="A1:XFD1048576"/>'
    ).replace("</sheetData>", '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row></sheetData>'))
    assert path.stat().st_size < 10_000
    assert count_records([str(path)]) == 1
    [paper] = read_inputs([str(path)])
    assert (paper.error, paper.id, paper.abstract) == (None, "p1", GOOD)


def test_a_workbook_that_would_unpack_past_the_bound_is_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A zip bomb in the shared strings, tested smaller: 5 MB of strings under a 1 MB bound."""
    monkeypatch.setattr(workbook, "MAX_UNPACKED", 1_000_000)
    bomb = _patched(_book(tmp_path / "bomb.xlsx", [["abstract"], [GOOD]]), "xl/sharedStrings.xml", lambda xml: xml.replace(
        "</sst>", "<si><t>a</t></si>" * 300_000 + "</sst>"
    ))
    assert bomb.stat().st_size < 100_000
    result = _run(str(bomb), str(_good_jsonl(tmp_path / "good.jsonl")), "-o", str(tmp_path / "run"))
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    failed, good = read_papers(tmp_path / "run")
    assert good.status == "ok"
    assert failed.error == f"{bomb}: the workbook unpacks to 5 MB, over the 1 MB a workbook may unpack to (a zip bomb?); nothing of it was read"


def test_a_review_sheet_that_would_unpack_past_the_bound_is_refused_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from extractor.review.sheet import read_workbook

    assert _run(str(_good_jsonl(tmp_path / "good.jsonl")), "-o", str(tmp_path / "run")).exit_code == 0
    sheet = tmp_path / "review.xlsx"
    assert CliRunner().invoke(app, ["review", "export", str(tmp_path / "run"), "-o", str(sheet), "-q"]).exit_code == 0
    monkeypatch.setattr(workbook, "MAX_UNPACKED", workbook.unpacked_size(sheet) - 1)
    with pytest.raises(InputError, match="over the .* a workbook may unpack to"):
        read_workbook(sheet)
    result = CliRunner().invoke(app, ["review", "apply", str(sheet), str(tmp_path / "run"), "--reviewer", "ann"])
    assert result.exit_code == 2 and result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.output.strip().splitlines()[-1].startswith("error: ") and "a workbook may unpack to" in result.output


MALFORMED = {
    "a shared string out of range": ('<c r="B3" t="s"><v>5</v>', '<c r="B3" t="s"><v>999</v>'),
    "abc as a number": ('<c r="B4"><v>5</v>', '<c r="B4" t="n"><v>abc</v>'),
    "a bad bool": ('<c r="B4"><v>5</v>', '<c r="B4" t="b"><v>x</v>'),
    "a bad date": ('<c r="B4"><v>5</v>', '<c r="B4" t="d"><v>not-a-date</v>'),
    "a reference past ZZZ": ('<c r="B4">', '<c r="ZZZZZZ3">'),
    "a negative reference": ('<c r="B4">', '<c r="A-5">'),
    "a row past the grid": ('<row r="4" spans="1:2"><c r="A4"', '<row r="99999999999"><c r="A99999999999"'),
}


@pytest.mark.timeout(60)  # a row past the grid: openpyxl gives every missing row before it
@pytest.mark.parametrize("case", MALFORMED)
def test_a_malformed_cell_fails_its_workbook_by_name_and_the_jsonl_beside_it_is_read(tmp_path: Path, case: str) -> None:
    old, new = MALFORMED[case]
    book = _patched(_papers_book(tmp_path / "book.xlsx"), SHEET, lambda xml: xml.replace(old, new))
    assert new in zipfile.ZipFile(book).read(SHEET).decode()
    good = _good_jsonl(tmp_path / "good.jsonl")
    result = _run(str(book), str(good), "-o", str(tmp_path / "run"))
    assert result.exit_code == 1 and result.exception is None or isinstance(result.exception, SystemExit), result.output
    papers = {p.id: p for p in read_papers(tmp_path / "run")}
    assert papers["g1"].status == "ok"
    [failed] = [p for p in papers.values() if p.status == "failed"]
    assert failed.error.startswith(f"{book}:") and re.search("the rows below row [23] are not read$", failed.error), failed.error
    assert papers["p1"].status == "ok"  # the rows above the bad cell are kept


def test_a_chart_sheet_is_named_as_one_not_read(tmp_path: Path) -> None:
    from openpyxl import Workbook
    from openpyxl.chart import BarChart, Reference

    path = tmp_path / "charts.xlsx"
    book = xlsxwriter.Workbook(str(path))
    data = book.add_worksheet("Data")
    data.write_row(0, 0, ["abstract"])
    data.write_row(1, 0, [GOOD])
    chart = book.add_chart({"type": "bar"})
    chart.add_series({"values": "=Data!$A$2:$A$2"})
    book.add_chartsheet("Chart1").set_chart(chart)
    book.close()
    [named] = read_inputs([f"{path}#Chart1"])
    assert named.error == f"{path}: 'Chart1' is a chart sheet, not a worksheet (its worksheets: 'Data')"
    only = tmp_path / "only-chart.xlsx"
    book = Workbook()
    chart = BarChart()
    chart.add_data(Reference(book.active, min_col=1, min_row=1, max_row=2))
    book.create_chartsheet("Chart1").add_chart(chart)
    book.remove(book.active)  # the chart keeps its data's address, the sheet is gone
    book.save(only)
    [alone] = read_inputs([str(only)])
    assert alone.error == f"{only}: workbook has no worksheet, only chart sheets ('Chart1'): nothing to read"


def test_a_worksheet_named_with_a_hash_is_selected(tmp_path: Path) -> None:
    path = _book(tmp_path / "book.xlsx", [["abstract"], [GOOD]], sheet="Q1#2024")
    [paper] = read_inputs([f"{path}#Q1#2024"])
    assert paper.error is None and paper.abstract == GOOD
    [missing] = read_inputs([f"{path}#Q2#2024"])
    assert missing.error == f"{path}: workbook has no worksheet 'Q2#2024' (its worksheets: 'Q1#2024')"
    result = _run(f"{path}#Q1#2024", "-o", str(tmp_path / "run"))
    assert result.exit_code == 0, result.output


def test_a_formula_without_a_stored_value_is_named_and_an_error_cell_fails_its_row(tmp_path: Path) -> None:
    from openpyxl import Workbook

    path = tmp_path / "formulas.xlsx"
    book = Workbook()  # openpyxl stores no value for a formula: only an app that calculates does
    sheet = book.active
    sheet.append(["id", "part", "abstract"])
    sheet.append(["p1", GOOD, "=B2"])
    sheet.append(["p2", GOOD, "an error cell"])
    sheet.append(["p3", OTHER, OTHER])
    book.save(path)
    _patched(path, SHEET, lambda xml: re.sub('<c r="C3".*?</c>', '<c r="C3" t="e"><v>#REF!</v></c>', xml))
    p1, p2, p3 = read_inputs([str(path)])
    assert p1.error == (
        f"{path}:2: worksheet 'Sheet': abstract cell C2 is a formula (=B2) whose value was never stored: "
        "open and save the workbook in a spreadsheet app, or paste the column as values"
    )
    assert p2.error == f"{path}:3: worksheet 'Sheet': abstract cell C3 holds the error #REF!, not a value"
    assert (p1.id, p2.id, p3.error) == ("p1", "p2", None)


def test_an_empty_abstract_cell_says_so(tmp_path: Path) -> None:
    path = _book(tmp_path / "book.xlsx", [["id", "abstract"], ["p1", ""], ["p2", GOOD]])
    empty, good = read_inputs([str(path)])
    assert empty.error == f"{path}:2: abstract is empty" and good.error is None


def test_when_the_first_worksheet_has_no_abstract_column_the_one_that_has_is_named(tmp_path: Path) -> None:
    path = tmp_path / "book.xlsx"
    book = xlsxwriter.Workbook(str(path))
    book.add_worksheet("Notes").write_row(0, 0, ["read me first"])
    book.add_worksheet("To read").write_column(0, 0, ["Abstract", GOOD])
    book.close()
    [failed] = read_inputs([str(path)])
    assert failed.error == (
        f"{path}:1: worksheet header has no 'abstract' column (read: 'read me first'); "
        "worksheet 'To read' has one: give book.xlsx#To read"
    )
