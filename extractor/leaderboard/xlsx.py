"""The XLSX workbook: Leaderboard, Unranked, Improvements, Claims and Papers sheets (and native charts),
streamed through openpyxl's write-only mode with one named style per look. Abstracts are
untrusted: every text cell goes through :func:`~extractor.text.safe.set_text_cell`."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
from openpyxl import Workbook
from openpyxl.cell import Cell, WriteOnlyCell
from openpyxl.styles import Alignment, Border, Font, NamedStyle, PatternFill, Side
from openpyxl.utils import get_column_letter

from extractor.leaderboard.build import Leaderboard
from extractor.leaderboard.charts import add_charts, chart_blocks
from extractor.leaderboard.columns import (
    BOARD_COLUMNS,
    CHANGE_COLUMNS,
    CLAIM_COLUMNS,
    PAPER_COLUMNS,
    SHEET_CLAIM_COLUMNS,
    UNRANKED_COLUMNS,
    WIDTHS,
)
from extractor.leaderboard.tables import csv_text
from extractor.pipeline.rundir import atomic_write_bytes, atomic_write_text
from extractor.progress import Step, silent
from extractor.text.safe import formula_like, set_text_cell, xlsx_text

ARXIV_ABS = "https://arxiv.org/abs/"
EXCEL_ROWS = 1_048_576  # rows in a worksheet, header included


_FONT = {"name": "Calibri", "size": 11}  # named fonts: a nameless one prints as a serif fallback
# Cell looks, combined per cell into one registered named style (see _StyleBook); a later trait
# wins over an earlier one for the same attribute.
_TRAITS: dict[str, dict[str, object]] = {
    "top": {"alignment": Alignment(vertical="top")},
    "header": {
        "font": Font(**_FONT, bold=True, color="FFFFFF"),
        "fill": PatternFill("solid", fgColor="37474F"),
        "alignment": Alignment(wrap_text=True, vertical="center"),
    },
    "note": {"font": Font(name="Calibri", size=11, bold=True), "alignment": Alignment(wrap_text=True, vertical="top")},
    "muted": {"font": Font(**_FONT, italic=True, color="555555")},
    "first": {"border": Border(top=Side(style="medium", color="37474F"))},
    "bold": {"font": Font(**_FONT, bold=True)},
    "link": {"font": Font(**_FONT, color="1565C0", underline="single")},
    "best": {"fill": PatternFill("solid", fgColor="C8E6C9")},
    "conflict": {"fill": PatternFill("solid", fgColor="FFE0B2")},
    "wrap": {"alignment": Alignment(wrap_text=True, vertical="top")},
    "center": {"alignment": Alignment(horizontal="center", vertical="top")},
    "count": {"number_format": "0"},
    "id": {"number_format": "@"},  # text, so an id like 2401.10100 never becomes the number 2401.101
}
_LOOK_ONLY = frozenset({"top", "wrap", "center", "count", "link", "id"})  # nothing to show on an empty cell

_COLUMN_TRAITS = {t: frozenset({"count", "center"}) for t in ("Claims", "Scores", "Changes", "Rejected")}
_IDS = ("Paper", "Claim id")  # never wrapped nor cut: the column fits the longest id
_WRAPPED = (
    "Evidence", "Conflict", "Title", "Why rejected", "Error", "Setting", "Baseline", "Method", "Model",
    "Benchmark", "Benchmark as written", "Metric", "Metric as written", "Reviewed", "Source",
    "Unranked because",
)
_LINE = 13  # points per line of wrapped text
WRAP_ROWS = 5000  # sheets up to this many rows wrap long text
#: Column widths (characters) one printed landscape page holds at a legible scale (about half
#: size: 5 pt or more for 11 pt text); a wider sheet (Claims) prints on as many pages across as it needs.
PAGE_CHARS = 280


class _StyleBook:
    """Named styles composed from traits, registered once per workbook: one named style per
    cell is far cheaper than setting font, fill and border one by one on 100,000 rows."""

    def __init__(self, workbook: Workbook) -> None:
        self.workbook = workbook
        self.names: dict[frozenset[str], str] = {}

    def name(self, traits: frozenset[str]) -> str:
        found = self.names.get(traits)
        if found is None:
            ordered = [t for t in _TRAITS if t in traits]
            style = NamedStyle(name="lb-" + "-".join(ordered), font=Font(**_FONT))
            for trait in ordered:
                for attribute, value in _TRAITS[trait].items():
                    setattr(style, attribute, value)
            self.workbook.add_named_style(style)
            found = self.names[traits] = style.name
        return found


class _SheetWriter:
    """Streams one table into a write-only worksheet: styled header (frozen, filtered),
    landscape fit-to-width printing, optional wrapped long-text columns with sized rows."""

    def __init__(
        self,
        book: _StyleBook,
        name: str,
        columns: list[tuple[str, str]],
        rows: int,
        note: str | None = None,
        plain: bool = False,
        id_width: int = 0,
    ) -> None:
        self.book = book
        self.ws = ws = book.workbook.create_sheet(name)
        self.titles = [title for _, title in columns]
        widths = [max(WIDTHS.get(t, 14), id_width + 2) if t in _IDS else WIDTHS.get(t, 14) for t in self.titles]
        for i, width in enumerate(widths, 1):
            ws.column_dimensions[get_column_letter(i)].width = width
        # Everything above the rows is written with the first row: set it up before appending.
        self.header_row = header_row = 2 if note else 1
        ws.freeze_panes = f"A{header_row + 1}"
        ws.print_title_rows = f"1:{header_row}"
        ws.page_setup.orientation = "landscape"
        # Fit to as many pages across as keep the print legible (one page shrinks a wide sheet
        # to a few points), and as many down as it takes.
        ws.page_setup.fitToWidth = -(-sum(widths) // PAGE_CHARS)
        ws.page_setup.fitToHeight = 0
        ws.page_setup.pageOrder = "overThenDown"  # the pages of one stretch of rows come together
        ws.sheet_properties.pageSetUpPr.fitToPage = True
        self.last_column = get_column_letter(len(columns))
        if note:
            # The note spans the table's width and wraps, so it never widens the printed page.
            ws.merged_cells.add(f"A1:{self.last_column}1")
            ws.row_dimensions[1].height = _LINE * max(2, -(-len(note) // int(sum(widths) * 1.1)) + 1)  # the wrapped note, all of it
            ws.append([self.cell(note, frozenset({"note"}))])
        ws.row_dimensions[header_row].height = 28
        ws.append([self.cell(t, frozenset({"header"})) for t in self.titles])
        self.rows = 0
        # A plain sheet (the long Claims table) has no per-cell looks: a styled cell costs
        # several times a plain one, and the other sheets carry the links and formats.
        self.paper_col = self.titles.index("Paper") if "Paper" in self.titles and not plain else None
        self.column_traits = {i: _COLUMN_TRAITS[t] for i, t in enumerate(self.titles) if t in _COLUMN_TRAITS and not plain}
        # Long text wraps on sheets a person reads row by row; a longer sheet keeps one line per
        # row, which scans and filters better and writes several times faster.
        wrap = not plain and rows <= WRAP_ROWS
        if wrap:  # ids formatted as text for a person who edits them (costly on long sheets)
            for i, title in enumerate(self.titles):
                if title in _IDS:
                    self.column_traits[i] = self.column_traits.get(i, frozenset()) | {"id"}
        self.wrapped = {i: WIDTHS.get(t, 14) for i, t in enumerate(self.titles) if t in _WRAPPED and wrap}
        if self.wrapped:  # rows grow: every cell starts at the top, next to the wrapped text
            for i in range(len(columns)):
                self.column_traits[i] = self.column_traits.get(i, frozenset()) | {"top"}
        for i in self.wrapped:
            self.column_traits[i] = self.column_traits.get(i, frozenset()) | {"wrap"}

    def cell(self, value: object, traits: frozenset[str]) -> Cell:
        cell = WriteOnlyCell(self.ws)
        cell.style = self.book.name(traits)  # first: a named style resets the quote prefix
        set_text_cell(cell, value)
        return cell

    def append(self, values: list, arxiv: str | None = None, row_traits: dict[int, frozenset[str]] | None = None) -> None:
        """One row; ``arxiv`` links the Paper cell; ``row_traits`` adds looks per column."""
        row: list[object] = [xlsx_text(v) for v in values]
        traits = dict(self.column_traits)
        for i, extra in (row_traits or {}).items():
            traits[i] = traits.get(i, frozenset()) | extra
        if arxiv and self.paper_col is not None:
            traits[self.paper_col] = traits.get(self.paper_col, frozenset()) | {"link"}
        for i, value in enumerate(row):  # a plain value like a formula needs a cell typed as text
            if formula_like(value) and i not in traits:
                traits[i] = frozenset()
        for i, looks in traits.items():
            if row[i] is None and looks <= _LOOK_ONLY:
                continue
            row[i] = cell = self.cell(row[i], looks)
            if i == self.paper_col and arxiv:
                cell.hyperlink = ARXIV_ABS + arxiv
        self.rows += 1
        # Spreadsheets do not grow a row for wrapped text on opening: give it the lines it needs.
        lines = max((len(values[i]) // int(width * 1.15) + 1 for i, width in self.wrapped.items() if isinstance(values[i], str)), default=1)
        if lines > 1:
            self.ws.row_dimensions[self.header_row + self.rows].height = _LINE * min(lines, 8)
        self.ws.append(row)

    def close(self) -> None:
        if self.rows:
            self.ws.auto_filter.ref = f"A{self.header_row}:{self.last_column}{self.header_row + self.rows}"


def _records(frame: pd.DataFrame, columns: list[tuple[str, str]]) -> Iterable[tuple[list, str | None]]:
    """The cells of ``columns`` (None for missing) and the row's arXiv id."""
    names = [name for name, _ in columns]
    data = frame.reindex(columns=names + ["arxiv_id"])
    data = data.astype(object).where(data.notna(), None)
    for row in data.itertuples(index=False, name=None):
        yield list(row[:-1]), row[-1]


def _board_sheet(book: _StyleBook, board: Leaderboard) -> _SheetWriter:
    scores = board.scores
    papers = scores["paper_id"].nunique() if not scores.empty else 0
    note = (
        f"Leaderboard: {len(scores)} scores in {len(board.blocks)} blocks from {papers} paper{'' if papers == 1 else 's'}. "
        "A score is ranked only when its metric, benchmark and subject (a method or model, or the paper's "
        "own proposed method, shown under the paper's short title when it is unnamed) are known; a benchmark "
        "marked 'from context' is not written in the row's own evidence: check it; "
        f"the {len(board.unranked)} others are on the Unranked sheet with what they lack. A block "
        "holds comparable numbers (same benchmark, metric, unit, setting and model size), ranked by "
        "the metric's direction (\u2191 higher is better, \u2193 lower). Changes over a baseline are "
        "on the Improvements sheet; every claim is on the Claims sheet."
    )
    sheet = _SheetWriter(book, "Leaderboard", BOARD_COLUMNS, len(scores), note=note, id_width=_id_width(scores[["paper_id"]]))  # the board shows no claim id
    if scores.empty:
        sheet.ws.append([sheet.cell(
            "No score names its metric, benchmark and subject yet: see the Unranked sheet "
            f"({len(board.unranked)} scores) and the Claims sheet ({len(board.claims)} claims).",
            frozenset({"muted"}),
        )])
        return sheet
    titles = sheet.titles
    first_looks = {c: frozenset({"first"}) for c in range(len(titles))}
    first_looks[0] = frozenset({"first", "bold"})
    best_cols = [titles.index(t) for t in ("Rank", "Method", "Model", "Value", "Unit")]
    conflict_col = titles.index("Conflict")
    first = scores["block"].ne(scores["block"].shift()).tolist()
    best = scores["best"].tolist()
    conflict = scores["conflict"].notna().tolist()
    for i, (values, arxiv) in enumerate(_records(scores, BOARD_COLUMNS)):
        looks = dict(first_looks) if first[i] else {}
        if best[i]:
            for c in best_cols:
                looks[c] = looks.get(c, frozenset()) | {"best"}
        if conflict[i]:
            looks[conflict_col] = looks.get(conflict_col, frozenset()) | {"conflict"}
        sheet.append(values, arxiv, looks)
    sheet.close()
    return sheet


def _id_width(*frames: pd.DataFrame) -> int:
    """The longest paper or claim id of the frames (their id columns are sized to it)."""
    lengths = [frame[c].astype(str).str.len().max() for frame in frames for c in ("paper_id", "claim_id") if c in frame and len(frame)]
    return int(max(lengths, default=0))


def _table_sheet(book: _StyleBook, name: str, frame: pd.DataFrame, columns: list[tuple[str, str]], plain: bool = False) -> None:
    sheet = _SheetWriter(book, name, columns, len(frame), plain=plain, id_width=_id_width(frame))
    for values, arxiv in _records(frame, columns):
        sheet.append(values, arxiv)
    sheet.close()


def _charts_sheet(book: _StyleBook, board: Leaderboard, board_sheet: _SheetWriter) -> int:
    """One native chart per block with two or more entries, drawn from the Leaderboard sheet's
    Value cells; the number of charts."""
    blocks = chart_blocks(board, board_sheet.header_row + 1)
    ws = book.workbook.create_sheet("Charts")
    ws.column_dimensions["A"].width = 50
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    note = WriteOnlyCell(ws)
    set_text_cell(note, (
        f"{len(blocks)} chart{'' if len(blocks) == 1 else 's'}, one per block with two or more entries, drawn from the "
        "Leaderboard sheet's Value column (the best entry in green); column A holds each chart's labels."
    ))
    ws.append([note])
    ws.append([])

    def label(text: str) -> WriteOnlyCell:
        cell = WriteOnlyCell(ws)
        set_text_cell(cell, xlsx_text(text))
        return cell

    add_charts(ws, board_sheet.ws, board_sheet.titles.index("Value") + 1, blocks, label)
    return len(blocks)


@dataclass(frozen=True)
class Moved:
    """A table too long for a worksheet, written as CSV beside the workbook instead."""

    sheet: str
    rows: int
    path: Path


def _moved_sheet(book: _StyleBook, moved: Moved, max_rows: int) -> None:
    ws = book.workbook.create_sheet(moved.sheet)
    ws.column_dimensions["A"].width = 120
    cell = WriteOnlyCell(ws)
    set_text_cell(cell, (
        f"The {moved.sheet} table has {moved.rows:,} rows, more than the {max_rows:,} a worksheet can "
        f"hold: every row is in {moved.path.name}, beside this workbook."
    ))
    ws.append([cell])


@dataclass(frozen=True)
class Written:
    """What a workbook holds beyond its sheets: the tables moved to CSV, the number of charts."""

    moved: list[Moved]
    charts: int


def write_xlsx(
    board: Leaderboard, path: Path, charts: bool = True, step: Step = silent, max_rows: int = EXCEL_ROWS - 2
) -> Written:
    """Leaderboard, Unranked, Improvements, Claims and Papers sheets (and a Charts sheet of native
    charts, unless ``charts`` is false or the Leaderboard table did not fit a sheet).
    A Claims sheet longer than :data:`WRAP_ROWS` is plain (one line per claim, no links) to stay
    fast. A table longer than ``max_rows`` (Excel's limit, less the note and header rows) is
    written as CSV beside the workbook and its sheet says so: the workbook is never one Excel
    cannot open."""
    workbook = Workbook(write_only=True)
    book = _StyleBook(workbook)
    unknown = board.claims["benchmark_known"].eq(False).map({True: "unknown", False: None})
    claims = board.claims.assign(benchmark_unknown=unknown)
    moved: list[Moved] = []

    def fitting(
        name: str, frame: pd.DataFrame, csv_columns: list[tuple[str, str]], write: Callable[[], None]
    ) -> Callable[[], None]:
        """The sheet's writer, or one that moves the table to CSV when it cannot fit."""
        if len(frame) <= max_rows:
            return write

        def move() -> None:
            elsewhere = Moved(name, len(frame), path.with_name(f"{path.stem}_{name.lower()}.csv"))
            atomic_write_text(elsewhere.path, csv_text(frame, [key for key, _ in csv_columns]))
            _moved_sheet(book, elsewhere, max_rows)
            moved.append(elsewhere)

        return move

    board_sheet: list[_SheetWriter] = []
    charted: list[int] = []
    sheets = [
        fitting("Leaderboard", board.scores, BOARD_COLUMNS, lambda: board_sheet.append(_board_sheet(book, board))),
        fitting("Unranked", board.unranked, UNRANKED_COLUMNS,
                lambda: _table_sheet(book, "Unranked", board.unranked, UNRANKED_COLUMNS)),
        fitting("Improvements", board.changes, CHANGE_COLUMNS,
                lambda: _table_sheet(book, "Improvements", board.changes, CHANGE_COLUMNS)),
        fitting("Claims", claims, CLAIM_COLUMNS,
                lambda: _table_sheet(book, "Claims", claims, SHEET_CLAIM_COLUMNS, plain=len(claims) > WRAP_ROWS)),
        fitting("Papers", board.papers, PAPER_COLUMNS,
                lambda: _table_sheet(book, "Papers", board.papers, PAPER_COLUMNS)),
        lambda: charted.append(_charts_sheet(book, board, board_sheet[0])) if charts and board_sheet else None,
    ]
    stage = f"writing {path.name}"
    for done, write in enumerate(sheets):
        step(stage, done, len(sheets) + 1)
        write()
    buffer = io.BytesIO()
    workbook.save(buffer)  # the rows are streamed into the file here: the last, long step
    atomic_write_bytes(path, buffer.getvalue())
    step(stage, len(sheets) + 1, len(sheets) + 1)
    return Written(moved, sum(charted))
