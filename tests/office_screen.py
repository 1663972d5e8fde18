"""Picture a sheet of a workbook as LibreOffice shows it on a screen, at 100 % (Python-UNO).

Run with the Python that has LibreOffice's ``uno`` module (Debian: ``/usr/bin/python3`` with
``python3-uno``), not the project's venv:

    python3 tests/office_screen.py BOOK.xlsx OUT.pdf SHEET WIDTH_PX HEIGHT_PX [SCROLL_COLUMN]

The sheet is printed on one page the size of the grid a screen of that size shows (headers and
grid lines included, no scaling), which is what a reviewer sees before scrolling; with
``SCROLL_COLUMN`` the columns from the first one right of the frozen panes up to that one are
hidden, as scrolling right shows them. Convert the page with ``pdftoppm -r 96`` for a
picture of the screen's pixels.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from office_edit import _columns, _connect, _free_port, _props  # noqa: E402

_MM100_PER_PX = 2540 / 96  # a pixel at 96 dpi in 1/100 mm, LibreOffice's unit


def main(book: Path, out: Path, sheet_name: str, width: int, height: int, scroll_to: str | None) -> None:
    with tempfile.TemporaryDirectory() as profile:
        office, _, desktop = _connect(Path(profile), _free_port())
        try:
            document = desktop.loadComponentFromURL(book.resolve().as_uri(), "_blank", 0, _props(Hidden=True))
            sheets = document.getSheets()
            for name in list(sheets.getElementNames()):
                if name != sheet_name:
                    sheets.removeByName(name)
            sheet = sheets.getByName(sheet_name)
            if scroll_to:
                header = _columns(sheet)
                frozen = document.getCurrentController().getSplitColumn()
                columns = sheet.getColumns()
                for index in range(frozen, header[scroll_to]):
                    columns.getByIndex(index).IsVisible = False
            style = document.getStyleFamilies().getByName("PageStyles").getByName(sheet.PageStyle)
            for name, value in {
                "Width": int(width * _MM100_PER_PX), "Height": int(height * _MM100_PER_PX),
                "LeftMargin": 0, "RightMargin": 0, "TopMargin": 0, "BottomMargin": 0,
                "HeaderIsOn": False, "FooterIsOn": False, "ScaleToPagesX": 0, "ScaleToPagesY": 0,
                "ScaleToPages": 0, "PageScale": 100, "PrintHeaders": True, "PrintGrid": True,
            }.items():
                style.setPropertyValue(name, value)
            document.storeToURL(out.resolve().as_uri(), _props(FilterName="calc_pdf_Export"))
            document.close(True)
        finally:
            try:
                desktop.terminate()
            except Exception:  # noqa: BLE001 - the bridge goes down with the office
                pass
            office.wait(timeout=30)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5]),
         sys.argv[6] if len(sys.argv) > 6 else None)
