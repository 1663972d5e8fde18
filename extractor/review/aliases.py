"""What a reviewer says about the board's words, the sheet's side: the cells a claim row shows,
and the corrections an edited row makes (:mod:`extractor.runs.names` reads them into the tables
every leaderboard applies).

A reviewer writes in a claim row's ``benchmark_same_as`` or ``metric_same_as`` the name this
claim's benchmark or metric is another name of; in ``setting_condition`` words of the claim's
setting that name an evaluation condition the list of conditions lacks ('predicate
classification'); in ``block_same_as`` the conditions of the block this claim's block is one
with ('test' on a dev row, '5-shot' on a row that states no count, 'none' for no condition). What
it says is about the *word*, not the one claim, and applies to every paper of every run on the
board; clearing the cell takes it back. A reviewer's word on a name beats the model's
(``names.json``): writing the name itself keeps it apart. :func:`alias_corrections` is the one
validation of all four, whatever the page a reviewer writes on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from extractor.catalog.blocks import block_written
from extractor.catalog.conditions import names as condition_names
from extractor.catalog.conditions import phrase_key
from extractor.catalog.normalize import parse_setting
from extractor.catalog.registry import fold_key
from extractor.review.corrected import NOTE, Problem, Target
from extractor.runs.corrections import Correction, NewCorrection
from extractor.runs.names import ALIAS_FIELDS, KINDS, NameAnswer, Words
from extractor.text.hashing import canonical_json

NO_CONDITION = "none"  # block_same_as: the block that states no condition


def _name_problem(field: str) -> Callable[[dict, str | None], str | None]:
    def problem(claim: dict, new: str | None) -> str | None:
        return None if claim.get(field) else f"this claim has no {field} to merge; fill its {field} first"

    return problem


def _condition_problem(claim: dict, new: str | None) -> str | None:
    """A phrase must be written in the claim's setting, among the words no condition reads."""
    if new is None:
        return None
    setting = claim.get("setting") or ""
    key = f" {phrase_key(new)} "
    if not key.strip() or key not in f" {phrase_key(setting)} ":
        return f"{new!r} is not written in this claim's setting ({setting!r}); write words of the setting that name an evaluation condition"
    read = parse_setting(setting)
    if key not in f" {phrase_key(read.other)} ":
        return f"{new!r} is already read as a condition ({read.label}): nothing to add"
    return None


def _block_problem(claim: dict, new: str | None) -> str | None:
    """The words must be conditions only (or 'none'), and another block's than the claim's own."""
    if not claim.get("benchmark") or not claim.get("metric"):
        return "a block needs the claim's benchmark and metric; fill them first"
    if new is None or new.strip().lower() == NO_CONDITION:
        return None
    read = parse_setting(new)
    if read.entry or not read.conditions:
        known = ", ".join(condition_names())
        return (
            f"{new!r} names no evaluation condition ({known}) or more than them ({read.entry!r}); write the conditions "
            f"of the block this one is one with, as a setting says them ('test', '5-shot, dev'), or '{NO_CONDITION}'"
        )
    if read.key == parse_setting(claim.get("setting")).key:
        return f"{new!r} are this claim's own conditions: name the other block's"
    return None


@dataclass(frozen=True)
class WordColumn:
    """A column where a reviewer says something about a word of the board: what in the claim it
    is about (``old_value``, from the claim's values, the word the cell showed and its paper's
    title), and why it is refused."""

    about: Callable[[dict, str | None, str | None], object]  # (the claim's values, the word it showed, the title) -> old_value
    problem: Callable[[dict, str | None], str | None]


#: Sheet column (and correction field) -> what it says (its kind is :data:`ALIAS_FIELDS`').
WORD_COLUMNS: dict[str, WordColumn] = {
    **{
        column: WordColumn(lambda claim, shown, title, field=field: claim.get(field), _name_problem(field))
        for column, field in ALIAS_FIELDS.items()
        if field in KINDS
    },
    # About the phrase: the one it showed is taken back when another is written, or none.
    "setting_condition": WordColumn(lambda claim, shown, title: shown, _condition_problem),
    # About the block as the claim has it: its names and setting (and title, where it tells the measure).
    "block_same_as": WordColumn(lambda claim, shown, title: block_written(claim, title), _block_problem),
}


def taken_back_about(correction: Correction) -> object:
    """What the row taking a word correction back (an undo) is about: the name or the block
    that correction spoke about, so the same word is restored; for a setting phrase, the phrase
    it wrote, which the cell showed since and which is taken back."""
    return correction.new_value if correction.field == "setting_condition" else correction.old_value


def alias_values(latest: dict[str, Correction]) -> dict[str, str | None]:
    """The word each column shows for a claim: the latest correction of it, else blank."""
    return {column: latest[column].new_value if column in latest else None for column in ALIAS_FIELDS}


def alias_corrections(
    cells: dict,
    base: dict,
    target: Target,
    current: dict,
    latest: dict[str, Correction],
    done: set[tuple[str, str, str, str, str]],
    source: str,
    title: str | None = None,
) -> tuple[list[NewCorrection], list[Problem]]:
    """The corrections a claim's word columns make (``cells``: what the reviewer wrote, by
    column; ``base``: what the row showed; ``current``: the claim's values with this row's other
    edits; ``title``: its paper's), and the problems refusing one. A review sheet and any other
    page call this.

    A column counts as edited when it differs from what the row was exported with; an edit
    already ``done`` (the same sheet applied again after newer work) is not recorded again; a
    word the claim cannot carry is refused (:class:`WordColumn`'s ``problem``)."""
    corrections: list[NewCorrection] = []
    problems: list[Problem] = []
    for column, spec in WORD_COLUMNS.items():
        if column not in cells:
            continue
        value = cells[column]
        new = str(value).strip() or None if value is not None else None
        shown = base.get(column)
        previous = latest[column].new_value if column in latest else None
        if new == shown or new == previous:
            continue
        replay = (target.id, column, canonical_json(new), canonical_json(shown), canonical_json(target.extracted))
        if replay in done:
            continue
        if problem := spec.problem(current, new):
            problems.append(Problem(column, problem))
            continue
        conflict_with = latest[column].id if column in latest and previous != shown else None
        corrections.append(target.correction(column, spec.about(current, previous, title), new, shown, cells.get(NOTE), source, conflict_with))
    return corrections, problems


def model_merges(values: dict, answers: Iterable[NameAnswer], words: Words) -> str | None:
    """What the model merged a claim's names into, where no reviewer has spoken about them
    ('benchmark = SemEval-2010 Task 8 (gpt-4o-mini)'): for the sheet, so a reviewer can undo it
    by writing the name itself in benchmark_same_as or metric_same_as."""
    found = {(a.kind, fold_key(a.name)): a for a in answers if a.same_as}
    shown = []
    for kind in KINDS:
        name = values.get(kind)
        key = fold_key(str(name)) if name else ""
        answer = found.get((kind, key))
        if answer is not None and key not in words.get(kind, {}):
            shown.append(f"{kind} = {answer.same_as} ({answer.model})")
    return "; ".join(shown) or None
