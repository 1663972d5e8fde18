"""How much of a run's review sheet a reviewer sees at once, and whether any abstract is cut.

    extractor run fixtures/abstracts --out /tmp/demo
    python benchmarks/review_sheet.py /tmp/demo     # with LibreOffice: apt-get install libreoffice-calc python3-uno poppler-utils

Exports the run's review sheet (to a temporary file) and prints the claims a screen shows on
average (the Claims sheet's rows, their new rows included, over 800 pixels of grid: a
1920x1080 screen less LibreOffice's bars), the rows' heights, and, where LibreOffice is
installed, how many of the Papers sheet's abstracts LibreOffice shows whole: the sheet printed
as screen-wide pages (tests/office_screen.py), each abstract looked for in the PDF's text.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path

from openpyxl import load_workbook

from extractor.review import export_review
from extractor.review.sheet import NEW_ROWS
from extractor.runs import Run

SCREEN_PX = 800
ROOT = Path(__file__).resolve().parent.parent


def _cut_abstracts(book: Path, run: Path, work: Path) -> int:
    pdf = work / "papers.pdf"
    subprocess.run(["/usr/bin/python3", str(ROOT / "tests" / "office_screen.py"), str(book), str(pdf), "Papers", "1920", "3000"],
                   check=True, capture_output=True, timeout=600)
    text = "".join(subprocess.run(["pdftotext", "-raw", str(pdf), "-"], check=True, capture_output=True, text=True).stdout.split())
    return sum("".join((p.abstract or "").split()) not in text for p in Run.open(run).papers())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        book = work / "review.xlsx"
        export_review(Run.open(args.run), book)
        sheet = load_workbook(book)["Claims"]
        heights = [(sheet.cell(r, 1).value, sheet.row_dimensions[r].height) for r in range(2, sheet.max_row + 1)]
        claims = [h for row_id, h in heights if row_id != "new"]
        used = [h for _, h in heights[:-NEW_ROWS]]  # the blank rows at the foot are not reviewed
        per_screen = len(claims) / (sum(used) * 96 / 72 / SCREEN_PX)
        print(f"{len(claims)} claims in {len(used)} rows: {per_screen:.1f} claims a {SCREEN_PX} px screen; "
              f"claim rows {statistics.median(claims):g} pt median, {max(claims):g} pt at most")
        if shutil.which("soffice") and Path("/usr/bin/python3").exists() and shutil.which("pdftotext"):
            papers = sum(1 for _ in Run.open(args.run).papers())
            print(f"abstracts cut in LibreOffice: {_cut_abstracts(book, args.run, work)} of {papers}")
        else:
            print("abstracts cut in LibreOffice: not measured (LibreOffice, python3-uno or poppler-utils missing)")


if __name__ == "__main__":
    main()
