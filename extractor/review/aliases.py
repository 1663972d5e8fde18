"""Names a reviewer merged: "this claim's benchmark (or metric) is another name of X".

A reviewer writes X in a claim row's ``benchmark_same_as`` or ``metric_same_as`` column. The
store keeps it like any correction, so it has a reviewer, a time and a history; what it says is
about the *name*, not the one claim (:mod:`extractor.runs.names` reads the table every
leaderboard applies). This module is the sheet's side: the cells a claim row shows, and the
corrections an edited row makes. A reviewer's word beats the model's (``names.json``): writing
the name itself keeps it apart.
"""

from __future__ import annotations

from collections.abc import Iterable

from extractor.catalog.registry import fold_key
from extractor.review.corrected import NOTE, Problem, Target
from extractor.runs.corrections import Correction, NewCorrection
from extractor.runs.names import ALIAS_FIELDS, NameAnswer, Words
from extractor.text.hashing import canonical_json


def alias_values(latest: dict[str, Correction]) -> dict[str, str | None]:
    """The alias each column shows for a claim: the latest correction of it, else blank."""
    return {column: latest[column].new_value if column in latest else None for column in ALIAS_FIELDS}


def alias_corrections(
    cells: dict,
    base: dict,
    target: Target,
    current: dict,
    latest: dict[str, Correction],
    done: set[tuple[str, str, str, str, str]],
    source: str,
) -> tuple[list[NewCorrection], list[Problem]]:
    """The alias corrections a claim row makes, and the problems refusing one.

    A column counts as edited when it differs from what the row was exported with; an edit
    already ``done`` (the same sheet applied again after newer work) is not recorded again;
    editing a claim without a name of that kind is refused (there is nothing to merge)."""
    corrections: list[NewCorrection] = []
    problems: list[Problem] = []
    for column, name_field in ALIAS_FIELDS.items():
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
        name = current.get(name_field)
        if not name:
            problems.append(Problem(column, f"this claim has no {name_field} to merge; fill its {name_field} first"))
            continue
        conflict_with = latest[column].id if column in latest and previous != shown else None
        corrections.append(target.correction(column, name, new, shown, cells.get(NOTE), source, conflict_with))
    return corrections, problems


def model_merges(values: dict, answers: Iterable[NameAnswer], words: Words) -> str | None:
    """What the model merged a claim's names into, where no reviewer has spoken about them
    ('benchmark = SemEval-2010 Task 8 (gpt-4o-mini)'): for the sheet, so a reviewer can undo it
    by writing the name itself in benchmark_same_as or metric_same_as."""
    found = {(a.kind, fold_key(a.name)): a for a in answers if a.same_as}
    shown = []
    for kind in ALIAS_FIELDS.values():
        name = values.get(kind)
        key = fold_key(str(name)) if name else ""
        answer = found.get((kind, key))
        if answer is not None and key not in words.get(kind, {}):
            shown.append(f"{kind} = {answer.same_as} ({answer.model})")
    return "; ".join(shown) or None
