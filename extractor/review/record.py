"""Record reviewers' changes in the store, and take them back.

:func:`record` is the one way a change reaches the store, whether it comes from a returned
sheet (many rows) or from the review page (one decision or edit): the current state is read and
the batch appended in one write transaction, so two reviewers at once are serialized and each
sees the other's corrections. :func:`undo` takes back a reviewer's last decision on the page as
new rows (the history is append-only); :func:`clear_names` clears a rejected item's name from the
claims that carry it.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from pathlib import Path

from extractor.errors import ReviewError
from extractor.review.aliases import taken_back_about
from extractor.review.apply import NAMED_BY, Change, FieldConflict, Offer, Plan, RowOutcome, plan, view_of, well_formed_view
from extractor.review.corrected import (
    DECISION,
    DECISIONS,
    MAX_NOTE,
    NOTE,
    PAPER_DECISIONS,
    Problem,
    ReviewState,
    review_state,
)
from extractor.runs.corrections import Batch, Correction, NewCorrection, utc_now
from extractor.runs.names import ALIAS_FIELDS
from extractor.runs.run import Run
from extractor.schema import PaperResult

PAGE = "page"  # the origin of the page's batches starts so: 'page:<view>'
UNDO = "undo"  # a batch's summary key naming the batch it takes back
_NAMING = {name for fields in NAMED_BY.values() for name in fields}  # the claim fields a rejection clears


@dataclass
class ApplyReport:
    """What a call did: counts by status, the decisions recorded, why changes were refused,
    notes, the conflicts (nothing of them recorded), and each change's outcome."""

    store: Path
    batch_id: str | None
    counts: dict[str, int]
    decisions: dict[str, int]
    refused: list[str]
    notes: list[str]
    conflicts: list[str]
    written: list[Correction] = field(default_factory=list)
    outcomes: list[RowOutcome] = field(default_factory=list)

    @property
    def field_conflicts(self) -> list[FieldConflict]:
        return [c for o in self.outcomes for c in o.conflicts]

    @property
    def offers(self) -> list[Offer]:
        return [offer for o in self.outcomes for offer in o.offers]


def _reviewer(name: str) -> str:
    name = name.strip()
    if not name:
        raise ReviewError("{reviewer} needs a name", ("reviewer",))
    return name


def record(
    run: Run,
    reviewer: str,
    changes: list[Change],
    origin: str,
    *,
    papers: list[PaperResult] | None = None,
    sheet_sha256: str | None = None,
) -> ApplyReport:
    """Validate ``changes`` and record what they change as one batch. ``origin`` is the sheet
    or the page view they come from; ``papers`` the papers they are about (default: the run's)."""
    reviewer = _reviewer(reviewer)
    papers = list(run.papers()) if papers is None else papers
    with run.store() as db, db.transaction():
        state = review_state(papers, db.history({p.id for p in papers}))
        origins = {b.id: b.sheet for b in db.batches()}
        result = plan(changes, state, reviewer, origin, origins)
        written = _append(db, result, reviewer, origin, run, sheet_sha256)
    return _report(run, result, written)


def _append(db, result: Plan, reviewer: str, origin: str, run: Run, sheet_sha256: str | None, summary: dict | None = None) -> list[Correction]:
    if not result.corrections:
        return []
    batch = Batch(
        id="b-" + uuid.uuid4().hex[:12],
        reviewer=reviewer,
        at=utc_now(),
        sheet=origin,
        sheet_sha256=sheet_sha256,
        run_dir=str(run.path),
        summary=summary or result.counts(),
    )
    return db.append(batch, result.corrections)


def _report(run: Run, result: Plan, written: list[Correction]) -> ApplyReport:
    refused = [m for o in result.outcomes if o.status == "refused" for m in o.messages]
    notes = [m for o in result.outcomes if o.status not in ("refused", "conflict") for m in o.messages]
    return ApplyReport(
        run.store_path, written[0].batch_id if written else None, result.counts(), result.decisions(),
        refused, notes, result.conflicts, written, result.outcomes,
    )


def decide(
    run: Run,
    reviewer: str,
    *,
    kind: str,
    item_id: str | None,
    paper_id: str,
    view: dict | None,
    decision: str | None = None,
    fields: dict | None = None,
    note: str | None = None,
    confirm: bool = False,
    origin: str = PAGE,
    source: str = PAGE,
    papers: list[PaperResult] | None = None,
) -> ApplyReport:
    """One decision or edit of one item, as the page makes it: ``view`` is what the page
    showed of the item (:func:`~extractor.review.apply.view_of`), ``item_id`` None for an item
    the reviewer adds. A decision given is the reviewer's act, recorded even when it changes
    nothing (an accept of an item another reviewer accepted). ``source`` is recorded with each
    row (:data:`~extractor.review.agreement.SETTLED` for a choice between reviewers)."""
    cells = dict(fields or {})
    if decision is not None:
        cells[DECISION] = decision
    if note is not None:
        cells[NOTE] = note
    place = f"{kind} {item_id}" if item_id else f"new {kind} of {paper_id}"
    change = Change(kind, item_id, paper_id, cells, view, source, place, decided=decision is not None, confirm=confirm,
                    problems=_unsent(kind, decision, note, view))
    return record(run, reviewer, [change], origin, papers=papers)


def _unsent(kind: str, decision: object, note: object, view: object) -> list[Problem]:
    """What the page never sends, from a client that is not the page: a decision or a note a
    sheet cell would refuse, or a view of another shape. Recorded, such a value would reach
    every later reader of the store."""
    choices = PAPER_DECISIONS if kind == "paper" else DECISIONS
    problems = []
    if decision is not None and decision not in choices:
        problems.append(Problem(DECISION, f"{decision!r} is not one of {', '.join(choices)}"))
    if note is not None and not isinstance(note, str):
        problems.append(Problem(NOTE, f"a note is text, not {type(note).__name__}"))
    elif note is not None and len(note) > MAX_NOTE:
        problems.append(Problem(NOTE, f"the text is {len(note)} characters; at most {MAX_NOTE} fit (shorten it)"))
    if view is not None and not well_formed_view(view):
        problems.append(Problem("view", "not a view the page showed; reload the page"))
    return problems


def undo(run: Run, reviewer: str) -> ApplyReport:
    """Take back the reviewer's last decision or edit made on the page that is not taken back
    yet: each of its rows is followed by one restoring the value before it. A field someone
    changed since is a conflict: nothing is taken back."""
    reviewer = _reviewer(reviewer)
    with run.store() as db, db.transaction():
        batches = [b for b in db.batches() if b.reviewer == reviewer and (b.sheet or "").startswith(PAGE)]
        undone = {b.summary.get(UNDO) for b in batches}
        last = next((b for b in reversed(batches) if UNDO not in b.summary and b.id not in undone), None)
        result = Plan()
        if last is None:
            return _report(run, result, [])
        history = db.history()
        rows = [c for c in history if c.batch_id == last.id]
        latest = {(c.target_id, c.field): c for c in history}
        conflicts = []
        for c in rows:
            now = latest[(c.target_id, c.field)]
            if now.id != c.id:
                conflicts.append(FieldConflict(c.target_id, c.field, c.new_value, now.new_value, _before(c, history), now.reviewer, now.at, "undo"))
                continue
            # A word of the board is taken back about what it spoke about (the table's key).
            old = taken_back_about(c) if c.field in ALIAS_FIELDS else c.new_value
            result.corrections.append(NewCorrection(
                paper_id=c.paper_id, target_id=c.target_id, target_kind=c.target_kind, field=c.field,
                old_value=old, new_value=_before(c, history), base_value=c.new_value,
                extracted=c.extracted, source=f"{UNDO} {c.id}",
            ))
        first = rows[0]
        change = Change(first.target_kind, first.target_id, first.paper_id, {}, None, UNDO, f"undo of {first.target_id}")
        if conflicts:
            result.corrections = []
            result.outcomes.append(RowOutcome(change, "conflict", change.id, [c.message for c in conflicts], conflicts=conflicts))
            return _report(run, result, [])
        result.outcomes.append(RowOutcome(change, "applied", change.id))
        written = _append(db, result, reviewer, last.sheet or PAGE, run, None, {UNDO: last.id})
    return _report(run, result, written)


def _before(correction: Correction, history: list[Correction]) -> object:
    """The value a correction replaced: the field's previous correction's, else what the row
    recorded as the value before it (an alias column records the name it is about instead)."""
    earlier = [c for c in history if c.id < correction.id and c.target_id == correction.target_id and c.field == correction.field]
    if earlier:
        return earlier[-1].new_value
    return None if correction.field in ALIAS_FIELDS else correction.old_value


def clear_names(run: Run, reviewer: str, offers: list[Offer], origin: str, papers: list[PaperResult] | None = None) -> ApplyReport:
    """Clear a rejected item's name from the claims that still carry it (what a rejection
    offers), each through :func:`record` as an edit from the claim's current view."""
    papers = list(run.papers()) if papers is None else papers
    state: ReviewState = review_state(papers, run.corrections({p.id for p in papers}))
    changes = []
    for offer in offers:
        target = state.targets.get(offer.claim_id)
        if target is None:
            continue
        abstract = next((p.abstract for p in papers if p.id == target.target.paper_id), None)
        problems = [] if offer.field in _NAMING else [Problem(offer.field, f"only a name ({', '.join(sorted(_NAMING))}) is cleared this way")]
        changes.append(Change(
            "claim", offer.claim_id, target.target.paper_id, {offer.field: None}, view_of(target, abstract),
            PAGE, f"claim {offer.claim_id}", problems=problems,
        ))
    return record(run, reviewer, changes, origin, papers=papers)
