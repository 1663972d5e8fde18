"""Read abstracts from the formats users have: JSON Lines, CSV (any delimiter), an Excel
workbook (.xlsx), arXiv listing text, the "Daily Papers" digest, pasted text (a title line above
its abstract), a directory of those, or stdin.

Reading never stops at a bad record: it yields a :class:`Paper` whose ``error`` names the file,
line and problem, and goes on with the next one.
"""

from __future__ import annotations

import codecs
import csv
import functools
import io
import itertools
import json
import os
import re
import stat
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, TextIO

from extractor.atomic import kind_of
from extractor.config import DEFAULT_MAX_CHARS
from extractor.errors import InputError
from extractor.runs.files import JOURNAL_FILE, RUN_FILE
from extractor.schema import Source
from extractor.text.arxiv import find_arxiv_id
from extractor.text.hashing import normalize_text, short_hash
from extractor.text.safe import path_text, printable

SUPPORTED_SUFFIXES = (".jsonl", ".ndjson", ".csv", ".txt", ".xlsx")
#: ``papers.xlsx#Sheet2`` names a worksheet; without it the first one is read.
SHEET_SEPARATOR = "#"
_CSV_DELIMITERS = ",;\t|"
_TITLE_MAX_CHARS = 200

_LISTING_HEADER = re.compile(r"^#(\d+)\s*(.*)$")


@dataclass(frozen=True)
class Paper:
    id: str
    abstract: str
    title: str | None
    source: Source
    metadata: dict = field(default_factory=dict)
    error: str | None = None
    #: The error is the whole input's: nothing of the file could be read (a CSV without an
    #: abstract column, a workbook that is not one), as opposed to one bad record of it.
    whole_file: bool = False


def paper_id(abstract: str, given: object = None, metadata: dict | None = None) -> str:
    """The given id, else an arXiv id found in the record, else a hash of the abstract. An id
    is one line with its control characters made visible: it is printed and written everywhere."""
    if given not in (None, ""):
        return printable(str(given).strip())
    found = find_arxiv_id([*(metadata or {}).values(), abstract])
    if found:
        return found
    return "p-" + short_hash(normalize_text(abstract).lower())


def read_inputs(
    paths: Iterable[str], max_chars: int = DEFAULT_MAX_CHARS
) -> Iterator[Paper]:
    """Every record of every path (``-`` is stdin), in order, read as it is consumed: a file
    is never held in memory whole, so a million-line input costs what one line does."""
    for source in _sources(paths):
        if isinstance(source, Paper):
            yield source
        elif source[0] == "-":
            yield from _read_stream(sys.stdin.buffer, "<stdin>", "", max_chars)
        else:
            yield from _read_file(*source, max_chars)


def count_records(paths: Iterable[str]) -> int | None:
    """How many records the inputs hold, in a cheap first pass for a progress bar's total: a
    JSON Lines file's non-blank lines (a bad line is a record too, it fails by name), every
    other file read through; None when stdin is among them (it can be read only once)."""
    paths = list(paths)
    if "-" in paths:
        return None
    total = 0
    for source in _sources(paths):
        if isinstance(source, Paper):
            total += 1
        elif source[0].suffix.lower() in (".jsonl", ".ndjson"):
            try:
                with source[0].open("rb") as handle:
                    total += sum(1 for raw in handle if raw.strip())
            except OSError:
                total += 1
        else:
            total += sum(1 for _ in _read_file(*source, DEFAULT_MAX_CHARS))
    return total


def _sources(paths: Iterable[str]) -> Iterator[tuple[Path | str, str | None] | Paper]:
    """Each file to read with its worksheet (``("-", None)`` for stdin), in order, directories
    expanded; a path that cannot be read is its failed record."""
    for name in paths:
        if name == "-":
            yield name, None
            continue
        path, sheet = split_sheet(name)
        if path.is_dir():
            if is_run_dir(path):
                yield _failed(path_text(name), None, _RUN_DIR_PROBLEM, whole_file=True)
                continue
            for file in _files_below(path):
                problem = _irregular(file)
                yield _failed(path_text(file), None, problem, whole_file=True) if problem else (file, None)
        else:
            problem = _irregular(path)
            if problem:
                yield _failed(path_text(name), None, problem, whole_file=True)
            else:
                yield path, sheet


_RUN_DIR_PROBLEM = (
    f"a run directory (it holds {RUN_FILE} or {JOURNAL_FILE}): a run's outputs are not read as inputs; "
    "give its papers.jsonl to extract those abstracts again"
)


def is_run_dir(path: Path) -> bool:
    """Whether ``path`` holds a run (the ``--out`` of a run, even one still running)."""
    return (path / RUN_FILE).is_file() or (path / JOURNAL_FILE).is_file()


def _files_below(directory: Path) -> list[Path]:
    """The files of the supported formats below ``directory``, in name order. A run directory
    below it (``--out`` inside the input directory, say) is not entered: its outputs are no
    input. A linked directory is not entered either (a link may loop)."""
    found: list[Path] = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = [d for d in dirs if not is_run_dir(Path(root, d))]
        found += [Path(root, f) for f in files if Path(f).suffix.lower() in SUPPORTED_SUFFIXES]
    return sorted(found)


def _irregular(path: Path) -> str | None:
    """Why ``path`` is not read, or None for a regular file (or a link to one). A FIFO would
    block forever, a device (a link to /dev/zero) never ends: only regular files are read."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "no such file or directory" if not path.is_symlink() else "a link to a file that does not exist"
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
    if stat.S_ISREG(mode):
        return None
    return f"{kind_of(mode)}, not a regular file: only regular files are read (give - to read stdin)"


def split_sheet(name: str) -> tuple[Path, str | None]:
    """``book.xlsx#Results`` is the worksheet Results of book.xlsx; the sheet's own name may hold
    ``#`` (``book.xlsx#Q1#2024``). A file of the very name given wins, then the first workbook
    named before a ``#`` that exists."""
    path = Path(name)
    if path.exists():
        return path, None
    splits = [
        (Path(name[:at]), name[at + 1:])
        for at in (m.start() for m in re.finditer(re.escape(SHEET_SEPARATOR), name))
        if name[:at].lower().endswith(".xlsx")
    ]
    return next((split for split in splits if split[0].exists()), splits[0] if splits else (path, None))


def _read_file(path: Path, sheet: str | None, max_chars: int) -> Iterator[Paper]:
    name = path_text(path)
    suffix = path.suffix.lower()
    if suffix == ".xls":
        yield _failed(name, None, "an Excel 97-2003 workbook (.xls) is not read: save it as .xlsx or CSV", whole_file=True)
        return
    if suffix == ".xlsx":
        for record in _xlsx_records(path, name, sheet):
            yield _checked(record, max_chars)
        return
    try:
        handle = path.open("rb")
    except OSError as exc:
        yield _failed(name, None, f"cannot read: {exc.strerror or exc}", whole_file=True)
        return
    with handle:
        yield from _read_stream(handle, name, suffix, max_chars)


_WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"),  # before UTF-16: LE shares its start
    (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16"),
)


def _wide_encoding(handle: BinaryIO) -> str | None:
    """'UTF-16' or 'UTF-32' when the stream starts with that byte-order mark (read as UTF-8
    its text would be full of NULs), without consuming anything."""
    peek = getattr(handle, "peek", None)
    head = peek(4)[:4] if peek else b""
    return next((encoding for bom, encoding in _WIDE_BOMS if head.startswith(bom)), None)


def _read_stream(handle: BinaryIO, name: str, suffix: str, max_chars: int) -> Iterator[Paper]:
    encoding = _wide_encoding(handle)
    if encoding:
        yield _failed(name, None, f"the file is {encoding} (it starts with a byte-order mark); save it as UTF-8", whole_file=True)
        return
    if suffix == ".csv":
        records = _csv_records(handle, name)
    else:
        # Text is read a bounded line at a time: a line longer than the budget could hold is
        # read through, not kept. A JSON line is read whole (its metadata has no bound), and so
        # is the first line of stdin, which tells whether it is JSON Lines.
        jsonl = suffix in (".jsonl", ".ndjson")
        text_limit = _line_limit(max_chars)
        head: list[str | None | _Cut] = []
        for text in _decode_lines(handle, None if jsonl or not suffix else text_limit):
            head.append(text)  # the format is told by the first line with text
            if text is _CUT or (text is not None and text.strip()):
                break
        first = head[-1] if head and isinstance(head[-1], str) else ""
        if jsonl or (not suffix and first.lstrip().startswith("{")):
            records = _jsonl_records(itertools.chain(head, _decode_lines(handle, None, not head)), name)
        else:
            lines = itertools.chain(head, _decode_lines(handle, text_limit, not head))
            if _LISTING_HEADER.match(first.strip()):
                records = _listing_records(lines, name, max_chars)
            else:
                records = _paragraph_records(lines, name, max_chars)
    for record in records:
        yield _checked(record, max_chars)


class _Cut:
    """A line longer than a record's budget could hold: read through, not kept."""


_CUT = _Cut()


def _line_limit(max_chars: int) -> int:
    """Bytes in which a line of ``max_chars`` characters always fits (UTF-8 takes at most 4 a
    character; a byte-order mark and CR add a few): a longer line is over the budget."""
    return 4 * max_chars + 8


def _decode_lines(handle: BinaryIO, limit: int | None = None, at_start: bool = True) -> Iterator[str | None | _Cut]:
    """Lines of the file, one at a time (a byte-order mark dropped when ``at_start``); ``None``
    for a line that is not valid UTF-8; with a ``limit``, :data:`_CUT` for a line longer than
    ``limit`` bytes, which is read through in pieces of that size and never held."""
    reads = iter(handle) if limit is None else iter(functools.partial(handle.readline, limit), b"")
    for raw in reads:
        first, at_start = at_start, False
        if limit and len(raw) >= limit and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):
                raw = handle.readline(limit)
            yield _CUT
            continue
        try:
            text = raw.removesuffix(b"\n").decode("utf-8").removesuffix("\r")
        except UnicodeDecodeError:
            yield None
            continue
        yield text.removeprefix("\ufeff") if first else text


#: The id of a record that failed before it had one: ``input:`` and where it is (file:line).
INPUT_ID_PREFIX = "input:"


def _failed(file: str, line: int | None, problem: str, given_id: object = None, whole_file: bool = False) -> Paper:
    source = Source(file=file, line=line)
    where = Path(file).name + (f":{line}" if line is not None else "")
    return Paper(
        id=paper_id("", given_id) if given_id not in (None, "") else INPUT_ID_PREFIX + where,
        abstract="",
        title=None,
        source=source,
        error=str(InputError(file, line, problem)),
        whole_file=whole_file,
    )


def _from_fields(fields: dict, file: str, line: int) -> Paper:
    """A record's fields, its keys matched as CSV headers are (``Abstract`` is abstract)."""
    names, problem = _known_header(list(fields))
    if problem and "more than one" in problem:
        return _failed(file, line, f"record {problem.removeprefix('header ')}")
    fields = dict(zip(names, fields.values()))
    given_id = fields.pop("id", None)
    title = fields.pop("title", None)
    abstract = fields.pop("abstract", None)
    if abstract is None:
        return _failed(file, line, "record has no 'abstract' field", given_id)
    if not isinstance(abstract, str):
        return _failed(file, line, "'abstract' is not text", given_id)
    metadata = {k: v for k, v in fields.items() if v not in (None, "")}
    return Paper(
        id=paper_id(abstract, given_id, metadata),
        abstract=abstract.strip(),
        title=str(title).strip() if title not in (None, "") else None,
        source=Source(file=file, line=line),
        metadata=metadata,
    )


#: Deeper JSON is refused at the line: pydantic's serializer (papers.jsonl) stops near 255.
MAX_DEPTH = 64


def _too_deep(value: object) -> bool:
    """Whether a parsed JSON value nests deeper than :data:`MAX_DEPTH` (iterative: no recursion)."""
    level = [value]
    for _ in range(MAX_DEPTH):
        level = [v for item in level for v in (item.values() if isinstance(item, dict) else item if isinstance(item, list) else ())]
        if not level:
            return False
    return True


def _jsonl_records(lines: Iterable[str | None], name: str) -> Iterator[Paper]:
    for number, text in enumerate(lines, start=1):
        if text is None:
            yield _failed(name, number, "line is not valid UTF-8")
            continue
        if not text.strip():
            continue
        try:
            fields = json.loads(text)
        except json.JSONDecodeError as exc:
            yield _failed(name, number, f"malformed JSON ({exc.msg} at column {exc.colno})")
            continue
        except RecursionError:
            fields = None
        if fields is None or _too_deep(fields):
            yield _failed(name, number, f"JSON nested deeper than {MAX_DEPTH} levels")
            continue
        if not isinstance(fields, dict):
            yield _failed(name, number, "line is JSON but not an object")
            continue
        yield _from_fields(fields, name, number)


_KNOWN_FIELD = re.compile(r"(?:paper[\s_-]*)?(id|title|abstract)")


def _field(name: object) -> object:
    """The field a column name means: ``Abstract``, `` ID ``, ``Paper ID``, ``paper_title`` are
    the fields abstract, id and title; any other name is itself (a metadata key)."""
    if name is None:
        return None
    known = _KNOWN_FIELD.fullmatch(str(name).strip().casefold())
    return known.group(1) if known else name


def _known_header(names: list) -> tuple[list, str | None]:
    """Column names as fields (:func:`_field`): spreadsheets title their columns. The problem,
    naming the header as read, when there is no abstract."""
    header = [_field(f) for f in names]
    shown = ", ".join(repr(str(f)) for f in names[:12]) + (", ..." if len(names) > 12 else "")
    doubled = sorted({f for f in header if f in ("id", "title", "abstract") and header.count(f) > 1})
    if doubled:
        return header, (
            f"header has more than one {doubled[0]!r} column (names are matched ignoring case and a "
            f"'Paper' before them): {shown}"
        )
    if "abstract" not in header:
        return header, f"header has no 'abstract' column (read: {shown or 'nothing'})"
    return header, None


def _delimiter(first_line: str) -> str:
    """The delimiter of a CSV, from its header line: what European Excel writes is ``;``."""
    try:
        return csv.Sniffer().sniff(first_line, delimiters=_CSV_DELIMITERS).delimiter
    except csv.Error:
        return ","
_LARGEST_FIELD = 2**31 - 1  # the csv module's limit, raised to what a C long holds everywhere


class _Lines:
    """The lines of a text stream, read one by one. The lines of the record being read are kept,
    so that after a malformed record reading starts again on the line after its first line."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._kept: list[str] = []  # lines given since the current record began
        self._again: list[str] = []  # lines to give again, the next one last
        self.at = 0  # lines given so far

    def __iter__(self) -> _Lines:
        return self

    def _read(self) -> str:
        return self._again.pop() if self._again else self._stream.readline()  # ends at LF, CRLF or CR

    def __next__(self) -> str:
        line = self._read()
        if not line:
            raise StopIteration
        self.at += 1
        self._kept.append(line)
        return line

    def peek(self) -> str:
        """The next line, left to be read again."""
        line = self._read()
        if line:
            self._again.append(line)
        return line

    def skip_blank(self) -> None:
        """Pass blank lines; the next record starts at the line after them."""
        while True:
            line = self._read()
            if line.strip() or not line:
                if line:
                    self._again.append(line)
                break
            self.at += 1
        self._kept = []

    def restart_after_first(self) -> None:
        """Give again every line of the current record but its first."""
        again = self._kept[1:]
        self._again.extend(reversed(again))
        self.at -= len(again)
        self._kept = []


def _csv_records(handle: BinaryIO, name: str) -> Iterator[Paper]:
    text = io.TextIOWrapper(handle, encoding="utf-8-sig", errors="replace", newline="")
    # An over-long abstract fails on the --max-chars budget, naming its record, instead of the
    # csv module's limit failing the whole file.
    csv.field_size_limit(max(csv.field_size_limit(), _LARGEST_FIELD))
    source = _Lines(text)
    # strict: a quote left open is an error at the record that opened it, not a field that
    # silently swallows the records after it.
    reader = csv.DictReader(source, strict=True, delimiter=_delimiter(source.peek()))
    try:
        fieldnames = reader.fieldnames
    except csv.Error as exc:
        yield _failed(name, 1, f"malformed CSV header ({exc})", whole_file=True)
        return
    if fieldnames is None:
        return  # an empty file holds no record
    header, problem = _known_header(fieldnames)
    if problem:
        yield _failed(name, 1, f"CSV {problem}", whole_file=True)
        return
    reader.fieldnames = header
    while True:
        source.skip_blank()
        line = source.at + 1
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            yield _failed(name, line, f"malformed CSV record ({exc}); reading on from the next line")
            source.restart_after_first()
            continue
        if "\ufffd" in "".join(str(v) for v in row.values() if v):
            yield _failed(name, line, "row is not valid UTF-8", row.get("id"))
            continue
        yield _from_fields({k: v for k, v in row.items() if k is not None}, name, line)


def _xlsx_records(path: Path, name: str, sheet: str | None) -> Iterator[Paper]:
    """The rows of a worksheet (the first unless one is named), with the column rules of CSV;
    the header is the first row with text, and a line number is the row's number in the sheet.
    Reading never widens a row past the header's last named column, whatever size the sheet
    says it has; a cell that cannot be read ends the sheet with a failed record naming it."""
    from extractor.workbook import WorkbookTooLarge, open_workbook

    try:
        book = open_workbook(path, data_only=True)
    except WorkbookTooLarge as exc:
        yield _failed(name, None, exc.problem, whole_file=True)
        return
    except Exception as exc:  # a corrupt or foreign zip: openpyxl raises many kinds
        yield _failed(name, None, f"not a readable .xlsx workbook ({type(exc).__name__}: {exc})", whole_file=True)
        return
    formulas = _Formulas(path)
    try:
        worksheet, problem = _worksheet(book, sheet)
        if worksheet is None:
            yield _failed(name, None, problem, whole_file=True)
            return
        where = f"worksheet {worksheet.title!r}"
        rows = _Rows(worksheet)
        found = rows.header()
        if found is None:
            if rows.problem:
                yield _failed(name, rows.at + 1, f"{where}: {rows.problem}", whole_file=True)
            return  # a worksheet without a row of text holds no record
        header_row, names = found
        header, problem = _known_header(names)
        if problem:
            hint = _other_sheets_hint(book, name) if sheet is None else ""
            yield _failed(name, header_row, f"worksheet {problem}{hint}", whole_file=True)
            return
        named = [(column, key) for column, key in enumerate(header) if key is not None]
        for number, row in rows.after(header_row, width=named[-1][0] + 1):
            cells = {key: row[column] for column, key in named if column < len(row)}
            values = {key: _cell_text(cell) for key, cell in cells.items()}
            if not any(values.values()):
                continue
            problem = _known_cell_problem(cells, formulas, worksheet.title, number)
            if problem:
                yield _failed(name, number, f"{where}: {problem}", values.get("id"))
                continue
            values["abstract"] = values["abstract"] or ""  # an empty cell is an empty abstract
            yield _from_fields(values, name, number)
        if rows.problem:
            yield _failed(name, rows.at + 1, f"{where}: {rows.problem}")
    finally:
        formulas.close()
        book.close()


def _worksheet(book: object, sheet: str | None) -> tuple[object, str]:
    """The worksheet to read, or None and why (a named sheet missing or a chart sheet; a
    workbook of chart sheets only)."""
    worksheets = book.worksheets  # type: ignore[attr-defined]
    titles = ", ".join(repr(w.title) for w in worksheets) or "none"
    if sheet is None:
        if not worksheets:
            charts = ", ".join(repr(c.title) for c in book.chartsheets)  # type: ignore[attr-defined]
            return None, f"workbook has no worksheet, only chart sheets ({charts}): nothing to read"
        return worksheets[0], ""
    if sheet not in book.sheetnames:  # type: ignore[attr-defined]
        return None, f"workbook has no worksheet {sheet!r} (its worksheets: {titles})"
    found = book[sheet]  # type: ignore[index]
    if not hasattr(found, "iter_rows"):
        return None, f"{sheet!r} is a chart sheet, not a worksheet (its worksheets: {titles})"
    return found, ""


#: A worksheet's last row (Excel's grid is 1,048,576 rows by 16,384 columns).
LAST_ROW = 1_048_576


class _Rows:
    """A worksheet's rows as its XML has them, read once in order. The size the sheet states
    is ignored (it may claim all 16,384 x 1,048,576 cells): a row is as wide as asked. A cell
    that cannot be read (a shared string out of range, ``abc`` typed as a number, a reference
    like ``ZZZZZZ3``) ends the reading: :attr:`problem` says what, :attr:`at` the last row read."""

    def __init__(self, worksheet: object) -> None:
        worksheet.reset_dimensions()  # type: ignore[attr-defined]
        self.worksheet = worksheet
        self.at = 0
        self.problem: str | None = None

    def read(self, min_row: int, width: int | None) -> Iterator[tuple[int, tuple]]:
        """(row number, cells) of every row from ``min_row`` on that has a cell in the XML,
        each cut to ``width`` cells (None: as wide as its last cell)."""
        from openpyxl.cell.read_only import EMPTY_CELL  # what openpyxl gives for a missing cell

        number = min_row - 1
        try:
            for row in self.worksheet.iter_rows(min_row=min_row, max_col=width):  # type: ignore[attr-defined]
                number += 1
                if number > LAST_ROW:  # openpyxl would give every missing row up to the one claimed
                    self.problem = f"a row is numbered past {LAST_ROW:,}, a worksheet's last row; the rows below row {self.at} are not read"
                    return
                if any(cell is not EMPTY_CELL for cell in row):
                    self.at = number
                    yield number, row
        except Exception as exc:  # openpyxl raises what its parsing meets
            self.at = number
            self.problem = (
                f"a cell below row {number} cannot be read ({type(exc).__name__}: {exc}); "
                f"the rows below row {number} are not read"
            )

    def header(self) -> tuple[int, list] | None:
        """The first row with text: its number and its values up to its last one."""
        for number, row in self.read(1, None):
            names = [cell.value for cell in row]
            while names and names[-1] in (None, ""):
                names.pop()
            if names:
                return number, names
        return None

    def after(self, header_row: int, width: int) -> Iterator[tuple[int, tuple]]:
        """The rows below the header, each cut to ``width`` columns."""
        self.at = header_row
        yield from self.read(header_row + 1, width)


def _known_cell_problem(cells: dict, formulas: _Formulas, sheet: str, row: int) -> str | None:
    """Why a row's id, title or abstract cell cannot be taken: an error value (``#REF!``), or
    an abstract that is a formula whose value was never stored."""
    for key in ("id", "title", "abstract"):
        cell = cells.get(key)
        if getattr(cell, "data_type", None) == "e":
            return f"{key} cell {_coordinate(cell)} holds the error {cell.value}, not a value"  # type: ignore[union-attr]
    abstract = cells.get("abstract")
    if getattr(abstract, "value", None) is None and hasattr(abstract, "column"):
        formula = formulas.at(sheet, row, abstract.column)  # type: ignore[union-attr]
        if formula:
            return (
                f"abstract cell {_coordinate(abstract)} is a formula ({formula}) whose value was never "
                "stored: open and save the workbook in a spreadsheet app, or paste the column as values"
            )
    return None


def _coordinate(cell: object) -> str:
    from openpyxl.utils import get_column_letter

    return f"{get_column_letter(cell.column)}{cell.row}"  # type: ignore[attr-defined]


class _Formulas:
    """The formulas of a workbook's cells, looked up only for a cell that shows no value (the
    value of a formula is stored by the app that saves the workbook; one written by a program
    may have none). Opened on the first look-up and read forward, so a sheet is read at most
    once more, however many cells are looked up."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._book: object = None
        self._rows: dict[tuple[str, int], Iterator[tuple[int, tuple]]] = {}
        self._last: dict[tuple[str, int], tuple[int, tuple]] = {}

    def at(self, sheet: str, row: int, column: int) -> str | None:
        """The formula of the cell (rows asked in order), or None: no formula, or none readable."""
        from extractor.workbook import open_workbook

        key = (sheet, column)
        try:
            if self._book is None:
                self._book = open_workbook(self.path, data_only=False)
            if key not in self._rows:
                self._rows[key] = _Rows(self._book[sheet]).read(1, column)  # type: ignore[index]
            number, cells = self._last.get(key, (0, ()))
            while number < row:
                number, cells = next(self._rows[key], (row + 1, ()))
            self._last[key] = number, cells
        except Exception:  # the values were read; a formula that cannot be read is none
            return None
        value = cells[column - 1].value if number == row and column <= len(cells) else None
        return value if isinstance(value, str) and value.startswith("=") else None

    def close(self) -> None:
        if self._book is not None:
            self._book.close()  # type: ignore[attr-defined]


def _other_sheets_hint(book: object, name: str) -> str:
    """When the first worksheet has no abstract column: which other worksheets have one."""
    having = []
    for worksheet in book.worksheets[1:]:  # type: ignore[attr-defined]
        found = _Rows(worksheet).header()
        if found and _known_header(found[1])[1] is None:
            having.append(worksheet.title)
    if not having:
        return ""
    return f"; worksheet {having[0]!r} has one: give {Path(name).name}#{having[0]}" + (
        f" (also: {', '.join(map(repr, having[1:]))})" if having[1:] else ""
    )


def _cell_text(cell: object) -> str | None:
    """A cell as the sheet shows it: an id typed as a number keeps the decimals its format
    shows (``2401.10100`` formatted ``0.00000``), a whole number has no ``.0``."""
    value = getattr(cell, "value", None)
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    decimals = re.fullmatch(r"0\.(0+)", getattr(cell, "number_format", "") or "")
    if decimals:
        return f"{value:.{len(decimals.group(1))}f}"
    return str(int(value)) if float(value).is_integer() else repr(value)


class _Kept:
    """The lines of one record as they are read, held only up to its budget: the first ``free``
    lines (a title, an author line) always, the others while together they fit ``max_chars``.
    A line :func:`_decode_lines` cut, or one past the budget, makes the record :attr:`over`:
    its lines are let go and the rest of it is read past."""

    def __init__(self, max_chars: int, free: int) -> None:
        self.max_chars, self.free = max_chars, free
        self.lines: list[str] = []
        self.size = -1  # the lines past the free ones, joined by spaces
        self.over = False

    def add(self, text: str | _Cut) -> None:
        if self.over:
            return
        if isinstance(text, str) and len(self.lines) < self.free:
            self.lines.append(text)
            return
        self.size += 1 + (len(text) if isinstance(text, str) else self.max_chars + 1)
        if self.size > self.max_chars:
            self.over, self.lines = True, []
        else:
            self.lines.append(text)  # type: ignore[arg-type]

    def __bool__(self) -> bool:
        return bool(self.lines) or self.over

    def problem(self) -> str:
        return (
            f"abstract is over the {self.max_chars:,} budget (more than {self.max_chars:,} characters; "
            "the rest of it was read past, not kept)"
        )


def _listing_records(lines: Iterable[str | None | _Cut], name: str, max_chars: int) -> Iterator[Paper]:
    """arXiv listing text: ``#NN<date>`` / category / title / authors / abstract lines."""
    header: re.Match[str] | None = None
    body = _Kept(max_chars, free=3)
    start = bad = 0
    for number, text in enumerate(lines, start=1):
        found = _LISTING_HEADER.match(text.strip()) if isinstance(text, str) else None
        if found:
            if header is not None:
                yield _listing_entry(header, body, start, bad, name)
            header, body, start, bad = found, _Kept(max_chars, free=3), number, 0
        elif header is None:
            continue
        elif text is None:
            bad = bad or number
        elif text is _CUT or text.strip():  # type: ignore[union-attr]
            body.add(text if text is _CUT else text.strip())  # type: ignore[union-attr]
    if header is not None:
        yield _listing_entry(header, body, start, bad, name)


def _listing_entry(header: re.Match[str], body: _Kept, line_no: int, bad: int, name: str) -> Paper:
    """One entry of a listing: its header line (number ``line_no``) and the lines up to the
    next; ``bad``, the first line that is not valid UTF-8 (0: none)."""
    if bad:
        return _failed(name, bad, "line is not valid UTF-8")
    if body.over:
        return _failed(name, line_no, body.problem())
    if len(body.lines) < 4:
        return _failed(name, line_no, "listing entry needs category, title, authors, abstract")
    category, title, authors = body.lines[:3]
    abstract = " ".join(body.lines[3:])
    metadata = {"category": category, "authors": authors, "listing_date": header.group(2)}
    return Paper(
        id=paper_id(abstract, None, metadata),
        abstract=abstract,
        title=title,
        source=Source(file=name, line=line_no),
        metadata=metadata,
    )


def _paragraph_records(lines: Iterable[str | None | _Cut], name: str, max_chars: int) -> Iterator[Paper]:
    """One abstract per paragraph, as a user pastes them: a title line directly above its
    abstract, or alone in a paragraph before it, is that paper's title, and an author line
    under the title goes to its metadata; a short heading line ("Daily Papers") is skipped,
    unless the abstract after it names it (a short title: "Mistral 7B")."""
    paragraph = _Kept(max_chars, free=2)
    start = 0
    title: str | None = None  # a title, authors or a heading alone before the abstract
    authors: str | None = None
    heading: str | None = None
    for number, text in enumerate(itertools.chain(lines, [""]), start=1):
        if text is None:
            yield _failed(name, number, "line is not valid UTF-8")
            continue
        if text is _CUT or text.strip():  # type: ignore[union-attr]
            if not paragraph:
                start = number
            paragraph.add(text if text is _CUT else text.strip())  # type: ignore[union-attr]
            continue
        if not paragraph:
            continue
        kept, over = paragraph.lines, paragraph.over
        if over:
            yield _failed(name, start, paragraph.problem())
            title = authors = heading = None
            paragraph = _Kept(max_chars, free=2)
            continue
        paragraph = _Kept(max_chars, free=2)
        if len(kept) == 1 and (title or heading) and is_author_line(kept[0]):
            authors = kept[0]  # the authors alone, under a title alone
            continue
        if len(kept) == 1 and is_title_line(kept[0]):
            title, authors, heading = kept[0], None, None  # a title alone: its abstract is the next paragraph
            continue
        rest = " ".join(kept[1:])
        if len(kept) > 1 and kept[1][:1].isupper() and (is_title_line(kept[0]) or _is_short_title(kept[0], rest)):
            title, authors, heading, kept = kept[0], None, None, kept[1:]
        if (title or heading) and len(kept) > 1 and is_author_line(kept[0]):
            authors, kept = kept[0], kept[1:]
        abstract = " ".join(kept)
        if len(abstract.split()) < 8 and not re.search(r"[.!?]\s*$", abstract):
            title = authors = None
            heading = abstract if len(kept) == 1 else None  # a heading, or a short title alone
            continue
        if title is None and heading is not None and _is_short_title(heading, abstract):
            title = heading
        metadata = {"authors": authors} if authors else {}
        yield Paper(id=paper_id(abstract), abstract=abstract, title=title, source=Source(file=name, line=start), metadata=metadata)
        title = authors = heading = None


def is_title_line(line: str) -> bool:
    """A paper's title as pasted: one line under 200 characters, not ending in a period, of at
    least three words or with a colon, its longer words mostly capitalized ("Attention Is All You
    Need") or a colon after its name ("BiDAF: Bidirectional ..."). A hard-wrapped first line of an
    abstract ends mid-sentence in lower case and is not one."""
    line = line.strip()
    words = line.split()
    if not words or len(line) >= _TITLE_MAX_CHARS or line.endswith((".", "!", "?", ",", ";")):
        return False
    if ":" in line and len(words) >= 2:
        return True
    long_words = [w for w in words if len(w.strip("()[]\"'")) > 3]
    capitalized = sum(1 for w in long_words if w.strip("()[]\"'")[:1].isupper())
    return len(words) >= 3 and bool(long_words) and capitalized / len(long_words) >= 0.6


def _is_short_title(line: str, abstract: str) -> bool:
    """A title too short for :func:`is_title_line` ("Mistral 7B", "LLaMA"): one or two words,
    each capitalized or a number, that the abstract names as written. A heading ("Daily
    Papers") is not named by the abstract under it."""
    words = line.split()
    if not 1 <= len(words) <= 2 or line.endswith((".", "!", "?", ",", ";", ":")):
        return False
    if not all(w[:1].isupper() or w[:1].isdigit() for w in words):
        return False
    return re.search(r"(?<!\w)" + r"\s+".join(map(re.escape, words)) + r"(?!\w)", abstract) is not None


#: Lower-case words inside a name ("Diego de las Casas", "Ludwig van Beethoven").
_NAME_PARTICLES = frozenset(
    "al bin da das de del della den der di dos du el ibn la las le los ten ter van von y zu".split()
)
_AFFILIATION_MARKS = re.compile(r"[\d*\u2020\u2021\u00a7\u00b6#^\u00b9\u00b2\u00b3\u2070-\u2079]+")


def is_author_line(line: str) -> bool:
    """A line of authors' names as pasted under a title: at least two names separated by
    commas, semicolons, "&" or "and", each of two to five words that are capitalized (or
    initials, or particles like "de"); affiliation marks (digits, ``*``, ``†``) and a final
    "et al." are allowed. An abstract's first line has lower-case words and is not one."""
    line = line.strip().removesuffix("et al.").strip().rstrip(",;")
    if line.endswith(("!", "?", ":")) or (line.endswith(".") and not re.search(r"(?<!\w)\w\.$", line)):
        return False
    names = [n.strip() for n in re.split(r"[,;&]|\band\b", _AFFILIATION_MARKS.sub("", line)) if n.strip()]
    if len(names) < 2:
        return False
    for name in names:
        words = name.split()
        if not 2 <= len(words) <= 5 or not (words[0][:1].isupper() and words[-1][:1].isupper()):
            return False
        if not all(w[:1].isupper() or w in _NAME_PARTICLES for w in words):
            return False
    return True


#: An id and a title longer than these are no id or title: they could not fit a review cell.
MAX_ID = 500
MAX_TITLE = 2_000


def _checked(paper: Paper, max_chars: int) -> Paper:
    if paper.error:
        return paper
    if not paper.abstract:
        return _failed(paper.source.file, paper.source.line, "abstract is empty", paper.id)
    if len(paper.abstract) > max_chars:
        problem = f"abstract is {len(paper.abstract):,} characters, over the {max_chars:,} budget"
        return _failed(paper.source.file, paper.source.line, problem, paper.id)
    for name, text, bound in (("id", paper.id, MAX_ID), ("title", paper.title or "", MAX_TITLE)):
        if len(text) > bound:
            problem = f"{name} is {len(text):,} characters, over {bound:,}"
            return _failed(paper.source.file, paper.source.line, problem, paper.id if name != "id" else None)
    return paper
