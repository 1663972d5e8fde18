"""The review workbook: a run laid out for reviewers, and their edits read back.

Three sheets (Claims, Items, Papers), one row per reviewable item with a stable id, the context
around it, the editable fields and a ``decision`` dropdown. Read-only columns are grey and
applying ignores them; the sheets are not protected, because no spreadsheet sorts a protected
range that holds locked cells (LibreOffice refuses, and so does Excel). Every text column is
formatted as text, so `1/2` typed as a setting stays `1/2` instead of becoming a date. A hidden
``base`` column keeps what each row showed, so applying the sheet can tell what the reviewer
changed from what another reviewer changed in the meantime. Blank rows marked ``new`` at the
bottom take items the extractor missed.
"""

from __future__ import annotations

import datetime as dt
import io
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from openpyxl import Workbook
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont
from openpyxl.styles import Alignment, Font, NamedStyle, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from extractor.catalog.normalize import normalize_benchmark, parse_setting
from extractor.errors import ReviewError
from extractor.grounding import find_evidence
from extractor.review.fit import FONT, FONT_SIZE, fitting_width, line_count, row_points
from extractor.runs.names import NameAnswer
from extractor.review.aliases import alias_values, model_merges
from extractor.review.apply import view_of, well_formed_view
from extractor.runs.names import ALIAS_FIELDS, Words, reviewer_words
from extractor.progress import Step, silent, tracked
from extractor.review.corrected import (
    DECISION,
    DECISIONS,
    ITEM_FIELDS,
    MAX_NOTE,
    NOTE,
    PAPER_DECISIONS,
    Problem,
    ReviewState,
    TargetState,
    check_item,
)
from extractor.schema import MAX_EVIDENCE, MAX_NAME, Claim, PaperResult
from extractor.text.hashing import canonical_json, normalize_text, short_hash
from extractor.text.numbers import find_number_words, find_numbers
from extractor.text.safe import formula_like, set_text_cell, xlsx_text
from extractor.workbook import WorkbookTooLarge, open_workbook

NEW = "new"
NEW_ROWS = 20  # blank new rows at the foot of the Claims and Items sheets (Claims has one under each paper too)
CONTEXT_CHARS = 80  # the abstract shown either side of a claim's evidence (the Papers sheet has it whole)
ID_WIDTH = 60  # the widest an id column grows to fit its ids
ABSTRACT_WIDTH = 160  # the widest the Papers sheet's abstract column grows to fit the longest abstract
#: The most filled new rows one sheet may hold: a sheet of copies of one filled row would
#: otherwise record each copy, and the store and every later command grow with them.
MAX_NEW_ROWS = 2_000
README = "Read me"
#: A hidden sheet listing the rows each sheet was exported with: a deleted row is named, a
#: renamed sheet is found, and the workbook is told from any other.
MANIFEST = "exported"

LOCKED_FILL = PatternFill("solid", fgColor="E7E6E6")
NEW_FILL = PatternFill("solid", fgColor="FFF8DC")
HEADER_FILL = PatternFill("solid", fgColor="44546A")
HEADER_STYLE = "review-header"
HEADER_FONT = Font(name=FONT, size=FONT_SIZE, bold=True, color="FFFFFF")
# Rich-text runs name the font, so they match the body text everywhere.
NUMBER_FONT = InlineFont(rFont=FONT, sz=FONT_SIZE, b=True)
EVIDENCE_FONT = InlineFont(rFont=FONT, sz=FONT_SIZE, color="C00000")
EVIDENCE_NUMBER_FONT = InlineFont(rFont=FONT, sz=FONT_SIZE, b=True, color="C00000")


@dataclass(frozen=True)
class Column:
    name: str
    width: float
    edit: bool = False
    choices: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()  # Items sheet: editable only on rows of these kinds
    new_only: bool = False  # editable on the blank "new" rows only
    number: bool = False
    wrap: bool = False


_CLAIM_NAMES = ("metric", "benchmark", "method", "model", "baseline", "setting")
_ITEM_KINDS = ("method", "model", "benchmark")

#: Each sheet's columns, left to right: what a reviewer reads and decides by first, with the
#: decision right after the value and frozen with it (and with the id and the evidence), so
#: the evidence and the decision are on screen together whatever is scrolled to.
SHEETS: dict[str, list[Column]] = {
    "Claims": [
        Column("id", 20),
        Column("evidence", 44, edit=True, wrap=True),  # its number in bold
        Column("value", 9, edit=True, number=True),
        Column(DECISION, 10, edit=True, choices=DECISIONS),
        Column("unit", 7, edit=True),
        *[Column(name, 15 if name in ("metric", "benchmark") else 13, edit=True, wrap=True) for name in _CLAIM_NAMES],
        Column("context", 64, wrap=True),  # the abstract around the evidence, the evidence in red
        Column("value_max", 11, edit=True, number=True),
        Column("bound", 8, edit=True, choices=("upper", "lower")),
        Column("kind", 9, edit=True, choices=("score", "change")),
        Column("direction", 10, edit=True, choices=("increase", "decrease")),
        Column("proposed", 10, edit=True, choices=("yes", "no")),  # the paper's own method's result
        Column(NOTE, 24, edit=True, wrap=True),
        Column("paper_id", 16, new_only=True),
        Column("title", 30),  # one line here: the Papers sheet has it whole
        Column("setting_read", 20, wrap=True),  # how the leaderboard reads the setting: conditions, the rest
        *[Column(name, 16, edit=True) for name in ALIAS_FIELDS],  # words merged or split for every paper
        Column("benchmark_suggested", 16),  # the registry entry an unknown benchmark resembles
        Column("same_as_by_model", 20, wrap=True),  # what the model merged the names into (names.json)
        Column("review", 30, wrap=True),
        Column("base", 8),
    ],
    "Items": [
        Column("id", 26),
        Column("kind", 11, new_only=True, choices=_ITEM_KINDS),
        Column("name", 24, edit=True, wrap=True),
        Column(DECISION, 10, edit=True, choices=DECISIONS),
        Column("context", 50, wrap=True),
        Column("aliases", 24, edit=True, kinds=("method",), wrap=True),
        Column("proposed", 10, edit=True, kinds=("method",), choices=("yes", "no")),
        Column("params_b", 10, edit=True, kinds=("model",), number=True),
        Column("active_params_b", 10, edit=True, kinds=("model",), number=True),
        Column(NOTE, 24, edit=True, wrap=True),
        Column("paper_id", 16, new_only=True),
        Column("title", 30),
        Column("review", 30, wrap=True),
        Column("base", 8),
    ],
    "Papers": [
        Column("id", 16),
        Column(DECISION, 10, edit=True, choices=PAPER_DECISIONS),
        Column("title", 30, wrap=True),
        Column("abstract", 130, wrap=True),  # whole, its claims' numbers in bold
        Column("claims", 7),
        Column("status", 8),
        Column(NOTE, 24, edit=True, wrap=True),
        Column("review", 30, wrap=True),
        Column("base", 8),
    ],
}
SHEET_KINDS = {"Claims": ("claim",), "Items": _ITEM_KINDS, "Papers": ("paper",)}
FROZEN = DECISION  # the panes are frozen right of this column and under the header

README_LINES = [
    "How to review this run",
    "",
    "Claims: one row per reported number. Items: methods, models and benchmarks. Papers: one row per abstract.",
    "The id, the evidence (its number in bold), the value and the decision stay on screen when you scroll right.",
    "proposed (Claims): yes when the number is the result of the paper's own proposed method, named or not.",
    "Grey columns are read-only; white columns are yours to edit.",
    "decision: accept (the row is right), reject (it should not be in the tables), edit (you changed fields;",
    "  changing a field without choosing a decision counts as edit). On Papers, accept means every item of",
    "  the paper has been checked; reject removes the paper from the tables.",
    "evidence must be words copied from the abstract; the value (and value_max for a range) must be written in it.",
    "  A number written as a word is fine: value 3 with the evidence 'three times faster'.",
    "benchmark_same_as / metric_same_as: the name this claim's benchmark or metric is another name of (e.g.",
    "  'SemEval-2010 Task 8'); it merges that name on every paper of the leaderboard. benchmark_suggested is",
    "  the registry entry an unknown benchmark resembles: copy it into benchmark_same_as if it is right.",
    "same_as_by_model: the registry entry the model merged the benchmark or metric into (an LLM run); to undo",
    "  it, write the name itself in benchmark_same_as or metric_same_as: a reviewer's word always wins.",
    "setting_read: how the leaderboard reads the setting: the evaluation conditions that split its blocks (split,",
    "  shots, language pair, subset, resolution, bit-width, ...: docs/merging.md lists them all) and the rest,",
    "  shown on the row only.",
    "setting_condition: words of the setting that name an evaluation condition the reading missed (e.g. 'predicate",
    "  classification'); every paper whose setting writes them is then split apart on them.",
    "block_same_as: the conditions of the block this claim's block is one with, as a setting writes them (e.g. 'test'",
    "  on a dev row, '5-shot' on a row that states no count), or 'none' for the block without conditions.",
    "context shows the abstract around the evidence (in red, its number in bold). The Papers sheet has each",
    "  whole abstract, the numbers its claims hold in bold.",
    "To add a claim the extractor missed, fill the yellow 'new' row under its paper's claims (the numbers no",
    "  claim holds are listed there): value, evidence and fields. The rows marked 'new' at the foot of Claims",
    "  and Items take any paper: fill in its paper id too.",
    "Type names as the abstract writes them (LLaMA, SQuAD 2.0); turn off AutoCorrect's capitalisation if it",
    "  changes them.",
    "Deleting a row changes nothing (choose reject instead); sorting and filtering are fine.",
    "Grey columns are ignored when the sheet is applied: an edit there changes nothing.",
    "Then save and run: extractor review apply THIS_FILE RUN_DIR --reviewer YOUR_NAME",
    "Rows with a problem are reported with sheet, row and column; the other rows are applied.",
]


def _display(value: object) -> object:
    """A field value as a reviewer reads and types it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return "; ".join(value)
    return value


def _marked(text: str, marks: Iterable[tuple[int, int]], plain: InlineFont | None, bold: InlineFont) -> CellRichText | str:
    """``text`` as rich text, the spans ``marks`` (sorted, apart) in ``bold``, the rest in ``plain``
    (None: the cell's own font). Rich text is stored as text, never as a formula: no guard is
    needed, only XLSX's alphabet."""
    blocks: list[str | TextBlock] = []
    at = 0
    for start, end in marks:
        if start < at or end <= start or end > len(text):
            continue
        blocks += [_run(plain, text[at:start]), TextBlock(bold, xlsx_text(text[start:end]))]
        at = end
    if not blocks:
        return text
    blocks.append(_run(plain, text[at:]))
    return CellRichText(*[b for b in blocks if str(b)])


def _run(font: InlineFont | None, text: str) -> str | TextBlock:
    return TextBlock(font, xlsx_text(text)) if font is not None else xlsx_text(text)


def _word_edge(abstract: str, at: int, step: int) -> int:
    """``at`` moved out to the nearest space (at most 20 characters), so a window cuts no word."""
    for _ in range(20):
        if at <= 0 or at >= len(abstract) or abstract[at - (step < 0)].isspace():
            break
        at += step
    return max(0, min(len(abstract), at))


def _window(abstract: str, span: tuple[int, int] | None, number: tuple[int, int] | None = None) -> CellRichText | str:
    """The abstract around ``span``: the span itself in red, the number (``number``) in it bold."""
    if span is None:  # not found: the abstract's start
        end = _word_edge(abstract, min(len(abstract), 2 * CONTEXT_CHARS), 1)
        return abstract[:end] + ("…" if end < len(abstract) else "")
    start, end = span
    left = _word_edge(abstract, max(0, start - CONTEXT_CHARS), -1)
    right = _word_edge(abstract, min(len(abstract), end + CONTEXT_CHARS), 1)
    before = ("…" if left else "") + abstract[left:start]
    after = abstract[end:right] + ("…" if right < len(abstract) else "")
    inside = [(number[0] - start, number[1] - start)] if number and start <= number[0] < number[1] <= end else []
    evidence = _marked(abstract[start:end], inside, EVIDENCE_FONT, EVIDENCE_NUMBER_FONT)
    runs = evidence if isinstance(evidence, CellRichText) else [TextBlock(EVIDENCE_FONT, xlsx_text(evidence))]
    return CellRichText(*[b for b in (xlsx_text(before), *runs, xlsx_text(after)) if str(b)])


def setting_read(setting: str | None, words: Words) -> str | None:
    """How the leaderboard reads a setting, for a reviewer ('conditions: 5-shot; not read:
    single model; cost: 34ms'), the phrases reviewers said are conditions included."""
    read = parse_setting(setting, frozenset(p for p in words.get("condition", {}).values() if p))
    parts = [(f"conditions: {read.label}", read.label), (f"not read: {read.other}", read.other), (f"cost: {read.cost}", read.cost)]
    return "; ".join(text for text, value in parts if value) or None


def _review_label(state: TargetState, mark_label: str | None) -> str | None:
    parts = [mark_label] if mark_label else []
    if state.stale:
        parts.append(f"STALE: {state.stale}; check the row and choose a decision again")
    return "\n".join(parts) or None


def _claim_spans(state: TargetState, claims: dict[str, Claim], paper: PaperResult) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """Where a claim's evidence and its number sit in the abstract: as grounded, or placed again
    for a claim the corrected paper does not hold (rejected, or no longer passing its checks)."""
    claim = claims.get(state.target.id)
    if claim is None:
        checked = check_item("claim", state.values, paper.abstract or "", paper.id, paper.title)
        claim = checked if isinstance(checked, Claim) else None
    return (claim.span, claim.value_span) if claim else None


def _number_in(evidence: str, abstract: str, spans: tuple[tuple[int, int], tuple[int, int]] | None) -> list[tuple[int, int]]:
    """The claim's number within its evidence text, where the evidence writes it as the abstract does."""
    if spans is None:
        return []
    (start, _), (number_start, number_end) = spans
    number = abstract[number_start:number_end]
    offset = number_start - start
    if evidence[offset : offset + len(number)] == number:
        return [(offset, offset + len(number))]
    found = [i for i in range(len(evidence)) if evidence.startswith(number, i)]
    nearest = min(found, key=lambda i: abs(i - offset), default=None)
    return [] if nearest is None else [(nearest, nearest + len(number))]


def _row(
    state: TargetState,
    paper: PaperResult,
    claims: dict[str, Claim],
    review: ReviewState,
    model_names: list[NameAnswer],
    words: Words,
) -> dict[str, object]:
    """The cells of one target's row, by column name, and its hidden base (as a dict, for
    :func:`build_workbook` to complete); ``claims`` the corrected paper's claims by id."""
    target = state.target
    abstract = paper.abstract or ""
    mark = review.marks.get(target.id)
    # A stale target shows no decision, so choosing one again is a change that re-confirms it.
    decision = None if state.stale else state.decision
    cells: dict[str, object] = {
        "id": target.id,
        "paper_id": target.paper_id,
        "title": paper.title,
        "kind": target.kind,
        DECISION: decision,
        NOTE: state.note,
        "review": _review_label(state, mark.label if mark else None),
    }
    for name in ITEM_FIELDS[target.kind]:
        cells[name] = _display(state.values.get(name))
    if target.kind == "claim":
        spans = _claim_spans(state, claims, paper)
        evidence = state.values["evidence"]
        cells["evidence"] = _marked(evidence, _number_in(evidence, abstract, spans), None, NUMBER_FONT)
        span = spans[0] if spans else find_evidence(evidence, abstract)
        cells["context"] = _window(abstract, span, spans[1] if spans else None)
        cells.update(
            alias_values(state.latest),
            benchmark_suggested=normalize_benchmark(state.values.get("benchmark")).proposed,
            same_as_by_model=model_merges(state.values, model_names, words),
            setting_read=setting_read(state.values.get("setting"), words),
        )
    elif target.kind == "paper":
        numbers = sorted({c.value_span for c in claims.values()})
        apart = [s for i, s in enumerate(numbers) if i == 0 or s[0] >= numbers[i - 1][1]]
        cells.update(
            title=paper.title,
            status=paper.status if paper.status == "ok" else f"failed: {paper.error}",
            abstract=_marked(abstract, apart, None, NUMBER_FONT),
            claims=len(paper.extraction.claims) if paper.extraction else 0,
        )
    else:
        cells["context"] = _window(abstract, find_evidence(state.values["name"], abstract))
    cells["base"] = view_of(state, paper.abstract)
    return cells


UNCLAIMED_SHOWN = 12  # the numbers no claim holds listed on a paper's new row, at most


def _new_row(paper: PaperResult, claims: dict[str, Claim]) -> dict[str, object] | None:
    """A paper's blank ``new`` row of the Claims sheet, its paper filled in: the context lists
    the numbers of the abstract (in digits or words) that no claim holds, where a missed claim
    would be. None for an abstract that writes no number: it can have no claim."""
    abstract = paper.abstract or ""
    mentions = sorted([*find_numbers(abstract), *find_number_words(abstract)], key=lambda m: m.start)
    if not mentions:
        return None
    held = [c.value_span for c in claims.values()]
    free = [m.text for m in mentions if not any(start < m.end and m.start < end for start, end in held)]
    hint = None
    if free:
        more = f" and {len(free) - UNCLAIMED_SHOWN} more" if len(free) > UNCLAIMED_SHOWN else ""
        hint = "numbers no claim holds: " + ", ".join(free[:UNCLAIMED_SHOWN]) + more
    return {"id": NEW, "paper_id": paper.id, "title": paper.title, "context": hint}


def _editable(column: Column, kind: str) -> bool:
    """Whether a reviewer's edit of ``column`` on a row of ``kind`` (NEW: a new row) is read."""
    if kind == NEW:
        return (column.edit or column.new_only) and column.name not in ("review", "base")
    return column.edit and (not column.kinds or kind in column.kinds)


def _fingerprint(value: object) -> str | None:
    """A short fingerprint of a read-only cell's text as written (whitespace folded), or None
    for a blank cell: the hidden base keeps one per read-only column, so an edit there is seen."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = f"{value:g}"
    text = normalize_text(str(xlsx_text(str(value)))) if value not in (None, "", []) else ""
    return short_hash(text, 6) if text else None


def _grey(columns: list[Column], kind: str, cells: dict[str, object]) -> dict[str, str]:
    """The fingerprints of a row's read-only cells that hold text (the id is in the base)."""
    found = {}
    for column in columns:
        if column.name in ("id", "base") or _editable(column, kind):
            continue
        fingerprint = _fingerprint(cells.get(column.name))
        if fingerprint:
            found[column.name] = fingerprint
    return found


def _write_sheet(ws: Worksheet, columns: list[Column], rows: Iterable[tuple[str, dict]], widths: dict[str, float]) -> None:
    """Write the header and the rows (``new`` rows yellow where a reviewer fills them in), each
    as tall as its wrapped text; grey what is read-only; add dropdowns; freeze the panes right of
    the decision. ``widths``: the columns sized for this sheet's text."""
    for index, column in enumerate(columns, start=1):
        ws.cell(1, index, column.name).style = HEADER_STYLE
    width = {c.name: widths.get(c.name, c.width) for c in columns}
    count = 1
    longest_id = 0
    for kind, cells in rows:
        count += 1
        new = kind == NEW
        if not new:
            longest_id = max(longest_id, len(str(cells.get("id") or "")))
        for index, column in enumerate(columns, start=1):
            editable = _editable(column, kind)
            # Every text (ids and names too) comes from untrusted input: no cell runs as a formula.
            cell = ws.cell(count, index)
            cell.style = _style(column, editable, new)  # first: a named style resets the quote prefix
            set_text_cell(cell, cells.get(column.name))
        ws.row_dimensions[count].height = _height(columns, cells, width)
    for index, column in enumerate(columns, start=1):
        letter = get_column_letter(index)
        # Ids are read whole (they are typed into reports and commands): the column fits the longest.
        ws.column_dimensions[letter].width = min(max(column.width, longest_id + 2), ID_WIDTH) if column.name == "id" else width[column.name]
        ws.column_dimensions[letter].hidden = column.name == "base"
        if column.choices and count > 1:
            validation = DataValidation(
                type="list",
                formula1='"' + ",".join(column.choices) + '"',
                allow_blank=True,
                showErrorMessage=True,
                errorTitle=f"{column.name}",
                error=f"Choose one of: {', '.join(column.choices)}",
            )
            validation.add(f"{letter}2:{letter}{count}")
            ws.add_data_validation(validation)
    ws.freeze_panes = ws.cell(2, [c.name for c in columns].index(FROZEN) + 2).coordinate
    ws.page_setup.orientation = "landscape"  # printed: all columns on one page width
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.page_setup.fitToWidth, ws.page_setup.fitToHeight = 1, 0
    ws.auto_filter.ref = f"A1:{get_column_letter(len(columns))}{count}"


def _height(columns: list[Column], cells: dict[str, object], width: dict[str, float]) -> float:
    """A row as tall as its wrapped text (no spreadsheet sizes rows it did not write)."""
    lines = 1
    for column in columns:
        text = cells.get(column.name)
        if column.wrap and text:
            lines = max(lines, line_count(str(text), width[column.name]))
    return row_points(lines)


def _style(column: Column, editable: bool, new: bool = False) -> str:
    state = "new" if editable and new else "edit" if editable else "locked"
    return f"review-{state}" + ("-wrap" if column.wrap else "") + ("-number" if column.number else "")


def _named_styles() -> list[NamedStyle]:
    """One named style per look: assigning a name per cell is far faster than cell styles.
    Every column but the numbers is formatted as text ("@"), so what a reviewer types there is
    kept as typed: no date (`1/2`), no number that loses digits (`2401.10100`)."""
    styles = [NamedStyle(name=HEADER_STYLE, font=HEADER_FONT, fill=HEADER_FILL)]
    for state, fill in (("locked", LOCKED_FILL), ("edit", PatternFill()), ("new", NEW_FILL)):
        for wrap in (False, True):
            for number in (False, True):
                styles.append(
                    NamedStyle(
                        name=f"review-{state}" + ("-wrap" if wrap else "") + ("-number" if number else ""),
                        font=Font(name=FONT, size=FONT_SIZE),
                        fill=fill,
                        alignment=Alignment(wrap_text=wrap, vertical="top"),
                        number_format="General" if number else "@",
                    )
                )
    return styles


def build_workbook(review: ReviewState, step: Step = silent, model_names: list[NameAnswer] | None = None) -> bytes:
    """The review workbook of a run, with the current corrections already applied; ``model_names``
    the run's ``names.json`` answers, shown where they merge a claim's names. A paper's claims
    are followed by a ``new`` row for a claim they missed."""
    words = reviewer_words(review.history)
    papers = {p.id: p for p in review.papers}
    claims = {p.id: {c.id: c for c in p.extraction.claims} if p.extraction else {} for p in review.papers}
    grouped: dict[str, list[tuple[str, dict]]] = {name: [] for name in SHEETS}
    paper_claims: dict[str, list[tuple[str, dict]]] = {p.id: [] for p in review.papers}
    sheet_of = {kind: name for name, kinds in SHEET_KINDS.items() for kind in kinds}
    for state in tracked(list(review.targets.values()), "laying out rows", step):
        kind, paper_id = state.target.kind, state.target.paper_id
        cells = _row(state, papers[paper_id], claims[paper_id], review, model_names or [], words)
        cells["base"] = canonical_json({**cells["base"], "grey": _grey(SHEETS[sheet_of[kind]], kind, cells)})
        (paper_claims[paper_id] if kind == "claim" else grouped[sheet_of[kind]]).append((kind, cells))
    for paper in review.papers:
        new = _new_row(paper, claims[paper.id])
        grouped["Claims"] += [*paper_claims[paper.id], *([(NEW, new)] if new else [])]
    blank = [(NEW, {"id": NEW})] * NEW_ROWS
    grouped["Claims"] += blank
    grouped["Items"] += blank
    longest = max((p.abstract or "" for p in review.papers), key=len, default="")
    widths = {"Papers": {"abstract": fitting_width(longest, _column("Papers", "abstract").width, ABSTRACT_WIDTH)}}
    wb = Workbook()
    for style in _named_styles():
        wb.add_named_style(style)
    readme = wb.active
    readme.title = README
    for line in README_LINES:
        readme.append([line])
    readme["A1"].font = Font(name=FONT, bold=True, size=14)
    readme.column_dimensions["A"].width = 110
    for name, columns in SHEETS.items():
        rows = tracked(grouped[name], f"writing the {name} sheet", step)
        _write_sheet(wb.create_sheet(name), columns, rows, widths.get(name, {}))
    manifest = wb.create_sheet(MANIFEST)
    manifest.sheet_state = "hidden"
    manifest.append(["sheet", "id"])
    listed = ((name, cells) for name in SHEETS for kind, cells in grouped[name] if kind != NEW)
    for number, (name, cells) in enumerate(listed, start=2):
        manifest.cell(number, 1, name)
        set_text_cell(manifest.cell(number, 2), cells["id"])
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


def _column(sheet: str, name: str) -> Column:
    return next(c for c in SHEETS[sheet] if c.name == name)


@dataclass
class SheetRow:
    """One row of a returned sheet, parsed: the editable cells by field, and the hidden base."""

    sheet: str
    row: int
    kind: str | None
    id: str | None  # None for a new row
    paper_id: str | None
    cells: dict[str, object]
    base: dict | None
    letters: dict[str, str]
    problems: list[Problem] = field(default_factory=list)

    def where(self, column: str | None = None) -> str:
        place = f"sheet {self.sheet}, row {self.row}"
        if column:
            letter = self.letters.get(column)
            place += f", column {column}" + (f" ({letter})" if letter else "")
        return place


def _text(value: object) -> str | None:
    """Cell text as typed. Sheets exported before formula-like text was typed as text (quote
    prefix style) carried a visible ``'`` before it: that quote is taken off."""
    if value is None:
        return None
    if isinstance(value, float):
        value = f"{value:g}"
    text = str(value).strip()
    if text.startswith("'") and formula_like(text[1:]):
        text = text[1:]
    # A cell of spaces stays spaces: applying tells it from a cleared cell and keeps the field.
    return text or str(value) or None


def _number(cell) -> object:
    value = cell.value
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        # A reviewer who types "83.6%" gets 0.836 formatted as a percentage: take it as written.
        if "%" in (cell.number_format or ""):
            value *= 100
        return float(f"{value:.15g}")  # 83.59999999999999 as written back by a spreadsheet is 83.6
    return _text(value)


_YES_NO = {"yes": True, "no": False}
_WHERE_NEW = ("paper_id", "kind")  # what a new row says of where its item goes, not the item
# What a reviewer may type in a text column: a name's bound unless named here, so every field,
# and the hidden base that repeats them, still fits a cell when the sheet is exported again.
_BOUNDS = {"evidence": MAX_EVIDENCE, NOTE: MAX_NOTE}


def _parse(column: Column, cell) -> object | Problem:
    """The typed value of a cell, or the problem with it."""
    value = cell.value
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        # The spreadsheet read what was typed (`1/2`, `2024-01-05`) as a date: the text is lost.
        if isinstance(value, dt.datetime) and value.time() == dt.time():
            value = value.date()
        return Problem(column.name, f"the cell holds a date ({value.isoformat()}), not what was typed; "
                                    "format the cell as text and type it again")
    if column.number:
        return _number(cell)
    text = _text(cell.value)
    if text is not None and not text.strip():
        return text if column.edit else None  # spaces in a field: see _text
    if column.name == "aliases":  # each alias is a name the schema bounds
        return [a.strip() for a in (text or "").split(";") if a.strip()]
    bound = _BOUNDS.get(column.name, MAX_NAME) if column.edit and not column.choices else None
    if text is not None and bound is not None and len(text) > bound:
        return Problem(column.name, f"the text is {len(text)} characters; at most {bound} fit (shorten it)")
    if not column.choices or text is None:
        return text
    text = text.lower()
    if text not in column.choices:
        return Problem(column.name, f"{text!r} is not one of {', '.join(column.choices)}")
    return _YES_NO[text] if column.choices == tuple(_YES_NO) else text


def _column_problems(name: str, typed: list[str | None], rows: list[SheetRow]) -> list[str]:
    """The header's columns the sheet does not have (a renamed one), and the editable columns
    its rows were exported with (their hidden base holds the field) that the header lacks: the
    edits in such a column would be read as no edit. A column an older export did not have is
    not missing."""
    names = {c.name for c in SHEETS[name]}
    found = {(t or "").lower() for t in typed}
    problems = [
        f"unknown column {text!r} ({get_column_letter(i)})"
        for i, text in enumerate(typed, start=1)
        if text and text.lower() not in names
    ]
    exported: set[str] = {"id", "base"}
    for row in rows:
        if isinstance(row.base, dict):
            exported.update(row.base, row.base.get("values") or {})
    problems += [
        f"missing column {c.name!r}, which the sheet was exported with"
        for c in SHEETS[name]
        if c.name in exported and (c.edit or c.name in ("id", "base")) and c.name not in found
    ]
    return problems


_ALTERED = "the hidden base column was altered; export the run again"


def _base(text: object) -> dict | None | Problem:
    """The hidden base a row was exported with, or the problem with it (altered by hand: any
    JSON, nested as deep as it likes)."""
    if not text:
        return None
    try:
        base = json.loads(str(text))
    except (ValueError, RecursionError):
        return Problem("base", _ALTERED)
    if not well_formed_view(base):
        return Problem("base", _ALTERED)
    return base


def _shown(name: str, base: dict) -> object:
    """What the export wrote in a row's cell of field ``name``: its text, as XLSX could hold it."""
    values = base.get("values") or {}
    return xlsx_text(_display(values[name] if name in values else base.get(name)))


def _header(ws: Worksheet) -> list[str | None]:
    """A sheet's column names as typed, without the blank ones after the last (a sheet whose
    dimension claims the whole grid would otherwise widen every row to 16,384 cells)."""
    typed = [(_text(v) or "").strip() or None for v in next(ws.iter_rows(max_row=1, values_only=True), ())]
    while typed and typed[-1] is None:
        typed.pop()
    return typed


def _read_sheet(ws: Worksheet, name: str) -> tuple[list[SheetRow], list[str], list[str]]:
    """The used rows of one sheet, the problems of its header (:func:`_column_problems`), and
    what would pass unseen: an edit in a read-only (grey) column.

    A cell that holds what the export wrote there is the exported value itself, exactly: a
    sheet applied back untouched records nothing, though a spreadsheet shows spaces at the ends
    and control characters (as symbols) that a typed value would not keep."""
    typed = _header(ws)
    header = [(t or "").lower() for t in typed]
    # Only what a reviewer may type, plus the id and the hidden base; the rest is for reading.
    known = {c.name: c for c in SHEETS[name] if c.edit or c.new_only or c.name in ("id", "base")}
    columns = {c.name: c for c in SHEETS[name]}
    index = {h: i for i, h in enumerate(header) if h in columns}
    letters = {h: get_column_letter(i + 1) for h, i in index.items()}
    if "id" not in index:
        return [SheetRow(name, 1, None, None, None, {}, None, letters, [Problem("id", "the header has no 'id' column")])], [], []
    rows: list[SheetRow] = []
    notes: list[str] = []
    new_rows = 0
    for number, cells in enumerate(ws.iter_rows(min_row=2, max_col=len(header)), start=2):
        raw = {h: cells[i] for h, i in index.items() if i < len(cells)}
        row_id = (_text(raw["id"].value) or "").strip() or None if "id" in raw else None
        is_new = row_id in (None, NEW)
        base = None if is_new else _base(_text(raw["base"].value) if "base" in raw else None)
        values: dict[str, object] = {}
        problems: list[Problem] = [base] if isinstance(base, Problem) else []
        base = base if isinstance(base, dict) else None
        for column_name, cell in raw.items():
            if column_name not in known or column_name in ("id", "base"):
                continue
            if cell.data_type == "f":
                problems.append(Problem(column_name, "formulas are not accepted; type the value itself"))
                continue
            column = known[column_name]
            if base is not None and not column.number and isinstance(cell.value, str) and cell.value == _shown(column_name, base):
                values[column_name] = (base.get("values") or {}).get(column_name, base.get(column_name))
                continue  # as exported, exactly
            parsed = _parse(column, cell)
            if isinstance(parsed, Problem):
                problems.append(parsed)
            else:
                values[column_name] = parsed
        filled = [k for k, v in values.items() if v not in (None, []) and str(v).strip() and k not in _WHERE_NEW]
        if is_new and not filled and not problems:
            continue  # an unused new row: at most its paper (filled in by the export) and kind
        if is_new:
            new_rows += 1
            if new_rows > MAX_NEW_ROWS:
                raise ReviewError(
                    f"sheet {name} has more than {MAX_NEW_ROWS:,} filled new rows, the most one sheet may add "
                    "(copies of one row?); keep the ones meant, or split them over several sheets; nothing was applied"
                )
        exported_as = base.get("id") if base else None
        if exported_as is not None and exported_as != row_id:
            problems.append(Problem(
                "id",
                f"the id was changed to {row_id!r}; the row was exported as {exported_as!r} "
                "(ids are read-only: put it back, or fill a new row)",
            ))
        kind = SHEET_KINDS[name][0] if len(SHEET_KINDS[name]) == 1 else values.pop("kind", None)
        if name == "Items" and not is_new and row_id and row_id.count("/") >= 2:
            kind = row_id.rsplit("/", 2)[1]  # an item's id names its kind; the grey cell is for reading
        paper_id = row_id if name == "Papers" else values.pop("paper_id", None)
        row = SheetRow(name, number, kind, None if is_new else row_id, paper_id, values, base, letters, problems)
        if base is not None and "grey" in base:
            notes += _grey_edits(row, raw, base["grey"])
        rows.append(row)
    return rows, _column_problems(name, typed, rows), notes


def _grey_edits(row: SheetRow, raw: dict, exported: dict) -> list[str]:
    """An edit in a read-only (grey) cell of ``row``, named: applying ignores it."""
    out = []
    for column in SHEETS[row.sheet]:
        if column.name in ("id", "base") or column.name not in raw or _editable(column, str(row.kind)):
            continue
        if _fingerprint(raw[column.name].value) != exported.get(column.name):
            out.append(
                f"{row.where(column.name)}: the column is grey (read-only), so the edit in it is not applied"
                + (f" (the {column.name} of an existing row)" if column.new_only else "")
            )
    return out


@dataclass
class Returned:
    """A returned review workbook, read: its used rows, and what would pass unseen (an edit in a
    grey column, a deleted row)."""

    rows: list[SheetRow]
    notes: list[str]


def _why(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}"
    return text if len(text) <= 200 else text[:199] + "…"


def read_workbook(path: Path) -> Returned:
    """Every used row of the review sheets in ``path``. What is not a review sheet (another
    workbook, a renamed sheet, a header with a column renamed, added or deleted, a workbook that
    does not parse) is a :class:`ReviewError` naming it, and nothing of it is applied: the edits
    in it would otherwise be lost without a word."""
    try:
        wb = open_workbook(path)  # streamed: several times faster on big sheets; its unpacked size bounded
    except WorkbookTooLarge:
        raise
    except Exception as exc:  # a foreign or broken zip: openpyxl and zipfile raise many kinds
        raise ReviewError(f"{path}: cannot read the review sheet ({_why(exc)}); save it as .xlsx") from exc
    try:
        return _read_book(wb, path)
    except ReviewError:
        raise
    except Exception as exc:  # what openpyxl's parsing meets: a shared string out of range, truncated XML
        raise ReviewError(
            f"{path}: cannot read the review sheet ({_why(exc)}); open and save it again in a spreadsheet, "
            "or export the run again; nothing was applied"
        ) from exc
    finally:
        wb.close()


def _read_book(wb: Workbook, path: Path) -> Returned:
    from openpyxl.chartsheet import Chartsheet

    headers = {n: set(filter(None, (h.lower() for h in _header(wb[n]) if h))) for n in wb.sheetnames
               if not isinstance(wb[n], Chartsheet)}
    exported = _manifest(wb) if MANIFEST in headers else None
    shaped = [n for n, header in headers.items() if {"id", "base"} <= header]
    strays = [n for n in shaped if n not in SHEETS]
    if strays:
        named = ", ".join(f"{n!r} (named {_likely_sheet(headers[n])!r} when exported)" for n in strays)
        raise ReviewError(
            f"{path}: sheet {named} holds review rows under another name; a sheet is read by its name: "
            "give it back its name; nothing was applied"
        )
    if exported is None and not shaped:
        if "Leaderboard" in wb.sheetnames:
            what = "a leaderboard (extractor leaderboard's workbook), not a review sheet"
        else:
            what = f"not a review sheet: none of its sheets ({', '.join(map(repr, wb.sheetnames))}) has a review sheet's id and base columns"
        raise ReviewError(f"{path}: {what}; export one with 'extractor review export RUN_DIR --out review.xlsx'")
    charts = [n for n in SHEETS if n in wb.sheetnames and n not in headers]
    if charts:
        raise ReviewError(f"{path}: sheet {charts[0]} is a chart sheet, not the review rows; export the run again; nothing was applied")
    read = {name: _read_sheet(wb[name], name) for name in SHEETS if name in headers}
    problems = [f"sheet {name}: {'; '.join(found)}" for name, (_, found, _) in read.items() if found]
    if problems:
        raise ReviewError(
            f"{path}: {'; '.join(problems)}: name each column as exported, or the edits in it are lost; nothing was applied"
        )
    rows = [row for found, _, _ in read.values() for row in found]
    notes = [note for _, _, found in read.values() for note in found]
    for name, ids in (exported or {}).items():
        if name not in read:
            notes.append(f"sheet {name}: deleted, so its {len(ids):,} rows change nothing")
            continue
        present = {row.id for row in read[name][0]}
        gone = [i for i in ids if i not in present]
        if gone:
            shown = ", ".join(gone[:DELETED_SHOWN]) + (f" and {len(gone) - DELETED_SHOWN:,} more" if len(gone) > DELETED_SHOWN else "")
            notes.append(
                f"sheet {name}: {len(gone):,} exported rows are not in it (deleted?): {shown}; deleting a row changes "
                "nothing: to take an item out, choose reject"
            )
    return Returned(rows, notes)


DELETED_SHOWN = 10  # the ids of deleted rows a note lists, at most


def _manifest(wb: Workbook) -> dict[str, list[str]]:
    """The ids each sheet was exported with (the hidden sheet :data:`MANIFEST`)."""
    out: dict[str, list[str]] = {}
    for name, row_id in wb[MANIFEST].iter_rows(min_row=2, max_col=2, values_only=True):
        if name in SHEETS and row_id is not None:
            out.setdefault(name, []).append(str(row_id))
    return out


def _likely_sheet(header: set[str]) -> str:
    """The review sheet whose columns a header shares most."""
    return max(SHEETS, key=lambda name: len(header & {c.name for c in SHEETS[name]}))

