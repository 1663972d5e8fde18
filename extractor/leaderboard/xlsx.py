"""The XLSX workbook: Leaderboard, Unranked, Improvements, Claims and Papers sheets (and native charts),
streamed through XlsxWriter's constant-memory mode (each row goes to disk once written) with one
cell format per look. Abstracts are untrusted: text a spreadsheet would run as a formula is typed
as text with the quote prefix, and characters XLSX cannot hold are shown as visible symbols
(:func:`~extractor.text.safe.xlsx_text`)."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable, Iterator
from typing import IO
from dataclasses import dataclass
from itertools import compress
from pathlib import Path

import pandas as pd
import xlsxwriter
from xlsxwriter.exceptions import FileCreateError
from xlsxwriter.format import Format
from xlsxwriter.utility import xl_col_to_name
from xlsxwriter.worksheet import Worksheet

from extractor.catalog.conditions import names as condition_names
from extractor.leaderboard.build import CHUNK_ROWS, Leaderboard
from extractor.leaderboard.charts import add_charts, chart_blocks
from extractor.leaderboard.columns import (
    BOARD_COLUMNS,
    BOARD_WIDTHS,
    CHANGE_COLUMNS,
    CLAIM_COLUMNS,
    PAPER_COLUMNS,
    SHEET_CLAIM_COLUMNS,
    UNRANKED_COLUMNS,
    WIDTHS,
)
from extractor.leaderboard.tables import write_frames_csv
from extractor.atomic import atomic_file, naming, writing
from extractor.progress import Step, silent
from extractor.text.safe import FORMULA_STARTS, xlsx_text

ARXIV_ABS = "https://arxiv.org/abs/"
EXCEL_ROWS = 1_048_576  # rows in a worksheet, header included
EXCEL_LINKS = 65_530  # hyperlinks in a worksheet; past it a paper id is written without its link


# Cell looks, combined per cell into one cell format (see _FormatBook). Each look sets parts of a
# cell (font, fill, alignment, border, number format, quote prefix); a later look replaces an
# earlier one's part whole, so 'link' after 'bold' is a link, not a bold link.
_BAR = {"bg_color": "#37474F", "pattern": 1}
_TRAITS: dict[str, dict[str, dict[str, object]]] = {
    "top": {"alignment": {"valign": "top"}},
    "header": {
        "font": {"bold": True, "font_color": "#FFFFFF"},
        "fill": _BAR,
        "alignment": {"text_wrap": True, "valign": "vcenter"},
    },
    "note": {"font": {"bold": True}, "alignment": {"text_wrap": True, "valign": "top"}},
    "muted": {"font": {"italic": True, "font_color": "#555555"}},
    "first": {"border": {"top": 2, "top_color": "#37474F"}},  # 2: medium
    "bold": {"font": {"bold": True}},
    "link": {"font": {"font_color": "#1565C0", "underline": 1}},
    "best": {"fill": {"bg_color": "#C8E6C9", "pattern": 1}},
    "conflict": {"fill": {"bg_color": "#FFE0B2", "pattern": 1}},
    "wrap": {"alignment": {"text_wrap": True, "valign": "top"}},
    "center": {"alignment": {"align": "center", "valign": "top"}},
    "count": {"number": {"num_format": "0"}},
    "id": {"number": {"num_format": "@"}},  # text, so an id like 2401.10100 never becomes the number 2401.101
    "quote": {"quote": {"quote_prefix": True}},  # formula-like text, typed as text and shown as written
}
#: Writes one cell: (row, column, value).
CellWriter = Callable[[int, int, object], None]
_LOOK_ONLY = frozenset({"top", "wrap", "center", "count", "link", "id"})  # nothing to show on an empty cell
_QUOTE = frozenset({"quote"})

_COLUMN_TRAITS = {t: frozenset({"count", "center"}) for t in ("Claims", "Scores", "Changes", "Rejected")}
_IDS = ("Paper", "Claim id")  # never wrapped nor cut: the column fits the longest id
_WRAPPED = (
    "Evidence", "Conflict", "Title", "Why rejected", "Error", "Setting", "Baseline", "Method", "Model",
    "Benchmark", "Benchmark as written", "Metric", "Metric as written", "Reviewed", "Source",
    "Unranked because", "Conditions", "Block", "Configuration",
)
_LINE = 13  # points per line of wrapped text
WRAP_ROWS = 5000  # sheets up to this many rows wrap long text
#: Column widths (characters) one printed landscape page holds at a legible scale (about half
#: size: 5 pt or more for 11 pt text); a wider sheet (Claims) prints on as many pages across as it needs.
PAGE_CHARS = 280


class _FormatBook:
    """Cell formats composed from looks, added once per workbook: one format per combination,
    however many cells share it."""

    def __init__(self, workbook: xlsxwriter.Workbook) -> None:
        self.workbook = workbook
        self.formats: dict[frozenset[str], Format | None] = {frozenset(): None}

    def format(self, traits: frozenset[str]) -> Format | None:
        found = self.formats.get(traits, False)
        if found is False:
            parts: dict[str, dict[str, object]] = {}
            for trait in _TRAITS:
                if trait in traits:
                    parts.update(_TRAITS[trait])
            found = self.formats[traits] = self.workbook.add_format({k: v for part in parts.values() for k, v in part.items()})
        return found

    def text(self, ws: Worksheet, row: int, col: int, value: object, traits: frozenset[str] = frozenset()) -> None:
        """Write one cell with these looks (see :meth:`writer`)."""
        self.writer(ws, traits)(row, col, value)

    def writer(self, ws: Worksheet, traits: frozenset[str], clean: bool = False) -> CellWriter:
        """The writer of cells with these looks on ``ws``, their formats looked up once: text
        as text (quote-prefixed when it looks like a formula), numbers and booleans as such, an
        empty cell (None or '') only when its look shows on it. ``clean``: the texts are known
        to hold no character XLSX cannot (see :func:`_clean`), so none is looked for."""
        plain, quoted = self.format(traits), self.format(traits | _QUOTE)
        blank = bool(traits - _LOOK_ONLY)
        write_string, write_number = ws.write_string, ws.write_number

        def write(row: int, col: int, value: object) -> None:
            if isinstance(value, str) and value:
                text = value if clean else xlsx_text(value)
                write_string(row, col, text, quoted if text.startswith(FORMULA_STARTS) else plain)  # type: ignore[union-attr]
            elif value is None or value == "":
                if blank:
                    ws.write_blank(row, col, None, plain)
            elif isinstance(value, bool):
                ws.write_boolean(row, col, value, plain)
            elif isinstance(value, (int, float)):
                write_number(row, col, value, plain)
            else:
                write_string(row, col, str(value), plain)

        return write


class _SheetWriter:
    """Streams one table into a worksheet: styled header (frozen, filtered), landscape
    fit-to-width printing, optional wrapped long-text columns with sized rows."""

    def __init__(
        self,
        book: _FormatBook,
        name: str,
        columns: list[tuple[str, str]],
        rows: int,
        note: str | None = None,
        plain: bool = False,
        id_width: int = 0,
        column_widths: dict[str, int] = WIDTHS,
    ) -> None:
        self.book = book
        self.name = name
        self.ws = ws = book.workbook.add_worksheet(name)
        self.titles = [title for _, title in columns]
        widths = [max(column_widths.get(t, 14), id_width + 2) if t in _IDS else column_widths.get(t, 14) for t in self.titles]
        for i, width in enumerate(widths):
            ws.set_column(i, i, width)
        self.header_row = header_row = 2 if note else 1  # 1-based, as a spreadsheet shows it
        ws.freeze_panes(header_row, 0)
        ws.repeat_rows(0, header_row - 1)
        ws.set_landscape()
        # Fit to as many pages across as keep the print legible (one page shrinks a wide sheet
        # to a few points), and as many down as it takes.
        ws.fit_to_pages(-(-sum(widths) // PAGE_CHARS), 0)
        ws.print_across()  # the pages of one stretch of rows come together
        self.last_column = len(columns) - 1
        if note:
            # The note spans the table's width and wraps, so it never widens the printed page.
            ws.set_row(0, _LINE * max(2, -(-len(note) // int(sum(widths) * 1.1)) + 1))  # the wrapped note, all of it
            ws.merge_range(0, 0, 0, self.last_column, "", book.format(frozenset({"note"})))
            book.text(ws, 0, 0, note, frozenset({"note"}))
        ws.set_row(header_row - 1, 28)
        for i, title in enumerate(self.titles):
            book.text(ws, header_row - 1, i, title, frozenset({"header"}))
        self.rows = 0
        self.links = 0
        # A plain sheet (the long Claims table) has no per-cell looks: a styled cell costs
        # more than a plain one, and the other sheets carry the links and formats.
        self.paper_col = self.titles.index("Paper") if "Paper" in self.titles and not plain else None
        self.column_traits = {i: _COLUMN_TRAITS[t] for i, t in enumerate(self.titles) if t in _COLUMN_TRAITS and not plain}
        # Long text wraps on sheets a person reads row by row; a longer sheet keeps one line per
        # row, which scans and filters better.
        wrap = not plain and rows <= WRAP_ROWS
        if wrap:  # ids formatted as text for a person who edits them
            for i, title in enumerate(self.titles):
                if title in _IDS:
                    self.column_traits[i] = self.column_traits.get(i, frozenset()) | {"id"}
        self.wrapped = {i: column_widths.get(t, 14) for i, t in enumerate(self.titles) if t in _WRAPPED and wrap}
        if self.wrapped:  # rows grow: every cell starts at the top, next to the wrapped text
            for i in range(len(columns)):
                self.column_traits[i] = self.column_traits.get(i, frozenset()) | {"top"}
        for i in self.wrapped:
            self.column_traits[i] = self.column_traits.get(i, frozenset()) | {"wrap"}
        self.clean = [False] * len(columns)
        self._writers: dict[tuple[frozenset[str], bool], CellWriter] = {}
        self.writers = [self.writer(i, self.column_traits.get(i, frozenset())) for i in range(len(columns))]

    def writer(self, col: int, traits: frozenset[str]) -> CellWriter:
        """The writer of column ``col``'s cells with these looks, made once per sheet."""
        key = (traits, self.clean[col])
        found = self._writers.get(key)
        if found is None:
            found = self._writers[key] = self.book.writer(self.ws, *key)
        return found

    def cleaned(self, clean: list[bool]) -> None:
        """Which columns' texts are known to hold no character XLSX cannot (see :func:`_records`)."""
        self.clean = clean
        self.writers = [self.writer(i, self.column_traits.get(i, frozenset())) for i in range(len(clean))]

    def append(self, values: list, arxiv: str | None = None, row_traits: dict[int, frozenset[str]] | None = None) -> None:
        """One row; ``arxiv`` links the Paper cell; ``row_traits`` adds looks per column."""
        row = self.header_row + self.rows  # 0-based index of the row below the last one
        self.rows += 1
        # Spreadsheets do not grow a row for wrapped text on opening: give it the lines it needs.
        lines = max((len(values[i]) // int(width * 1.15) + 1 for i, width in self.wrapped.items() if isinstance(values[i], str)), default=1)
        if lines > 1:
            self.ws.set_row(row, _LINE * min(lines, 8))
        writers = self.writers
        if row_traits:
            writers = list(writers)
            for i, extra in row_traits.items():
                writers[i] = self.writer(i, self.column_traits.get(i, frozenset()) | extra)
        if arxiv and self.paper_col is not None and self.links < EXCEL_LINKS:
            i = self.paper_col
            self.links += 1
            looks = self.column_traits.get(i, frozenset()) | (row_traits or {}).get(i, frozenset()) | {"link"}
            self.ws.write_url(row, i, ARXIV_ABS + arxiv, self.book.format(looks), xlsx_text(values[i]))
            writers = list(writers)
            writers[i] = _skip
        for i, value in enumerate(values):
            writers[i](row, i, value)

    def close(self) -> None:
        if self.rows:
            self.ws.autofilter(self.header_row - 1, 0, self.header_row - 1 + self.rows, self.last_column)


def _skip(row: int, col: int, value: object) -> None:
    """A cell already written (a Paper cell with its link)."""


def _records(
    frames: Iterable[pd.DataFrame], columns: list[tuple[str, str]]
) -> Iterator[tuple[list[bool], Iterable[tuple[tuple, str | None]]]]:
    """The rows of ``columns`` of the frames (one table's chunks, or a whole table) a chunk at
    a time, column by column (a frame is never copied whole): which columns' texts in the chunk
    hold no character XLSX cannot (one search over a column's texts, not one per cell), and the
    rows: their cells (None for missing) and their arXiv ids."""
    for frame in frames:
        for start in range(0, len(frame), CHUNK_ROWS):
            yield _chunk_records(frame.iloc[start : start + CHUNK_ROWS], columns)


def _chunk_records(chunk: pd.DataFrame, columns: list[tuple[str, str]]) -> tuple[list[bool], Iterable[tuple[tuple, str | None]]]:
    """One chunk's part of :func:`_records`."""
    cells = [_cells(chunk[name]) if name in chunk.columns else [None] * len(chunk) for name, _ in columns]
    clean = []
    for values in cells:
        texts = "\n".join(compress(values, map(str.__instancecheck__, values)))  # the column's texts, at C speed
        clean.append(xlsx_text(texts) == texts)
    arxiv = _cells(chunk["arxiv_id"]) if "arxiv_id" in chunk.columns else [None] * len(chunk)
    return clean, zip(zip(*cells), arxiv)


def _rows(sheet: _SheetWriter, chunks: Iterable[tuple[list[bool], Iterable[tuple[tuple, str | None]]]]) -> Iterator[tuple[tuple, str | None]]:
    """The chunks' rows, the sheet told each chunk's clean columns before its rows are written."""
    for clean, rows in chunks:
        sheet.cleaned(clean)
        yield from rows


def _cells(column: pd.Series) -> list:
    """A column's values as Python objects, None for a missing one."""
    values = column.tolist()
    if column.hasnans:
        values = [None if missing else value for value, missing in zip(values, column.isna().tolist())]
    return values


def _board_sheet(book: _FormatBook, board: Leaderboard) -> _SheetWriter:
    scores = board.scores
    papers = scores["paper_id"].nunique() if not scores.empty else 0
    note = (
        f"Leaderboard: {len(scores)} scores in {len(board.blocks)} blocks from {papers} paper{'' if papers == 1 else 's'}. "
        "A score is ranked only when its metric, benchmark and subject (a method or model, or the paper's "
        "own proposed method, shown under the paper's short title when it is unnamed) are known; a benchmark "
        "marked 'from context' is not written in the row's own evidence: check it; "
        f"the {board.length('unranked')} others are on the Unranked sheet with what they lack. A block "
        f"holds comparable numbers (same benchmark, metric, unit and evaluation conditions: {', '.join(condition_names())}), "
        "ranked by the metric's direction "
        "(\u2191 higher is better, \u2193 lower); a model's size and a row's configuration are shown beside "
        "it, and the Block column says what a block's rows do not share. Changes over a baseline are "
        "on the Improvements sheet; every claim is on the Claims sheet."
    )
    id_width = int(scores["paper_id"].astype(str).str.len().max()) if len(scores) else 0  # the board shows no claim id
    sheet = _SheetWriter(book, "Leaderboard", BOARD_COLUMNS, len(scores), note=note, id_width=id_width, column_widths=BOARD_WIDTHS)
    if scores.empty:
        book.text(sheet.ws, sheet.header_row, 0, (
            "No score names its metric, benchmark and subject yet: see the Unranked sheet "
            f"({board.length('unranked')} scores) and the Claims sheet ({board.length('claims')} claims)."
        ), frozenset({"muted"}))
        return sheet
    titles = sheet.titles
    first_looks = {c: frozenset({"first"}) for c in range(len(titles))}
    first_looks[0] = frozenset({"first", "bold"})
    best_cols = [titles.index(t) for t in ("Rank", "Method", "Model", "Value", "Unit")]
    conflict_col = titles.index("Conflict")
    first = scores["block"].ne(scores["block"].shift()).tolist()
    best = scores["best"].tolist()
    conflict = scores["conflict"].notna().tolist()
    rows = _rows(sheet, _records([scores], BOARD_COLUMNS))
    for i, (values, arxiv) in enumerate(rows):
        looks = dict(first_looks) if first[i] else {}
        if best[i]:
            for c in best_cols:
                looks[c] = looks.get(c, frozenset()) | {"best"}
        if conflict[i]:
            looks[conflict_col] = looks.get(conflict_col, frozenset()) | {"conflict"}
        sheet.append(values, arxiv, looks)
    sheet.close()
    return sheet


def _table_sheet(
    book: _FormatBook, name: str, table: _Source, columns: list[tuple[str, str]], plain: bool = False
) -> None:
    """A long table's sheet, its rows streamed from the board's chunks."""
    sheet = _SheetWriter(book, name, columns, table.rows, plain=plain, id_width=table.id_width)
    for values, arxiv in _rows(sheet, _records(table.frames(), columns)):
        sheet.append(values, arxiv)
    sheet.close()


def _charts_sheet(book: _FormatBook, board: Leaderboard, board_sheet: _SheetWriter) -> int:
    """One native chart per block with two or more entries, drawn from the Leaderboard sheet's
    Value cells; the number of charts."""
    blocks = chart_blocks(board, board_sheet.header_row + 1)
    ws = book.workbook.add_worksheet("Charts")
    ws.set_column(0, 0, 50)
    ws.fit_to_pages(1, 0)
    book.text(ws, 0, 0, (
        f"{len(blocks)} chart{'' if len(blocks) == 1 else 's'}, one per block with two or more entries, drawn from the "
        "Leaderboard sheet's Value column (the best entry in green); column A holds each chart's labels."
    ))
    value_column = xl_col_to_name(board_sheet.titles.index("Value"))
    add_charts(book.workbook, ws, board_sheet.name, value_column, blocks, lambda row, text: book.text(ws, row, 0, text))
    return len(blocks)


@dataclass(frozen=True)
class Moved:
    """A table too long for a worksheet, written as CSV beside the workbook instead."""

    sheet: str
    rows: int
    path: Path


def _moved_sheet(book: _FormatBook, moved: Moved, max_rows: int) -> None:
    ws = book.workbook.add_worksheet(moved.sheet)
    ws.set_column(0, 0, 120)
    book.text(ws, 0, 0, (
        f"The {moved.sheet} table has {moved.rows:,} rows, more than the {max_rows:,} a worksheet can "
        f"hold: every row is in {moved.path.name}, beside this workbook."
    ))


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
    temporary = Path(tempfile.gettempdir())  # where the sheets' rows go first (constant memory)
    with atomic_file(path, binary=True) as handle, writing(temporary):
        sink = _Sink(handle, path)
        try:
            return _write_xlsx(board, path, sink, charts, step, max_rows)
        except FileCreateError as exc:  # XlsxWriter's wrapping of an OSError of its own files
            sink.cut()
            cause = exc.args[0] if exc.args and isinstance(exc.args[0], OSError) else OSError(str(exc))
            raise naming(cause, temporary) from None
        except BaseException:
            sink.cut()
            raise


class _Sink:
    """The workbook's file as XlsxWriter's zip writes into it, cut off when writing failed: the
    zip is closed when it is collected, after the file is gone, and must write nothing then
    (else 'Exception ignored in ZipFile.__del__' and a traceback follow the one-line error)."""

    _CUT = frozenset({"seek", "tell", "flush", "truncate", "close"})

    def __init__(self, handle: IO[bytes], path: Path) -> None:
        self._handle = handle
        self._path = path
        self._cut = False

    def cut(self) -> None:
        self._cut = True

    def write(self, data: bytes) -> int:
        if self._cut:
            return 0
        with writing(self._path):  # the workbook's own file, not the temporary sheets
            return self._handle.write(data)

    def __getattr__(self, name: str) -> object:
        if self._cut and name in self._CUT:
            return lambda *args, **kwargs: 0
        return getattr(self._handle, name)


@dataclass(frozen=True)
class _Source:
    """A table a sheet is written from: its rows (known without reading it), the longest id in it, and its
    frames, read as they are consumed (a new iteration each call)."""

    rows: int
    id_width: int
    frames: Callable[[], Iterable[pd.DataFrame]]


def _long_table(board: Leaderboard, name: str) -> _Source:
    return _Source(board.length(name), board.id_width(name), lambda: board.chunks(name))


def _sheet_claims(board: Leaderboard) -> Iterator[pd.DataFrame]:
    """The claims as the Claims sheet shows them: an unknown benchmark is marked."""
    for chunk in board.chunks("claims"):
        yield chunk.assign(benchmark_unknown=chunk["benchmark_known"].eq(False).map({True: "unknown", False: None}))


def _write_xlsx(board: Leaderboard, path: Path, handle: object, charts: bool, step: Step, max_rows: int) -> Written:
    """The workbook of :func:`write_xlsx`, into the open file ``handle``; each sheet's rows go
    to temporary files as they are written (constant memory) and into the file on closing."""
    workbook = xlsxwriter.Workbook(handle, {"constant_memory": True, "strings_to_numbers": False,
                                            "strings_to_formulas": False, "strings_to_urls": False})
    book = _FormatBook(workbook)
    claims = _Source(board.length("claims"), board.id_width("claims"), lambda: _sheet_claims(board))
    moved: list[Moved] = []

    def fitting(name: str, table: _Source, csv_columns: list[tuple[str, str]], write: Callable[[], None]) -> Callable[[], None]:
        """The sheet's writer, or one that moves the table to CSV when it cannot fit."""
        if table.rows <= max_rows:
            return write

        def move() -> None:
            elsewhere = Moved(name, table.rows, path.with_name(f"{path.stem}_{name.lower()}.csv"))
            write_frames_csv(elsewhere.path, table.frames(), [key for key, _ in csv_columns])
            _moved_sheet(book, elsewhere, max_rows)
            moved.append(elsewhere)

        return move

    board_sheet: list[_SheetWriter] = []
    charted: list[int] = []
    scores = _Source(len(board.scores), 0, lambda: [board.scores])
    unranked, changes, papers = (_long_table(board, name) for name in ("unranked", "changes", "papers"))
    sheets = [
        fitting("Leaderboard", scores, BOARD_COLUMNS, lambda: board_sheet.append(_board_sheet(book, board))),
        fitting("Unranked", unranked, UNRANKED_COLUMNS, lambda: _table_sheet(book, "Unranked", unranked, UNRANKED_COLUMNS)),
        fitting("Improvements", changes, CHANGE_COLUMNS, lambda: _table_sheet(book, "Improvements", changes, CHANGE_COLUMNS)),
        fitting("Claims", claims, CLAIM_COLUMNS,
                lambda: _table_sheet(book, "Claims", claims, SHEET_CLAIM_COLUMNS, plain=claims.rows > WRAP_ROWS)),
        fitting("Papers", papers, PAPER_COLUMNS, lambda: _table_sheet(book, "Papers", papers, PAPER_COLUMNS)),
        lambda: charted.append(_charts_sheet(book, board, board_sheet[0])) if charts and board_sheet else None,
    ]
    stage = f"writing {path.name}"
    for done, write in enumerate(sheets):
        step(stage, done, len(sheets) + 1)
        write()
    workbook.close()  # the sheets' rows are zipped into the file here
    step(stage, len(sheets) + 1, len(sheets) + 1)
    return Written(moved, sum(charted))
