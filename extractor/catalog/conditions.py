"""The evaluation conditions that split a leaderboard block, read from a setting or a name.

The list is data (``extractor/data/conditions.json``), as a rule-based entity matcher keeps its
patterns: each condition has a name, what it means, its patterns with the canonical value each
gives, what an unstated condition is, and examples (every one checked by the tests). This module
is the one pure parser of that list. What it does not read stays in the text it hands back: a
configuration ('single model', 'with extra data'), a training note or a size describes the entry,
never the leaderboard, and never splits one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

from extractor.text.languages import LANGUAGES, language_pairs

# The parts of a value template: '{n|map}' is group n through the filter 'map'.
_FIELD = re.compile(r"\{(?P<group>\w+)(?:\|(?P<filter>\w+))?\}")
# Words that open a subset's name without naming it ('on the hard subset', 'averaged over all tasks').
_OPENING = frozenset(
    """
    a an the on of in over across for and or all each every both these those its their our other several many most
    average averaged mean overall standard official default original common usual same different various some
    independent
    """.split()
)
_LANGUAGE_NAMES = "|".join(sorted(LANGUAGES, key=len, reverse=True))
# One language named alone ('the German subset'), not a training set's ('trained on German data').
_ONE_LANGUAGE = re.compile(
    rf"(?<![\w-])(?<!trained on )(?<!pretrained on )(?<!from )(?P<lang>{_LANGUAGE_NAMES})(?![\w-])"
    r"(?!\s+(?:data|corpus|corpora|texts?|training|pre-?training|tokens|documents|web|speakers))",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Pattern:
    regex: re.Pattern[str]
    value: str  # template of the canonical value
    also: tuple[tuple[str, str], ...] = ()  # values this match gives other conditions ('test-other': subset 'other')
    not_after: re.Pattern[str] | None = None  # as the condition's, for this pattern alone ('drawn from the training set')


@dataclass(frozen=True)
class Condition:
    """One entry of the list."""

    name: str
    about: str
    patterns: tuple[Pattern, ...]
    default: str | None = None  # what an unstated condition is ('test'); None: unstated is its own
    not_after: re.Pattern[str] | None = None  # what the words before a match, in its clause, must not be
    many: bool = False  # several values are read together ('section 23', 'unseen')
    map: tuple[tuple[str, str], ...] = ()
    reader: str | None = None  # a reader in code instead of patterns ('languages')
    examples: tuple[dict, ...] = ()
    measures: tuple[str, ...] = ()  # the measures a benchmark's usual value of it is assumed for; () every one
    entry_for: tuple[str, ...] = ()  # the measures a stated value of it is the entry's for, not a split

    def assumed_for(self, measure: str | None) -> bool:
        """Whether a benchmark's usual value of this condition holds for a score in ``measure``
        (ImageNet's class-conditional generation holds for an FID, not for a classifier's accuracy)."""
        return not self.measures or measure in self.measures

    def splits(self, measure: str | None) -> bool:
        """Whether a stated value splits a board of ``measure`` (a classifier's test resolution is
        the entry's: ImageNet top-1 at 384x384 is on the one ImageNet board; an FID's is not)."""
        return measure not in self.entry_for


@cache
def conditions() -> tuple[Condition, ...]:
    """The list, in the order it is read."""
    data = json.loads(resources.files("extractor.data").joinpath("conditions.json").read_text(encoding="utf-8"))
    return tuple(
        Condition(
            name=c["name"],
            about=c["about"],
            patterns=tuple(
                Pattern(
                    re.compile(p["regex"], re.IGNORECASE), p["value"], tuple(p.get("also", {}).items()),
                    re.compile(p["not_after"], re.IGNORECASE) if p.get("not_after") else None,
                )
                for p in c.get("patterns", ())
            ),
            default=c.get("default"),
            not_after=re.compile(c["not_after"], re.IGNORECASE) if c.get("not_after") else None,
            many=bool(c.get("many", False)),
            map=tuple(c.get("map", {}).items()),
            reader=c.get("reader"),
            examples=tuple(c.get("examples", ())),
            measures=tuple(c.get("measures", ())),
            entry_for=tuple(c.get("entry_for", ())),
        )
        for c in data["conditions"]
    )


@cache
def names() -> tuple[str, ...]:
    """The conditions' names, in the order they are read (and keyed)."""
    return tuple(c.name for c in conditions())


@cache
def by_name() -> dict[str, Condition]:
    return {c.name: c for c in conditions()}


def _tokens(groups: dict[str, str | None], group: str, condition: Condition) -> str:
    """'32K', '32k', '32768' and '32000' tokens are all 32K ('128000' is 128K)."""
    number, scale = groups[group] or "", groups.get("scale")
    if scale:
        return f"{float(number):g}{scale.upper()}"
    value = float(number)
    for step, name in ((1e6, "M"), (2**20, "M"), (1e3, "K"), (2**10, "K")):
        if value >= step and value % step == 0:
            return f"{value / step:g}{name}"
    return f"{value:g}"


def _phrase(groups: dict[str, str | None], group: str, condition: Condition) -> str:
    """A subset's words, lower case, without the words that open it without naming it and
    without numbers ('on 8 reasoning' -> 'reasoning'); empty when nothing names it."""
    words = " ".join((groups[group] or "").lower().replace(" - ", "-").split()).split()
    while words and (words[0] in _OPENING or words[0].isdigit()):
        words = words[1:]
    return " ".join(words)


def _lower(groups: dict[str, str | None], group: str, condition: Condition) -> str:
    return " ".join((groups[group] or "").lower().replace(" - ", "-").split())


def _map(groups: dict[str, str | None], group: str, condition: Condition) -> str:
    word = _lower(groups, group, condition)
    return dict(condition.map).get(word, word)


_FILTERS: dict[str, Callable[[dict[str, str | None], str, Condition], str]] = {
    "count": lambda groups, group, condition: (groups[group] or "").replace(",", ""),
    "lower": _lower,
    "upper": lambda groups, group, condition: (groups[group] or "").upper(),
    "map": _map,
    "tokens": _tokens,
    "phrase": _phrase,
    "sum": lambda groups, group, condition: str(sum(map(int, re.findall(r"\d+", groups[group])))) if groups[group] else "",  # '10+2' -> '12'
}


def _fill(template: str, groups: dict[str, str | None], condition: Condition) -> str | None:
    """The template with the match's groups; None when a filled part comes out empty."""
    empty = False

    def one(m: re.Match[str]) -> str:
        nonlocal empty
        text = _FILTERS[m.group("filter")](groups, m.group("group"), condition) if m.group("filter") else groups[m.group("group")] or ""
        empty = empty or not text.strip()
        return text

    filled = _FIELD.sub(one, template)
    return None if empty else filled


def _blank(text: str, start: int, end: int) -> str:
    """The text with a read part taken out (spaces in its place, so offsets elsewhere hold)."""
    return text[:start] + " " * (end - start) + text[end:]


def _languages(text: str) -> tuple[str | None, str]:
    """A language pair ('en-de'), else the one language named alone; and the text without it."""
    if pairs := language_pairs(text):
        return pairs[0].pair, _blank(text, pairs[0].start, pairs[0].end)
    found = list(_ONE_LANGUAGE.finditer(text))
    if len({m.group("lang").lower() for m in found}) != 1:
        return None, text
    for m in found:
        text = _blank(text, m.start(), m.end())
    return LANGUAGES[found[0].group("lang").lower()], text


_READERS: dict[str, Callable[[str], tuple[str | None, str]]] = {"languages": _languages}


@dataclass(frozen=True)
class Read:
    """What a text says about the conditions: each condition read (name, canonical value), in
    the list's order, and the text with those words taken out."""

    values: tuple[tuple[str, str], ...]
    rest: str

    def get(self, name: str) -> str | None:
        return dict(self.values).get(name)


def _clause_before(text: str, at: int) -> str:
    """The words before ``at`` in its clause (since the last comma or semicolon)."""
    before = text[:at]
    return before[max(before.rfind(","), before.rfind(";")) + 1 :]


def phrase_regex(phrase: str) -> str:
    """The pattern of a phrase as written in any spacing or hyphenation (its words joined by
    spaces, '_', '-' or nothing): a reviewer's condition phrase, a registry's name of a part."""
    return r"[\s_-]*".join(map(re.escape, re.findall(r"\w+", phrase)))


def _phrase_pattern(phrase: str) -> re.Pattern[str]:
    """A reviewer's condition phrase as written in any spacing or hyphenation."""
    return re.compile(r"(?<!\w)" + phrase_regex(phrase) + r"(?!\w)", re.IGNORECASE)


@lru_cache(maxsize=16384)
def read_conditions(text: str | None, phrases: frozenset[str] = frozenset(), only: frozenset[str] | None = None) -> Read:
    """The conditions ``text`` states, each as its canonical value, and what is left of it.

    ``phrases`` are words reviewers said are conditions ('predicate classification'): each one
    written in what is left is read as a subset. ``only`` limits the conditions read (a name
    writes some of them: 'test F1', '5-shot accuracy')."""
    if not text or not text.strip():
        return Read((), text or "")
    rest = text
    found: dict[str, list[str]] = {}
    for condition in conditions():
        if only is not None and condition.name not in only:
            continue
        if condition.reader:
            value, rest = _READERS[condition.reader](rest)
            if value:
                found.setdefault(condition.name, []).append(value)
            continue
        for pattern in condition.patterns:
            for m in list(pattern.regex.finditer(rest)):
                before = _clause_before(rest, m.start())
                if any(after and after.search(before) for after in (condition.not_after, pattern.not_after)):
                    continue
                groups = m.groupdict()
                value = _fill(pattern.value, groups, condition)
                if value is None:
                    continue
                found.setdefault(condition.name, []).append(value)
                for other, template in pattern.also:
                    if (also := _fill(template, groups, by_name()[other])) is not None:
                        found.setdefault(other, []).append(also)
                rest = _blank(rest, m.start(), m.end())
                if not condition.many:
                    break
            if condition.name in found and not condition.many:
                break
    for phrase in sorted(phrases):
        if (only is None or "subset" in only) and (m := _phrase_pattern(phrase).search(rest)):
            found.setdefault("subset", []).append(" ".join(re.findall(r"\w+", phrase.lower())))
            rest = _blank(rest, m.start(), m.end())
    values = tuple(
        (name, " / ".join(sorted(set(found[name]))) if by_name()[name].many else found[name][0])
        for name in names()
        if name in found
    )
    return Read(values, rest)


# Words that say nothing alone: what a reading leaves of 'at 512 resolution' is no configuration.
_FILLERS = frozenset({"at", "on", "in", "with", "using", "of", "the", "a", "an", "and", "for", "under", "via", "dataset", "datasets"})


def leftover(text: str) -> str:
    """The words a reading leaves, as a row shows them: punctuation runs and spacing folded
    ('single - model ;' -> 'single-model'), a quote mark its words were read out of dropped;
    none when they are only fillers ('at')."""
    words = [w for w in re.sub(r"\s*-\s*", "-", re.sub(r"[,;:()\[\]]+", " ", text)).split() if w.strip("\"'\u201c\u201d")]
    return "" if all(w.lower() in _FILLERS for w in words) else " ".join(words).strip(" -.")


def phrase_key(phrase: str) -> str:
    """One key for a condition phrase however it is spaced or hyphenated."""
    return " ".join(re.findall(r"\w+", phrase.lower()))


def examples() -> Iterable[tuple[Condition, dict]]:
    """Every example of the list, with its condition (for the tests and the docs)."""
    for condition in conditions():
        for example in condition.examples:
            yield condition, example
