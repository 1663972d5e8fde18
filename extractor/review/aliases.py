"""Names a reviewer merged: "this claim's benchmark (or metric) is another name of X".

A reviewer writes X in a claim row's ``benchmark_same_as`` or ``metric_same_as`` column. The
store keeps it like any correction (on the claim, the field named after the column, the name as
written in ``old_value``, X in ``new_value``), so it has a reviewer, a time and a history. What
it says is about the *name*, not the one claim: :func:`name_aliases` reads the history into a
table that every leaderboard applies to every paper of every run on it. Clearing the cell later
takes the alias back; the latest word on a name wins.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from extractor.catalog.normalize import Aliases
from extractor.catalog.registry import fold_key
from extractor.review.state import NOTE, Problem, Target
from extractor.review.store import Correction, CorrectionStore, NewCorrection
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
        if new is not None and fold_key(new) == fold_key(name):
            continue  # a name is trivially itself
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


def name_aliases(history: Iterable[Correction]) -> Aliases:
    """{'benchmark': {folded name: the name it is another name of}, 'metric': {...}} from a
    correction history, in the order it was written (a cleared cell removes the alias)."""
    table: dict[str, dict[str, str]] = {kind: {} for kind in ALIAS_FIELDS.values()}
    for correction in history:
        kind = ALIAS_FIELDS.get(correction.field)
        if kind is None or not correction.old_value:
            continue
        key = fold_key(str(correction.old_value))
        if correction.new_value:
            table[kind][key] = str(correction.new_value)
        else:
            table[kind].pop(key, None)
    return table


def store_aliases(stores: Iterable[Path]) -> Aliases:
    """The aliases of several correction stores (a board's runs), the later store's word last;
    a store that does not exist has none."""
    history: list[Correction] = []
    for path in dict.fromkeys(stores):
        if path.exists():
            with CorrectionStore(path) as db:
                history += [c for c in db.history() if c.field in ALIAS_FIELDS]
    return name_aliases(history)
