"""The reviewed state of a run: the extraction with the reviewers' corrections laid over it.

Pure functions from (papers, correction history) to corrected papers, review marks, stale
corrections and conflicts. Every export (leaderboard, report, gold, the review sheet itself)
reads the run through :func:`review_state`, so they all show the same corrected values.

A correction attaches to a *target*: a claim by its id (paper + value + where the number sits),
a method, model or benchmark by its paper and name key, or the paper itself. When a
re-extraction no longer produces the target, or produces it differently from what the reviewer
saw, the correction is reported as stale; it is never dropped.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from pydantic import BaseModel, ValidationError

from extractor.grounding import ground, ground_claim, number_mentions
from extractor.text.name_keys import name_in_text, name_key, paper_texts
from extractor.runs.corrections import Correction, NewCorrection, TargetKind
from extractor.schema import (
    Benchmark,
    Claim,
    ClaimDraft,
    Extraction,
    ExtractionDraft,
    Method,
    Model,
    PaperResult,
    Rejection,
)
from extractor.text.hashing import normalize_text, short_hash

DECISION = "decision"
NOTE = "note"
ADDED = "added"
DECISIONS = ("accept", "reject", "edit")
PAPER_DECISIONS = ("accept", "reject")
MAX_NOTE = 2000  # a reviewer's note travels in a sheet row's hidden base too: see schema.MAX_EVIDENCE

ITEM_MODELS: dict[str, type[BaseModel]] = {
    "claim": ClaimDraft,
    "method": Method,
    "model": Model,
    "benchmark": Benchmark,
}
ITEM_FIELDS: dict[str, tuple[str, ...]] = {
    **{kind: tuple(model.model_fields) for kind, model in ITEM_MODELS.items()},
    "paper": (),
}
PLURAL = {"claim": "claims", "method": "methods", "model": "models", "benchmark": "benchmarks"}


def item_values(kind: str, item: BaseModel) -> dict:
    """The reviewable fields of an item (a grounded claim's id and spans are not among them)."""
    return item.model_dump(include=set(ITEM_FIELDS[kind]))


def extraction_hash(extracted: dict | None) -> str | None:
    """A short fingerprint of an extracted item: a sheet row carries the one it was made from."""
    return None if extracted is None else short_hash(extracted)


def abstract_hash(abstract: str | None) -> str:
    """A short fingerprint of a paper's abstract (whitespace folded): a sheet row carries the
    one it was exported with, so a sheet of another run, whose paper has the same id and
    another abstract, is not applied to it. The ``extracted`` hash cannot tell: a re-extraction
    of the same paper changes it too, and its corrections must survive that."""
    return short_hash(normalize_text(abstract or ""))


def item_id(paper_id: str, kind: str, name: str) -> str:
    """A method, model or benchmark is identified by its paper and its name key."""
    return f"{paper_id}/{kind}/{name_key(name)}"


@dataclass(frozen=True)
class Target:
    """A reviewable item: what the extractor produced for it (None when a reviewer added it)."""

    id: str
    kind: TargetKind
    paper_id: str
    extracted: dict | None

    def correction(
        self, field: str, old: object, new: object, shown: object, note: str | None, source: str | None,
        conflict_with: int | None = None,
    ) -> NewCorrection:
        """A correction of one of this item's fields, carrying the item as extracted (so a later
        re-extraction that changes it shows the correction as stale) and what the reviewer saw."""
        return NewCorrection(
            paper_id=self.paper_id, target_id=self.id, target_kind=self.kind, field=field, old_value=old,
            new_value=new, base_value=shown, extracted=self.extracted, conflict_with=conflict_with, note=note,
            source=source,
        )


def extracted_targets(paper: PaperResult) -> list[Target]:
    """The paper itself and every item the extraction produced for it, in order."""
    extraction = paper.extraction or Extraction()
    # A paper-level decision ("everything checked") is about the whole extraction.
    targets = [Target(paper.id, "paper", paper.id, {"extraction": short_hash(extraction.model_dump())})]
    for claim in extraction.claims:
        targets.append(
            Target(claim.id, "claim", paper.id, item_values("claim", claim))
        )
    for kind in ("method", "model", "benchmark"):
        for item in getattr(extraction, PLURAL[kind]):
            targets.append(Target(item_id(paper.id, kind, item.name), kind, paper.id, item_values(kind, item)))
    return targets


class Problem(NamedTuple):
    """Why a reviewer's item is refused, and which field (sheet column) to look at."""

    field: str
    message: str


def check_item(kind: str, values: dict, abstract: str, paper_id: str, title: str | None = None) -> BaseModel | Problem:
    """Validate an item with the extraction's own schema and grounding check (names from the
    title or the abstract, evidence and numbers from the abstract).

    Returns the grounded :class:`Claim` for a claim, the item model otherwise, or the problem.
    """
    try:
        item = ITEM_MODELS[kind].model_validate(values)
    except ValidationError as exc:
        error = exc.errors()[0]
        column = str(error["loc"][0]) if error["loc"] else "value"
        given = error.get("input")
        return Problem(column, "a value is required" if given is None else f"{error['msg']} (got {given!r})")
    if isinstance(item, ClaimDraft):
        # Numbers in words count as extraction counts them: 'three times faster' is a claim of 3.
        grounded = ground_claim(item, abstract, paper_id, number_mentions(abstract), title)
        # Grounding reasons start with the field they are about ("value 91.2 is not written...").
        return Problem(grounded.split()[0], grounded) if isinstance(grounded, str) else grounded
    for alias in getattr(item, "aliases", []):
        if not name_in_text(alias, paper_texts(abstract, title)):
            return Problem("aliases", f"alias {alias!r} does not occur in the title or the abstract")
    _, rejected = ground(ExtractionDraft(**{PLURAL[kind]: [item]}), abstract, paper_id, title)
    if rejected:
        reason = rejected[0].reason
        return Problem("name" if reason.startswith("name") else "params_b", reason)
    return item


class Stamp(NamedTuple):
    """Who set a field and when, and what it was before (as extracted) and is now."""

    reviewer: str
    at: str
    old: object = None
    new: object = None

    def change(self, name: str) -> str:
        """'metric “accuracy” → “EM accuracy”', 'decision accept', 'added': the edit in words."""
        if name == ADDED:
            return "added"
        if name == DECISION:
            return f"decision {self.new or 'cleared'}"
        if name == NOTE:
            return f"note {_shown(self.new)}"
        return f"{name} {_shown(self.old)} \u2192 {_shown(self.new)}"


def shown(value: object) -> str:
    """A field's value as a reviewer reads it (the page's cells, a change's words): a flag as
    yes or no, a number as written short, a list joined; empty for no value."""
    if value is None or value == []:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list):
        return "; ".join(map(str, value))
    return str(value)


def _shown(value: object) -> str:
    text = shown(value)
    if not text:
        return "blank"
    return f"\u201c{text}\u201d" if isinstance(value, (str, list)) else text


@dataclass(frozen=True)
class ReviewMark:
    """What reviewers did to one item; every export shows it beside the corrected cells."""

    target_id: str
    kind: TargetKind
    paper_id: str
    decision: str | None
    fields: dict[str, Stamp]  # every reviewed field (and decision, note, added): who and when
    reviewer: str
    at: str
    added: bool = False
    stale: str | None = None
    note: str | None = None

    @property
    def verb(self) -> str:
        if self.added:
            return "added"
        return {"accept": "accepted", "reject": "rejected"}.get(self.decision or "", "edited")

    @property
    def label(self) -> str:
        """'edited by alice 2026-11-29T10:00:00+00:00' and the like, for a cell comment."""
        return f"{self.verb} by {self.reviewer} {self.at}" + (" (stale)" if self.stale else "")


@dataclass(frozen=True)
class TargetState:
    """One target with its effective values and the latest correction of each field."""

    target: Target
    values: dict
    latest: dict[str, Correction]
    stale: str | None = None

    @property
    def decision(self) -> str | None:
        latest = self.latest.get(DECISION)
        return latest.new_value if latest else None

    @property
    def note(self) -> str | None:
        latest = self.latest.get(NOTE)
        return latest.new_value if latest else None

    @property
    def last(self) -> Correction | None:
        return max(self.latest.values(), key=lambda c: c.id, default=None)


@dataclass(frozen=True)
class StaleTarget:
    """Corrections whose item vanished or changed under them; kept and reported, never dropped."""

    target_id: str
    kind: TargetKind
    paper_id: str
    reason: str
    corrections: list[Correction]


@dataclass(frozen=True)
class Conflict:
    """Two reviewers set one field differently from the same starting point; the later won."""

    winner: Correction
    loser: Correction


@dataclass
class ReviewState:
    papers: list[PaperResult]
    targets: dict[str, TargetState]
    marks: dict[str, ReviewMark]
    stale: list[StaleTarget]
    conflicts: list[Conflict]
    history: list[Correction] = field(default_factory=list)


def _latest(history: list[Correction]) -> dict[str, dict[str, Correction]]:
    latest: dict[str, dict[str, Correction]] = defaultdict(dict)
    for correction in history:  # in id order: a later row replaces an earlier one
        latest[correction.target_id][correction.field] = correction
    return latest


def _set_fields(extracted: dict) -> dict:
    """An extracted item without its unset fields: a field a newer schema adds (``bound``,
    ``proposed``) is absent from what an older run recorded, and that is no change. ``False`` is
    unset for ``proposed``, its default."""
    return {k: v for k, v in extracted.items() if v is not None and not (k == "proposed" and v is False)}


def _changed(kind: str, before: dict, after: dict | None) -> str:
    if after is None:
        return "the extractor no longer produces this item"
    if kind == "paper":
        return "the paper was re-extracted since it was reviewed"
    changes = [f"{k} {before.get(k)!r} -> {after.get(k)!r}" for k in after if before.get(k) != after.get(k)]
    return "the extraction changed since it was reviewed: " + ("; ".join(changes) or "re-extracted")


def _target_state(target: Target, latest: dict[str, Correction]) -> TargetState:
    """Values in layers: the extracted item, then what a reviewer filled in when adding it (an
    extractor that finds an added item later does not undo the reviewer), then field edits."""
    added = (latest[ADDED].new_value or {}) if ADDED in latest else {}  # None: the addition was undone
    base = {**(target.extracted or {}), **{k: v for k, v in added.items() if v is not None}}
    values = {**base, **{f: latest[f].new_value for f in ITEM_FIELDS[target.kind] if f in latest}}
    state = TargetState(target, values, latest)
    last = state.last
    if (
        last is not None
        and last.extracted is not None
        and (target.extracted is None or _set_fields(last.extracted) != _set_fields(target.extracted))
    ):
        return replace(state, stale=_changed(target.kind, last.extracted, target.extracted))
    return state


def _rejection(state: TargetState, decided: TargetState, why: str) -> Rejection:
    """A reviewer's rejection, in the same form as a grounding rejection (with who and when)."""
    who = decided.latest[DECISION]
    reason = f"{why} by {who.reviewer} {who.at}" + (f": {decided.note}" if decided.note else "")
    return Rejection(field=PLURAL[state.target.kind], item={"id": state.target.id, **state.values}, reason=reason)


def _mark(state: TargetState) -> ReviewMark:
    latest = state.latest
    last = state.last
    assert last is not None
    extracted = state.target.extracted or {}
    fields = {
        f: Stamp(c.reviewer, c.at, extracted.get(f, c.old_value) if f in ITEM_FIELDS[state.target.kind] else None, c.new_value)
        for f, c in latest.items()
    }
    return ReviewMark(
        target_id=state.target.id,
        kind=state.target.kind,
        paper_id=state.target.paper_id,
        decision=state.decision,
        fields=fields,
        reviewer=last.reviewer,
        at=last.at,
        added=ADDED in latest and state.target.extracted is None,
        stale=state.stale,
        note=state.note,
    )


def _corrected_paper(paper: PaperResult, states: list[TargetState]) -> tuple[PaperResult, dict[str, str]]:
    """The paper with its items corrected, rejected items moved to ``rejected``; and the targets
    whose corrections could not be applied (stale), with the reason."""
    abstract = paper.abstract or ""
    extraction = paper.extraction or Extraction()
    originals: dict[str, BaseModel] = {c.id: c for c in extraction.claims}
    for kind in ("method", "model", "benchmark"):
        for item in getattr(extraction, PLURAL[kind]):
            originals.setdefault(item_id(paper.id, kind, item.name), item)
    paper_state = next(s for s in states if s.target.kind == "paper")
    paper_rejected = paper_state.decision == "reject"
    kept: dict[str, list] = {plural: [] for plural in PLURAL.values()}
    rejected = list(paper.rejected)
    unusable: dict[str, str] = {}
    for state in states:
        kind = state.target.kind
        if kind == "paper":
            continue
        item = originals.get(state.target.id)
        if state.latest and set(state.latest) & {ADDED, *ITEM_FIELDS[kind]}:
            checked = check_item(kind, state.values, abstract, paper.id, paper.title)
            if isinstance(checked, Problem):
                unusable[state.target.id] = f"the corrected item no longer passes the check: {checked.message}"
            else:
                item = checked.model_copy(update={"id": state.target.id}) if isinstance(checked, Claim) else checked
        if item is None:
            continue
        if paper_rejected:
            rejected.append(_rejection(state, paper_state, "paper rejected"))
        elif state.decision == "reject":
            rejected.append(_rejection(state, state, "rejected"))
        else:
            kept[PLURAL[kind]].append(item)
    extraction_out = Extraction(**kept) if paper.extraction is not None or any(kept.values()) else None
    return paper.model_copy(update={"extraction": extraction_out, "rejected": rejected}), unusable


def review_state(papers: list[PaperResult], history: list[Correction]) -> ReviewState:
    """Lay the history over the run. Corrections of papers outside the run (a store shared by
    several runs) are ignored here; corrections of this run's papers are all accounted for."""
    latest = _latest(history)
    by_paper: dict[str, set[str]] = defaultdict(set)
    for correction in history:
        by_paper[correction.paper_id].add(correction.target_id)
    out_papers: list[PaperResult] = []
    targets: dict[str, TargetState] = {}
    stale: list[StaleTarget] = []
    for paper in papers:
        known = {t.id: t for t in extracted_targets(paper)}
        for target_id in sorted(by_paper.get(paper.id, set()) - set(known)):
            rows = latest[target_id]
            any_row = next(iter(rows.values()))
            if ADDED in rows:
                if rows[ADDED].new_value is not None:  # else the addition was undone: nothing to show
                    known[target_id] = Target(target_id, any_row.target_kind, paper.id, None)
            else:
                stale.append(
                    StaleTarget(target_id, any_row.target_kind, paper.id,
                                "the extractor no longer produces this item", sorted(rows.values(), key=lambda c: c.id))
                )
        states = [_target_state(t, latest.get(t.id, {})) for t in known.values()]
        corrected, unusable = _corrected_paper(paper, states)
        out_papers.append(corrected)
        for state in states:
            reason = state.stale or unusable.get(state.target.id)
            if reason:
                state = replace(state, stale=reason)
                stale.append(
                    StaleTarget(state.target.id, state.target.kind, paper.id, reason,
                                sorted(state.latest.values(), key=lambda c: c.id))
                )
            targets[state.target.id] = state
    in_run = {p.id for p in papers}
    relevant = [c for c in history if c.paper_id in in_run]
    by_id = {c.id: c for c in relevant}
    conflicts = [
        Conflict(c, by_id[c.conflict_with])
        for c in relevant
        if c.conflict_with in by_id and latest[c.target_id][c.field].id == c.id
    ]
    marks = {tid: _mark(s) for tid, s in targets.items() if s.latest}
    return ReviewState(out_papers, targets, marks, stale, conflicts, relevant)
