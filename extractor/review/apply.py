"""Turn a returned review sheet into corrections: validate each edited row, merge three ways.

A row's *touched* fields are those that differ from the hidden base the row was exported with.
For each touched field:

- already the current value: nothing to record (applying a sheet twice is a no-op);
- this very edit (same value, same base) was applied before and replaced since: nothing to
  record, so re-applying an old sheet never undoes newer work;
- otherwise it is recorded; when another reviewer changed the field after this sheet was
  exported, it is a conflict: the later apply wins and both stay in the history.

A row is validated with the extraction's schema and grounding check before anything of it is
recorded; a row with a problem is refused as a whole and the others go on.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from pydantic import BaseModel

from extractor.catalog.normalize import known_unit
from extractor.review.aliases import alias_corrections
from extractor.review.sheet import SheetRow, same
from extractor.review.corrected import (
    ADDED,
    DECISION,
    ITEM_FIELDS,
    ITEM_MODELS,
    NOTE,
    Problem,
    ReviewState,
    Target,
    abstract_hash,
    check_item,
    extraction_hash,
    item_id,
    item_values,
)
from extractor.runs.corrections import TARGET_KINDS, Correction, NewCorrection
from extractor.schema import Claim
from extractor.text.hashing import canonical_json

#: What became of a row: its changes recorded, nothing to record, refused (a problem named by
#: sheet, row and column; nothing of it recorded), or recorded against an item no longer extracted.
RowStatus = Literal["applied", "unchanged", "refused", "stale"]
STATUSES: tuple[RowStatus, ...] = ("applied", "unchanged", "refused", "stale")
UNIT_EXAMPLES = "e.g. %, x, points, ms, s, GiB, GB, tokens/s"

@dataclass
class RowOutcome:
    row: SheetRow
    status: RowStatus
    target_id: str | None = None
    messages: list[str] = field(default_factory=list)


@dataclass
class Plan:
    outcomes: list[RowOutcome] = field(default_factory=list)
    corrections: list[NewCorrection] = field(default_factory=list)
    conflicts: list[tuple[NewCorrection, Correction]] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        return {s: sum(o.status == s for o in self.outcomes) for s in STATUSES}

    def decisions(self) -> dict[str, int]:
        """The decisions this sheet records (a reviewer's reject is a decision, not a refused row)."""
        found: dict[str, int] = {}
        for correction in self.corrections:
            if correction.field == DECISION and correction.new_value:
                found[correction.new_value] = found.get(correction.new_value, 0) + 1
        return found


@dataclass(frozen=True)
class _Context:
    review: ReviewState
    abstracts: dict[str, str]
    titles: dict[str, str | None]
    done: set[tuple[str, str, str, str, str]]


def _refused(row: SheetRow, problems: list[Problem]) -> tuple[RowOutcome, list[NewCorrection]]:
    messages = [f"{row.where(p.field)}: {p.message}" for p in problems]
    return RowOutcome(row, "refused", row.id, messages), []


def _validate(kind: str, values: dict, paper_id: str, ctx: _Context, typed: set[str]) -> BaseModel | Problem:
    """The checked item (a grounded claim's evidence is in the abstract's own words), or why not.

    A unit is checked only where the reviewer typed it (``typed``): an extracted unit the
    leaderboard does not know never blocks a reviewer's edit of another field.
    """
    if "unit" in typed and not known_unit(values.get("unit")):
        return Problem("unit", f"unit {values['unit']!r} is not known ({UNIT_EXAMPLES}); leave it blank for a plain number")
    return check_item(kind, values, ctx.abstracts[paper_id], paper_id, ctx.titles[paper_id])


def _plan_edit(
    row: SheetRow,
    target: Target,
    current: dict,
    ctx: _Context,
    changed: RowStatus = "applied",
) -> tuple[RowOutcome, list[NewCorrection]]:
    """Corrections for a row about an existing (or vanished) target."""
    state = ctx.review.targets.get(target.id)
    latest = state.latest if state else {}
    base = row.base or {}
    # A decision on a stale item re-confirms it, but only from a row showing the current extraction.
    reconfirm = bool(state and state.stale) and base.get("extracted") == extraction_hash(target.extracted)
    snapshot = canonical_json(target.extracted)
    base_values = base.get("values", {})
    fields = ITEM_FIELDS[target.kind]
    touched = {f: v for f, v in row.cells.items() if f in fields and not same(v, base_values.get(f))}
    decision = row.cells.get(DECISION)
    messages = []
    if decision == "reject" and touched:
        messages.append(f"{row.where()}: the row is rejected, so its field edits are not applied")
        touched = {}
    if touched:
        valid = _validate(target.kind, {**current, **touched}, target.paper_id, ctx, set(touched))
        if isinstance(valid, Problem):
            return _refused(row, [valid])
        normalized = item_values(target.kind, valid)
        touched = {f: normalized[f] for f in touched}
        decision = decision or "edit"
    changes = dict(touched)
    aliases, problems = alias_corrections(
        row.cells, base, target, {**current, **touched}, latest, ctx.done, f"{row.sheet}!{row.row}"
    ) if target.kind == "claim" else ([], [])
    if problems:
        return _refused(row, problems)
    for name, value in ((DECISION, decision), (NOTE, row.cells.get(NOTE))):
        if name in row.cells or value is not None:
            if not same(value, base.get(name)):
                changes[name] = value
    corrections = []
    for name, new in changes.items():
        base_value = base_values.get(name) if name in fields else base.get(name)
        if name in fields:
            old = current.get(name)
        else:
            old = latest[name].new_value if name in latest else None
        if same(new, old) and not (name == DECISION and reconfirm):
            continue
        if (target.id, name, canonical_json(new), canonical_json(base_value), snapshot) in ctx.done:
            continue  # this very edit was applied before (and maybe replaced since)
        conflict = latest[name].id if name in latest and not same(old, base_value) else None
        corrections.append(
            NewCorrection(
                paper_id=target.paper_id,
                target_id=target.id,
                target_kind=target.kind,
                field=name,
                old_value=old,
                new_value=new,
                base_value=base_value,
                extracted=target.extracted,
                conflict_with=conflict,
                note=row.cells.get(NOTE),
                source=f"{row.sheet}!{row.row}",
            )
        )
    corrections += aliases
    if corrections and changed == "stale":
        messages.append(
            f"{row.where('id')}: {target.id} is no longer extracted; the correction is kept and "
            "reported by 'extractor review status'"
        )
    return RowOutcome(row, changed if corrections else "unchanged", target.id, messages), corrections


def _plan_new(row: SheetRow, ctx: _Context) -> tuple[RowOutcome, list[NewCorrection]]:
    """A filled ``new`` row: an item the extractor missed (or, if it exists, an edit of it)."""
    kind = row.kind
    if kind not in ITEM_MODELS:
        return _refused(row, [Problem("kind", "choose what the new row is: method, model or benchmark")])
    if not row.paper_id:
        return _refused(row, [Problem("paper_id", "a paper id is required (see the Papers sheet)")])
    if row.paper_id not in ctx.abstracts:
        return _refused(row, [Problem("paper_id", f"paper {row.paper_id!r} is not in this run")])
    if row.cells.get(DECISION) == "reject":
        return _refused(row, [Problem(DECISION, "a new row cannot be rejected; clear the row instead")])
    given = {f: v for f, v in row.cells.items() if f in ITEM_FIELDS[kind] and v not in (None, [])}
    valid = _validate(kind, given, row.paper_id, ctx, set(given))
    if isinstance(valid, Problem):
        return _refused(row, [valid])
    values = item_values(kind, valid)
    target_id = valid.id if isinstance(valid, Claim) else item_id(row.paper_id, kind, values["name"])
    state = ctx.review.targets.get(target_id)
    if state is not None:
        # Already there (extracted, or added by an earlier apply of this sheet): the row edits it.
        base = {"values": state.values, DECISION: state.decision, NOTE: state.note}
        cells = {k: v for k, v in row.cells.items() if k not in ITEM_FIELDS[kind]}
        edit = replace(row, cells={**cells, **{f: values[f] for f in given}}, base=base)
        return _plan_edit(edit, state.target, state.values, ctx)
    common = dict(paper_id=row.paper_id, target_id=target_id, target_kind=kind, source=f"{row.sheet}!{row.row}")
    note = row.cells.get(NOTE)
    corrections = [NewCorrection(field=ADDED, old_value=None, new_value=values, note=note, **common)]
    if note:
        corrections.append(NewCorrection(field=NOTE, old_value=None, new_value=note, note=note, **common))
    return RowOutcome(row, "applied", target_id), corrections


def _other_paper(row: SheetRow, paper_id: str | None, ctx: _Context) -> Problem | None:
    """Why a row may not be applied to this run's paper: it was exported from a paper with the
    same id and another abstract (a sheet of another run). Sheets exported before rows carried
    the abstract's fingerprint are not checked."""
    exported = (row.base or {}).get("abstract")
    if exported is None or paper_id not in ctx.abstracts or exported == abstract_hash(ctx.abstracts[paper_id]):
        return None
    return Problem(
        "id",
        f"paper {paper_id!r} of this run has another abstract than the one this row was exported with "
        "(a sheet of another run?); export this run's sheet to review it",
    )


def _plan_row(row: SheetRow, ctx: _Context) -> tuple[RowOutcome, list[NewCorrection]]:
    if row.problems:
        return _refused(row, row.problems)
    if row.id is None:
        return _plan_new(row, ctx)
    state = ctx.review.targets.get(row.id)
    other = _other_paper(row, state.target.paper_id if state else row.paper_id, ctx)
    if other is not None:
        return _refused(row, [other])
    if state is not None:
        return _plan_edit(row, state.target, state.values, ctx)
    if row.base is None or row.paper_id not in ctx.abstracts or row.kind not in TARGET_KINDS:
        return _refused(row, [Problem("id", f"unknown id {row.id!r}: it is not an item of this run")])
    # Exported from an earlier extraction that produced this item; this one does not.
    target = Target(row.id, row.kind, row.paper_id, None)  # type: ignore[arg-type]
    return _plan_edit(row, target, row.base.get("values", {}), ctx, changed="stale")


def plan(rows: list[SheetRow], review: ReviewState) -> Plan:
    """The corrections a returned sheet makes to the current state, row by row."""
    ctx = _Context(
        review=review,
        abstracts={p.id: p.abstract or "" for p in review.papers},
        titles={p.id: p.title for p in review.papers},
        done={
            (c.target_id, c.field, canonical_json(c.new_value), canonical_json(c.base_value), canonical_json(c.extracted))
            for c in review.history
        },
    )
    by_id = {c.id: c for c in review.history}
    out = Plan()
    for row in rows:
        outcome, corrections = _plan_row(row, ctx)
        out.outcomes.append(outcome)
        out.corrections.extend(corrections)
        out.conflicts.extend((c, by_id[c.conflict_with]) for c in corrections if c.conflict_with in by_id)
    return out
