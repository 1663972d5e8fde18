"""Turn reviewers' changes into corrections: the one path of the review sheet and the review page.

A :class:`Change` is about one item (a sheet row, or a decision or an edit made on the page):
the fields typed, a decision, a note, and the view it was made from (``base``: what the
reviewer was shown). Its *touched* fields are those that differ from that view. For each:

- already the current value: nothing to record (applying a sheet twice is a no-op), except a
  decision the reviewer has not given yet: an accept is recorded even when nothing changed,
  since agreement between reviewers needs it;
- this very edit was applied before by this reviewer (same value, same view) and replaced
  since: nothing to record, so re-applying an old sheet never undoes newer work;
- changed since this view was shown, by another reviewer or from another view: a **conflict**.
  Nothing of the change is recorded; both values go back to the reviewer, who chooses. There is
  no silent later-wins;
- otherwise it is recorded.

A change is validated with the extraction's schema and grounding check before anything of it is
recorded; one with a problem is refused as a whole, with the reason per field, and the others
go on. What would otherwise pass unseen is said: a cell of spaces (kept, not a clearing), a
name changed only as AutoCorrect changes text (kept), an accept with edited fields (recorded
as an edit), two copies of one row that disagree (a conflict), a number another claim already
holds, a new row that is an existing item, a setting that moves a score to another block, a
rejected name that claims still carry.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field, replace
from typing import Literal

from pydantic import BaseModel

from extractor.catalog.normalize import known_unit, normalize_claim
from extractor.review.aliases import alias_corrections, alias_values
from extractor.review.corrected import (
    ADDED,
    DECISION,
    ITEM_FIELDS,
    ITEM_MODELS,
    NOTE,
    Problem,
    ReviewState,
    Target,
    TargetState,
    abstract_hash,
    check_item,
    extraction_hash,
    item_id,
    item_values,
)
from extractor.runs.corrections import TARGET_KINDS, Correction, NewCorrection
from extractor.runs.names import ALIAS_FIELDS
from extractor.schema import Claim
from extractor.text.hashing import canonical_json
from extractor.text.name_keys import name_key, paper_texts
from extractor.text.written import autocorrected, exact_spelling, written_as

#: What became of a change: recorded, nothing to record, refused (a problem named by field;
#: nothing of it recorded), recorded against an item no longer extracted, or in conflict with a
#: change made since its view was shown (nothing of it recorded: the reviewer chooses).
RowStatus = Literal["applied", "unchanged", "refused", "stale", "conflict"]
STATUSES: tuple[RowStatus, ...] = ("applied", "unchanged", "refused", "stale", "conflict")
UNIT_EXAMPLES = "e.g. %, x, points, ms, s, GiB, GB, tokens/s"
CONFIRM_CASE = "type it as written, or confirm the other case"  # the page offers to confirm
NEW_EXTRACTION = "a new extraction"  # who changed a field no reviewer changed since it was shown

#: The fields of each kind that hold a name the title or the abstract must write.
NAME_FIELDS = {
    "claim": ("benchmark", "method", "model", "baseline"),
    "method": ("name", "aliases"),
    "model": ("name",),
    "benchmark": ("name",),
}
#: The claim fields that name an item of each kind: rejecting the item leaves them naming it.
NAMED_BY = {"method": ("method", "baseline"), "model": ("model", "baseline"), "benchmark": ("benchmark",)}


@dataclass
class Change:
    """One reviewer's change to one item, from a sheet row or the page.

    ``base`` is the view it was made from: ``values`` (the item's fields as shown), ``decision``,
    ``note``, ``extracted`` (the fingerprint of the extracted item shown), ``abstract`` (of the
    paper's abstract) and the alias columns. ``decided``: the decision is the reviewer's act
    even where it equals the one shown (a key pressed on the page); on a sheet, a decision
    left as exported is no act. ``confirm``: a name written in another case than the text's is
    meant."""

    kind: str | None
    id: str | None  # None for a new item
    paper_id: str | None
    cells: dict[str, object]
    base: dict | None
    source: str  # 'Claims!5', 'page'
    place: str  # 'sheet Claims, row 5', 'claim p1#ab12cd34'
    letters: dict[str, str] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    decided: bool = False
    confirm: bool = False

    def where(self, column: str | None = None) -> str:
        if not column:
            return self.place
        letter = self.letters.get(column)
        return f"{self.place}, column {column}" + (f" ({letter})" if letter else "")


@dataclass(frozen=True)
class FieldConflict:
    """A field changed since the reviewer's view was shown: what it showed, what is in force
    now (and who set it when), and what this reviewer sets."""

    target_id: str
    field: str
    seen: object
    theirs: object
    yours: object
    by: str
    at: str
    place: str

    @property
    def message(self) -> str:
        when = f" at {self.at}" if self.at else ""
        return (
            f"conflict on {self.target_id} {self.field} ({self.place}): {self.by} set {self.theirs!r}{when}, "
            f"after this view showed {self.seen!r}; this one sets {self.yours!r}. Nothing recorded: choose one "
            "(the page shows both; or export the run again)"
        )


@dataclass(frozen=True)
class Offer:
    """A claim that still names an item a reviewer rejected: its field can be cleared."""

    claim_id: str
    field: str
    name: str


@dataclass
class RowOutcome:
    change: Change
    status: RowStatus
    target_id: str | None = None
    messages: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)  # why refused, by field
    conflicts: list[FieldConflict] = field(default_factory=list)
    offers: list[Offer] = field(default_factory=list)


@dataclass
class Plan:
    outcomes: list[RowOutcome] = field(default_factory=list)
    corrections: list[NewCorrection] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        return {s: sum(o.status == s for o in self.outcomes) for s in STATUSES}

    def decisions(self) -> dict[str, int]:
        """The decisions recorded (a reviewer's reject is a decision, not a refused row)."""
        found: dict[str, int] = {}
        for correction in self.corrections:
            if correction.field == DECISION and correction.new_value:
                found[correction.new_value] = found.get(correction.new_value, 0) + 1
        return found

    @property
    def conflicts(self) -> list[str]:
        return [m for o in self.outcomes if o.status == "conflict" for m in o.messages]


@dataclass(frozen=True)
class _Context:
    review: ReviewState
    reviewer: str
    origin: str  # the sheet, or the page's view, these changes come from
    origins: dict[str, str | None]  # batch id -> its origin
    abstracts: dict[str, str]
    titles: dict[str, str | None]
    claims: dict[str, list[Claim]]  # the papers' claims in force, corrections applied
    done: set[tuple[str, str, str, str, str, str]]


def view_of(state: TargetState, abstract: str | None) -> dict:
    """What a reviewer is shown of an item, as a change carries it back (``Change.base``): a
    sheet row's hidden base, the page's view of the item. A stale item shows no decision, so
    choosing one again is a change that re-confirms it."""
    target = state.target
    return {
        "id": target.id,
        "values": {f: state.values.get(f) for f in ITEM_FIELDS[target.kind]},
        DECISION: None if state.stale else state.decision,
        NOTE: state.note,
        "extracted": extraction_hash(target.extracted),
        "abstract": abstract_hash(abstract),
        **(alias_values(state.latest) if target.kind == "claim" else {}),
    }


#: The fields of a view that hold text (or nothing); ``values`` and ``grey`` hold objects.
_VIEW_TEXT = ("id", DECISION, NOTE, "extracted", "abstract", *ALIAS_FIELDS)


def well_formed_view(base: object) -> bool:
    """Whether ``base`` has the shape :func:`view_of` gives (a sheet row's hidden base, the
    page's view): anything else was made by hand and would break the planning of a change."""
    return (
        isinstance(base, dict)
        and all(isinstance(base.get(k, {}), dict) for k in ("values", "grey"))
        and all(isinstance(base.get(k), (str, type(None))) for k in _VIEW_TEXT)
    )


def _spaces(value: object) -> bool:
    """A cell holding only spaces: no value, and no clearing of one either."""
    return isinstance(value, str) and value != "" and not value.strip()


def _refused(change: Change, problems: list[Problem], notes: list[str] | None = None) -> tuple[RowOutcome, list[NewCorrection]]:
    messages = [f"{change.where(p.field)}: {p.message}" for p in problems]
    return RowOutcome(change, "refused", change.id, messages + (notes or []), problems), []


def _names(value: object) -> list[str]:
    return [v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str) and v]


def _validate(kind: str, values: dict, paper_id: str, ctx: _Context, typed: dict, confirm: bool) -> BaseModel | Problem:
    """The checked item (a grounded claim's evidence is in the abstract's own words), or why not.

    A unit is checked only where the reviewer typed it: an extracted unit the leaderboard does
    not know never blocks a reviewer's edit of another field. A typed name the text writes only
    in another case is refused unless confirmed (AutoCorrect's 'LlaMA' would reach every
    output, names being matched ignoring case); a name the text does not write is refused with
    the words it writes that are most alike ('SQuAD 2.0' for 'SQuAD v2.0')."""
    if "unit" in typed and not known_unit(values.get("unit")):
        return Problem("unit", f"unit {values['unit']!r} is not known ({UNIT_EXAMPLES}); leave it blank for a plain number")
    texts = paper_texts(ctx.abstracts[paper_id], ctx.titles[paper_id])
    where = "the title or the abstract" if len(texts) > 1 else "the abstract"
    for name in NAME_FIELDS[kind]:
        for value in _names(typed.get(name)) if not confirm else ():
            spelled = exact_spelling(value, texts)
            if spelled is not None:
                return Problem(name, f"{name} {value!r} is written {spelled!r} in {where}: {CONFIRM_CASE}")
    checked = check_item(kind, values, ctx.abstracts[paper_id], paper_id, ctx.titles[paper_id])
    if isinstance(checked, Problem) and "does not occur" in checked.message:
        for value in _names(values.get(checked.field)):
            nearest = written_as(value, texts)
            if nearest and value in checked.message:
                return Problem(checked.field, f"{checked.message}; it writes {nearest!r}")
    return checked


def _collision(claim: Claim, target_id: str | None, ctx: _Context) -> Problem | None:
    """Another claim of the paper already stands on this number: one number, one claim."""
    for other in ctx.claims.get(claim.id.rpartition("#")[0], []):
        if other.id != target_id and other.value_span[0] == claim.value_span[0]:
            metric = other.metric or "no metric"
            return Problem(
                "value",
                f"the number at that place ({other.value:g}) is claim {other.id}'s ({metric}); "
                "edit or reject that claim instead",
            )
    return None


def _moves_block(before: Claim | None, after: Claim) -> bool:
    if before is None:
        return False
    return normalize_claim(before).setting.key != normalize_claim(after).setting.key


def _offers(kind: str, name: str, paper_id: str, ctx: _Context) -> list[Offer]:
    key = name_key(name)
    return [
        Offer(claim.id, column, getattr(claim, column))
        for claim in ctx.claims.get(paper_id, [])
        for column in NAMED_BY.get(kind, ())
        if getattr(claim, column) and name_key(getattr(claim, column)) == key
    ]


def _own(correction: Correction, ctx: _Context) -> bool:
    """Written by this reviewer from the same sheet or view: a later edit of it is no conflict."""
    return correction.reviewer == ctx.reviewer and ctx.origins.get(correction.batch_id) == ctx.origin


def _touched(change: Change, fields: tuple[str, ...], shown: dict, notes: list[str]) -> dict:
    touched = {}
    for name, value in change.cells.items():
        if name not in fields:
            continue
        before = shown.get(name)
        if _spaces(value):
            if not same(None, before):
                notes.append(f"{change.where(name)}: the cell holds only spaces; {name} kept as {before!r} (delete the text to clear it)")
            continue
        if same(value, before):
            continue
        if autocorrected(value, before) and not change.confirm:
            notes.append(
                f"{change.where(name)}: {value!r} differs from {before!r} only as AutoCorrect changes text (case, ½); "
                f"kept {before!r}"
            )
            continue
        touched[name] = value
    return touched


def _plan_edit(
    change: Change,
    target: Target,
    current: dict,
    ctx: _Context,
    changed: RowStatus = "applied",
) -> tuple[RowOutcome, list[NewCorrection]]:
    """Corrections for a change of an existing (or vanished) target."""
    state = ctx.review.targets.get(target.id)
    latest = state.latest if state else {}
    base = change.base or {}
    # A decision on a stale item re-confirms it, but only from a view showing the current extraction.
    reconfirm = bool(state and state.stale) and base.get("extracted") == extraction_hash(target.extracted)
    snapshot = canonical_json(target.extracted)
    base_values = base.get("values", {})
    fields = ITEM_FIELDS[target.kind]
    messages: list[str] = []
    touched = _touched(change, fields, base_values, messages)
    given = {}
    for name in (DECISION, NOTE):
        value = change.cells.get(name)
        if _spaces(value):
            messages.append(f"{change.where(name)}: the cell holds only spaces; kept as shown")
            value = base.get(name)
        if name in change.cells or value is not None:
            given[name] = value
    decision = given.get(DECISION)
    if decision == "reject" and touched:
        messages.append(f"{change.where()}: the item is rejected, so its field edits are not applied")
        touched = {}
    if decision == "accept" and touched:
        messages.append(
            f"{change.where(DECISION)}: 'accept' with changed fields is recorded as 'edit' "
            "(accept says the item was right as shown)"
        )
        given[DECISION] = decision = "edit"
    if touched:
        valid = _validate(target.kind, {**current, **touched}, target.paper_id, ctx, touched, change.confirm)
        if isinstance(valid, Problem):
            return _refused(change, [valid], messages)
        if isinstance(valid, Claim):
            valid = valid.model_copy(update={"id": target.id})
            if touched.keys() & {"value", "value_max", "evidence"}:
                problem = _collision(valid, target.id, ctx)
                if problem is not None:
                    return _refused(change, [problem], messages)
            before = next((c for c in ctx.claims.get(target.paper_id, []) if c.id == target.id), None)
            if "setting" in touched and _moves_block(before, valid):
                messages.append(
                    f"{change.where('setting')}: setting {current.get('setting')!r} -> {touched['setting']!r} "
                    "moves this score to another block of the leaderboard"
                )
        normalized = item_values(target.kind, valid)
        touched = {f: normalized[f] for f in touched}
        given[DECISION] = decision or "edit"
    changes = dict(touched)
    aliases, problems = alias_corrections(
        change.cells, base, target, {**current, **touched}, latest,
        {d[1:] for d in ctx.done if d[0] == ctx.reviewer}, change.source, ctx.titles[target.paper_id],
    ) if target.kind == "claim" else ([], [])
    if problems:
        return _refused(change, problems, messages)
    for name, value in given.items():
        if not same(value, base.get(name)) or (name == DECISION and change.decided and value is not None):
            changes[name] = value
    if changes.get(DECISION) == "accept":
        # Accepting values changed since they were shown (by another reviewer, or by a new
        # extraction of the paper) accepts what was not seen.
        for name, seen in base_values.items():
            if same(current.get(name), seen) or (name in latest and _own(latest[name], ctx)):
                continue
            by, at = (latest[name].reviewer, latest[name].at) if name in latest else (NEW_EXTRACTION, "")
            conflict = FieldConflict(target.id, name, seen, current.get(name), seen, by, at, change.where(name))
            return RowOutcome(change, "conflict", target.id, [*messages, conflict.message], conflicts=[conflict]), []
    corrections: list[NewCorrection] = []
    conflicts: list[FieldConflict] = []
    for name, new in changes.items():
        shown = base_values.get(name) if name in fields else base.get(name)
        old = current.get(name) if name in fields else (latest[name].new_value if name in latest else None)
        if same(new, old):
            # A decision already in force is recorded again only as another reviewer's own
            # (agreement needs every reviewer's), or to re-confirm a stale item.
            mine = name in latest and latest[name].reviewer == ctx.reviewer
            if name != DECISION or new is None or (mine and not reconfirm):
                continue
        key = (ctx.reviewer, target.id, name, canonical_json(new), canonical_json(shown), snapshot)
        if key in ctx.done:
            continue  # this very edit was applied before (and maybe replaced since)
        if name in latest and not same(old, shown) and not same(new, old) and not _own(latest[name], ctx):
            c = latest[name]
            conflicts.append(FieldConflict(target.id, name, shown, old, new, c.reviewer, c.at, change.where(name)))
            continue
        corrections.append(target.correction(name, old, new, shown, given.get(NOTE), change.source))
    for alias in aliases:  # a merged name another reviewer changed since this view: a conflict too
        before = latest.get(alias.field)
        if alias.conflict_with is not None and before is not None and not _own(before, ctx):
            conflicts.append(FieldConflict(target.id, alias.field, alias.base_value, before.new_value, alias.new_value,
                                           before.reviewer, before.at, change.where(alias.field)))
        else:
            corrections.append(replace(alias, conflict_with=None))
    if conflicts:
        return RowOutcome(change, "conflict", target.id, [*messages, *(c.message for c in conflicts)], conflicts=conflicts), []
    offers: list[Offer] = []
    if changes.get(DECISION) == "reject" and target.kind in NAMED_BY:
        offers = _offers(target.kind, current.get("name") or "", target.paper_id, ctx)
        if offers:
            claims = ", ".join(f"{o.claim_id} ({o.field})" for o in offers)
            messages.append(
                f"{change.where()}: {target.kind} {current.get('name')!r} is rejected, and claims still name it: {claims}; "
                "clear it there (the review page offers to)"
            )
    if corrections and changed == "stale":
        messages.append(
            f"{change.where('id')}: {target.id} is no longer extracted; the correction is kept and "
            "reported by 'extractor review status'"
        )
    status: RowStatus = changed if corrections else "unchanged"
    return RowOutcome(change, status, target.id, messages, offers=offers), corrections


def _plan_new(change: Change, ctx: _Context) -> tuple[RowOutcome, list[NewCorrection]]:
    """A filled ``new`` row or a claim started on the page: an item the extractor missed."""
    kind = change.kind
    if kind not in ITEM_MODELS:
        return _refused(change, [Problem("kind", "choose what the new row is: method, model or benchmark")])
    if not change.paper_id:
        return _refused(change, [Problem("paper_id", "a paper id is required (see the Papers sheet)")])
    if change.paper_id not in ctx.abstracts:
        return _refused(change, [Problem("paper_id", f"paper {change.paper_id!r} is not in this run")])
    if change.cells.get(DECISION) == "reject":
        return _refused(change, [Problem(DECISION, "a new row cannot be rejected; clear the row instead")])
    given = {
        f: v for f, v in change.cells.items() if f in ITEM_FIELDS[kind] and v not in (None, []) and not _spaces(v)
    }
    valid = _validate(kind, given, change.paper_id, ctx, given, change.confirm)
    if isinstance(valid, Problem):
        return _refused(change, [valid])
    values = item_values(kind, valid)
    target_id = valid.id if isinstance(valid, Claim) else item_id(change.paper_id, kind, values["name"])
    state = ctx.review.targets.get(target_id)
    if state is not None:
        added = state.latest.get(ADDED)
        if added is not None and added.reviewer == ctx.reviewer and ctx.origins.get(added.batch_id) == ctx.origin:
            return RowOutcome(change, "unchanged", target_id), []  # this row, applied before
        return _refused(change, [Problem(
            "id", f"this {kind} is already in the run as {target_id}: edit that one instead of adding it again",
        )])
    if isinstance(valid, Claim):
        problem = _collision(valid, None, ctx)
        if problem is not None:
            return _refused(change, [problem])
    common = dict(paper_id=change.paper_id, target_id=target_id, target_kind=kind, source=change.source)
    note = change.cells.get(NOTE)
    note = None if _spaces(note) else note
    corrections = [NewCorrection(field=ADDED, old_value=None, new_value=values, note=note, **common)]
    if note:
        corrections.append(NewCorrection(field=NOTE, old_value=None, new_value=note, note=note, **common))
    if change.cells.get(DECISION) == "accept" and change.decided:
        corrections.append(NewCorrection(field=DECISION, old_value=None, new_value="accept", **common))
    return RowOutcome(change, "applied", target_id), corrections


def _other_paper(change: Change, paper_id: str | None, ctx: _Context) -> Problem | None:
    """Why a change may not be applied to this run's paper: it was made from a paper with the
    same id and another abstract (a sheet of another run). Sheets exported before rows carried
    the abstract's fingerprint are not checked."""
    exported = (change.base or {}).get("abstract")
    if exported is None or paper_id not in ctx.abstracts or exported == abstract_hash(ctx.abstracts[paper_id]):
        return None
    return Problem(
        "id",
        f"paper {paper_id!r} of this run has another abstract than the one this row was exported with "
        "(a sheet of another run?); export this run's sheet to review it",
    )


def _plan_change(change: Change, ctx: _Context) -> tuple[RowOutcome, list[NewCorrection]]:
    if change.problems:
        return _refused(change, change.problems)
    if change.id is None:
        return _plan_new(change, ctx)
    state = ctx.review.targets.get(change.id)
    other = _other_paper(change, state.target.paper_id if state else change.paper_id, ctx)
    if other is not None:
        return _refused(change, [other])
    if state is not None:
        return _plan_edit(change, state.target, state.values, ctx)
    if change.base is None or change.paper_id not in ctx.abstracts or change.kind not in TARGET_KINDS:
        return _refused(change, [Problem("id", f"unknown id {change.id!r}: it is not an item of this run")])
    # Made from an earlier extraction that produced this item; this one does not.
    target = Target(change.id, change.kind, change.paper_id, None)  # type: ignore[arg-type]
    return _plan_edit(change, target, change.base.get("values", {}), ctx, changed="stale")


def _copies(changes: list[Change]) -> dict[int, tuple[RowOutcome, list[NewCorrection]]]:
    """Copies of one item's row (a row copied in the sheet): identical copies are one change,
    copies that say different things are a conflict, recorded nowhere."""
    groups: dict[str, list[int]] = defaultdict(list)
    for index, change in enumerate(changes):
        if change.id is not None and not change.problems:  # a row with a problem is refused as such
            groups[change.id].append(index)
    out: dict[int, tuple[RowOutcome, list[NewCorrection]]] = {}
    for target_id, indexes in groups.items():
        if len(indexes) < 2:
            continue
        said = {canonical_json({k: v for k, v in changes[i].cells.items() if v not in (None, "", [])}) for i in indexes}
        places = _places([changes[i] for i in indexes])
        if len(said) == 1:
            for i in indexes[1:]:
                out[i] = RowOutcome(changes[i], "unchanged", target_id, [f"{changes[i].where()}: a copy of {changes[indexes[0]].source}"]), []
            continue
        for i in indexes:
            message = (
                f"conflict on {target_id} ({changes[i].where()}): {places} are copies of one row that say "
                "different things; nothing of them recorded: keep one"
            )
            out[i] = RowOutcome(changes[i], "conflict", target_id, [message]), []
    return out


def plan(changes: list[Change], review: ReviewState, reviewer: str, origin: str, origins: dict[str, str | None]) -> Plan:
    """The corrections ``changes`` make to the current state, one by one; ``origin`` the sheet
    or view they come from, ``origins`` the origin of every batch of the history."""
    ctx = _Context(
        review=review,
        reviewer=reviewer,
        origin=origin,
        origins=origins,
        abstracts={p.id: p.abstract or "" for p in review.papers},
        titles={p.id: p.title for p in review.papers},
        claims={p.id: list(p.extraction.claims) if p.extraction else [] for p in review.papers},
        done={
            (c.reviewer, c.target_id, c.field, canonical_json(c.new_value), canonical_json(c.base_value), canonical_json(c.extracted))
            for c in review.history
        },
    )
    copies = _copies(changes)
    planned = [copies[i] if i in copies else _plan_change(change, ctx) for i, change in enumerate(changes)]
    _added_twice(planned)
    out = Plan()
    for outcome, corrections in planned:
        out.outcomes.append(outcome)
        out.corrections.extend(corrections)
    return out


PLACES_SHOWN = 3  # the copies a conflict names, at most (a row copied down a thousand times)


def _places(changes: list[Change]) -> str:
    """'Claims!4 and Claims!9', 'Claims!4, Claims!5, Claims!6 and 997 more'."""
    shown = [c.source for c in changes[:PLACES_SHOWN]]
    if len(changes) > PLACES_SHOWN:
        return ", ".join(shown) + f" and {len(changes) - PLACES_SHOWN:,} more"
    return " and ".join(shown) if len(shown) < 3 else ", ".join(shown[:-1]) + " and " + shown[-1]


def _added_twice(planned: list[tuple[RowOutcome, list[NewCorrection]]]) -> None:
    """New rows that add one item (a filled new row copied down): identical ones add it once,
    ones that say different things are a conflict, recorded nowhere."""
    groups: dict[str, list[int]] = defaultdict(list)
    for index, (outcome, corrections) in enumerate(planned):
        added = [c for c in corrections if c.field == ADDED]
        if outcome.change.id is None and added:
            groups[added[0].target_id].append(index)
    for target_id, indexes in groups.items():
        if len(indexes) < 2:
            continue
        changes = [planned[i][0].change for i in indexes]
        said = {canonical_json([(c.field, c.new_value) for c in planned[i][1]]) for i in indexes}
        if len(said) == 1:
            for i, change in zip(indexes[1:], changes[1:]):
                planned[i] = RowOutcome(change, "unchanged", target_id, [f"{change.where()}: a copy of {changes[0].source}, added once"]), []
            continue
        places = _places(changes)
        for i, change in zip(indexes, changes):
            message = (
                f"conflict on {target_id} ({change.where()}): {places} add this one item and say different things; "
                "nothing of them recorded: keep one"
            )
            planned[i] = RowOutcome(change, "conflict", target_id, [message]), []


def same(a: object, b: object) -> bool:
    """Equal as a reviewer means it: blank is None, numbers compare by value."""
    a = None if a in ("", []) else a
    b = None if b in ("", []) else b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) and not isinstance(b, bool):
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)
    return a == b
