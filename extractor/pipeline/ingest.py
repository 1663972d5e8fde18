"""Read abstracts from the formats users have: JSON Lines, CSV (any delimiter), an Excel
workbook (.xlsx), arXiv listing text, the "Daily Papers" digest, pasted text (a title line above
its abstract), a directory of those, or stdin.

Reading never stops at a bad record: it yields a :class:`Paper` whose ``error`` names the file,
line and problem, and goes on with the next one.
"""

from __future__ import annotations

import codecs
import csv
import io
import itertools
import json
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, TextIO

from extractor.config import DEFAULT_MAX_CHARS
from extractor.errors import InputError
from extractor.schema import Source
from extractor.text.arxiv import find_arxiv_id
from extractor.text.hashing import normalize_text, short_hash
from extractor.text.safe import printable

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
            files = sorted(p for p in path.rglob("*") if p.suffix.lower() in SUPPORTED_SUFFIXES)
            if not files:
                yield _failed(str(path), None, "directory holds no .jsonl, .csv, .xlsx or .txt files")
            for file in files:
                yield file, None
        elif path.exists():
            yield path, sheet
        else:
            yield _failed(name, None, "no such file or directory")


def split_sheet(name: str) -> tuple[Path, str | None]:
    """``book.xlsx#Results`` is the worksheet Results of book.xlsx (a file of that very name wins)."""
    path = Path(name)
    stem, separator, sheet = name.rpartition(SHEET_SEPARATOR)
    if separator and not path.exists() and stem.lower().endswith(".xlsx"):
        return Path(stem), sheet
    return path, None


def _read_file(path: Path, sheet: str | None, max_chars: int) -> Iterator[Paper]:
    suffix = path.suffix.lower()
    if suffix == ".xls":
        yield _failed(str(path), None, "an Excel 97-2003 workbook (.xls) is not read: save it as .xlsx or CSV")
        return
    if suffix == ".xlsx":
        for record in _xlsx_records(path, sheet):
            yield _checked(record, max_chars)
        return
    try:
        handle = path.open("rb")
    except OSError as exc:
        yield _failed(str(path), None, f"cannot read: {exc.strerror or exc}")
        return
    with handle:
        yield from _read_stream(handle, str(path), path.suffix.lower(), max_chars)


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
        yield _failed(name, None, f"the file is {encoding} (it starts with a byte-order mark); save it as UTF-8")
        return
    if suffix == ".csv":
        records = _csv_records(handle, name)
    else:
        lines = _decode_lines(handle)
        head: list[str | None] = []
        for text in lines:  # the format is told by the first line with text
            head.append(text)
            if text is not None and text.strip():
                break
        first = head[-1] if head and head[-1] is not None else ""
        lines = itertools.chain(head, lines)
        if suffix in (".jsonl", ".ndjson") or (not suffix and first.lstrip().startswith("{")):
            records = _jsonl_records(lines, name)
        elif _LISTING_HEADER.match(first.strip()):
            records = _listing_records(lines, name)
        else:
            records = _paragraph_records(lines, name)
    for record in records:
        yield _checked(record, max_chars)


def _decode_lines(handle: BinaryIO) -> Iterator[str | None]:
    """Lines of the file, one at a time; ``None`` for a line that is not valid UTF-8."""
    for number, raw in enumerate(handle):
        try:
            text = raw.removesuffix(b"\n").decode("utf-8").removesuffix("\r")
        except UnicodeDecodeError:
            yield None
            continue
        yield text.removeprefix("\ufeff") if number == 0 else text


def _failed(file: str, line: int | None, problem: str, given_id: object = None) -> Paper:
    source = Source(file=file, line=line)
    where = Path(file).name + (f":{line}" if line is not None else "")
    return Paper(
        id=paper_id("", given_id) if given_id not in (None, "") else f"input:{where}",
        abstract="",
        title=None,
        source=source,
        error=str(InputError(file, line, problem)),
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


_KNOWN_FIELD = {f: f for f in ("id", "title", "abstract")}


def _known_header(names: list) -> tuple[list, str | None]:
    """Column names as fields: spreadsheets title their columns (`Abstract`, ` ID ` are the
    fields abstract and id). The problem, naming the header as read, when there is no abstract."""
    header = [_KNOWN_FIELD.get(str(f).strip().casefold(), f) if f is not None else f for f in names]
    shown = ", ".join(repr(str(f)) for f in names[:12]) + (", ..." if len(names) > 12 else "")
    doubled = sorted({f for f in header if f in _KNOWN_FIELD and header.count(f) > 1})
    if doubled:
        return header, f"header has more than one {doubled[0]!r} column (names are matched ignoring case): {shown}"
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
        yield _failed(name, 1, f"malformed CSV header ({exc})")
        return
    header, problem = _known_header(fieldnames or [])
    if problem:
        yield _failed(name, 1, f"CSV {problem}")
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


def _xlsx_records(path: Path, sheet: str | None) -> Iterator[Paper]:
    """The rows of a worksheet (the first unless one is named), with the column rules of CSV;
    a line number is the row's number in the sheet."""
    from openpyxl import load_workbook  # only for workbooks: openpyxl is slow to import

    name = str(path)
    try:
        book = load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # a corrupt or foreign zip: openpyxl raises many kinds
        yield _failed(name, None, f"not a readable .xlsx workbook ({type(exc).__name__}: {exc})")
        return
    try:
        if sheet is not None and sheet not in book.sheetnames:
            yield _failed(name, None, f"workbook has no worksheet {sheet!r} (it has {', '.join(map(repr, book.sheetnames))})")
            return
        rows = (book[sheet] if sheet is not None else book.worksheets[0]).iter_rows()
        first = next(rows, None)
        header, problem = _known_header([cell.value for cell in first or ()])
        if problem:
            yield _failed(name, 1, f"worksheet {problem}")
            return
        for number, row in enumerate(rows, start=2):
            values = [_cell_text(cell) for cell in row]
            if not any(values):
                continue
            yield _from_fields({k: v for k, v in zip(header, values) if k is not None}, name, number)
    finally:
        book.close()


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


def _listing_records(lines: Iterable[str | None], name: str) -> Iterator[Paper]:
    """arXiv listing text: ``#NN<date>`` / category / title / authors / abstract lines."""
    block: list[str | None] = []
    start = 0
    for number, text in enumerate(lines, start=1):
        if text is not None and _LISTING_HEADER.match(text.strip()):
            if block:
                yield _listing_entry(block, start, name)
            block, start = [text], number
        elif block:
            block.append(text)
    if block:
        yield _listing_entry(block, start, name)


def _listing_entry(block: list[str | None], line_no: int, name: str) -> Paper:
    """One entry of a listing: its header line (number ``line_no``) and the lines up to the next."""
    if any(text is None for text in block):
        bad = line_no + next(i for i, t in enumerate(block) if t is None)
        return _failed(name, bad, "line is not valid UTF-8")
    body = [t.strip() for t in block[1:] if t and t.strip()]
    header = _LISTING_HEADER.match(block[0].strip())
    if len(body) < 4:
        return _failed(name, line_no, "listing entry needs category, title, authors, abstract")
    category, title, authors = body[0], body[1], body[2]
    abstract = " ".join(body[3:])
    metadata = {"category": category, "authors": authors, "listing_date": header.group(2)}
    return Paper(
        id=paper_id(abstract, None, metadata),
        abstract=abstract,
        title=title,
        source=Source(file=name, line=line_no),
        metadata=metadata,
    )


def _paragraph_records(lines: Iterable[str | None], name: str) -> Iterator[Paper]:
    """One abstract per paragraph, as a user pastes them: a title line directly above its
    abstract, or alone in a paragraph before it, is that paper's title; a short heading line
    ("Daily Papers") is skipped."""
    paragraph: list[str] = []
    start = 0
    title: str | None = None
    for number, text in enumerate(itertools.chain(lines, [""]), start=1):
        if text is None:
            yield _failed(name, number, "line is not valid UTF-8")
            continue
        if text.strip():
            if not paragraph:
                start = number
            paragraph.append(text.strip())
            continue
        if not paragraph:
            continue
        if len(paragraph) == 1 and is_title_line(paragraph[0]):
            title, paragraph = paragraph[0], []  # a title alone: its abstract is the next paragraph
            continue
        if len(paragraph) > 1 and is_title_line(paragraph[0]) and paragraph[1][:1].isupper():
            title, paragraph = paragraph[0], paragraph[1:]
        abstract = " ".join(paragraph)
        paragraph = []
        if len(abstract.split()) < 8 and not re.search(r"[.!?]\s*$", abstract):
            title = None
            continue  # a heading, not an abstract
        yield Paper(id=paper_id(abstract), abstract=abstract, title=title, source=Source(file=name, line=start))
        title = None


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
