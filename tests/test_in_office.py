"""The files as users open them: the demo leaderboard and a review sheet in real LibreOffice
(headless), a review sheet edited, sorted and saved by LibreOffice itself and applied, and
report.html in headless Chromium at desktop and phone width. Slow; ``.ci/run`` installs
LibreOffice and Chromium. The pictures go to tests/artifacts/ for a person to look at."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from openpyxl import load_workbook
from typer.testing import CliRunner

from extractor.runs import Run
from extractor.cli.app import app
from tests.runs import read_papers
from extractor.review import load_reviewed
from extractor.text.numbers import find_numbers

from .conftest import FIXTURES

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "tests" / "artifacts"
SOFFICE = shutil.which("soffice")
PDFTOTEXT, PDFTOPPM = shutil.which("pdftotext"), shutil.which("pdftoppm")
UNO_PYTHON = "/usr/bin/python3"  # Debian's python3-uno lives with the system Python
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

needs_office = pytest.mark.skipif(
    not (SOFFICE and PDFTOTEXT and PDFTOPPM),
    reason="LibreOffice or poppler is not installed (apt-get install -y libreoffice-calc python3-uno poppler-utils)",
)
#: What a spreadsheet shows in a cell it could not compute.
ERROR_CELLS = re.compile(r"#VALUE!|#NAME\?|#REF!|#DIV/0!|#N/A|#NUM!|#NULL!|Err:\d+")
#: A formula guard shown as text: a quote in front of what would have been a formula.
VISIBLE_QUOTE = re.compile(r"(?:^|\s)'[=+\-@]", re.MULTILINE)
ODD_ID = "2401.10100"  # an id a spreadsheet would read as the number 2401.101

runner = CliRunner()


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Quickstart run, plus one paper whose id looks like a number."""
    base = tmp_path_factory.mktemp("office")
    extra = base / "odd-id.jsonl"
    extra.write_text(json.dumps({
        "id": ODD_ID, "title": "An id that looks like a number",
        "abstract": "We propose OddNet. OddNet reaches 77.3% accuracy on GSM8K with Llama-3-8B.",
    }) + "\n")
    run = base / "demo"
    result = runner.invoke(app, ["run", str(FIXTURES / "abstracts"), str(extra), "--out", str(run), "-q", "--no-cache"])
    assert result.exit_code == 0, result.output
    return run


def _office(*args: str, cwd: Path) -> None:
    profile = (cwd / "lo-profile").as_uri()
    subprocess.run(
        [SOFFICE, "--headless", "--norestore", f"-env:UserInstallation={profile}", *args],
        cwd=cwd, check=True, capture_output=True, timeout=300,
    )


def _pdf_text_and_pages(book: Path, out_dir: Path, name: str) -> str:
    """Convert with LibreOffice, keep every page as a PNG under tests/artifacts/, return the text."""
    _office("--convert-to", "pdf", "--outdir", str(out_dir), str(book), cwd=out_dir)
    pdf = out_dir / (book.stem + ".pdf")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for old in ARTIFACTS.glob(f"{name}-*.png"):
        old.unlink()
    subprocess.run([PDFTOPPM, "-r", "80", "-png", str(pdf), str(ARTIFACTS / name)], check=True, timeout=300)
    return subprocess.run([PDFTOTEXT, "-layout", str(pdf), "-"], check=True, capture_output=True, text=True).stdout


@pytest.mark.slow
@needs_office
def test_leaderboard_and_review_sheet_render_in_libreoffice(demo: Path, tmp_path: Path) -> None:
    text = _pdf_text_and_pages(demo / "leaderboard.xlsx", tmp_path, "leaderboard")
    assert "Leaderboard:" in text
    assert not ERROR_CELLS.findall(text)
    assert not VISIBLE_QUOTE.findall(text), VISIBLE_QUOTE.findall(text)[:5]
    assert ODD_ID in text and "2401.101 " not in text  # the id keeps its digits
    assert "nan" not in re.findall(r"[a-z]+", text)
    book = tmp_path / "review.xlsx"
    assert runner.invoke(app, ["review", "export", str(demo), "--out", str(book)]).exit_code == 0
    text = _pdf_text_and_pages(book, tmp_path, "review")
    assert "How to review this run" in text and ODD_ID in text
    assert not ERROR_CELLS.findall(text)
    assert not VISIBLE_QUOTE.findall(text), VISIBLE_QUOTE.findall(text)[:5]
    assert len(list(ARTIFACTS.glob("leaderboard-*.png"))) >= 4 and list(ARTIFACTS.glob("review-*.png"))


def _missing_number(run: Path) -> tuple[str, float, str]:
    """A paper, a number its abstract writes that no claim holds, and words around it."""
    for paper in read_papers(run):
        if paper.extraction is None or not paper.abstract:
            continue
        taken = {c.value for c in paper.extraction.claims}
        for mention in find_numbers(paper.abstract):
            if mention.value not in taken and mention.value > 1:
                start, end = max(0, mention.start - 25), min(len(paper.abstract), mention.end + 15)
                return paper.id, mention.value, paper.abstract[start:end].strip()
    raise AssertionError("no unclaimed number in the demo run")


@pytest.mark.slow
@needs_office
@pytest.mark.skipif(not Path(UNO_PYTHON).exists(), reason="no system Python for python3-uno")
def test_a_review_sheet_edited_sorted_and_saved_by_libreoffice_applies(demo: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(demo, run)
    book, edited = tmp_path / "review.xlsx", tmp_path / "edited.xlsx"
    assert runner.invoke(app, ["review", "export", str(run), "--out", str(book), "-q"]).exit_code == 0
    claims = [c for p in read_papers(run) if p.extraction for c in p.extraction.claims]
    rejected, renamed = claims[0], claims[1]
    paper_id, value, evidence = _missing_number(run)
    edits = {
        # Sorting a column must work in the exported sheet (it is not protected).
        "sort": {"sheet": "Claims", "column": "value"},
        "cells": [
            ["Claims", rejected.id, "decision", "reject"],
            ["Claims", renamed.id, "metric", "cache hit rate"],
            ["Claims", renamed.id, "setting", "1/2"],  # a date if the column were not text
            ["Claims", "new", "paper_id", paper_id],
            ["Claims", "new", "value", f"{value:g}"],
            ["Claims", "new", "evidence", evidence],
        ],
    }
    spec = tmp_path / "edits.json"
    spec.write_text(json.dumps(edits))
    done = subprocess.run([UNO_PYTHON, str(ROOT / "tests" / "office_edit.py"), str(book), str(edited), str(spec)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    sheet = load_workbook(edited)["Claims"]
    header = [c.value for c in sheet[1]]
    values = [r[header.index("value")] for r in sheet.iter_rows(min_row=2, values_only=True) if r[0] != "new"]
    assert values == sorted(values, reverse=True)  # LibreOffice sorted the rows
    result = runner.invoke(app, ["review", "apply", str(edited), str(run), "--reviewer", "office"], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    assert "applied 3 (decisions: 1 edit, 1 reject), unchanged" in result.output and "refused 0" in result.output
    papers, marks = load_reviewed(Run.open(run))
    current = {c.id: c for p in papers if p.extraction for c in p.extraction.claims}
    assert rejected.id not in current and marks[rejected.id].decision == "reject"
    assert current[renamed.id].metric == "cache hit rate" and current[renamed.id].setting == "1/2"
    added = [c for c in current.values() if c.id.startswith(paper_id + "#") and c.value == value]
    assert len(added) == 1 and marks[added[0].id].added


SCREEN = (1920, 840)  # the grid LibreOffice shows on a 1920x1080 screen, below its bars


def _screen(book: Path, out: Path, sheet: str, size: tuple[int, int], scroll_to: str | None = None, mode: str = "-layout") -> str:
    """``sheet`` printed on pages the size of a screen's grid (tests/office_screen.py), the first
    kept as a picture in tests/artifacts/ (``out``'s name); the text of every page (``mode``:
    pdftotext's ``-layout``, or ``-raw`` for each cell's text in one piece)."""
    pdf = out.with_suffix(".pdf")
    command = [UNO_PYTHON, str(ROOT / "tests" / "office_screen.py"), str(book), str(pdf), sheet, *map(str, size)]
    done = subprocess.run([*command, *([scroll_to] if scroll_to else [])], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    picture = ARTIFACTS / out.name
    picture.unlink(missing_ok=True)
    subprocess.run([PDFTOPPM, "-r", "96", "-f", "1", "-l", "1", "-png", "-singlefile", str(pdf), str(picture.with_suffix(""))],
                   check=True, timeout=300)
    assert picture.stat().st_size > 10_000
    return subprocess.run([PDFTOTEXT, mode, str(pdf), "-"], check=True, capture_output=True, text=True).stdout


@pytest.mark.slow
@needs_office
@pytest.mark.skipif(not Path(UNO_PYTHON).exists(), reason="no system Python for python3-uno")
def test_the_review_sheet_as_libreoffice_shows_it_and_saves_it_untouched(demo: Path, tmp_path: Path) -> None:
    """On a 1920x1080 screen the evidence, the value and the decision are side by side with the
    fields, and stay when the sheet is scrolled right; every row LibreOffice shows whole is as
    the sheet sized it; every abstract of the Papers sheet is whole; and the sheet saved by
    LibreOffice untouched records nothing. Pictures: tests/artifacts/sheet-*.png."""
    run = tmp_path / "run"
    shutil.copytree(demo, run)
    book = tmp_path / "review.xlsx"
    assert runner.invoke(app, ["review", "export", str(run), "--out", str(book), "-q"]).exit_code == 0

    first = _screen(book, tmp_path / "sheet-screen.png", "Claims", SCREEN)
    header = first.splitlines()[1].split()[1:]  # after the row number
    assert header[:11] == ["id", "evidence", "value", "decision", "unit", "metric", "benchmark", "method", "model",
                           "baseline", "setting"], header
    sheet = load_workbook(book)["Claims"]
    room, fits = SCREEN[1] - 2 * 17, []  # below the column letters and the header row
    for row in range(2, sheet.max_row + 1):
        room -= sheet.row_dimensions[row].height * 96 / 72
        if room < 0:
            break
        if sheet.cell(row, 1).value != "new":
            fits.append(sheet.cell(row, 1).value)
    shown = re.findall(r"p-[0-9a-f]{12}#[0-9a-f]{8}", first)
    assert shown[: len(fits)] == fits and len(fits) >= 8, (fits, shown)
    scrolled = _screen(book, tmp_path / "sheet-scrolled.png", "Claims", SCREEN, "note")
    assert scrolled.splitlines()[1].split()[1:7] == ["id", "evidence", "value", "decision", "note", "paper_id"]

    papers = _screen(book, tmp_path / "sheet-papers.png", "Papers", (SCREEN[0], 3_000), mode="-raw")
    text = "".join(papers.split())
    assert all("".join(p.abstract.split()) in text for p in read_papers(run))  # none cut by its row

    untouched, spec = tmp_path / "untouched.xlsx", tmp_path / "none.json"
    spec.write_text(json.dumps({"cells": []}))
    done = subprocess.run([UNO_PYTHON, str(ROOT / "tests" / "office_edit.py"), str(book), str(untouched), str(spec)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    result = runner.invoke(app, ["review", "apply", str(untouched), str(run), "--reviewer", "office"], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    assert result.output.startswith("applied 0, unchanged ") and "refused 0" in result.output and "(nothing recorded)" in result.output


def _chromium(url: str, profile: Path, *args: str) -> str:
    command = [
        CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--allow-file-access-from-files",
        f"--user-data-dir={profile}", "--virtual-time-budget=5000", *args, url,
    ]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=True).stdout


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install -y chromium)")
@pytest.mark.parametrize(("width", "height"), [(1400, 1400), (390, 2400)])
def test_report_fits_desktop_and_phone_width_in_chromium(demo: Path, tmp_path: Path, width: int, height: int) -> None:
    """Headless Chromium's window is at least 500 px wide, so the page is measured and pictured
    inside a frame of exactly ``width`` pixels: its document must not scroll sideways."""
    report = tmp_path / "report.html"
    assert runner.invoke(app, ["report", str(demo), "--out", str(report), "-q"]).exit_code == 0
    frame = tmp_path / "frame.html"
    frame.write_text(
        '<!doctype html><html><body style="margin:0">'
        f'<iframe id="f" src="report.html" style="width:{width}px;height:{height}px;border:0;display:block"></iframe>'
        "<script>document.getElementById('f').addEventListener('load', function () {"
        "var d = this.contentDocument.documentElement;"
        "document.title = 'scroll ' + d.scrollWidth + ' client ' + d.clientWidth; });</script></body></html>"
    )
    dom = _chromium(frame.as_uri(), tmp_path / "profile", "--dump-dom", f"--window-size={max(width, 500)},{height}")
    found = re.search(r"<title>scroll (\d+) client (\d+)</title>", dom)
    assert found, dom[:500]
    scroll, client = map(int, found.groups())
    assert client <= width and scroll <= client, f"{scroll} px of content in a {client} px wide view"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shot = ARTIFACTS / f"report-{width}.png"
    shot.unlink(missing_ok=True)
    _chromium(frame.as_uri(), tmp_path / "profile", f"--screenshot={shot}", f"--window-size={width if width >= 500 else 500},{height}", "--hide-scrollbars")
    assert shot.stat().st_size > 10_000


@pytest.mark.slow
@needs_office
def test_native_charts_are_drawn_by_libreoffice(tmp_path: Path) -> None:
    """The Charts sheet's charts are the spreadsheet's own, drawn from the Leaderboard's cells:
    LibreOffice renders their titles, bar labels and axis titles (a picture of it in tests/artifacts/)."""
    source = tmp_path / "papers.jsonl"
    papers = {
        "a": "We propose GANQ. GANQ reaches 83.6% accuracy on GSM8K with Llama-3-8B.",
        "b": "We propose SqueezeLLM. SqueezeLLM reaches 79.1% accuracy on GSM8K with Llama-3-8B.",
        "m$\\frac{$1": "We propose FastKV. FastKV reaches 12.3 perplexity on WikiText-2 with Llama-3-8B.",
        "d": "We propose SlowKV. SlowKV reaches 14.9 perplexity on WikiText-2 with Llama-3-8B.",
    }
    source.write_text("".join(json.dumps({"id": k, "abstract": v}) + "\n" for k, v in papers.items()))
    run = tmp_path / "run"
    assert runner.invoke(app, ["run", str(source), "--out", str(run), "-q", "--backend", "rules"]).exit_code == 0
    text = _pdf_text_and_pages(run / "leaderboard.xlsx", tmp_path, "charts")
    assert "2 charts, one per block" in text
    assert "GSM8K with Llama-3-8B" in text and "WikiText-2 with Llama-3-8B" in text
    assert "accuracy (%): higher is better" in text and "perplexity: lower is better" in text
    assert "FastKV (proposed) [m$\\frac{$1]" in text  # plain text, never markup
