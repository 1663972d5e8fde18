"""Names a reviewer merged: "this claim's benchmark (or metric) is another name of X".

A reviewer writes X in a claim row's ``benchmark_same_as`` or ``metric_same_as`` column. The
store keeps it like any correction (on the claim, the field named after the column, the name as
written in ``old_value``, X in ``new_value``), so it has a reviewer, a time and a history. What
it says is about the *name*, not the one claim: :func:`name_aliases` reads the history into a
table that every leaderboard applies to every paper of every run on it. Clearing the cell later
takes the alias back; the latest word on a name wins. A reviewer's word also beats the model's
(``names.json``, :mod:`extractor.backends.openai.name_mapping`): writing the name itself keeps it apart.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from extractor.catalog.normalize import Aliases
from extractor.catalog.registry import fold_key
from extractor.runs.names import NameAnswer
from extractor.review.corrected import NOTE, Problem, Target
from extractor.runs.corrections import Correction, CorrectionStore, NewCorrection
from extractor.text.hashing import canonical_json

#: Sheet column (and correction field) -> the claim field whose name it merges.
ALIAS_FIELDS = {"benchmark_same_as": "benchmark", "metric_same_as": "metric"}


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
        corrections.append(
            NewCorrection(
                paper_id=target.paper_id,
                target_id=target.id,
                target_kind=target.kind,
                field=column,
                old_value=name,
                new_value=new,
                base_value=shown,
                extracted=target.extracted,
                conflict_with=latest[column].id if column in latest and previous != shown else None,
                note=cells.get(NOTE),
                source=source,
            )
        )
    return corrections, problems


#: {'benchmark' | 'metric': {folded name: the name it is another name of, or None when the
#: reviewer's latest word is that it is no other's (a cleared cell, or the name itself)}}.
Words = dict[str, dict[str, str | None]]


def reviewer_words(history: Iterable[Correction]) -> Words:
    """Every name a correction history speaks about and its latest word, in written order."""
    table: Words = {kind: {} for kind in ALIAS_FIELDS.values()}
    for correction in history:
        kind = ALIAS_FIELDS.get(correction.field)
        if kind is None or not correction.old_value:
            continue
        key = fold_key(str(correction.old_value))
        same = correction.new_value and fold_key(str(correction.new_value)) != key
        table[kind][key] = str(correction.new_value) if same else None
    return table


def name_aliases(history: Iterable[Correction], model: Aliases | None = None) -> Aliases:
    """{'benchmark': {folded name: the name it is another name of}, 'metric': {...}} from a
    correction history (a cleared cell removes the alias), over the names a model mapped
    (``model``, a run's ``names.json``): a reviewer's word on a name, alias or not, always wins."""
    words = reviewer_words(history)
    return {
        kind: {
            **{key: name for key, name in (model or {}).get(kind, {}).items() if key not in said},
            **{key: name for key, name in said.items() if name},
        }
        for kind, said in words.items()
    }


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


def _history(stores: Iterable[Path]) -> list[Correction]:
    history: list[Correction] = []
    for path in dict.fromkeys(stores):
        if path.exists():
            with CorrectionStore(path) as db:
                history += [c for c in db.history() if c.field in ALIAS_FIELDS]
    return history


def store_words(stores: Iterable[Path]) -> Words:
    """What the reviewers of several stores said about names (see :func:`reviewer_words`)."""
    return reviewer_words(_history(stores))


def store_aliases(stores: Iterable[Path], model: Aliases | None = None) -> Aliases:
    """The aliases of several correction stores (a board's runs), the later store's word last,
    over the names the runs' model mapped; a store that does not exist has none."""
    return name_aliases(_history(stores), model)
