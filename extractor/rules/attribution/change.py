"""A result's **kind**, **direction** and **baseline** (ANNOTATION.md, "Attribution"): change
cues (``by``, ``gain``, ``points over``, ``fewer``, ``gap``, ``faster``), their direction, and what
the change is relative to (``over``, ``than``, ``vs``, ``compared to``, ``relative to``). ``From A
to B`` is two scores: A belongs to the baseline, B to the subject.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from extractor.catalog.normalize import normalize_metric
from extractor.rules.attribution.phrases import (
    CHANGE_NOUNS,
    QUALIFIER,
    SPEED,
    VERB_ENDING,
    names_metric,
    phrase_before,
)
from extractor.rules.attribution.subject import Subjects, name_after
from extractor.rules.chunks import coined
from extractor.rules.quantities import Quantity
from extractor.rules.document import AsciiFirst, Document
from extractor.rules.table import Construction, Example, Table
from extractor.rules.vocabulary import BEATING_STEMS, CHANGE_CUE, DECREASE, INCREASE, RISE_FALL_STEMS

S = TypeVar("S")
A = TypeVar("A")

_PHRASE_BREAK = re.compile(r"[,;]|\.\s|(?<![\w.-])\d")
# After the number: a comparative, or a change noun heading its phrase ('0.2% step-time
# overhead', '3.1-point accuracy drop', '18-point gap').
_CHANGE_AFTER = re.compile(
    r"\s*(?:relative\s+|absolute\s+)?(?:fewer|less|lower|higher|more|faster|slower|smaller|larger|earlier|"
    r"longer|shorter|cheaper|"
    r"(?:(?!(?:of|on|in|at|for|with|and|or|to|the|a|an)\b)[\w-]+\s+){0,2}?(?:speed-?ups?|gains?|improvements?|"
    r"reductions?|drops?|increases?|decreases?|overhead|savings?|lifts?|uplifts?|boosts?|gaps?)\b|"
    r"(?:of\s+)?improvement|over\b|above\b|below\b|behind\b|ahead\s+of\b|(?:\w+\s+)?better|"
    r"(?:[\w@-]+\s+){1,2}(?:higher|lower|more|less|fewer|faster|slower|worse)\s+than)\b",
    re.IGNORECASE,
)
_CHANGE_BEFORE = AsciiFirst(
    r"\b(?:improv\w*|gains?|degrad\w*|drops?|dropped|declin\w*|lifts?|boost\w*|reduc\w*|increas\w*|"
    r"decreas\w*|gap)\b(?:\s+\S+){0,5}\s*\(?\s*(?:up\s+to\s+|about\s+|~|just\s+|only\s+)?$",
    re.IGNORECASE,
)
_BASELINE_AFTER = re.compile(
    r"\b(?:over|vs\.?|versus|compared\s+(?:to|with)|relative\s+to|than|against|from|above|below|behind|"
    r"ahead\s+of)\s+(?:the\s+|a\s+|an\s+|its\s+|their\s+)?(?P<b>[^,;:()\d][^,;:()]{0,60}?)"
    r"(?=\s+(?:on|in|at|for|with|by|while|across|under|when|and|using|which|where|to|is|are|"
    r"as|after|of)\b|[,;:()]|\s*$)",
    re.IGNORECASE,
)
_BASELINE_BEFORE = AsciiFirst(
    r"\b(?:(?:" + BEATING_STEMS + r")\w*|improv\w*\s+(?:over|on|upon))\s+"
    r"(?:the\s+)?(?P<b>[^,;:()]{1,50}?)\s+by\s+(?:up\s+to\s+|about\s+|~|(?:an\s+)?(?:absolute|relative)\s+)?$",
    re.IGNORECASE,
)


_ABOVE = re.compile(r"\s*(?:[\w-]+\s+)?(?:over|above|ahead\s+of)\b", re.IGNORECASE)
_BELOW = re.compile(r"\s*(?:[\w-]+\s+)?(?:below|behind)\b", re.IGNORECASE)
# The verb whose 'by' takes the number states the direction, whatever its object names:
# 'reducing KV cache memory by up to 75% and improving ...' is a decrease. 'improve' is left
# out: an improved latency is a lower one.
_GOVERNING_VERB = AsciiFirst(
    r"\b(?:(?P<decrease>reduc|decreas|lower|cut|shrink|shrank|narrow|trim|slash|compress|sav|drop|declin|fall|fell)|"
    r"(?P<increase>increas|rais|boost|accelerat|lift|doubl|grow|grew|expand))\w*"
    r"(?:\s+[^\s,;:\d]+){0,6}?\s+by\s*" + QUALIFIER + r"(?:(?:a\s+)?factor\s+of\s+" + QUALIFIER + r")?$",
    re.IGNORECASE,
)


_LABEL_GAP = re.compile(r"\s*[=:(]?\s*$")


def _labelled(text: str, floor: int, q: Quantity) -> bool:
    """An unsigned value written right after a metric's name ('(perplexity 5.03, ...)', 'BLEU:
    34.7', 'the best majority-vote score (42/50)') is that metric's value, whatever change
    words the clause holds."""
    if q.sign or q.unit in ("pp", "x") or not text[max(0, q.start - 3) : q.start].rstrip(" =:").strip():
        return False
    gap = _LABEL_GAP.search(text, max(floor, q.start - 4), q.start)
    phrase = phrase_before(text, floor, gap.start()) if gap else None
    if not phrase or phrase.split()[-1].lower() in CHANGE_NOUNS | {"gap", "gaps"}:
        return False
    return names_metric(phrase)


# A change verb whose 'to' takes the number ('further reduces PER to 17.6%', 'climbs to 61%'),
# and the word before it (what changes, when it is the verb's subject).
_NEW_LEVEL = AsciiFirst(
    r"(?P<before>[\w-]+)\s+(?:\w+ly\s+)?(?:" + RISE_FALL_STEMS + r"|reduc|lower|cut|rais|boost|climb|shrink|shrank)"
    + VERB_ENDING + r"\b(?:(?!\b(?:by|up)\b)[^,;:()\d]){0,60}?(?<!\bup)\s+to\s+"
    + QUALIFIER + r"$",
    re.IGNORECASE,
)


_TO_BEFORE = re.compile(r"\bto\s+" + QUALIFIER + r"$", re.IGNORECASE)


def _new_level(text: str, floor: int, q: Quantity) -> bool:
    """A change verb with 'to N' gives the level reached, a score (as the B of 'from A to B');
    a signed value, a multiple, a point difference, or the level a change itself reaches ('this
    improvement rises to 4%') stays a change."""
    if q.sign or q.unit in ("x", "pp") or not _TO_BEFORE.search(text, max(floor, q.start - 40), q.start):
        return False
    found = _NEW_LEVEL.search(text, max(floor, q.start - 100), q.start)
    return bool(found) and found.group("before").lower() not in CHANGE_NOUNS | {"gap", "gaps"}


@dataclass(frozen=True)
class ChangeSite:
    """Where a number stands, which is all a kind or direction construction reads: the text, the
    number, and its clause."""

    text: str
    q: Quantity
    clause: tuple[int, int]

    @property
    def before_text(self) -> str:
        return self.text[self.clause[0] : self.q.start]


#: A kind construction's answer: 'score' or 'change', or None when it says neither.
KindConstruction = Callable[[ChangeSite], "str | None"]
#: A direction construction's answer for a change: 'increase' or 'decrease', or None.
DirectionConstruction = Callable[[ChangeSite], "str | None"]


def _before_and_after(site: ChangeSite) -> str | None:
    return "score" if site.q.form in ("before", "after") else None


def _labelled_value(site: ChangeSite) -> str | None:
    return "score" if _labelled(site.text, site.clause[0], site.q) else None


def _level_reached(site: ChangeSite) -> str | None:
    return "score" if _new_level(site.text, site.clause[0], site.q) else None


def _signed(site: ChangeSite) -> str | None:
    q = site.q
    return "change" if q.sign == "+" or (q.sign == "-" and q.unit in ("%", "pp", "points")) else None


def _difference_unit(site: ChangeSite) -> str | None:
    return "change" if site.q.unit in ("pp", "x") else None


def _cue_before(site: ChangeSite) -> str | None:
    return "change" if CHANGE_CUE.search(site.before_text[-40:]) else None


def _change_word_after(site: ChangeSite) -> str | None:
    return "change" if _CHANGE_AFTER.match(site.text, site.q.end, site.clause[1]) else None


def _change_word_in_the_phrase_before(site: ChangeSite) -> str | None:
    return "change" if _CHANGE_BEFORE.search(_PHRASE_BREAK.split(site.before_text[-60:])[-1]) else None


#: Whether a number is a score or a change: the constructions :func:`kind_of` tries, in order.
KIND: Table[KindConstruction] = Table(
    "kind",
    "the first that says wins, and a number none speaks for is a score: what makes a number a "
    "level reached (the two sides of 'from A to B', a labelled value, 'reduces X to N') comes "
    "first, whatever change words its clause holds; then the number's own sign and unit, then the "
    "cues around it. Once the metric is read, a gap or ratio it names may still change the kind "
    "(the 'kind once the metric is read' table)",
    (
        Construction(
            'from-a-to-b',
            _before_and_after,
            "'improves accuracy from 82.1% to 91.4%': both sides are scores, A the baseline's and B the subject's",
            (
                Example('We propose FooNet, a sparse decoder. FooNet improves accuracy from 82.1% to 91.4% on GSM8K.', 'score', 'kind'),
            ),
        ),
        Construction(
            'labelled-value',
            _labelled_value,
            "'(perplexity 5.03)', 'BLEU: 34.7': an unsigned value right after a metric's name is that metric's value",
            (
                Example('We propose FooNet, a sparse decoder. FooNet improves on BarNet (perplexity 5.03) at 8 bits.', 'score', 'kind'),
            ),
        ),
        Construction(
            'level-reached',
            _level_reached,
            "'further reduces PER to 17.6%', 'climbs to 61%': the level a change verb reaches is a score",
            (
                Example('We propose FooNet, a sparse decoder. FooNet further reduces the error rate to 17.6% by pruning.', 'score', 'kind'),
            ),
        ),
        Construction(
            'signed',
            _signed,
            "'+2.1', '-3.4%': a plus sign, or a minus on a percentage or points, writes a change",
            (
                Example('We propose FooNet, a sparse decoder. FooNet reaches 85.3% accuracy (+2.1).', 'change', 'kind', claim=1),
            ),
        ),
        Construction(
            'difference-unit',
            _difference_unit,
            "percentage points and multipliers measure a difference or a ratio to something",
            (
                Example('We propose FooNet, a sparse decoder. FooNet reaches 2.1 pp on MMLU.', 'change', 'kind'),
            ),
        ),
        Construction(
            'cue-before',
            _cue_before,
            "'by 3.1%', 'a margin of 2', 'removing 67.1M parameters': a word of change right before the number",
            (
                Example('We propose FooNet, a sparse decoder. FooNet beats BarNet by 3.1% on MMLU.', 'change', 'kind'),
            ),
        ),
        Construction(
            'change-word-after',
            _change_word_after,
            "'40% fewer parameters', '3.1-point accuracy drop', '2 points over M': a comparative or change noun after the number",
            (
                Example('We propose FooNet, a sparse decoder. FooNet needs 40% fewer parameters.', 'change', 'kind'),
            ),
        ),
        Construction(
            'change-word-in-the-phrase-before',
            _change_word_in_the_phrase_before,
            "'gains on MMLU of about 3.1%': a change word up to five words before, in the number's own phrase",
            (
                Example('We propose FooNet, a sparse decoder. FooNet yields gains on MMLU of about 3.1%.', 'change', 'kind'),
            ),
        ),
    ),
)


def _sign(site: ChangeSite) -> str | None:
    return {"-": "decrease", "+": "increase"}.get(site.q.sign or "")


def _governing_verb(site: ChangeSite) -> str | None:
    text, q, clause = site.text, site.q, site.clause
    governing = _GOVERNING_VERB.search(text, max(clause[0], q.start - 90), q.start)
    if not governing:
        return None
    return "decrease" if governing.group("decrease") else "increase"


def _nearest_cue(site: ChangeSite) -> str | None:
    text, q, clause = site.text, site.q, site.clause
    local_start = max(clause[0], q.start - 50)
    local = text[local_start : min(clause[1], q.end + 40)]
    anchor = q.start - local_start
    cues = [(abs(m.start() - anchor), "decrease") for m in DECREASE.finditer(local)]
    cues += [(abs(m.start() - anchor), "increase") for m in INCREASE.finditer(local)]
    return min(cues)[1] if cues else None


def _above_or_speed(site: ChangeSite) -> str | None:
    """'2.1 points over LLaMA-2', 'speeds up decoding by 2.4x'."""
    text, q, clause = site.text, site.q, site.clause
    local = text[max(clause[0], q.start - 50) : min(clause[1], q.end + 40)]
    return "increase" if _ABOVE.match(text, q.end, clause[1]) or SPEED.search(local) else None


def _below(site: ChangeSite) -> str | None:
    """'2.1 points below GPT-4o'."""
    return "decrease" if _BELOW.match(site.text, site.q.end, site.clause[1]) else None


#: Which way a change goes: the constructions :func:`kind_of` tries for a change, in order.
DIRECTION: Table[DirectionConstruction] = Table(
    "direction",
    "the first that says wins, and a change none speaks for has no direction: a written sign "
    "first, then the verb whose 'by' takes the number (whatever its object names), then the change "
    "word nearest the number, and last what it is ahead of or behind. Once the results are aligned, "
    "the 'direction once aligned' table may still turn it (an improvement of a lower-is-better "
    "metric is a decrease)",
    (
        Construction(
            'sign',
            _sign,
            "'-3.4%' is a decrease and '+2.1' an increase, whatever the words say, even a verb of the other way",
            (
                Example('We propose FooNet, a sparse decoder. FooNet lowers the error by +0.4 points.', 'increase', 'direction'),
            ),
        ),
        Construction(
            'verb-of-by',
            _governing_verb,
            "'reducing KV cache memory by up to 75% and improving ...': the verb whose 'by' takes the number gives the direction",
            (
                Example('We propose FooNet, a sparse decoder. FooNet cuts the memory of its higher layers by 75%.', 'decrease', 'direction'),
            ),
        ),
        Construction(
            'nearest-change-word',
            _nearest_cue,
            "the change word nearest the number, before or after it, in its clause",
            (
                Example('We propose FooNet, a sparse decoder. FooNet needs 40% fewer parameters.', 'decrease', 'direction'),
                Example('We propose FooNet, a sparse decoder. FooNet reaches a 3.1% gain on MMLU.', 'increase', 'direction'),
            ),
        ),
        Construction(
            'ahead-or-faster',
            _above_or_speed,
            "'2.1 points over LLaMA-2', 'speeds up decoding by 2.4x': ahead of another, or faster, is an increase",
            (
                Example('We propose FooNet, a sparse decoder. FooNet is 2.1 points over BarNet on MMLU.', 'increase', 'direction'),
            ),
        ),
        Construction(
            'behind',
            _below,
            "'2.1 points below GPT-4o': behind another is a decrease",
            (
                Example('We propose FooNet, a sparse decoder. FooNet is 2.1 points below BarNet on MMLU.', 'decrease', 'direction'),
            ),
        ),
    ),
)


def _first(table: Table[Callable[[S], A | None]], site: S) -> A | None:
    """The answer of the first construction of ``table`` that gives one."""
    return next((found for c in table.entries if (found := c.run(site)) is not None), None)


def kind_of(doc: Document, q: Quantity, clause: tuple[int, int]) -> tuple[str, str | None]:
    """'score' or 'change' (the constructions of :data:`KIND`), and for a change its direction
    (those of :data:`DIRECTION`)."""
    site = ChangeSite(doc.text, q, clause)
    if _first(KIND, site) != "change":
        return "score", None
    return "change", _first(DIRECTION, site)


@dataclass(frozen=True)
class MeasuredSite:
    """Where a number stands once its metric is read, and what it has been read as so far: all
    a construction that needs the metric reads."""

    text: str
    q: Quantity
    clause: tuple[int, int]
    sentence: tuple[int, int]
    metric: str | None
    kind: str
    direction: str | None


#: A construction run once the metric is read: the number's new (kind, direction), or None when
#: it says nothing.
MeasuredConstruction = Callable[[MeasuredSite], "tuple[str, str | None] | None"]


_GAP_OF = re.compile(r"(?:[\w-]+\s+)?(?:gap|ratio)s?\s*(?:of|=|:)\s*" + QUALIFIER + r"$", re.IGNORECASE)


def _gap_words(site: MeasuredSite) -> list[str] | None:
    """The words of the gap or ratio the number is the value of ('perplexity gap', 'detectability
    gap'), up to its head; None when it is none, or when a sign or a change word before it says
    it changes ('narrows the gap by 16%')."""
    text, q, clause, metric = site.text, site.q, site.clause, site.metric
    window = text[max(clause[0], q.start - 60) : q.start].lower()
    if not any(w in window or w in (metric or "").lower() for w in ("gap", "ratio")):
        return None
    gap_of = _GAP_OF.search(text, max(clause[0], q.start - 60), q.start)
    words = (gap_of.group() if gap_of else metric or "").lower().split()
    words = words[: next((i + 1 for i, w in enumerate(words) if w.rstrip("s") in ("gap", "ratio")), len(words))]
    head = words[-1].rstrip("s") if words else ""
    if head not in ("gap", "ratio") or q.sign or CHANGE_CUE.search(text, max(clause[0], q.start - 40), q.start):
        return None
    return words


def _in_a_metric(words: list[str]) -> bool:
    return len(words) == 1 or names_metric(words[-2])


def _gap_in_a_metric(site: MeasuredSite) -> tuple[str, str | None] | None:
    words = _gap_words(site)
    return ("change", site.direction) if words and words[-1].rstrip("s") == "gap" and _in_a_metric(words) else None


def _gap_or_ratio_of_a_property(site: MeasuredSite) -> tuple[str, str | None] | None:
    words = _gap_words(site)
    return ("score", None) if words and not _in_a_metric(words) else None


#: What a gap or ratio the metric names makes of the number's kind: the constructions
#: :func:`kind_of_gap` tries, in order.
MEASURED_KIND: Table[MeasuredConstruction] = Table(
    "kind once the metric is read",
    "run once the metric is read (it reads the metric), before the results of a sentence are "
    "aligned; the first that answers replaces what the kind and direction tables gave, none answering "
    "keeps it, and a number with a sign or a change word before it keeps it too: a gap in a metric "
    "is a difference from a baseline, a gap or ratio of a property the measured quantity itself",
    (
        Construction(
            'gap-in-a-metric',
            _gap_in_a_metric,
            "'reduces the accuracy gap ... to 0.54%': a gap named by the metric it is a gap in is a difference from a baseline, a change, even as the level a change reaches",
            (
                Example('We propose FooNet, a sparse decoder. FooNet reduces the accuracy gap between the pruned and the dense model to 0.54%.', 'change', 'kind'),
            ),
        ),
        Construction(
            'gap-or-ratio-of-a-property',
            _gap_or_ratio_of_a_property,
            "'a perplexity jump ratio of 2.39x': a gap or ratio named by a property is itself the measured quantity, a score",
            (
                Example('We propose FooNet, a sparse decoder. FooNet has a perplexity jump ratio of 2.39x on MMLU.', 'score', 'kind'),
            ),
        ),
    ),
)


def kind_of_gap(
    text: str,
    q: Quantity,
    spans: tuple[tuple[int, int], tuple[int, int]],
    metric: str | None,
    kind: tuple[str, str | None],
) -> tuple[str, str | None]:
    """(kind, direction) once the metric is read (``spans``: the number's clause and sentence):
    the first construction of :data:`MEASURED_KIND` that answers, else ``kind`` as read."""
    return _first(MEASURED_KIND, MeasuredSite(text, q, *spans, metric, *kind)) or kind


_IMPROVES = AsciiFirst(r"\b(?:improv\w*|gains?|better|enhanc\w*)\b", re.IGNORECASE)
_RAISES = AsciiFirst(r"\b(?:increas\w*|rais\w*|higher|grow\w*|grew|ris(?:e|es|ing)|rose|larger|greater)\b", re.IGNORECASE)


def _improved_lower_is_better(site: MeasuredSite) -> tuple[str, str | None] | None:
    """'improves test perplexity ..., achieving up to 25.4% gains': an improvement of a
    lower-is-better metric is a decrease of it, unless the sentence says the quantity rises."""
    text, q, sentence, metric = site.text, site.q, site.sentence, site.metric
    if site.direction != "increase" or not metric or normalize_metric(metric).direction != "lower":
        return None
    window = text[sentence[0] : min(sentence[1], q.end + 30)]
    return (site.kind, "decrease") if _IMPROVES.search(window) and not _RAISES.search(window) else None


#: What happens to the measured quantity, once the results of a sentence are aligned: the
#: constructions :func:`improved_direction` tries, in order.
ALIGNED_DIRECTION: Table[MeasuredConstruction] = Table(
    "direction once aligned",
    "run last, on each result as the sentence's results were aligned (a list shares its metric), "
    "since it reads the final metric; the first that answers replaces the direction, none answering "
    "keeps it: the direction says what happens to the measured quantity, not whether it got better",
    (
        Construction(
            'improvement-of-a-lower-is-better-metric',
            _improved_lower_is_better,
            "'improves test perplexity ..., achieving up to 25.4% gains': a better perplexity is a lower one",
            (
                Example('We propose FooNet, a sparse decoder. FooNet improves test perplexity on WikiText-103, achieving up to 25.4% gains.', 'decrease', 'direction'),
            ),
        ),
    ),
)


def improved_direction(
    text: str,
    q: Quantity,
    spans: tuple[tuple[int, int], tuple[int, int]],
    metric: str | None,
    kind: tuple[str, str | None],
) -> str | None:
    """The direction of a result as aligned (``spans``: its clause and sentence): the first
    construction of :data:`ALIGNED_DIRECTION` that answers, else the direction as read."""
    return (_first(ALIGNED_DIRECTION, MeasuredSite(text, q, *spans, metric, *kind)) or kind)[1]


def baseline_of(text: str, q: Quantity, clause: tuple[int, int]) -> str | None:
    """What a change is relative to: named after the number in its clause ('over M', 'than M'),
    else before it ('surpassing M by 1.77%')."""
    after = _BASELINE_AFTER.search(text, q.end, clause[1])
    if after and after.start() - q.end < 60:
        return _clean_phrase(after.group("b"))
    before = _BASELINE_BEFORE.search(text[clause[0] : q.start])
    if before:
        # 'surpassing TEAL by 1.77% and CATS by 17.14%': the last one named before this 'by'.
        return _clean_phrase(re.split(r"\s+by\s+[^,;]*?\s+and\s+", before.group("b"))[-1])
    return None


def _clean_phrase(phrase: str) -> str | None:
    phrase = re.sub(r"^(?:the|a|an|its|their|our)\s+", "", phrase.strip().rstrip(".!?").rstrip(), flags=re.IGNORECASE)
    words = phrase.split()
    if not words or len(words) > 7 or re.match(r"[\d.%]", phrase):
        return None
    return phrase


# 'from A to B for M': the number B ends, then the name A and B were measured for.
_TO_FOR = re.compile(r"\s*to\s+" + QUALIFIER + r"[\d.,]+\s*(?:\\?%|[a-zA-Z]{1,3}\b)?\s+for\s+(?:the\s+)?", re.IGNORECASE)
# What a sentence compares its result with before 'from A to B' ('improvements over the state of
# the art, increasing accuracy from ...', 'Compared to approaches like MosaicFusion, ...').
_COMPARED_WITH = re.compile(
    r"\b(?:over|compared\s+(?:to|with)|relative\s+to|than)\s+(?:the\s+|a\s+|an\s+)?"
    r"(?P<b>[^,;:()\d][^,;:()]{0,60}?)(?=\s*[,;:(]|\s+(?:on|in|at|by|while|when|which|where|and|to|is|are)\b)",
    re.IGNORECASE,
)
_EXAMPLE = re.compile(r"\s+(?:like|such\s+as|including)\s+", re.IGNORECASE)
# The record a sentence improves from A to B ('we improve the state - of - the - art ( SoTA )
# results of bpc from 1.06 to 0.99', 'improving the best published NLL from 3.83 to 3.77'): A is
# that record's.
_IMPROVED_RECORD = re.compile(
    r"\bimprov\w*\s+(?:(?:on|upon)\s+)?(?:the\s+)?"
    r"(?P<b>(?:current\s+|previous\s+)?(?:state\s-\sof\s-\sthe\s-\sart|"
    r"state-of-the-art|state\s+of\s+the\s+art|best\s+published|best\s+reported|previous\s+best|SoTA)"
    r"(?:\s*\(\s*SoTA\s*\))?)(?=\s)[^.;:\d]{0,80}\bfrom\s",
    re.IGNORECASE,
)


# A baseline the sentence names before 'from A to B': 'Using 26% of the budget of baseline models,
# we reduce perplexity from 25.7 to 21.9'.
_BASELINE_NAMED = re.compile(
    r"\b(?P<b>(?:(?!(?:of|the|a|an|our|their|its|to|for|on|in|over|than|with)\b)[\w-]+\s+)?baselines?"
    r"(?:\s+models?|\s+methods?|\s+systems?)?)\b",
    re.IGNORECASE,
)


def starting_condition(text: str, q: Quantity, sentence: tuple[int, int], subjects: Subjects) -> str | None:
    """Whose the A of 'from A to B' is when the sentence names the starting point: the system
    both are measured for ('from 55.3% to 80.5% for CaffeNet'), the model whose measure changes
    ('improves the accuracy of Qwen-2.5 ..., increasing it from 19.0% to 35.5%'), or what the
    result is compared with ('improvements over the state of the art, increasing accuracy from
    71.2% to 74.4%')."""
    named = (*subjects.methods, *subjects.models)
    after = _TO_FOR.match(text, q.end, sentence[1])
    if after:
        for m in named:
            if m.start == after.end():
                return m.name
        name = name_after(text, after.end(), sentence[1])
        if name and coined(name):
            return name
    for m in subjects.models:
        if sentence[0] <= m.start < q.start and text[max(0, m.start - 4) : m.start].lower().rstrip() == " of":
            return m.name
    compared = list(_COMPARED_WITH.finditer(text, sentence[0], q.start))
    if compared:
        return _clean_phrase(_EXAMPLE.split(compared[-1].group("b"))[-1])
    record = _IMPROVED_RECORD.search(text, sentence[0], q.start)
    if record:
        return record.group("b")
    named = list(_BASELINE_NAMED.finditer(text, sentence[0], q.start))
    return named[-1].group("b") if named else None  # 'with 26% of the budget of baseline models, ...'
