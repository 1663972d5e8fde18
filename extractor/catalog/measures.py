"""The measure a number is in, when its metric's name alone does not say: a metric a paper
writes as an alternation, and a rank cut ('top-1') that is an accuracy or an error.

Papers that report on several benchmarks at once name the measures together: "we improve the
results of bpc / perplexity from 1.06 to 0.99 on enwik8, ..., from 20.5 to 18.3 on WikiText-103"
means bits per character on the character-level sets and perplexity on the word-level ones. An
extraction that takes one of the two for every number puts text8's 1.08 under perplexity. The
registry knows which measures a benchmark is scored in (``scored_in`` of
``extractor/data/benchmarks.json``); when the claim's own evidence writes its metric and one of
those as one alternation ('X / Y', 'X or Y'), the benchmark's measure is the one meant.

Without such an alternation the metric stays as written: text8 has word-level perplexities too
(End-To-End Memory Networks), and "Penn Treebank" is written for its character-level set, so a
measure the registry does not list is no error by itself.

A rank cut alone ('top-1', 'top-5') names no measure: the words around it do ('top-1 and top-5
error rates'). It is never taken for an accuracy by default, so an error rate is never ranked
in an accuracy block, the wrong way up.

A generic measure's name ('AP') on a setting that names the task a number is measured on takes
that task's measure: 'AP' for instance segmentation is mask AP, never the detection's box AP it
is without a task. An abbreviation several measures share ('R1': ROUGE-1 or rank-1) is the one
its benchmark's task uses, and unknown on any other benchmark, never the wrong one. Pure
functions over the registry.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from extractor.catalog.registry import benchmark_entry, metric_entry, readings
from extractor.text.numbers import find_numbers

# Words (hyphens and apostrophes inside), and '/' on its own: 'bits-per-character / perplexity'.
_TOKEN = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*|/")
_SIDE = 4  # the longest metric name tried on either side of the joining word, in words


def _metric_name(words: list[str]) -> str | None:
    found = metric_entry(" ".join(words)) if words else None
    return found[1] if found else None


def alternatives(evidence: str) -> Iterator[tuple[set[str], set[str]]]:
    """For each '/' or 'or' in the evidence, the registry metrics named just before it and just
    after it ('bpc / perplexity' -> ({'bits per character'}, {'perplexity'}))."""
    tokens = _TOKEN.findall(evidence)
    for i, token in enumerate(tokens):
        if token != "/" and token.lower() != "or":
            continue
        before = {_metric_name(tokens[j:i]) for j in range(max(0, i - _SIDE), i)}
        after = {_metric_name(tokens[i + 1 : k]) for k in range(i + 2, min(len(tokens), i + 1 + _SIDE) + 1)}
        yield before - {None}, after - {None}


@lru_cache(maxsize=1024)
def scored_measure(benchmark: str | None, metric: str | None, evidence: str) -> str | None:
    """The measure ``benchmark`` is scored in that the evidence writes as the alternative of
    ``metric`` (both canonical names), when ``metric`` is not one the benchmark is scored in;
    else None: the metric as the claim gives it stands."""
    entry = benchmark_entry(benchmark) if benchmark and metric else None
    if entry is None or not entry.scored_in or metric in entry.scored_in:
        return None
    for before, after in alternatives(evidence):
        for mine, other in ((before, after), (after, before)):
            if metric in mine and (meant := [m for m in entry.scored_in if m in other]):
                return meant[0]
    return None


# A rank cut alone is no measure: 'top-1' is an accuracy or an error by the words around it.
_CUT = re.compile(r"^\s*top[\s_-]*(?P<k>\d+)\s*$", re.IGNORECASE)
# Two cuts of one measure ('top-1 and top-5 error rates'): the claim's number says which cut it is.
_CUTS = re.compile(
    r"^\s*top[\s_-]*(?P<a>\d+)\s*(?:and|/|,|&)\s*top[\s_-]*(?P<b>\d+)\s+(?P<measure>.+?)\s*$", re.IGNORECASE
)
_CUT_IN_TEXT = re.compile(r"\btop[\s_-]*(?P<k>\d+)\b", re.IGNORECASE)
_MEASURE_WORD = re.compile(r"^(?:(?P<error>err(?:or)?s?|error-rates?)|(?P<accuracy>acc(?:uracy|uracies)?))$", re.IGNORECASE)
_STOP = re.compile(r"^(?:[\d.,%]+|[.;:])$")  # a number or a sentence's end: the cut's words end there
_AFTER, _BEFORE = 6, 3  # words looked at after and before a cut for its measure


def _measure_near(tokens: list[str], at: int) -> str | None:
    """'error' or 'accuracy': the first measure word after the cut at ``tokens[at]`` (before a
    number or a sentence's end), else the nearest one just before it."""
    for token in tokens[at + 1 : at + 1 + _AFTER]:
        if _STOP.match(token):
            break
        if m := _MEASURE_WORD.match(token):
            return m.lastgroup
    for token in reversed(tokens[max(0, at - _BEFORE) : at]):
        if m := _MEASURE_WORD.match(token):
            return m.lastgroup
    return None


def _measure_of(words: str) -> str | None:
    found = {m.lastgroup for w in re.findall(r"[\w-]+", words) if (m := _MEASURE_WORD.match(w))}
    return found.pop() if len(found) == 1 else None


def _named(k: str, measure: str) -> str:
    """The registry's name of the cut's measure ('top-1 error')."""
    name = f"top-{k} {measure}"
    found = metric_entry(name)
    return found[1] if found else name


def rank_cut(name: str | None, evidence: str, value: float | None = None) -> str | None:
    """The measure a rank cut stands for, from the words around it: 'top-1' in 'top-1 and top-5
    error rates of 37.5% and 17.0%' is a top-1 error, never an accuracy by default. ``name`` is
    the claim's metric as written (its conditions taken out); None when it is no rank cut, ''
    when it is one and its words do not say what it measures (the metric is then unknown)."""
    if not name:
        return None
    if m := _CUT.match(name):
        tokens = re.findall(r"[\w%.,-]+|[;:]", evidence)
        for i, token in enumerate(tokens):
            cut = _CUT_IN_TEXT.fullmatch(token.strip(".,"))
            if cut and cut.group("k") == m.group("k") and (measure := _measure_near(tokens, i)):
                return _named(m.group("k"), measure)
        return ""
    if m := _CUTS.match(name):
        measure = _measure_of(m.group("measure"))
        at = re.search(re.escape(m.group("measure").split()[0]), evidence, re.IGNORECASE)
        numbers = [n for n in find_numbers(evidence) if at is None or n.start >= at.end()][:2]
        which = [k for k, n in zip((m.group("a"), m.group("b")), numbers) if value is not None and n.matches(value)]
        return _named(which[0], measure) if measure and len(which) == 1 else ""
    return None


# Generic names of a measure (folded) and the measure each is for a task a setting or a paper's
# title names; a detector's task keeps the generic measure (a title naming it beside another task
# says nothing). Keypoints are a task only as one ('Detecting Objects as Paired Keypoints' is a
# detector), and only a setting's 'masks' says a mask's AP ('Mask R-CNN' in a title is a method).
_GENERIC = {"mAP": frozenset({"ap", "map", "average precision", "mean average precision"})}
_TASK_MEASURES: dict[str, tuple[tuple[re.Pattern[str], str], ...]] = {
    "mAP": (
        (re.compile(r"\binstance[\s-]+segmentation\b", re.IGNORECASE), "mask AP"),
        (re.compile(r"\bpose\s+(?:estimation|regression)\b|\bkey-?points?\s+(?:detection|estimation|localization)\b", re.IGNORECASE), "keypoint AP"),
        (re.compile(r"\bobject\s+detect(?:ion|ors?)\b|\bdetect(?:ing|s)?\s+objects?\b", re.IGNORECASE), "mAP"),
    ),
}
# A benchmark's name that writes its keypoints ('COCO Keypoints') names the keypoint task.
_NAMED_MEASURES: dict[str, tuple[tuple[re.Pattern[str], str], ...]] = {
    "mAP": ((re.compile(r"\bkey-?points?\b", re.IGNORECASE), "keypoint AP"),),
}
# An overlap threshold the setting names ('at tIoU=0.5', 'IoU@0.5', 'IoU threshold of 0.75').
_AT_IOU = r"\bt?IoU\s*(?:@|=|of|threshold(?:\s+of)?)?\s*0?\.{}0*(?!\d)(?!\s*[:\u2013-]\s*0?\.\d)"
_SETTING_MEASURES: dict[str, tuple[tuple[re.Pattern[str], str], ...]] = {
    "mAP": (
        (re.compile(r"\bmasks?\b", re.IGNORECASE), "mask AP"),
        (re.compile(_AT_IOU.format("5"), re.IGNORECASE), "AP50"),
        (re.compile(_AT_IOU.format("75"), re.IGNORECASE), "AP75"),
    ),
}


def _generic(metric: str | None, written: str | None) -> bool:
    return metric in _GENERIC and " ".join((written or "").lower().split()) in _GENERIC[metric]


def task_measure(
    metric: str | None, written: str | None, setting: str | None, title: str | None = None, named: str | None = None
) -> str | None:
    """The measure a generic name stands for on the task the benchmark's name writes ('AP' on
    'COCO Keypoints' -> 'keypoint AP', ``named``), else on the task the setting names ('AP' with
    'instance segmentation' -> 'mask AP'), else on the one task the paper's title names ('AP' in
    '... for Human Pose Estimation' -> 'keypoint AP'), else None. A name that says its measure
    ('box AP') keeps it whatever the words around it say."""
    if not _generic(metric, written):
        return None
    if named and (found := [m for words, m in (*_NAMED_MEASURES[metric], *_TASK_MEASURES[metric]) if words.search(named)]):
        return found[0]
    if setting and (found := [m for words, m in (*_TASK_MEASURES[metric], *_SETTING_MEASURES[metric]) if words.search(setting)]):
        return found[0]
    named = {m for words, m in _TASK_MEASURES[metric] if title and words.search(title)}
    return named.pop() if len(named) == 1 else None


def task_reading(written: str | None, task: str | None) -> str | None:
    """The measure an abbreviation several measures share stands for on a benchmark of ``task``
    ('R1' on a summarization benchmark is ROUGE-1, on a re-identification one rank-1 accuracy),
    else None: the name stays unknown rather than taking a reading that fits another task."""
    if not written or not task:
        return None
    return next((measure for word, measure in readings(written) if word in task.lower()), None)
