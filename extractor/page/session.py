"""What the review page shows and does, without HTTP: the items in review order, the filters,
one item's view (its abstract with the evidence highlighted and the number boxed, its fields in
a fixed order, what it lacks to be ranked, the block its score lands in), progress, and the
decisions, edits, undo and settlements, each through the review core
(:mod:`extractor.review.record`).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass

from markupsafe import Markup

from extractor.html import escaped
from extractor.grounding import find_evidence, number_mentions
from extractor.catalog.normalize import Aliases
from extractor.leaderboard.build import board_aliases, board_measures, claim_block, paper_standings, standing
from extractor.review.agreement import SETTLED, Agreement, Disagreement, agreement
from extractor.review.aliases import alias_values
from extractor.review.apply import CONFIRM_CASE, NAMED_BY, Offer, view_of
from extractor.review.corrected import ReviewState, TargetState, review_state, shown
from extractor.review.record import ApplyReport, clear_names, decide, undo
from extractor.runs.run import Run
from extractor.schema import Claim, PaperResult

#: The fields of each kind in the card's fixed order, each with its key.
FIELD_KEYS: dict[str, tuple[tuple[str, str], ...]] = {
    "claim": (
        ("value", "v"), ("value_max", "w"), ("bound", "h"), ("unit", "u"), ("metric", "m"),
        ("benchmark", "b"), ("method", "t"), ("model", "o"), ("baseline", "l"), ("setting", "s"),
        ("kind", "k"), ("direction", "d"), ("proposed", "p"), ("evidence", "e"),
    ),
    "method": (("name", "n"), ("aliases", "l"), ("proposed", "p")),
    "model": (("name", "n"), ("params_b", "z"), ("active_params_b", "y")),
    "benchmark": (("name", "n"),),
    "paper": (),
}
NOTE_KEY = "c"
#: A claim's words of the board (the sheet's columns of the same name), each with its key: the
#: shifted key of the field it speaks about, and J for the block Joined with another.
WORD_KEYS: tuple[tuple[str, str], ...] = (
    ("benchmark_same_as", "B"), ("metric_same_as", "M"), ("setting_condition", "S"), ("block_same_as", "J"),
)
NUMBER_FIELDS = {"value", "value_max", "params_b", "active_params_b"}
#: What a digit right after a reject records as its reason.
REJECT_REASONS = (
    "not a result of this paper",
    "wrong number or range",
    "a duplicate of another claim",
    "not comparable: no benchmark or metric can be given",
    "a misreading of the sentence",
)
#: The three lists a reviewer walks: claims, items (methods, models, benchmarks), papers.
MODES = {"claim": ("claim",), "item": ("method", "model", "benchmark"), "paper": ("paper",)}
FILTERS = {
    "all": "all",
    "unreviewed": "unreviewed",
    "context": "benchmark from context",
    "unranked": "unranked",
    "disagreements": "reviewers disagree",
}
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\"'])")


def parse_field(name: str, text: object) -> object:
    """A typed field as the schema takes it: numbers as numbers (``83.6%`` and ``1,552`` too),
    ``yes``/``no`` as booleans, aliases as a list, blank as nothing. What does not parse is
    passed on as typed, for the check to refuse with its reason."""
    if not isinstance(text, str):
        return text
    if not text.strip():
        return text if text else None
    if name in NUMBER_FIELDS:
        try:
            return float(text.strip().rstrip("%").replace(",", ""))
        except ValueError:
            return text
    if name == "proposed":
        return {"yes": True, "no": False}.get(text.strip().lower(), text)
    if name == "aliases":
        return [a.strip() for a in text.split(";") if a.strip()]
    return text


def _rows(values: dict, pairs: tuple[tuple[str, str], ...], stamps: dict) -> list[dict]:
    """The card's rows of these fields: name, key, the value shown, who set it when."""
    return [{"name": name, "key": key, "value": shown(values.get(name)), "stamp": stamps.get(name)} for name, key in pairs]


@dataclass(frozen=True)
class Segment:
    """A piece of the abstract and what it is: in this claim's evidence, in another's, this
    claim's number, another claim's, or a number no claim holds (clickable: a new claim)."""

    text: str
    classes: str
    number: dict | None = None


def _sentence(abstract: str, start: int, end: int) -> str:
    """The sentence around [start, end): a new claim's evidence to begin with."""
    left = 0
    for match in _SENTENCE_END.finditer(abstract, 0, start):
        left = match.end()
    right = _SENTENCE_END.search(abstract, end)
    return abstract[left : right.start() if right else len(abstract)].strip()


def highlight(abstract: str, claims: list[Claim], this: str | None, name: tuple[int, int] | None = None) -> Markup:
    """The whole abstract as HTML: this claim's evidence highlighted and its number boxed (or
    where it writes this item's ``name``), other claims' evidence faint, and every number no
    claim holds ready to start a claim."""
    held = [c.value_span for c in claims]
    free = []
    for mention in number_mentions(abstract):
        overlaps = any(s < mention.end and mention.start < e for s, e in held + [(m.start, m.end) for m in free])
        if not overlaps:
            free.append(mention)
    cuts = {0, len(abstract)}
    for claim in claims:
        cuts.update((*claim.span, *claim.value_span))
    for mention in free:
        cuts.update((mention.start, mention.end))
    if name is not None:
        cuts.update(name)
    points = sorted(c for c in cuts if 0 <= c <= len(abstract))
    pieces = []
    for start, end in zip(points, points[1:]):
        classes = []
        for claim in claims:
            mine = claim.id == this
            if claim.value_span[0] <= start and end <= claim.value_span[1]:
                classes.append("num" if mine else "onum")
            if claim.span[0] <= start and end <= claim.span[1]:
                classes.append("ev" if mine else "oev")
        if name is not None and name[0] <= start and end <= name[1]:
            classes.append("ev")
        number = next((m for m in free if m.start <= start and end <= m.end), None)
        text = escaped(abstract[start:end])
        if number is not None:
            sentence = _sentence(abstract, number.start, number.end)
            pieces.append(Markup(
                '<span class="free" tabindex="-1" data-value="{}" data-evidence="{}" title="start a claim from this number">{}</span>'
            ).format(f"{number.value:g}", sentence, text))
        elif classes:
            pieces.append(Markup('<span class="{}">{}</span>').format(" ".join(sorted(set(classes))), text))
        else:
            pieces.append(text)
    return Markup("").join(pieces)


@dataclass
class Result:
    """What the page gets back from a decision or an edit."""

    status: str  # applied, unchanged, refused, conflict
    messages: list[str]
    problems: list[dict]
    conflicts: list[dict]
    offers: list[dict]
    view: dict | None

    def as_json(self) -> dict:
        return {
            "status": self.status, "messages": self.messages, "problems": self.problems,
            "conflicts": self.conflicts, "offers": self.offers, "view": self.view,
        }


class ReviewSession:
    """One reviewer's page over one run. The papers are read again only when papers.jsonl is
    replaced; the corrections are read from the store on every request, so other reviewers'
    work shows at once."""

    def __init__(self, run: Run, reviewer: str, rebuild: Callable[[], list[str]] | None = None) -> None:
        self.run = run
        self.reviewer = reviewer.strip()
        self._rebuild = rebuild
        self._lock = threading.Lock()
        self.rebuilt: list[str] = []
        self._state: tuple[object, ReviewState, Aliases] | None = None
        self._measures: tuple[object, dict[str, str]] | None = None
        self._told: tuple[Aliases, dict] | None = None  # board_measures' memo, with the aliases it read with
        self.papers: list[PaperResult] = []
        self._paper: dict[str, PaperResult] = {}
        self._papers_mark: tuple[int, int, int] | None = None
        self._read_papers()

    # --- reading ---------------------------------------------------------------------------

    def _read_papers(self) -> None:
        """The run's papers, read again when papers.jsonl was replaced (another `extractor
        run` of the directory): the page shows, and checks against, what is extracted now."""
        try:
            stat = self.run.papers_path.stat()
        except OSError:  # moved or removed while the page is open: what was read stays shown
            return
        mark = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
        if mark != self._papers_mark:
            papers = list(self.run.papers())
            self.papers, self._paper, self._papers_mark = papers, {p.id: p for p in papers}, mark

    def state(self) -> ReviewState:
        """The run with its corrections, computed again only when the store holds a correction
        it did not (ours, or another reviewer's: rows are only ever appended) or the papers
        were extracted again."""
        return self._read()[1]

    def aliases(self) -> Aliases:
        """The reviewers' words and the model's names the run's leaderboard is read with."""
        return self._read()[2]

    def measures(self) -> dict[str, str]:
        """The one measure the board reports each benchmark in (:func:`board_measures`), which
        a score naming none takes on the board: read again with the run's corrections."""
        signature, state, aliases = self._read()
        if self._measures is None or self._measures[0] != signature:
            if self._told is None or self._told[0] != aliases:
                self._told = (aliases, {})
            self._measures = (signature, board_measures(state.papers, aliases, self._told[1]))
        return self._measures[1]

    def _read(self) -> tuple[object, ReviewState, Aliases]:
        self._read_papers()
        signature = (self.run.corrections_mark(), self._papers_mark)
        if self._state is None or self._state[0] != signature:
            self._state = (signature, review_state(self.papers, self.run.corrections(set(self._paper))), board_aliases([self.run]))
        return self._state

    def items(self, state: ReviewState, mode: str) -> list[TargetState]:
        kinds = MODES.get(mode, MODES["claim"])
        return [s for s in state.targets.values() if s.target.kind in kinds]

    def _claims(self, state: ReviewState) -> dict[str, tuple[Claim, list[Claim]]]:
        """Each claim by its id, with its paper's claims (the board reads a claim beside them)."""
        return {c.id: (c, p.extraction.claims) for p in state.papers if p.extraction for c in p.extraction.claims}

    def _passes(
        self,
        item: TargetState,
        wanted: str,
        claims: dict[str, tuple[Claim, list[Claim]]],
        settle: set[str],
        aliases: Aliases,
        standings: dict[str, tuple[str | None, str | None]],
    ) -> bool:
        if wanted == "unreviewed":
            return item.decision is None or item.stale is not None
        if wanted == "disagreements":
            return item.target.id in settle
        if item.target.id not in claims:
            return False
        if item.target.id not in standings:  # the first of its paper's claims asked: read them all once
            claim, paper = claims[item.target.id]
            models, title = self._read_from_paper(claim)
            standings.update(paper_standings(paper, models, aliases, title, self.measures()))
        reason, source = standings[item.target.id]
        return bool(source) if wanted == "context" else bool(reason)

    def _read_from_paper(self, claim: Claim) -> tuple[list, str | None]:
        """What the board reads a claim with from its paper: the models (for sizes) and the title."""
        paper = self._paper.get(claim.id.rpartition("#")[0])
        return list(paper.extraction.models) if paper and paper.extraction else [], paper.title if paper else None

    def agreement(self, state: ReviewState | None = None) -> Agreement:
        return agreement(state or self.state())

    def listed(self, state: ReviewState, mode: str, wanted: str) -> list[TargetState]:
        items = self.items(state, mode)
        if wanted not in FILTERS or wanted == "all":
            return items
        claims = self._claims(state)
        settle = {d.target_id for d in self.agreement(state).disagreements if not d.settled}
        aliases = self.aliases()
        standings: dict[str, tuple[str | None, str | None]] = {}  # filled a paper at a time
        return [i for i in items if self._passes(i, wanted, claims, settle, aliases, standings)]

    def neighbours(self, state: ReviewState, mode: str, wanted: str, item_id: str | None) -> dict[str, str | None]:
        """The items before and after this one in the list (filter applied), and the first
        item of the papers before and after."""
        everything = self.items(state, mode)
        listed = {s.target.id for s in self.listed(state, mode, wanted)}
        order = [s.target.id for s in everything]
        at = order.index(item_id) if item_id in order else -1
        paper_of = {s.target.id: s.target.paper_id for s in everything}
        after = [i for i in order[at + 1 :] if i in listed]
        before = [i for i in order[:at] if i in listed] if at >= 0 else []
        here = paper_of.get(item_id or "")
        next_paper = next((i for i in after if paper_of[i] != here), None)
        earlier = [i for i in before if paper_of[i] != here]
        prev_paper = None
        if earlier:
            paper = paper_of[earlier[-1]]
            prev_paper = next(i for i in before if paper_of[i] == paper)
        return {
            "next": after[0] if after else None,
            "prev": before[-1] if before else None,
            "next_paper": next_paper,
            "prev_paper": prev_paper,
        }

    def page(self, mode: str, wanted: str, item_id: str | None, end: bool = False) -> dict:
        """Everything the page template shows for one item (the first listed when none is
        given); ``end``: the end of the list."""
        state = self.state()
        listed = self.listed(state, mode, wanted)
        everything = self.items(state, mode)
        if not end and (item_id is None or item_id not in state.targets):
            item_id = listed[0].target.id if listed else None
        if end:
            item_id = None
        reviewed = sum(1 for s in everything if s.decision is not None and s.stale is None)
        progress = {
            "total": len(everything), "listed": len(listed), "reviewed": reviewed,
            "unreviewed": len(everything) - reviewed,
            "position": next((n for n, s in enumerate(listed, 1) if s.target.id == item_id), None),
        }
        base = {"mode": mode, "filter": wanted, "progress": progress, "filters": FILTERS, "modes": MODES,
                "reasons": REJECT_REASONS, "reviewer": self.reviewer, "run": self.run.path.resolve().name,
                "keys": FIELD_KEYS, "note_key": NOTE_KEY, "word_keys": WORD_KEYS}
        if item_id is None:
            return {**base, "item": None, "links": {}}
        item = state.targets[item_id]
        paper = next(p for p in state.papers if p.id == item.target.paper_id)
        claims = list(paper.extraction.claims) if paper.extraction else []
        claim = next((c for c in claims if c.id == item_id), None)
        ranked = block = None
        if item.target.kind == "claim" and claim is not None:
            (models, title), aliases = self._read_from_paper(claim), self.aliases()
            reason, source = standing(claim, models, aliases, title, self.measures(), claims)
            ranked = {"reason": reason, "context": source}
            block = claim_block(claim, models, aliases, title, self.measures()) if claim.kind == "score" else None
        mark = state.marks.get(item_id)
        stamps = mark.fields if mark else {}
        fields = _rows(item.values, FIELD_KEYS[item.target.kind], stamps)
        words = _rows(alias_values(item.latest), WORD_KEYS, stamps) if item.target.kind == "claim" else []
        disagreements: list[Disagreement] = [
            d for d in self.agreement(state).disagreements if d.target_id == item_id and not d.settled
        ]
        return {
            **base,
            "item": item,
            "paper": paper,
            "abstract": highlight(paper.abstract or "", claims, item_id, self._name_span(item, paper)),
            "fields": fields,
            "words": words,
            "ranked": ranked,
            "block": block,
            "mark": mark,
            "rejected": item.decision == "reject",
            "disagreements": [
                {"field": d.field, "choices": [{"value": v, "shown": shown(v), "by": who} for v, who in d.choices]}
                for d in disagreements
            ],
            "view": view_of(item, paper.abstract),
            "links": self.neighbours(state, mode, wanted, item_id),
        }

    def _name_span(self, item: TargetState, paper: PaperResult) -> tuple[int, int] | None:
        name = item.values.get("name") if item.target.kind in NAMED_BY else None
        return find_evidence(name, paper.abstract or "") if name else None

    # --- writing ---------------------------------------------------------------------------

    def _paper_of(self, item_id: str | None, paper_id: str | None) -> list[PaperResult]:
        paper = self._paper.get(paper_id or "")
        return [paper] if paper else []

    def _result(self, report: ApplyReport, item_id: str | None, paper_id: str | None) -> Result:
        outcome = report.outcomes[0] if report.outcomes else None
        status = outcome.status if outcome else "unchanged"
        target_id = (outcome.target_id if outcome else None) or item_id
        view = None
        if target_id:
            state = review_state(self._paper_of(target_id, paper_id), self.run.corrections({paper_id} if paper_id else None))
            target = state.targets.get(target_id)
            if target is not None:
                view = view_of(target, self._paper[target.target.paper_id].abstract)
        problems = [
            {"field": p.field, "message": p.message, "confirm": CONFIRM_CASE in p.message}
            for o in report.outcomes for p in o.problems
        ]
        conflicts = [
            {"field": c.field, "seen": shown(c.seen), "theirs": shown(c.theirs), "yours": shown(c.yours),
             "yours_raw": c.yours, "by": c.by, "at": c.at}
            for c in report.field_conflicts
        ]
        offers = [{"claim_id": o.claim_id, "field": o.field, "name": o.name} for o in report.offers]
        messages = [*report.refused, *report.notes, *report.conflicts]
        return Result(status, messages, problems, conflicts, offers, view)

    def decide(
        self, *, kind: str, item_id: str | None, paper_id: str, view: dict | None, origin: str,
        decision: str | None = None, fields: dict | None = None, note: str | None = None,
        confirm: bool = False, settle: bool = False,
    ) -> Result:
        parsed = {name: parse_field(name, value) for name, value in (fields or {}).items()}
        if item_id is not None:
            known = self.state().targets.get(item_id)
            if known is None or known.target.paper_id != paper_id or known.target.kind != kind:
                return Result("refused", [f"{kind} {item_id} is not an item of paper {paper_id} in this run"], [], [], [], None)
        elif paper_id not in self._paper:
            return Result("refused", [f"paper {paper_id} is not in this run"], [], [], [], None)
        with self._lock:
            report = decide(
                self.run, self.reviewer, kind=kind, item_id=item_id, paper_id=paper_id, view=view,
                decision=decision, fields=parsed, note=note, confirm=confirm, origin=origin,
                source=SETTLED if settle else "page", papers=self._paper_of(item_id, paper_id),
            )
        return self._result(report, item_id, paper_id)

    def undo(self) -> Result:
        with self._lock:
            report = undo(self.run, self.reviewer)
        item = report.outcomes[0].target_id if report.outcomes else None
        paper = report.outcomes[0].change.paper_id if report.outcomes else None
        result = self._result(report, item, paper)
        if report.batch_id is None and not report.outcomes:
            result.messages.append("nothing to undo")
        result.view = {"id": item, "paper_id": paper, "kind": report.outcomes[0].change.kind} if item else None
        return result

    def clear(self, offers: list[dict], origin: str) -> Result:
        wanted = [Offer(o["claim_id"], o["field"], o.get("name", "")) for o in offers]
        paper_ids = {o.claim_id.rpartition("#")[0] for o in wanted}
        with self._lock:
            report = clear_names(self.run, self.reviewer, wanted, origin, [self._paper[p] for p in paper_ids if p in self._paper])
        return self._result(report, None, None)

    def rebuild(self) -> list[str]:
        """Rewrite the run's files that carry corrections (claims.reviewed.csv, the
        leaderboard and the report where the run has them)."""
        if self._rebuild is None:
            return []
        with self._lock:
            self.rebuilt = self._rebuild()
        return self.rebuilt

