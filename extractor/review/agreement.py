"""Agreement between reviewers: per field, how often two reviewers of one item said the same,
Krippendorff's alpha for the field's values, and the disagreements to settle.

A reviewer *judged* an item when their latest decision on it is one (accept, edit or reject;
an undone one is none). Their judgement is the decision, as ``keep`` (accept or edit) or
``reject``, and, for a kept item, its field values as they stood right after their last
correction of it: what they accepted, or left after their edits. A settlement (a choice made
between reviewers' values, source :data:`SETTLED`) is no judgement; a disagreement is settled
when one was made after the last judgement of it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from extractor.review.corrected import ADDED, DECISION, ITEM_FIELDS, ReviewState
from extractor.runs.corrections import Correction
from extractor.text.hashing import canonical_json

SETTLED = "settled"  # the source of a correction that settles a disagreement
KEEP, REJECT = "keep", "reject"


@dataclass(frozen=True)
class Judgement:
    reviewer: str
    target_id: str
    kind: str
    paper_id: str
    values: dict  # 'decision' (keep / reject) and, for a kept item, its fields
    last: int  # the id of the reviewer's last correction of the item


@dataclass(frozen=True)
class Disagreement:
    """Reviewers who said different things about one field of one item."""

    target_id: str
    kind: str
    paper_id: str
    field: str
    said: dict[str, object]  # reviewer -> value
    settled: bool

    @property
    def choices(self) -> list[tuple[object, list[str]]]:
        """The values said, each with who said it, in the order first said."""
        grouped: dict[str, tuple[object, list[str]]] = {}
        for reviewer, value in self.said.items():
            grouped.setdefault(canonical_json(value), (value, []))[1].append(reviewer)
        return list(grouped.values())


@dataclass
class FieldAgreement:
    field: str
    items: int  # items two or more reviewers judged on this field
    pairs: int
    agreeing: int
    alpha: float | None  # Krippendorff's alpha (nominal); None when it is undefined

    @property
    def percent(self) -> float | None:
        return 100 * self.agreeing / self.pairs if self.pairs else None


@dataclass
class Agreement:
    reviewers: list[str]
    judged: int  # items judged by two reviewers or more
    fields: list[FieldAgreement]
    disagreements: list[Disagreement] = field(default_factory=list)


def judgements(state: ReviewState) -> list[Judgement]:
    """Every reviewer's judgement of every item they judged."""
    by_target: dict[str, list[Correction]] = defaultdict(list)
    for correction in state.history:
        by_target[correction.target_id].append(correction)
    out = []
    for target_id, history in by_target.items():
        target_state = state.targets.get(target_id)
        if target_state is None:
            continue
        target = target_state.target
        decisions: dict[str, str | None] = {}
        last: dict[str, int] = {}
        for c in history:
            if c.source == SETTLED:
                continue
            last[c.reviewer] = c.id
            if c.field == DECISION:
                decisions[c.reviewer] = c.new_value
        for reviewer, decision in decisions.items():
            if not decision:
                continue
            values: dict = {DECISION: REJECT if decision == "reject" else KEEP}
            if decision != "reject" and target.kind != "paper":
                values.update(_values_at(target.extracted, history, last[reviewer], target.kind))
            out.append(Judgement(reviewer, target_id, target.kind, target.paper_id, values, last[reviewer]))
    return out


def _values_at(extracted: dict | None, history: list[Correction], upto: int, kind: str) -> dict:
    """An item's fields right after correction ``upto``."""
    values = dict(extracted or {})
    for c in history:
        if c.id > upto:
            break
        if c.field == ADDED:
            values.update({k: v for k, v in (c.new_value or {}).items() if v is not None})
        elif c.field in ITEM_FIELDS[kind]:
            values[c.field] = c.new_value
    return {f: values.get(f) for f in ITEM_FIELDS[kind]}


def _alpha(units: list[list[str]]) -> float | None:
    """Krippendorff's alpha for nominal values; ``units`` the values each item got."""
    import krippendorff
    import numpy as np

    domain = sorted({v for unit in units for v in unit})
    if len(domain) < 2:
        return None  # one value only: no variation to agree on, alpha is undefined
    width = max(len(unit) for unit in units)
    index = {v: i for i, v in enumerate(domain)}
    data = np.full((width, len(units)), np.nan)
    for column, unit in enumerate(units):
        for row, value in enumerate(unit):
            data[row, column] = index[value]
    return float(krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"))


def agreement(state: ReviewState) -> Agreement:
    """Agreement per field over the items two reviewers or more judged, and every field on
    which they differ."""
    by_target: dict[str, list[Judgement]] = defaultdict(list)
    for judgement in judgements(state):
        by_target[judgement.target_id].append(judgement)
    shared = {t: js for t, js in by_target.items() if len(js) > 1}
    settlements: dict[tuple[str, str], int] = {}
    for c in state.history:
        if c.source == SETTLED:
            settlements[(c.target_id, c.field)] = c.id
    per_field: dict[str, list[list[str]]] = defaultdict(list)
    disagreements = []
    for target_id, js in shared.items():
        names = [DECISION] + [f for f in ITEM_FIELDS[js[0].kind]]
        for name in names:
            said = {j.reviewer: j.values[name] for j in js if name in j.values}
            if len(said) < 2:
                continue
            per_field[name].append([canonical_json(v) for v in said.values()])
            if len({canonical_json(v) for v in said.values()}) > 1:
                settled = settlements.get((target_id, name), 0) > max(j.last for j in js)
                disagreements.append(Disagreement(target_id, js[0].kind, js[0].paper_id, name, said, settled))
    fields = []
    for name, units in per_field.items():
        pairs = sum(len(u) * (len(u) - 1) // 2 for u in units)
        agreeing = sum(sum(1 for i, a in enumerate(u) for b in u[i + 1 :] if a == b) for u in units)
        fields.append(FieldAgreement(name, len(units), pairs, agreeing, _alpha(units)))
    reviewers = sorted({j.reviewer for js in shared.values() for j in js})
    return Agreement(reviewers, len(shared), fields, disagreements)
