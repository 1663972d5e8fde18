"""How many lines a wrapped cell takes: the review sheet sizes each row for what it holds.

No spreadsheet sizes a row on opening a file it did not write (LibreOffice keeps the stored
height, so an abstract taller than its row is cut), so the writer must. The text is set in Arial,
which every spreadsheet has or replaces by a font of the very same widths (LibreOffice on Linux
by Liberation Sans, which comes with it; Calibri's stand-in there, Carlito, often does not), and
lines are broken as a spreadsheet breaks them: at spaces, a word wider than the cell by
characters (a bold number is as wide: Arial's bold digits are its regular ones). Widths are counted for Excel's column (the narrower of the two), so a count is
never short; against LibreOffice's own heights of the demo run's 88 abstracts and 166
evidences, it is exact or one line over.
"""

from __future__ import annotations

import unicodedata

FONT = "Arial"
FONT_SIZE = 10  # points
#: A line of Arial 10 in Excel (17 px); LibreOffice's is 11.2 pt, so its rows keep a little room.
LINE_POINTS = 12.75
MAX_ROW_POINTS = 409.0  # the tallest row a spreadsheet allows

_EM = 2048  # font units of an em
#: Arial's advance widths (font units) of ' ' to '~', as Liberation Sans (metric-compatible) has them.
_ASCII = (
    569, 569, 727, 1139, 1139, 1821, 1366, 391, 682, 682, 797, 1196, 569, 682, 569, 569,
    1139, 1139, 1139, 1139, 1139, 1139, 1139, 1139, 1139, 1139, 569, 569, 1196, 1196, 1196, 1139,
    2079, 1366, 1366, 1479, 1479, 1366, 1251, 1593, 1479, 569, 1024, 1366, 1139, 1706, 1479, 1593,
    1366, 1593, 1479, 1366, 1251, 1479, 1366, 1933, 1366, 1366, 1251, 569, 569, 569, 961, 1139,
    682, 1139, 1139, 1024, 1139, 1139, 569, 1139, 1139, 455, 455, 1024, 455, 1706, 1139, 1139,
    1139, 1139, 682, 1024, 569, 1139, 1024, 1479, 1024, 1024, 1024, 684, 532, 684, 1196,
)
_OTHER = 1251  # a character outside ASCII: as wide as Arial's widest lowercase letters
_WIDE = _EM  # a CJK character: an em
_DIGIT_PX = 7  # a column width unit is the default font's (Calibri 11) digit, 7 px in Excel
_PADDING_PX = 8  # Excel adds 5 px to a column and keeps some from the text on either side


class _Widths(dict):
    """Each character's advance width, ASCII from the table, any other worked out once."""

    def __missing__(self, char: str) -> float:
        if unicodedata.combining(char):
            width = 0
        else:
            width = _WIDE if unicodedata.east_asian_width(char) in "WF" else _OTHER
        self[char] = width
        return width


_WIDTHS = _Widths({chr(32 + i): width for i, width in enumerate(_ASCII)})
_width = _WIDTHS.__getitem__


def line_count(text: str, width: float) -> int:
    """The lines ``text`` wraps to in a column ``width`` units wide (openpyxl's unit)."""
    room = (int(width * _DIGIT_PX + 5) - _PADDING_PX) * _EM * 72 / (96 * FONT_SIZE)
    space = _WIDTHS[" "]
    lines = 0
    for paragraph in text.split("\n"):
        lines += 1
        if sum(map(_width, paragraph)) <= room:
            continue  # the common case: it fits on one line
        x = 0.0
        for word in paragraph.split(" "):
            size = sum(map(_width, word))
            gap = space if x else 0
            if x and x + gap + size > room:
                lines, x, gap = lines + 1, 0.0, 0
            if size <= room:
                x += gap + size
                continue
            for char in word:  # a word wider than the cell is broken where it runs out
                if x and x + _width(char) > room:
                    lines, x = lines + 1, 0.0
                x += _width(char)
    return lines


def row_points(lines: int) -> float:
    """The height of a row of ``lines`` lines, at most the tallest a spreadsheet allows."""
    return min(max(lines, 1) * LINE_POINTS, MAX_ROW_POINTS)


def fitting_width(text: str, width: float, widest: float) -> float:
    """The narrowest width from ``width`` up to ``widest`` at which ``text`` fits in the
    tallest row; ``widest`` when none does."""
    most = int(MAX_ROW_POINTS // LINE_POINTS)
    while width < widest and line_count(text, width) > most:
        width += 5
    return min(width, widest)
