"""Ground a backend's draft in the abstract: nothing that is not in the text reaches a table.

A claim survives when its evidence is found in the abstract (whitespace- and case-insensitive)
and its number (and the upper end of a range) is written inside that evidence. Spans are
computed here, never taken from a backend. Names of methods, models and benchmarks must occur
in the title or the abstract (both are the paper's words; contract v3); a model size must be a
number the abstract writes. A "model" whose name is only a size ('27B models', '8B') names no
model: its size is kept apart (``Extraction.unnamed_sizes_b``), out of the list of models. So
must each name a claim is attributed to (benchmark, method, model, baseline), in whole words
('ARC' is not in 'search'); a claim's bound must be written right before its number ('less than
10%') or right after it ('1.5+%', '90% or more'); its unit and metric must agree with the unit
written at its number ('41.3 ms' is no % and no top-1 accuracy), and some word of its metric must
be in the title or the abstract: an ungrounded one is cleared from the claim and recorded as an
``attribution`` rejection, and the number, when grounded, is kept. Evidence and numbers come from
the abstract alone; a number may be written as words ('five', 'one tenth').
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from bisect import bisect_left, bisect_right
from functools import lru_cache

from extractor.catalog.registry import MetricEntry, metric_entry
from extractor.catalog.units import same_unit, unit_at, unit_kind
from extractor.schema import (
    Claim,
    ClaimDraft,
    Extraction,
    ExtractionDraft,
    Model,
    Rejection,
)
from extractor.text.format_chars import drop_format
from extractor.text.hashing import short_hash
from extractor.text.instructions import instructions_in, sentence_around
from extractor.text.name_keys import name_in_text, paper_texts, unique_names
from extractor.text.numbers import (
    NumberMention,
    bound_written,
    find_number_words,
    find_numbers,
    find_split_numbers,
    mentions_in,
)
from extractor.text.sizes import is_bare_size

_WS = re.compile(r"\s+")
_WORD = re.compile(r"\S+")
_RUN = re.compile(r"\s{2,}")


@dataclass(frozen=True)
class Offsets:
    """Where each character of a folded text stands in the original, as the shift from its
    folded position, which changes only where folding dropped characters: one int per
    character of an abstract would cost more to build than the fold itself."""

    starts: tuple[int, ...]  # the folded position where each shift begins; the first is 0
    shifts: tuple[int, ...]

    def __getitem__(self, at: int) -> int:
        return at + self.shifts[bisect_right(self.starts, at) - 1]

    @classmethod
    def of(cls, offsets: Sequence[int]) -> Offsets:
        """The shifts of a character-by-character offset table."""
        starts, shifts = [0], [offsets[0] if offsets else 0]
        for at, offset in enumerate(offsets):
            if offset - at != shifts[-1]:
                starts.append(at)
                shifts.append(offset - at)
        return cls(tuple(starts), tuple(shifts))


def _kept_offsets(text: str) -> Offsets:
    """The offsets of whitespace folding: the whitespace at the start is dropped and, in a run
    of whitespace, all but its first character (which becomes the space)."""
    shift = len(text) - len(text.lstrip())
    starts, shifts = [0], [shift]
    for run in _RUN.finditer(text, shift):
        shift += run.end() - run.start() - 1
        starts.append(run.end() - shift)  # the folded position of the character after the run
        shifts.append(shift)
    return Offsets(tuple(starts), tuple(shifts))


@lru_cache(maxsize=256)
def _folded(text: str) -> tuple[str, Offsets]:
    """Lower-cased text with whitespace runs folded to one space, and each folded character's
    offset in the original, so a match in the folded text maps back to a span.

    Cached: the re-ask validator and the runner ground every claim of a paper against the
    same abstract, and this is the costly part of grounding.
    """
    lower = text.lower()
    if len(lower) == len(text) and drop_format(text)[1] is None:  # most abstracts, in a third of the time
        return " ".join(lower.split()), _kept_offsets(text)
    out: list[str] = []
    offsets: list[int] = []
    previous_end = 0
    for word in _WORD.finditer(text):
        kept, kept_at = drop_format(word.group())  # invisible format characters say nothing
        if not kept:
            continue
        if out:  # the whitespace run before this word, at its first character
            out.append(" ")
            offsets.append(previous_end)
        start, previous_end = word.start(), word.end()
        lowered = kept.lower()
        if kept_at is None and len(lowered) == previous_end - start:
            out.append(lowered)
            offsets.extend(range(start, previous_end))
        else:  # format characters dropped, or a lower case that is longer ('\u0130' -> 'i\u0307')
            for i, ch in enumerate(kept):
                out.append(ch.lower())
                offsets.extend([start + (kept_at[i] if kept_at else i)] * len(ch.lower()))
    return "".join(out), Offsets.of(offsets)


@lru_cache(maxsize=256)
def number_mentions(abstract: str) -> tuple[NumberMention, ...]:
    """The numbers of an abstract, found once for the validator's and the runner's grounding:
    in digits, then numbers a tokenizer split ('7. 1%', '1 , 800'), then in words ('five times', 'one
    tenth of a second'), as a good model cites each. Digits first: a value written both ways in
    one evidence is placed at its digits."""
    return (*find_numbers(abstract), *find_split_numbers(abstract), *find_number_words(abstract))


def find_evidence(evidence: str, abstract: str) -> tuple[int, int] | None:
    """The [start, end) of ``evidence`` in ``abstract``, ignoring case and whitespace."""
    needle = _WS.sub(" ", drop_format(evidence)[0]).strip().lower()
    if not needle:
        return None
    haystack, offsets = _folded(abstract)
    at = haystack.find(needle)
    if at < 0:
        return None
    return offsets[at], offsets[at + len(needle) - 1] + 1


def _where(title: str | None) -> str:
    return "the title or the abstract" if title and title.strip() else "the abstract"


def _value_span(
    draft: ClaimDraft, mentions: list[NumberMention]
) -> tuple[int, int] | str:
    """Where the claim's number sits inside its evidence, or the reason it does not."""
    low = next((m for m in mentions if m.matches(draft.value)), None)
    if low is None:
        return f"value {draft.value:g} is not written in the evidence"
    if draft.value_max is None:
        return low.start, low.end
    high = next((m for m in mentions if m.start >= low.start and m.matches(draft.value_max)), None)
    if high is None:
        return f"value_max {draft.value_max:g} is not written in the evidence"
    return low.start, high.end


ATTRIBUTE_NAMES = ("benchmark", "method", "model", "baseline")
_BOUND_WORDS = {"upper": "'less than', 'below' or 'at most'", "lower": "'more than', 'over' or 'at least'"}  # or 'N or less' / 'N+', 'N or more' after it


# Words that say nothing of what a metric measures ('top-1 accuracy on the test set').
_FILLER = frozenset("of the an on in at to for and or by with vs per".split())
_LETTERS = re.compile(r"[^\W\d_]{2,}")
# A change of any quantity is written in these ('latency down by 30%', '2.8x lower latency').
_RELATIVE = ("proportion", "ratio")
_STEM = 5  # a metric's word is written when a word of the text begins alike: 'rank' in 'ranked', 'speedup' as 'speed'
# A comparative writes the quantity it compares: '16 times faster' is a speed(up).
_COMPARED = {"faster": "speed", "slower": "speed", "quicker": "speed"}


@lru_cache(maxsize=256)
def _words(texts: tuple[str, ...]) -> tuple[str, ...]:
    """The words of the paper's texts, sorted (a comparative also as what it compares)."""
    words = {w for t in texts for w in _LETTERS.findall(t.lower())}
    return tuple(sorted(words | {_COMPARED[w] for w in words & _COMPARED.keys()}))


def _begins_a_word(start: str, words: tuple[str, ...]) -> bool:
    at = bisect_left(words, start)
    return at < len(words) and words[at].startswith(start)


def _metric_written(metric: str, entry: MetricEntry | None, texts: tuple[str, ...]) -> bool:
    """Whether a word of the metric, or of a name the registry gives it (``entry``: 'bits per
    character' for BPC), begins a word of the texts alike (its first :data:`_STEM` letters); a
    metric of no such word ('|ρ|') is not checked."""
    words = _words(texts)
    for name in (metric, *((entry.name, *entry.aliases) if entry else ())):
        mine = [w for w in _LETTERS.findall(name.lower()) if w not in _FILLER]
        if not mine or any(_begins_a_word(w[:_STEM], words) for w in mine):
            return True
    return False


def _unwritten_measure(claim: ClaimDraft, abstract: str, value_ends: list[int], title: str | None = None) -> dict[str, str]:
    """The claim's unit and metric where the text says otherwise: field -> reason. ``value_ends``
    are where its number ends in the evidence (each place a number written twice stands: the
    claim may be either). A unit is refused when the evidence writes another one at the number
    ('%' where it says '41.3 ms'); a metric when the registry measures it in another kind of
    quantity than the unit written there (top-1 accuracy, a %, at '41.3 ms'; a % or an 'x' goes
    with any metric, as changes are written so), or when none of its words is in the title or
    the abstract and the unit at the number does not name what it measures (a time in '5
    seconds', not a top-1 accuracy in '41.3%')."""
    out: dict[str, str] = {}
    written = [unit_at(abstract, end) for end in value_ends]
    if claim.unit and all(w and not same_unit(claim.unit, w) for w in written):
        out["unit"] = f"unit {claim.unit!r} is not the {written[0]!r} written at the number"
    if not claim.metric:
        return out
    found = metric_entry(claim.metric)
    entry = found[0] if found else None
    registry_unit = entry.unit if entry else None
    measured, kinds = unit_kind(registry_unit), [unit_kind(w) for w in written]
    named_by_unit = measured not in (None, *_RELATIVE) and measured in kinds
    if measured and all(kind and kind not in (measured, *_RELATIVE) for kind in kinds):
        out["metric"] = f"metric {claim.metric!r} is measured in {registry_unit}, not the {written[0]!r} written at the number"
    elif not named_by_unit and not _metric_written(claim.metric, entry, paper_texts(abstract, title)):
        out["metric"] = f"metric {claim.metric!r} does not occur in {_where(title)}: none of its words is written"
    return out


@lru_cache(maxsize=256)
def _instructions(abstract: str) -> tuple[tuple[int, int, str], ...]:
    """Where the abstract addresses a model, and its words: found once per abstract."""
    return tuple(instructions_in(abstract))


def _instruction_at(abstract: str, span: tuple[int, int]) -> str | None:
    """The words addressing a model in the sentences of the evidence at ``span``, if any."""
    found = _instructions(abstract)
    if not found:
        return None
    start, end = sentence_around(abstract, *span)
    return next((words for at, to, words in found if at < end and to > start), None)


def ungrounded_names(draft: ClaimDraft, abstract: str, title: str | None = None) -> dict[str, str]:
    """The claim's attribute names that neither the title nor the abstract writes: field -> reason."""
    names = paper_texts(abstract, title)
    return {
        field: f"{field} {name!r} does not occur in {_where(title)}"
        for field in ATTRIBUTE_NAMES
        if (name := getattr(draft, field)) and not name_in_text(name, names)
    }


CHECK = "check"  # the paper id of a grounding done before the paper is known (see for_paper)


def claim_id(paper_id: str, value: float, value_max: float | None, value_start: int) -> str:
    """A claim's identity: its paper, its value and where the number sits in the text."""
    return f"{paper_id}#" + short_hash([paper_id, value, value_max, value_start], 8)


def ground_claim(
    draft: ClaimDraft, abstract: str, paper_id: str, mentions: Sequence[NumberMention], title: str | None = None
) -> Claim | str:
    """The grounded claim, or the reason it cannot be grounded (an ungrounded attribute name is
    one: :func:`ground` clears those names first, a reviewer's edit is refused)."""
    span = find_evidence(draft.evidence, abstract)
    if span is None:
        return "evidence is not found in the abstract"
    located = _value_span(draft, mentions_in(mentions, *span))
    if isinstance(located, str):
        return located
    unnamed = ungrounded_names(draft, abstract, title)
    if unnamed:
        return next(iter(unnamed.values()))
    if draft.value_max is not None and draft.value_max < draft.value:
        return f"value_max {draft.value_max:g} is below value {draft.value:g}"
    fields = draft.model_dump() | {"evidence": abstract[span[0] : span[1]]}
    return Claim(
        **fields,
        id=claim_id(paper_id, draft.value, draft.value_max, located[0]),
        span=span,
        value_span=located,
    )


def _value_ends(claim: Claim, mentions: Sequence[NumberMention]) -> list[int]:
    """Where the claim's number ends: the end of its range, or of each place its evidence
    writes its value ('the 100 hour subset ... 100 times less data': either 100)."""
    if claim.value_max is not None:
        return [claim.value_span[1]]
    return [m.end for m in mentions_in(list(mentions), *claim.span) if m.matches(claim.value)] or [claim.value_span[1]]


def _size_in_text(size: float | None, mentions: Sequence[NumberMention]) -> bool:
    if size is None:
        return True
    # 0.135 (billions) is written as 135M; 27 as 27B or "27 billion".
    candidates = (size, size * 1e3, size * 1e9)
    return any(m.matches(c) for m in mentions for c in candidates)


Grounded = tuple[Extraction, list[Rejection]]
#: The most claims (and methods, models, benchmarks) one paper's draft may have. Real abstracts
#: give at most a few dozen (23 in the gold sets' drafts); a server that ignores ``max_tokens``
#: can answer 100,000, each a rejection to store.
MAX_ITEMS = 200
_LISTS = ("methods", "models", "benchmarks", "claims")


def over_the_cap(draft: ExtractionDraft) -> list[str]:
    """The lists of a draft longer than :data:`MAX_ITEMS`."""
    return [field for field in _LISTS if len(getattr(draft, field)) > MAX_ITEMS]


def _capped(draft: ExtractionDraft) -> tuple[ExtractionDraft, list[Rejection]]:
    """The draft with each list cut to :data:`MAX_ITEMS`, and one rejection per list cut,
    whose item is the first one dropped."""
    over = over_the_cap(draft)
    if not over:
        return draft, []
    rejected = [
        Rejection(
            field=field, item=getattr(draft, field)[MAX_ITEMS].model_dump(),
            reason=f"the answer has more than {MAX_ITEMS} {field}, more than a paper may have: "
            f"the first {MAX_ITEMS} are checked, the others dropped",
        )
        for field in over
    ]
    return draft.model_copy(update={field: getattr(draft, field)[:MAX_ITEMS] for field in over}), rejected


def ground(draft: ExtractionDraft, abstract: str, paper_id: str, title: str | None = None) -> Grounded:
    """Split a draft into what the paper supports and what it does not (with reasons): names
    from its title or abstract, evidence and numbers from its abstract."""
    mentions = number_mentions(abstract)
    names, where = paper_texts(abstract, title), _where(title)
    draft, rejected = _capped(draft)

    def reject(field: str, item: object, reason: str) -> None:
        rejected.append(Rejection(field=field, item=item.model_dump(), reason=reason))

    methods = []
    for method in draft.methods:
        if name_in_text(method.name, names):
            aliases = [a for a in method.aliases if name_in_text(a, names)]
            methods.append(method.model_copy(update={"aliases": aliases}))
        else:
            reject("methods", method, f"name {method.name!r} does not occur in {where}")

    models: list[Model] = []
    sizes: list[float] = []  # of the models the text does not name ('27B models')
    in_digits = [m for m in mentions if not m.text[:1].isalpha()]  # 'one' is no model size
    for model in draft.models:
        if not name_in_text(model.name, names):
            reject("models", model, f"name {model.name!r} does not occur in {where}")
        elif not (
            _size_in_text(model.params_b, in_digits)
            and _size_in_text(model.active_params_b, in_digits)
        ):
            reject("models", model, "parameter count is not written in the abstract")
        elif is_bare_size(model.name):
            sizes.extend(s for s in (model.params_b, model.active_params_b) if s is not None and s not in sizes)
        else:
            models.append(model)

    benchmarks = []
    for benchmark in draft.benchmarks:
        if name_in_text(benchmark.name, names):
            benchmarks.append(benchmark)
        else:
            reject("benchmarks", benchmark, f"name {benchmark.name!r} does not occur in {where}")

    claims: list[Claim] = []
    seen: set[str] = set()
    for item in draft.claims:
        unnamed = ungrounded_names(item, abstract, title)
        grounded = ground_claim(item.model_copy(update=dict.fromkeys(unnamed)), abstract, paper_id, mentions, title)
        if isinstance(grounded, str):
            reject("claims", item, grounded)
            continue
        instruction = _instruction_at(abstract, grounded.span)
        if instruction:
            reject("claims", item, f"the evidence is in a sentence that addresses a model ({instruction!r}), not a reported result")
            continue
        for reason in unnamed.values():
            reject("attribution", item, reason)
        if grounded.bound and bound_written(abstract, *grounded.value_span) != grounded.bound:
            words = _BOUND_WORDS[grounded.bound]
            reject("attribution", item, f"bound {grounded.bound!r} is not written: no {words} before the number")
            grounded = grounded.model_copy(update={"bound": None})
        unwritten = _unwritten_measure(grounded, abstract, _value_ends(grounded, mentions), title)
        for reason in unwritten.values():
            reject("attribution", item, reason)
        if unwritten:
            grounded = grounded.model_copy(update=dict.fromkeys(unwritten))
        if grounded.id not in seen:
            seen.add(grounded.id)
            claims.append(grounded)

    extraction = Extraction(
        methods=unique_names(methods),
        models=unique_names(models),
        unnamed_sizes_b=sizes,
        benchmarks=unique_names(benchmarks),
        claims=claims,
    )
    return extraction, rejected


@dataclass(frozen=True)
class Checked:
    """A draft grounded before its paper was known (an LLM answer, in its validator): the text it
    was grounded against and the result, its claim ids under :data:`CHECK`."""

    abstract: str
    title: str | None
    grounded: Grounded

    def for_paper(self, paper_id: str, abstract: str, title: str | None) -> Grounded | None:
        """The grounding with this paper's claim ids (the same draft, abstract and title ground
        the same way whatever the id, so it need not be done again), or None when the paper's
        text is not the one checked (a repeat of the abstract written with other spacing or
        under another title)."""
        if (abstract, title) != (self.abstract, self.title):
            return None
        extraction, rejected = self.grounded
        claims = [
            c.model_copy(update={"id": claim_id(paper_id, c.value, c.value_max, c.value_span[0])})
            for c in extraction.claims
        ]
        return extraction.model_copy(update={"claims": claims}), rejected


def explained(rejected: Iterable[Rejection]) -> list[str]:
    """Human-readable grounding problems, for a validation error the model can act on (an
    attribution problem names the claim by its evidence, and the name to fix)."""
    return [f"{r.field}: {r.item.get('name') or r.item.get('evidence')!r}: {r.reason}" for r in rejected]


def problems(draft: ExtractionDraft, abstract: str, title: str | None = None) -> list[str]:
    """The grounding problems of a draft (:func:`explained`)."""
    return explained(ground(draft, abstract, CHECK, title)[1])
