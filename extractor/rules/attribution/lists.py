"""Passes across a sentence's results, once each has what its own words give it: a number in a
list (``70.1% and 44.2%``) shares the list's metric, ``respectively`` aligns a list of numbers with
the benchmarks, metrics or names listed with it, and a number shares what a neighbour states for
both (a restatement in parentheses, a ``vs`` pair, the two values of ``from A to B``, the
benchmark that closes the sentence). :func:`align` runs the passes in their order.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from itertools import pairwise

from extractor.rules.attribution.benchmark import REPORTED_ON
from extractor.rules.attribution.metric import CHANGE_VERB, GAPPED, measured
from extractor.rules.attribution.phrases import (
    GAP_CHAR,
    QUALIFIER,
    clean_metric,
    names_metric,
    phrase_after,
    phrase_before,
)
from extractor.rules.attribution.subject import NAMES_GAP, Subjects, name_chain
from extractor.rules.quantities import Quantity
from extractor.rules.document import Document, Mention
from extractor.rules.table import Construction, Example, Table
from extractor.rules.vocabulary import BEATING_STEMS, RESULT_VERBS, alternation

# Tokenized text writes a sign apart from its number ('+ 4.37 % , + 1.6 %').
_LIST_GAP = re.compile(
    r"\s*(?:,\s*(?:and\s+|or\s+)?|(?:and|or|vs\.?|versus|to)\s+|vs\.?\\?\s*)\s*" + QUALIFIER + r"(?:[+\u2212-]\s)?$",
    re.IGNORECASE,
)


_COMPARED_GAP = re.compile(
    r"\s*(?:[\w@-]+\s+){0,3}?(?:vs\.?|versus|compared\s+(?:to|with)|than)\s*\\?\s*" + QUALIFIER + r"$",
    re.IGNORECASE,
)


# 'an accuracy of 72.6% on HumanEval and 58.1% on MBPP': items that each name where they hold,
# the first perhaps with its metric ('30% accuracy on A and 40% on B', '7% improvement in
# Spearman correlation for A and 14% for B').
_ITEM_GAP = re.compile(
    r"\s*(?:[\w@-]+\s+){0,4}?(?:on|for|across|in)\s+" + GAP_CHAR + r"{1,40}?\s*(?:,\s*(?:and\s+)?|and\s+)"
    + QUALIFIER + r"$",
    re.IGNORECASE,
)


def _listed(text: str, a: Quantity, b: Quantity, items: bool) -> bool:
    """``a`` and ``b`` are neighbours in one list ('70.1% and 44.2%') or compared on one metric
    ('72.90 perplexity versus 73.54'); with ``items``, in a list whose items each say where they
    hold ('72.6% on HumanEval and 58.1% on MBPP')."""
    gap = text[a.end : b.start]
    if items:
        return len(gap) < 50 and bool(_ITEM_GAP.match(gap))
    return len(gap) < 40 and bool(_LIST_GAP.match(gap) or _COMPARED_GAP.match(gap))


@dataclass
class Draft:
    """One claim's attribution while the sentence's lists are aligned."""

    q: Quantity
    metric: str | None
    firm: bool  # the metric is bound by grammar, not only a noun after the unit
    benchmark: str | None
    own_benchmark: bool
    method: str | None
    model: str | None
    baseline: str | None
    kind: str
    direction: str | None
    compared: bool = False  # the second number of a comparison, its subject named after it
    compared_on: bool = False  # its metric is the one of the clause a comparing participle joins



@dataclass(frozen=True)
class Aligning:
    """What every pass reads: the abstract, its results' drafts (which the passes change in
    place), the benchmarks named in it, and the names that can be a subject."""

    doc: Document
    drafts: list[Draft]
    benchmarks: list[Mention]
    subjects: Subjects


AlignPass = Callable[[Aligning], None]


def _sentence_by_sentence(step: Callable[[Aligning, tuple[int, int]], None]) -> AlignPass:
    """A pass that reads and sets only the drafts of one sentence, run on each sentence."""

    @wraps(step)
    def run(aligning: Aligning) -> None:
        for sentence in aligning.doc.sentences:
            step(aligning, sentence)

    return run


@_sentence_by_sentence
def _respectively(aligning: Aligning, sentence: tuple[int, int]) -> None:
    """'by 26.3 and 11.9 points on A and B, respectively': the benchmarks in the order written."""
    text, drafts, benchmarks = aligning.doc.text, aligning.drafts, aligning.benchmarks
    if "respectively" not in text[sentence[0] : sentence[1]]:
        return
    listed = [d for d in drafts if sentence[0] <= d.q.start < sentence[1]]
    names = list(dict.fromkeys(m.name for m in benchmarks if sentence[0] <= m.start < sentence[1]))
    if len(listed) >= 2 and len(names) == len(listed):
        for draft, name in zip(listed, names, strict=True):
            draft.benchmark, draft.own_benchmark = name, True
    _respective_metrics(text, listed)


def _respective_metrics(text: str, listed: list[Draft]) -> None:
    """'a top-1 accuracy of 50.9% and a top-5 accuracy of 79.7%, surpassing M by 13.7% and 9.8%,
    respectively': a last list with no metrics of its own takes those of the numbers before it,
    one each, in the order written."""
    runs = _number_lists(text, listed)
    last = runs[-1] if runs else []
    earlier = [d for d in listed if d.q.start < last[0].q.start] if last else []
    if (
        len(last) < 2
        or len(earlier) != len(last)
        or any(d.firm for d in last)
        or not all(d.firm and d.metric for d in earlier)
        or len({d.metric.lower() for d in earlier if d.metric}) != len(earlier)
    ):
        return
    for draft, source in zip(last, earlier, strict=True):
        draft.metric, draft.firm = source.metric, True


_FOR_NAME = re.compile(r"\s+for\s+(?:the\s+)?")


@_sentence_by_sentence
def _numbers_for_names(aligning: Aligning, sentence: tuple[int, int]) -> None:
    """'an accuracy of 61.2% for FooNet and 58.1% for GPT-4o': numbers that each name whose they
    are right after them belong to those names, whatever the sentence's subject."""
    text, drafts, subjects = aligning.doc.text, aligning.drafts, aligning.subjects
    owned = []
    for draft in (d for d in drafts if sentence[0] <= d.q.start < sentence[1]):
        after = _FOR_NAME.match(text, draft.q.end)
        named = [m for m in (*subjects.methods, *subjects.models) if after and m.start == after.end()]
        if named:
            owned.append((draft, named[0]))
    if len({m.name for _, m in owned}) >= 2:
        for draft, m in owned:
            draft.method, draft.model = subjects.role(m)


@_sentence_by_sentence
def _respective_subjects(aligning: Aligning, sentence: tuple[int, int]) -> None:
    """'GPT-4o and Gemini-2.5-Pro reach 69% and 57%, respectively': the numbers take the
    coordinated names of their subject in the order written."""
    text, drafts, subjects = aligning.doc.text, aligning.drafts, aligning.subjects
    if "respectively" not in text[sentence[0] : sentence[1]]:
        return
    listed = [d for d in drafts if sentence[0] <= d.q.start < sentence[1]]
    owners = {d.method or d.model for d in listed}
    if len(listed) < 2 or len(owners) != 1 or None in owners:
        return
    owner = owners.pop()
    named = sorted((*subjects.methods, *subjects.models), key=lambda m: m.start)
    written = [m for m in named if m.name == owner and sentence[0] <= m.start and m.end <= listed[0].q.start]
    chain = name_chain(text, written[-1], named) if written else []
    if len(chain) == len(listed):
        for draft, m in zip(listed, chain, strict=True):
            draft.method, draft.model = subjects.role(m)


_AND_GAP = re.compile(r"\s*(?:,\s*(?:and\s+)?|and\s+)" + QUALIFIER + r"(?:[+\u2212-]\s?)?$", re.IGNORECASE)
_NAME_AND = re.compile(r"\s*(?:,\s*(?:and\s+)?|and\s+)(?:the\s+)?")


def _number_lists(text: str, drafts: list[Draft]) -> list[list[Draft]]:
    """The drafts in runs of coordinated numbers ('85.3%, 72.1% and 60.2%'); a lone number is a
    run of one."""
    runs: list[list[Draft]] = []
    for index, draft in enumerate(drafts):
        if index and _AND_GAP.fullmatch(text, drafts[index - 1].q.end, draft.q.start):
            runs[-1].append(draft)
        else:
            runs.append([draft])
    return runs


def _parallel_lists(aligning: Aligning) -> None:
    """'85.3% and 72.1% accuracy on SST-2 and MNLI': a list of numbers reported on a list of as
    many benchmarks pairs them in order, 'respectively' written or not."""
    text, drafts, benchmarks = aligning.doc.text, aligning.drafts, aligning.benchmarks
    for run in _number_lists(text, drafts):
        if len(run) < 2:
            continue
        names = _benchmark_list_after(text, run[-1].q.end, benchmarks)
        if len(names) == len(run):
            for draft, name in zip(run, names, strict=True):
                draft.benchmark, draft.own_benchmark = name, True


# 'on this highly challenging benchmark', 'on these two datasets', 'on both benchmarks': a dataset
# phrase that points back at benchmarks named before.
_REFERRING = re.compile(
    r"\s*(?:[\w@-]+\s+){0,4}?(?:on|across|for|in)\s+(?:(?P<one>this|that|the\s+same)|(?P<both>both)|these|the\s+two)"
    r"\s+(?:(?:of\s+the\s+)?(?P<count>two|three|four|five)\s+)?(?:[\w-]+\s+){0,3}?"
    r"(?:benchmark|dataset|data\s+set|corpus|corpora|test\s?set)s?\b",
    re.IGNORECASE,
)
_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5}


def _benchmarks_referred_to(aligning: Aligning) -> None:
    """'We introduce CP-Bench ... reaching up to 70% on this highly challenging benchmark',
    'accuracies of 73.6% and 76.6% on these two datasets': a demonstrative dataset phrase a list
    of numbers is reported on names the benchmarks written last before it, one per number, in
    the order written."""
    text, drafts, benchmarks = aligning.doc.text, aligning.drafts, aligning.benchmarks
    for run in _number_lists(text, drafts):
        referring = _REFERRING.match(text, run[-1].q.end)
        if not referring:
            continue
        wanted = 1 if referring.group("one") else 2 if referring.group("both") else len(run)
        count = referring.group("count")
        if count and _COUNTS[count.lower()] != wanted:
            continue
        names: list[str] = []
        for m in reversed(benchmarks):
            if m.end <= run[0].q.start and m.name not in names:
                names.insert(0, m.name)
        names = names[-wanted:]
        if len(names) != wanted or (wanted > 1 and wanted != len(run)):
            continue
        for draft, name in zip(run, names * len(run) if wanted == 1 else names):
            if not draft.own_benchmark:
                draft.benchmark, draft.own_benchmark = name, True


def _benchmark_chain(text: str, mention: Mention, inside: list[Mention]) -> list[Mention]:
    """The benchmarks coordinated with ``mention`` ('GSM8K, MATH and MMLU'), in order."""
    chain = name_chain(text, mention, inside)
    while following := [
        m for m in inside if m.start >= chain[-1].end and NAMES_GAP.fullmatch(text, chain[-1].end, m.start)
    ]:
        chain.append(following[0])
    return chain


@_sentence_by_sentence
def _benchmarks_together(aligning: Aligning, sentence: tuple[int, int]) -> None:
    """'improves accuracy by 3.1% on average across GSM8K, MATH and MMLU': fewer numbers than the
    coordinated benchmarks they are stated on are tied to none of them (docs/ANNOTATION.md)."""
    text, drafts, benchmarks = aligning.doc.text, aligning.drafts, aligning.benchmarks
    listed = [d for d in drafts if sentence[0] <= d.q.start < sentence[1] and d.benchmark]
    inside = [m for m in benchmarks if sentence[0] <= m.start and m.end <= sentence[1]]
    for draft in listed:
        written = [m for m in inside if m.name == draft.benchmark]
        if not written:
            continue
        nearest = min(written, key=lambda m: abs(m.start - draft.q.start))
        names = {m.name for m in _benchmark_chain(text, nearest, inside)}
        if len(names) >= 2 and len([d for d in listed if d.benchmark in names]) < len(names):
            draft.benchmark, draft.own_benchmark = None, False


# 'increase of 0.8 and 0.7, achieving 34.0 on A and 64.7 on B': a list of changes that leads to
# a list of results.
_LEADING_TO = re.compile(
    r"\s*(?:[\w@-]+\s+){0,2}?,\s*(?:\w+ly\s+)?(?:achiev|reach|attain|obtain|yield|giv|result|lead)\w*\s+"
    r"(?:(?:in|to)\s+)?" + QUALIFIER + r"$",
    re.IGNORECASE,
)


def _changes_leading_to_results(aligning: Aligning) -> None:
    """'BLEU score increase of 0.8 and 0.7, achieving 34.0 on Callhome and 64.7 on Fisher': each
    change of a list is on the benchmark of the result it leads to, paired in order."""
    text, drafts = aligning.doc.text, aligning.drafts
    position = {id(d): i for i, d in enumerate(drafts)}
    for run in _number_lists(text, drafts):
        after = position[id(run[-1])] + 1
        results = drafts[after : after + len(run)]
        if (
            len(run) < 2
            or len(results) != len(run)
            or any(d.benchmark for d in run)
            or not all(d.own_benchmark for d in results)
            or not _LEADING_TO.fullmatch(text, run[-1].q.end, results[0].q.start)
        ):
            continue
        for change, result in zip(run, results, strict=True):
            change.benchmark = result.benchmark
            if change.firm and not result.firm:  # 'BLEU increase of 0.8, achieving 34.0': BLEU too
                result.metric, result.firm = change.metric, True


# 'improvements over the BM25 model on the Robust and the ClueWeb collections': a list may hold
# its metric and baseline before 'on'.
_LIST_ON = re.compile(GAP_CHAR + r"{0,60}?\b(?:on|across)\s+(?:the\s+)?", re.IGNORECASE)


def _benchmark_list_after(text: str, position: int, benchmarks: list[Mention]) -> list[str]:
    """The coordinated benchmark names a number at ``position`` is reported on ('on A, B and C')."""
    names: list[str] = []
    for m in benchmarks:
        if m.start < position:
            continue
        if not names and not (
            REPORTED_ON.fullmatch(text, position, m.start) or _LIST_ON.fullmatch(text, position, m.start)
        ):
            break
        if names and not _NAME_AND.fullmatch(text, position, m.start):
            break
        names.append(m.name)
        position = m.end
    return names


# Between two items that each name their metric: after the first ('88.1% joint goal accuracy and
# 97.1%'), or before the second ('an EM score of 71.3 and F1 of 80.1 on SQuAD').
_METRIC_ITEM_GAP = re.compile(
    r"\s*(?:(?:[\w@-]+\s*){1,3}?(?:,\s*)?and\s+|(?:,\s*)?and\s+(?:an?\s+)?(?:[\w@-]+\s+){1,3}?of\s+)" + QUALIFIER,
    re.IGNORECASE,
)


def _share_lists(aligning: Aligning) -> None:
    """Neighbours in a list of one unit share a metric ('accuracies of 70.1% and 44.2%', '73% and
    60% refusal'; a firm one wins over a bare noun), and a benchmark given once ('72.6% and 70.1%
    on MMLU'); a change cue ('by 26.3 and 11.9 points') holds for the whole list."""
    text, drafts = aligning.doc.text, aligning.drafts
    pairs = list(zip(drafts, drafts[1:]))
    # Tight lists first: '-0.15 vs. -0.12 in loss and -0.65 vs. -0.49 in perplexity'; then back
    # from the end, where a list names its measure last ('4.4%, 1.6% and 2.5% improvement in F1').
    lists = [p for p in pairs if _listed(text, *(d.q for d in p), False)] + [
        p for p in pairs if _listed(text, *(d.q for d in p), True)
    ]
    for a, b in lists + lists[::-1]:
        # ('1.2 % , 2.3 % and 3.4 % improvements': a change noun ending the list holds for it all)
        unbound = a.metric is None and b.metric is None and a.q.unit == b.q.unit
        if (
            a.kind == "score"
            and b.kind == "change"
            and a.q.form == "single"
            and not a.firm
            and (b.firm or unbound)
        ):
            a.kind, a.direction, a.baseline = b.kind, b.direction, a.baseline or b.baseline
        if a.q.unit == b.q.unit and not (a.firm and b.firm):
            firm = a if a.firm else b if b.firm else None
            shared = firm.metric if firm else a.metric or b.metric
            a.metric = b.metric = shared
            a.firm = b.firm = firm is not None
        if a.benchmark is None and b.own_benchmark:
            a.benchmark = b.benchmark
        # ('by 1.1 points and 24.54 BLEU on B': a score in another unit is a result of its own)
        if a.kind == "change" and b.kind == "score" and b.q.form == "single" and a.q.unit == b.q.unit:
            b.kind, b.direction, b.baseline = a.kind, a.direction, b.baseline or a.baseline
    # '88.1% joint goal accuracy and 97.1% request accuracy on WoZ': items that each name their
    # metric share the benchmark named once at the end.
    for a, b in pairs:
        items = a.firm and b.firm and _METRIC_ITEM_GAP.fullmatch(text, a.q.end, b.q.start)
        if a.benchmark is None and b.own_benchmark and items:
            a.benchmark = b.benchmark


_BY_NUMBER = re.compile(r"\bby\s+" + QUALIFIER + r"$", re.IGNORECASE)
_NEXT_BY = re.compile(r"(?:,\s*(?:and\s+)?|\s+and\s+)by\s+" + QUALIFIER + r"$", re.IGNORECASE)


def _share_by_lists(aligning: Aligning) -> None:
    """'accuracy drops by 3.3% without vision input, by 4.1% without language input, and by 8.0%
    without either': each 'by N' that goes on a list of the clause's change measures what the
    first one does."""
    text, drafts = aligning.doc.text, aligning.drafts
    for a, b in zip(drafts, drafts[1:]):
        if (
            b.metric is None
            and a.metric
            and _BY_NUMBER.search(text, max(0, a.q.start - 20), a.q.start)
            and _NEXT_BY.search(text, max(a.q.end, b.q.start - 30), b.q.start)
            and not re.search(r"[.;:]", text[a.q.end : b.q.start])
        ):
            b.metric, b.firm = a.metric, a.firm
            b.kind, b.direction = a.kind, a.direction


def _share_gapped_direction(aligning: Aligning) -> None:
    """'reduces latency by 30%, memory by 40%, and energy by 8%': a change whose verb is left out
    goes the way of the change before it, whose verb it shares."""
    text, drafts = aligning.doc.text, aligning.drafts
    for a, b in zip(drafts, drafts[1:]):
        if (
            b.kind == "change"
            and b.direction is None
            and a.kind == "change"
            and a.direction
            and GAPPED.search(text, a.q.end, b.q.start)
            and not re.search(r"[.;:]", text[a.q.end : b.q.start])
        ):
            b.direction = a.direction


_RESTATED = re.compile(
    r"\s*(?:[\w@-]+\s+){0,3}?\(\s*(?:(?:from|vs\.?|versus|compared\s+(?:to|with))\s+)?(?:an?\s+)?"
    + QUALIFIER + r"[+\u2212-]?\s*$",
    re.IGNORECASE,
)


def _share_restatement(aligning: Aligning) -> None:
    """'pushes GLUE to 82.2% (1.8% absolute improvement)', '85.3% accuracy (+2.1% over M)',
    'climbs to 61% (from a 48% baseline)': a number in parentheses right after another restates
    it (its gain, its relative value, where it started) and is measured with the same metric on
    the same benchmark."""
    text, drafts = aligning.doc.text, aligning.drafts
    for a, b in zip(drafts, drafts[1:]):
        if not _RESTATED.fullmatch(text, a.q.end, b.q.start):
            continue
        if a.metric and not b.firm:
            b.metric, b.firm = a.metric, a.firm
        b.benchmark = b.benchmark or a.benchmark


# 'R1@IoU0.3 and R1@IoU0.5 scores of 27.82 and 18.68', 'precision and recall are 81% and 74%': a
# list of metrics bound before a list of as many numbers.
_LIST_LINK = re.compile(r"\s+(?:of|are|were)\s+" + QUALIFIER + r"$|\s*[=:]\s*" + QUALIFIER + r"$", re.IGNORECASE)
_METRIC_AND = re.compile(r"\s*(?:,\s*(?:and\s+)?|and\s+)(?:(?:a|an|the|its|their)\s+)?$", re.IGNORECASE)


def _metrics_listed_before(text: str, position: int, floor: int, count: int) -> list[str] | None:
    """The ``count`` coordinated metric phrases that end at ``position``, in the order written."""
    phrases: list[str] = []
    end = position
    while len(phrases) < count:
        phrase = phrase_before(text, floor, end)
        cleaned = clean_metric(phrase)
        if cleaned and phrases and not names_metric(cleaned):  # 'R1@0.3 and R1@0.5 scores': a shared head
            cleaned = f"{cleaned} {phrases[-1].split()[-1]}"
        if not phrase or not cleaned or not names_metric(cleaned):
            return None
        phrases.insert(0, cleaned)
        start = text.rfind(phrase, floor, end)
        joint = _METRIC_AND.search(text, max(floor, start - 12), start) if len(phrases) < count else None
        if len(phrases) < count and not joint:
            return None
        end = joint.start() if joint else start
    return phrases


def _paired_metric_lists(aligning: Aligning) -> None:
    """A list of numbers bound to a list of as many metrics takes them one each, in order."""
    text, doc, drafts = aligning.doc.text, aligning.doc, aligning.drafts
    for run in _number_lists(text, drafts):
        link = _LIST_LINK.search(text, max(0, run[0].q.start - 20), run[0].q.start) if len(run) >= 2 else None
        if not link:
            continue
        floor = doc.clause_of(run[0].q.start)[0]
        metrics = _metrics_listed_before(text, link.start(), floor, len(run))
        if metrics and len({m.lower() for m in metrics}) == len(run):
            for draft, metric in zip(run, metrics, strict=True):
                draft.metric, draft.firm = metric, True


# A character of the words between two numbers of one sentence: a digit only inside a word or a
# name ('ResNet - 50', '4-bit'), never a number of its own.
_BETWEEN_WORDS = r"(?:[^.;:\d]|(?<=[\w-])\d|(?<=-\s)\d|\d+-?(?=[^\W\d]))"
# '79.4% top-1 accuracy with M, which is a +1.8% absolute improvement over N': a relative clause
# that says what the number before it gains.
_WHICH_IS = re.compile(
    _BETWEEN_WORDS + r"{0,80}?,\s*which\s+(?:is|was|represents|amounts\s+to|"
    r"corresponds\s+to|means)\s+(?:(?:a|an)\s+)?" + QUALIFIER + r"[+\u2212-]?\s*$",
    re.IGNORECASE,
)


_ASIDE_AFTER = re.compile(_BETWEEN_WORDS + r"{1,80}?\(\s*" + QUALIFIER + r"[+\u2212-]?\s*$", re.IGNORECASE)


def _share_aside(aligning: Aligning) -> None:
    """'cos stays in [0.12, 0.20], identical before and after tuning (0.1197 vs 0.1200)': numbers in
    an aside that names no measure, of the unit of the number before, restate that number's measure."""
    text, drafts = aligning.doc.text, aligning.drafts
    for a, b in pairwise(drafts):
        if b.firm or not (a.firm and a.metric) or a.q.unit != b.q.unit:
            continue
        aside = _ASIDE_AFTER.fullmatch(text, a.q.end, b.q.start)
        if aside and not names_metric(aside.group()):
            b.metric, b.firm = a.metric, True


def _share_which_is(aligning: Aligning) -> None:
    """A change a 'which is' clause states about the number before it is of that number's measure."""
    text, drafts = aligning.doc.text, aligning.drafts
    for a, b in pairwise(drafts):
        if not (a.metric and a.firm) or b.firm or b.kind != "change":
            continue
        if _WHICH_IS.fullmatch(text, a.q.end, b.q.start):
            b.metric, b.firm = a.metric, True
            b.benchmark = b.benchmark or a.benchmark


_APPOSED = re.compile(GAP_CHAR + r"{0,80}?,\s*" + QUALIFIER + r"[+\u2212-]?$", re.IGNORECASE)
_APPOSED_CHANGE = re.compile(
    r"(?:" + GAP_CHAR + r"|\([^()]{0,20}\)){0,80}?,\s*(?:an?\s+)?(?:[\w-]+\s+)?"
    r"(?:improvement|gain|increase|reduction|decrease)\s+of\s+" + QUALIFIER + r"[+\u2212-]?$",
    re.IGNORECASE,
)
_MORE_THAN = re.compile(
    r"\s*(?:[\w@-]+\s+){0,2}?(?:more|higher|better|less|lower|worse|fewer|above|below|ahead\s+of)\s+(?:than\b)?",
    re.IGNORECASE,
)


def _share_apposed_difference(aligning: Aligning) -> None:
    """'we get 22.5 BLEU points in WMT 2014, 5.5 points more than M', 'an accuracy of 93.5 % on SST
    - 2 , an improvement of 1.2 % over the previous best': a difference set after a comma beside a
    number's phrase, with no verb of its own, says how far that number is ahead: same metric,
    same benchmark."""
    text, drafts = aligning.doc.text, aligning.drafts
    for a, b in zip(drafts, drafts[1:]):
        apposed = _APPOSED.fullmatch(text, a.q.end, b.q.start) and _MORE_THAN.match(text, b.q.end)
        if apposed or _APPOSED_CHANGE.fullmatch(text, a.q.end, b.q.start):
            if a.metric and not b.firm:
                b.metric, b.firm = a.metric, a.firm
            b.benchmark = b.benchmark or a.benchmark


_PAIR_OPEN = re.compile(r"\(\s*" + QUALIFIER + r"$")
_PAIR_VERSUS = re.compile(r"\s*(?:vs\.?|versus)\s*" + QUALIFIER)


def _versus_pairs_are_scores(aligning: Aligning) -> None:
    """'improves over GPT-4o on MMLU (61.2% vs. 58.1%)': a pair set in parentheses states the two
    sides' scores, whatever change the clause around it names, measured as the change just before
    it in the sentence is ('a 40-point accuracy advantage over Python on multi-step tasks (100%
    vs. 60%)')."""
    text, drafts = aligning.doc.text, aligning.drafts
    for index, (a, b) in enumerate(zip(drafts, drafts[1:])):
        opened = _PAIR_OPEN.search(text, max(0, a.q.start - 12), a.q.start)
        if not (opened and _PAIR_VERSUS.fullmatch(text, a.q.end, b.q.start)):
            continue
        for draft in (a, b):
            draft.kind, draft.direction = "score", None
        change = drafts[index - 1] if index else None
        if change is None or change.kind != "change" or re.search(r"[.;]", text[change.q.end : a.q.start]):
            continue
        for draft in (a, b):
            if draft.metric is None:
                draft.metric, draft.firm = change.metric, change.firm
            draft.benchmark = draft.benchmark or change.benchmark


# What stands between two coordinated pairs: words, a name's digits ('on WikiText - 103 , from').
_NEXT_PAIR = re.compile(
    r"(?:[^.;:\d]|(?<=[\w-])\d|(?<=-\s)\d){0,60}?(?:,\s*|\band\s+)from\s+" + QUALIFIER, re.IGNORECASE
)


def _share_before_and_after(aligning: Aligning) -> None:
    """'improves accuracy on ImageNet from 87.6% to 93.2%': the before and the after value are one
    measure taken twice, so they share its metric (the one bound before 'from' wins) and its
    benchmark, wherever the sentence writes them."""
    text, drafts = aligning.doc.text, aligning.drafts
    pairs = [(a, b) for a, b in zip(drafts, drafts[1:]) if a.q.form == "before" and b.q.form == "after"]
    for a, b in pairs:
        if a.metric and (a.firm or not b.firm):
            b.metric, b.firm = a.metric, a.firm
        elif b.metric:
            a.metric, a.firm = b.metric, b.firm
        a.benchmark = a.benchmark or b.benchmark
        b.benchmark = b.benchmark or a.benchmark
    # '... from 55.3% to 80.5% for M, and from 73.8% to 82.3% for N' (', from 1.13 to 1.08 on B'): a
    # pair coordinated with the one before keeps its measure (what it is on, it may restate: 'and
    # from 34.7% to 39.1% for the harder scenes').
    for (_, first_after), (before, after) in zip(pairs, pairs[1:]):
        if _NEXT_PAIR.fullmatch(text, first_after.q.end, before.q.start):
            for d in (before, after):
                if not d.metric:
                    d.metric, d.firm = first_after.metric, first_after.firm


# 'this improvement rises to 4%', 'the gain grows to 3.1 points': a change named by a pointing word
# as the subject of the number's clause.
_ANAPHOR = re.compile(
    r"\b(?:this|that|these|those|the|such)\s+(?:[\w-]+\s+)?(?:improvement|gain|gap|reduction|speed\s?-?\s?up|"
    r"margin|advantage|boost|drop|increase|decrease|saving)s?\s+(?:(?:\w+ly|further|even)\s+)?"
    r"(?:[a-z]+\s+){0,2}?(?:to|by|at|of|reaches|reached|is|was)?\s*" + QUALIFIER + r"$",
    re.IGNORECASE,
)


def _share_anaphor(aligning: Aligning) -> None:
    """'GenCLS achieves an accuracy improvement of 3.5% over SFT; on X, this improvement rises to
    4%': a change the clause points back to is measured like the change before it (same sentence
    or the one before), against the same baseline."""
    text, doc, drafts = aligning.doc.text, aligning.doc, aligning.drafts
    for index, draft in enumerate(drafts):
        if draft.firm or draft.kind != "change":
            continue
        clause = doc.clause_of(draft.q.start)
        if not _ANAPHOR.search(text, max(clause[0], draft.q.start - 60), draft.q.start):
            continue
        sentence = doc.sentence_of(draft.q.start)
        floor = doc.sentence_of(sentence[0] - 1)[0] if sentence[0] > 0 else 0
        source = next(
            (d for d in reversed(drafts[:index]) if d.q.start >= floor and d.kind == "change" and d.firm and d.metric),
            None,
        )
        if source:
            draft.metric, draft.firm = source.metric, True
            draft.baseline = draft.baseline or source.baseline


_COMPARED_TO = re.compile(
    _BETWEEN_WORDS + r"{0,80}?,\s*(?:(?:as\s+)?compared\s+(?:to|with)|relative\s+to|versus|vs\.?|against)\s*"
    r"(?:(?:a|an|the)\s+)?" + QUALIFIER + r"$",
    re.IGNORECASE,
)


def _share_compared_value(aligning: Aligning) -> None:
    """'GLM reaches 93.5% contrast-group accuracy at a high setting, compared with 81.5% at its
    lowest': the number a clause is compared with is measured like it, on the same benchmark."""
    text, drafts = aligning.doc.text, aligning.drafts
    for a, b in pairwise(drafts):
        if b.firm or not (a.firm and a.metric) or a.q.unit != b.q.unit:
            continue
        if _COMPARED_TO.fullmatch(text, a.q.end, b.q.start):
            b.metric, b.firm = a.metric, True
            b.benchmark = b.benchmark or a.benchmark


# The measure a comparing verb names without a number of its own: 'outperforms M in aggregate
# accuracy', 'improves test perplexity on A and B'.
_COMPARED_IN = re.compile(
    r"\b(?:" + BEATING_STEMS + r"|match|improv|trail|lag)\w*\b(?:[^,;:.\d]|\d+-?(?=[^\W\d]))"
    r"{0,80}?\bin\s+(?:terms\s+of\s+)?"
    r"(?:the\s+|its\s+|their\s+)?(?=[^\W\d])",
    re.IGNORECASE,
)


def _measure_of_the_predicate_before(
    text: str, sentence: tuple[int, int], q: Quantity
) -> tuple[str, int] | None:
    """The last measure a change verb or a comparing verb names in the sentence before ``q``, and
    where it ends."""
    found: tuple[str, int] | None = None
    for pattern in (CHANGE_VERB, _COMPARED_IN):
        for verb in pattern.finditer(text, sentence[0], q.start):
            phrase = phrase_after(text, verb.end(), q.start)
            measure = measured(phrase[0]) if phrase else None
            if phrase and measure and names_metric(measure) and (found is None or phrase[1] > found[1]):
                found = (measure, phrase[1])
    return found


# '..., reaching up to 70%': a participle that gives the level a change reached.
_REACHING = re.compile(
    r",\s*(?:\w+ly\s+)?(?:reach|achiev|attain|obtain)\w*\s+(?:(?:a|an)\s+)?" + QUALIFIER + r"$", re.IGNORECASE
)


def _continue_the_predicate_measure(aligning: Aligning) -> None:
    """'ADLM improves test perplexity on LM1B and OWT, achieving up to 25.4% gains', 'X outperforms
    Y in aggregate accuracy, and improves over Z on GSM8K by 20 points': a change in a participle
    or coordinated predicate that names no measure of its own is a change of the measure the
    sentence's comparison names before it, when no number of that measure stands between; so is
    the level a participle says it reached ('which increase accuracy, reaching up to 70%')."""
    text, doc, drafts = aligning.doc.text, aligning.doc, aligning.drafts
    for index, draft in enumerate(drafts):
        reached = _REACHING.search(text, max(0, draft.q.start - 40), draft.q.start)
        if draft.firm or not (draft.kind == "change" or reached):
            continue
        found = _measure_of_the_predicate_before(text, doc.sentence_of(draft.q.start), draft.q)
        if not found:
            continue
        measure, end = found
        between = text[end : draft.q.start]
        earlier = drafts[index - 1].q.end if index else -1
        if earlier < end and "," in between and not re.search(r"[;:]", between):
            draft.metric, draft.firm = measure, True


# A participle clause that compares ('..., surpassing TEAL by 1.77%', '--exceeding X by 7.4
# points'), or a relative clause that does ('... which surpass Focal Loss by 0.8'), attached to
# the clause before it, and nothing between but that clause's words.
_COMPARING_PARTICIPLE = re.compile(
    r"[^.;:]{0,80}?(?:(?:,|--|\u2014)\s*(?:\w+ly\s+)?(?:while\s+)?(?:" + BEATING_STEMS + r"|improv|trail|lagg|outscor)"
    r"\w*ing|\s(?:which|that)\s+(?:\w+ly\s+)?(?:" + BEATING_STEMS + r"|trail|lag|outscor)\w*)"
    r"\b[^.;:\d]{0,80}$",
    re.IGNORECASE,
)
_LIST_ITEM = re.compile(r"\s*(?:,\s*)?(?:and\s+)?[^.;:,\d]{0,30}?\bby\s+" + QUALIFIER + r"$", re.IGNORECASE)


def _compare_on_the_same_measure(aligning: Aligning) -> None:
    """'X reaches 85% accuracy, surpassing Y by 2%': a comparing participle attached to a clause
    whose number has a metric states a change of that same measure (and so do the items of its
    list: 'surpassing TEAL by 1.77% and CATS by 17.14%')."""
    text, drafts = aligning.doc.text, aligning.drafts
    for a, b in zip(drafts, drafts[1:]):
        points = b.q.unit in ("points", "pp") and a.q.unit in (None, "%")  # '24.4 BLEU, ... by 1.1 points'
        if b.metric or not a.metric or not a.firm or not (a.q.unit == b.q.unit or points) or b.kind != "change":
            continue
        gap = text[a.q.end : b.q.start]
        if _COMPARING_PARTICIPLE.match(gap) or (a.kind == "change" and _LIST_ITEM.fullmatch(gap) and a.compared_on):
            b.metric, b.firm, b.compared_on = a.metric, True, True


def _compare_on_the_same_benchmark(aligning: Aligning) -> None:
    """'achieves 24.40 BLEU on A, outperforming the state of the art by 1.1 points and 24.54 BLEU
    on B': a comparing participle's change is measured where the clause it joins is, unless it
    is reported on a benchmark of its own."""
    text, drafts = aligning.doc.text, aligning.drafts
    for a, b in zip(drafts, drafts[1:]):
        joined = _COMPARING_PARTICIPLE.match(text, a.q.end, b.q.start)
        if joined and a.benchmark and not b.own_benchmark and b.kind == "change":
            b.benchmark = a.benchmark


# A predicate of its own after the last number ('9x faster , and achieves a higher mAP on X').
_NEXT_PREDICATE = re.compile(
    r"(?:,\s*|\band\s+)(?:\w+ly\s+)?(?:" + alternation(RESULT_VERBS) + r")\w*", re.IGNORECASE
)
# What introduces the benchmark that closes a sentence: 'on the COCO dataset .', 'on COCO )'.
_CLOSING_ON = re.compile(r"\b(?:on|in)\s+(?:the\s+)?$", re.IGNORECASE)
_CLOSING_END = re.compile(r"\s*(?:(?:benchmark|dataset|test\s+set|corpus)s?\s*)?\)?\s*[.;]?\s*$", re.IGNORECASE)


@_sentence_by_sentence
def _benchmark_closing(aligning: Aligning, sentence: tuple[int, int]) -> None:
    """'SNIPER processes 30 % more pixels ... at 800x1333 pixels on the COCO dataset .',
    'improving the efficiency by 6.0x and the AP by 1.0 % on COCO .': the one benchmark a sentence
    closes with, 'on' it, is where every result of the sentence that names none is measured."""
    text, drafts, benchmarks = aligning.doc.text, aligning.drafts, aligning.benchmarks
    inside = [d for d in drafts if sentence[0] <= d.q.start < sentence[1]]
    named = [m for m in benchmarks if sentence[0] <= m.start and m.end <= sentence[1]]
    if not inside or len({m.name for m in named}) != 1:
        return
    last = named[-1]
    if any(d.benchmark not in (None, last.name) for d in inside):
        return
    if (
        last.start < inside[-1].q.end
        or not _CLOSING_ON.search(text, max(sentence[0], last.start - 10), last.start)
        or not _CLOSING_END.fullmatch(text, last.end, sentence[1])
        or _NEXT_PREDICATE.search(text, inside[-1].q.end, last.start)
    ):
        return
    for d in inside:
        d.benchmark = last.name


def _compared_subject_is_baseline(aligning: Aligning) -> None:
    """'79.8%, compared to 77.2% for M': the subject named after the second number of a
    comparison is the baseline of the first."""
    drafts = aligning.drafts
    for a, b in zip(drafts, drafts[1:]):
        other = b.method or b.model
        if b.compared and not a.compared and other and other != (a.method or a.model) and a.baseline is None:
            a.baseline = other


#: The passes across a sentence's results, in the order :func:`align` runs them.
ALIGN: Table[AlignPass] = Table(
    "align",
    "each pass reads what the ones before it set: the benchmarks and subjects of lists and of "
    "'respectively' first, so that the passes that share between neighbours copy aligned ones; a list's "
    "metric is shared before a list of as many metrics overrides it one each; a 'vs' pair in parentheses "
    "is made two scores before a comparing participle passes its measure on to changes; coordinated "
    "benchmarks are untied from too few numbers only once every pass has shared benchmarks; the passes "
    "that borrow a measure from earlier in the sentence (an anaphor, a compared value, the predicate's "
    "measure) fill only what no other pass bound; the baseline named after a compared number comes "
    "last, from the aligned subjects",
    (
        Construction(
            'parallel-lists',
            _parallel_lists,
            'a list of numbers on a list of as many benchmarks pairs them in order; first, so later passes share aligned benchmarks',
            (
                Example('We propose FooNet, a sparse decoder. FooNet achieves 85.3%, 72.1% and 60.2% accuracy on the SST-2, MNLI and QNLI benchmarks.', 'MNLI', 'benchmark', claim=1),
                Example('We propose FooNet, a sparse decoder. FooNet brings 13 % and 35 % MAP gains over BM25 on the Robust and the ClueWeb collections .', 'ClueWeb', 'benchmark', claim=1),
            ),
        ),
        Construction(
            'benchmarks-referred-to',
            _benchmarks_referred_to,
            "'on these two datasets' names the benchmarks written last before it, one per number",
            (
                Example('We evaluate on MMLU and GSM8K. FooNet obtains 73.6 % and 76.6 % on these two datasets .', 'GSM8K', 'benchmark', claim=1),
            ),
        ),
        Construction(
            'changes-leading-to-results',
            _changes_leading_to_results,
            "'increase of 0.8 and 0.7, achieving 34.0 on A and 64.7 on B': each change is on its result's benchmark",
            (
                Example('We propose FooNet, a sparse decoder. FooNet improves accuracy by 2.1 and 3.4 points, reaching 85.1 on MMLU and 80.2 on GSM8K.', 'GSM8K', 'benchmark', claim=1),
            ),
        ),
        Construction(
            'respectively',
            _respectively,
            "'on A and B, respectively' pairs numbers and benchmarks, or a last list with the metrics before it",
            (
                Example('We propose FooNet, a sparse decoder. On GSM8K and MATH, FooNet achieves 85.3% and 52.1%, respectively.', 'GSM8K', 'benchmark'),
                Example('We propose FooNet, a sparse decoder. FooNet reaches 81.2% F1 and a recall of 74.5%, exceeding BarNet by 3.1% and 4.4%, respectively.', 'recall', 'metric', claim=3),
            ),
        ),
        Construction(
            'respective-subjects',
            _respective_subjects,
            "'A and B reach 69% and 57%, respectively': the numbers take the coordinated names of their subject",
            (
                Example('We propose FooNet, a sparse decoder. Frontier models like GPT-4o and Gemini-2.5-Pro reach only around 69% and 57%, respectively.', 'GPT-4o', 'model'),
            ),
        ),
        Construction(
            'numbers-for-names',
            _numbers_for_names,
            "'61.2% for FooNet and 58.1% for GPT-4o': numbers each followed by 'for' a name are that name's",
            (
                Example('We propose FooNet, a sparse decoder. Results on MMLU show an accuracy of 61.2% for FooNet and 58.1% for GPT-4o.', 'GPT-4o', 'model', claim=1),
            ),
        ),
        Construction(
            'benchmark-closing-the-sentence',
            _benchmark_closing,
            "the one benchmark a sentence closes with, 'on' it, holds every result of the sentence that names none",
            (
                Example('We propose FooNet, a sparse decoder. FooNet processes 30 % more pixels than single scale training at 800x1333 pixels on the COCO dataset . It improves the efficiency of BarNet by 6.0x and the AP by 1.0 % on COCO .', 'COCO', 'benchmark', claim=1),
            ),
        ),
        Construction(
            'share-aside',
            _share_aside,
            'numbers in an aside that names no measure restate the measure of the number before',
            (
                Example('We study probes. Across models, the AUC is 0.81, unchanged after tuning (0.812 vs 0.809).', 'AUC', 'metric', claim=2),
            ),
        ),
        Construction(
            'share-lists',
            _share_lists,
            'neighbours in a list share a metric, a benchmark given once, and a change cue; before a list of as many metrics overrides it',
            (
                Example('Two judges reach contrast-group accuracies of 70.1% and 44.2%. They show 73% and 60% refusal.', 'contrast-group accuracies', 'metric', claim=1),
                Example('We propose FooNet, a sparse decoder. FooNet obtains 4.4%, 1.6% and 2.5% improvement in F1 over BarNet.', 'F1', 'metric'),
                Example('We propose FooNet, a sparse decoder. FooNet reaches around 30% accuracy on space-level tasks and around 40% on part-level tasks.', 'accuracy', 'metric', claim=1),
            ),
        ),
        Construction(
            'paired-metric-lists',
            _paired_metric_lists,
            "a list of numbers bound to a list of as many metrics takes them one each, after the list's shared metric",
            (
                Example('We propose FooNet, a sparse decoder. FooNet reaches R@1 and R@5 scores of 41.3 and 68.9.', 'R@1', 'metric'),
            ),
        ),
        Construction(
            'share-by-lists',
            _share_by_lists,
            "each 'by N' that goes on a list of the clause's change measures what the first one does",
            (
                Example('We propose FooNet, a sparse decoder. Accuracy drops by 3.3% without vision, by 4.1% without text, and by 8.0% without either.', 'Accuracy', 'metric', claim=2),
            ),
        ),
        Construction(
            'share-gapped-direction',
            _share_gapped_direction,
            'a change whose verb is left out goes the way of the change whose verb it shares',
            (
                Example('We propose FooNet, a sparse decoder. It reduces latency by 30%, training time by 9.9%, and inference time by 8.0%.', 'decrease', 'direction', claim=2),
            ),
        ),
        Construction(
            'share-before-and-after',
            _share_before_and_after,
            "'from A to B' is one measure taken twice: both share its metric and benchmark",
            (
                Example('We propose FooNet, a sparse decoder. We improve the best results of perplexity from 20.5 to 18.3 on WikiText - 103 , from 23.7 to 21.8 on One Billion Word , and from 55.3 to 54.5 on Penn Treebank .', 'perplexity', 'metric', claim=5),
            ),
        ),
        Construction(
            'share-restatement',
            _share_restatement,
            'a number in parentheses right after another restates it: same metric, same benchmark',
            (
                Example('We propose FooNet, a sparse decoder. FooNet pushes the GLUE benchmark to 82.2% (1.8% absolute improvement).', 'GLUE', 'benchmark', claim=1),
                Example('We propose FooNet, a sparse decoder. We find accuracy climbs to 61% (from a 48% pre-RL baseline) with FooNet.', 'accuracy', 'metric', claim=1),
            ),
        ),
        Construction(
            'share-apposed-difference',
            _share_apposed_difference,
            'a difference set after a comma with no verb of its own is how far the number before is ahead',
            (
                Example('We propose FooNet, a sparse decoder. FooNet gets 22.5 BLEU points on WMT 2014 , 5.5 points more than the best unsupervised system .', 'BLEU', 'metric', claim=1),
                Example('We propose FooNet, a sparse decoder. We obtain an accuracy of 93.5 % on SST - 2 ( binary ) , an improvement of 1.2 % over the previous best .', 'accuracy', 'metric', claim=1),
            ),
        ),
        Construction(
            'share-which-is',
            _share_which_is,
            "', which is a +1.8% gain': a change a which-clause states is of the measure before it",
            (
                Example('We propose FooAug. We obtain 79.4% top-1 accuracy with a ResNet - 50, which is a + 1.8% absolute gain over BarAug.', 'top-1 accuracy', 'metric', claim=1),
            ),
        ),
        Construction(
            'versus-pairs-are-scores',
            _versus_pairs_are_scores,
            "'(61.2% vs. 58.1%)' states both sides' scores, measured as the change before it; before a participle passes its measure on",
            (
                Example('We propose FooNet, a sparse decoder. FooNet improves over GPT-4o on MMLU (61.2% vs. 58.1%).', 'score', 'kind', claim=1),
                Example('We propose FooNet, a sparse decoder. FooNet shows a 40 percentage point accuracy advantage over BarNet on hard tasks (100% vs. 60%).', 'accuracy', 'metric', claim=2),
            ),
        ),
        Construction(
            'compare-on-the-same-measure',
            _compare_on_the_same_measure,
            "'85% accuracy, surpassing Y by 2%': a comparing participle's change is of its clause's measure",
            (
                Example('We propose FooNet, a sparse decoder. FooNet reaches 85.3% accuracy at 50% sparsity, surpassing TEAL by 1.77% and CATS by 17.14%.', 'accuracy', 'metric', claim=2),
                Example('We propose FooNet, a sparse decoder. FooNet achieves 24.4 BLEU on WMT14, outperforming the state of the art by 1.1 points.', 'BLEU', 'metric', claim=1),
                Example('We propose FooNet, a sparse decoder. FooNet achieves 41.6 mAP on COCO which surpasses the best method , BarNet , by 0.8 .', 'mAP', 'metric', claim=1),
            ),
        ),
        Construction(
            'compare-on-the-same-benchmark',
            _compare_on_the_same_benchmark,
            "a comparing participle's change is measured where its clause is, unless it names a benchmark",
            (
                Example('We propose FooNet, a sparse decoder. FooNet achieves 24.4 BLEU on LDC2015E86 , outperforming the state of the art by 1.1 points and 24.5 BLEU on LDC2017T10 , outperforming the state of the art by 1.2 points .', 'LDC2017T10', 'benchmark', claim=3),
            ),
        ),
        Construction(
            'benchmarks-together',
            _benchmarks_together,
            'fewer numbers than coordinated benchmarks tie to none; only once every pass has shared benchmarks',
            (
                Example('We propose FooNet, a sparse decoder. FooNet improves accuracy by 3.1% on average across GSM8K, MATH and MMLU.', None, 'benchmark'),
            ),
        ),
        Construction(
            'share-anaphor',
            _share_anaphor,
            "'this gain grows to 6.1%' is measured like the change before it; fills only what no pass bound",
            (
                Example('We propose FooNet, a sparse decoder. FooNet improves exact-match accuracy by 2.5% over BarNet. On long questions, this gain grows to 6.1%.', 'exact-match accuracy', 'metric', claim=1),
            ),
        ),
        Construction(
            'share-compared-value',
            _share_compared_value,
            "', compared with 64.0% without it': the number compared with is measured like the clause's",
            (
                Example('We propose FooNet, a sparse decoder. FooNet reaches 71.2% exact-match accuracy on TriviaQA with retrieval, compared with 64.0% without it.', 'exact-match accuracy', 'metric', claim=1),
            ),
        ),
        Construction(
            'continue-the-predicate-measure',
            _continue_the_predicate_measure,
            'a change in a participle or second predicate with no measure is of the measure compared before it',
            (
                Example('We propose FooNet, a sparse decoder. FooNet improves test accuracy on MMLU and GSM8K, achieving up to 4.1% gains over BarNet.', 'test accuracy', 'metric'),
            ),
        ),
        Construction(
            'compared-subject-is-baseline',
            _compared_subject_is_baseline,
            "'79.8%, compared to 77.2% for M': M is the first number's baseline; last, from the aligned subjects",
            (
                Example('We propose FooNet, a sparse decoder. FooNet reaches 79.8%, compared to 77.2% for LLaVA-1.5-13B.', 'LLaVA-1.5-13B', 'baseline'),
            ),
        ),
    ),
)


def align(doc: Document, drafts: list[Draft], benchmarks: list[Mention], subjects: Subjects) -> None:
    """Align the results of the abstract with each other, in place, once each has what its own
    words give it: the passes of :data:`ALIGN`, in order (its ``order`` says why)."""
    aligning = Aligning(doc, drafts, benchmarks, subjects)
    for construction in ALIGN.entries:
        construction.run(aligning)
