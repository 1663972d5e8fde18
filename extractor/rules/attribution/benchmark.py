"""A result's **benchmark** (ANNOTATION.md, "Attribution"): the one the number is reported
``on`` (``72.6% on HumanEval``), the one its metric names (``HumanEval accuracy``), a sentence
opened by ``On X,``, or the list aligned by ``respectively`` (:mod:`.lists`); and, when the
number's sentence names none, the benchmark its context gives (:func:`context_benchmark`, v3).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from extractor.rules.attribution.phrases import QUALIFIER, names_metric, phrase_after
from extractor.rules.quantities import Quantity
from extractor.rules.document import Document, Mention
from extractor.rules.table import Construction, Example, Table

# '18.7% phoneme error rate (PER) on the TIMIT task', '72.27% on the test-std split of the VQA
# v2.0 dataset': the metric, its acronym, and the part of the benchmark the number is on.
REPORTED_ON = re.compile(
    r"(?:\s*[\w@-]+){0,4}?(?:\s*\([^()]{1,20}\))?\s*(?:\)\s*)?,?\s*\b(?:on|in|for|over|across)\s+(?:the\s+|both\s+)?"
    r"(?:(?:[\w-]+\s+){1,4}?(?:split|set|subset|portion|part)\s+of\s+(?:the\s+)?)?"
    r"(?:[\w-]+(?:\s-\s\w+)*\s+){0,3}?[\"\u201c]?\s?$",  # a modifier may be tokenized: 'English - to - German'
    re.IGNORECASE,
)
_FRONTED = re.compile(
    r"^(?:[A-Z]\w*(?:\s+\w+)?\s*,\s*)?(?:on|in|for|across|over)\s+(?:the\s+)?(?:[\w-]+\s+){0,2}?$",
    re.IGNORECASE,
)


# '85.3% MMLU accuracy': a benchmark that opens the metric phrase after the number.
_METRIC_OPENER = re.compile(r"\s*(?:[\w@-]+\s+)?")


_OPENS = re.compile(r"\s*\(\s*")
_CLOSES = re.compile(r"\s*\)")


def _benchmark_after(text: str, q: Quantity, benchmarks: list[Mention], limit: int) -> str | None:
    """'72.6% on HumanEval', '72.6% HumanEval accuracy', '85.3 (SST-2)'."""
    for m in benchmarks:
        if q.end <= m.start < limit and REPORTED_ON.fullmatch(text, q.end, m.start):
            return m.name
        if q.end <= m.start < limit and _OPENS.fullmatch(text, q.end, m.start) and _CLOSES.match(text, m.end):
            return m.name
        if q.end <= m.start < limit and _METRIC_OPENER.fullmatch(text, q.end, m.start):
            following = phrase_after(text, m.end + 1, limit) if text[m.end : m.end + 1] == " " else None
            if following and names_metric(following[0]):
                return m.name
    return None


_LABELLING = re.compile(r"\s*(?:\)\s*)?[(:=]\s*" + QUALIFIER)  # 'GSM8K (85.3%)', '( SVHN ) ( 4 % error )'


def _benchmark_before(text: str, q: Quantity, benchmarks: list[Mention], floor: int) -> str | None:
    """'HumanEval accuracy of 72.6%', 'pass@1 on MBPP of'... a benchmark in the number's own
    metric phrase, or one a fronted 'On X,' gives the whole sentence."""
    for m in reversed(benchmarks):
        if floor <= m.end <= q.start and q.start - m.end < 40:
            between = text[m.end : q.start]
            if not re.search(r"[,;:()]|\b(?:and|while|but|than|vs|over)\b|\d", between):
                return m.name
            if _LABELLING.fullmatch(between):  # 'GSM8K (85.3%)', 'GSM8K: 85.3'
                return m.name
    return None


def _benchmark_fronted(text: str, benchmarks: list[Mention], sentence: tuple[int, int], q: Quantity) -> str | None:
    """'On GSM8K, ...', 'For the MMLU benchmark, ...': a fronted phrase places the sentence."""
    for m in benchmarks:
        if sentence[0] <= m.start < q.start and _FRONTED.match(text[sentence[0] : m.start]):
            rest = text[m.end : q.start]
            if re.match(r"\s*(?:\([^()]*\)\s*)?(?:benchmark|dataset|test\s+set|split)?s?\s*,", rest):
                return m.name
    return None


_HEADING = re.compile(r"\s*(?:\([^()]*\)\s*)?(?:benchmark|dataset|test\s+set|split)?s?\s*:")


def _benchmark_heading(text: str, benchmarks: list[Mention], sentence: tuple[int, int], q: Quantity) -> str | None:
    """'GSM8K: FooNet reaches 85.3% and BarNet 80.1%': a benchmark that opens its sentence with a
    colon heads every number of it."""
    for m in benchmarks:
        if m.start >= q.start:
            break
        if m.start == sentence[0] and _HEADING.match(text, m.end, q.start):
            return m.name
    return None


def _benchmark_in_sentence(
    text: str, q: Quantity, benchmarks: list[Mention], sentence: tuple[int, int]
) -> str | None:
    """A sentence that ties one benchmark to its results ('a comparison on ... FineWeb-Edu shows
    X reaching 2.5% lower loss'): the only benchmark of the sentence, evaluated on before the
    number."""
    inside = [m for m in benchmarks if sentence[0] <= m.start and m.end <= sentence[1]]
    if len({m.name for m in inside}) != 1 or inside[0].start > q.start:
        return None
    lead = text[max(sentence[0], inside[0].start - 40) : inside[0].start]
    if re.search(r"\b(?:on|of|over|across|in|using)\s+(?:the\s+)?(?:[\w-]+\s+){0,3}$", lead, re.IGNORECASE):
        return inside[0].name
    return None


@dataclass(frozen=True)
class BenchmarkSite:
    """Where a number stands, which is all a benchmark construction of its sentence reads: the
    text, the number, the benchmarks named, its clause and sentence, and where the next result
    starts (``following``)."""

    text: str
    q: Quantity
    benchmarks: list[Mention]
    clause: tuple[int, int]
    sentence: tuple[int, int]
    following: int


#: A benchmark construction's answer: the benchmark's name and whether the number is reported
#: 'on' it itself, or None when it binds none.
BenchmarkConstruction = Callable[[BenchmarkSite], "tuple[str, bool] | None"]


def _reported_at_the_number(site: BenchmarkSite) -> tuple[str, bool] | None:
    found = _benchmark_after(site.text, site.q, site.benchmarks, min(site.sentence[1], site.following))
    return (found, True) if found else None


def _in_the_phrase_before(site: BenchmarkSite) -> tuple[str, bool] | None:
    found = _benchmark_before(site.text, site.q, site.benchmarks, site.clause[0])
    return (found, False) if found else None


def _fronted_phrase(site: BenchmarkSite) -> tuple[str, bool] | None:
    """'On MMLU, X reaches 61.2%; on GSM8K, it reaches 85.3%': a fronted phrase places its clause."""
    text, q, sentence = site.text, site.q, site.sentence
    opening = max(sentence[0], text.rfind(";", sentence[0], q.start) + 1)
    while opening < q.start and text[opening].isspace():
        opening += 1
    found = _benchmark_fronted(text, site.benchmarks, (opening, sentence[1]), q)
    return (found, False) if found else None


def _heading(site: BenchmarkSite) -> tuple[str, bool] | None:
    found = _benchmark_heading(site.text, site.benchmarks, site.sentence, site.q)
    return (found, False) if found else None


def _only_one_in_the_sentence(site: BenchmarkSite) -> tuple[str, bool] | None:
    found = _benchmark_in_sentence(site.text, site.q, site.benchmarks, site.sentence)
    return (found, False) if found else None


#: Where a number is measured, read from its own sentence: the constructions :func:`benchmark_of`
#: tries, in order.
BENCHMARK: Table[BenchmarkConstruction] = Table(
    "benchmark",
    "the first that binds a benchmark wins: what is written at the number (after it, in its "
    "parenthesis) first, and only it says the number is reported on the benchmark itself; then its "
    "own metric phrase before it, then what opens its clause or sentence, and last the one benchmark "
    "of the sentence, which reaches furthest. Once the metric is read, the 'benchmark once the "
    "metric is read' table may override them all, and when none binds, the context may give one "
    "(the 'benchmark from context' table)",
    (
        Construction(
            'reported-at-the-number',
            _reported_at_the_number,
            "'72.6% on HumanEval', '85.3% MMLU accuracy', '85.3 (SST-2)': the benchmark written right after the number",
            (
                Example('We propose FooNet, a sparse decoder. FooNet, trained on MMLU, reaches 85.3% accuracy on the GSM8K test set.', 'GSM8K', 'benchmark'),
                Example('We propose FooNet, a sparse decoder. FooNet reaches 85.3% MMLU accuracy.', 'MMLU', 'benchmark'),
                Example('We propose FooNet, a sparse decoder. Overall , it gets 72.27 % on the test - std split of the VQA v2.0 dataset .', 'VQA v2.0', 'benchmark'),
            ),
        ),
        Construction(
            'in-the-phrase-before',
            _in_the_phrase_before,
            "'GSM8K accuracy of 85.3%', 'GSM8K (85.3%)', 'GSM8K: 85.3': a benchmark in the number's own phrase before it",
            (
                Example('We propose FooNet, a sparse decoder. FooNet performs best on GSM8K (85.3%) and worst on MMLU.', 'GSM8K', 'benchmark'),
                Example('We propose FooNet, a sparse decoder. Per benchmark: GSM8K: 85.3.', 'GSM8K', 'benchmark'),
            ),
        ),
        Construction(
            'fronted-phrase',
            _fronted_phrase,
            "'On GSM8K, ...': a fronted phrase places its clause, up to a semicolon that opens another",
            (
                Example('We propose FooNet, a sparse decoder. On GSM8K, FooNet gains 4.1 points over GRPO, a model tuned on MMLU.', 'GSM8K', 'benchmark'),
                Example('We propose FooNet, a sparse decoder. On MMLU, FooNet reaches 61.2%; on GSM8K, it reaches 85.3%.', 'MMLU', 'benchmark'),
                Example('We propose FooNet, a sparse decoder. On MMLU, FooNet reaches 61.2%; on GSM8K, it reaches 85.3%.', 'GSM8K', 'benchmark', claim=1),
            ),
        ),
        Construction(
            'heading-colon',
            _heading,
            "'MMLU (5-shot): FooNet reaches 85.3% and BarNet 80.1%': a benchmark opening its sentence with a colon heads every number of it",
            (
                Example('We propose FooNet, a sparse decoder. MMLU (5-shot): FooNet reaches 85.3% and BarNet 80.1%.', 'MMLU', 'benchmark', claim=1),
            ),
        ),
        Construction(
            'only-benchmark-of-the-sentence',
            _only_one_in_the_sentence,
            "the only benchmark of the sentence, evaluated on before the number, ties the sentence's results to it; last, it reaches furthest",
            (
                Example('We propose FooNet, a sparse decoder. A comparison on the FineWeb-Edu corpus of educational web pages shows FooNet reaching 2.5% lower loss. MMLU is left for later.', 'FineWeb-Edu', 'benchmark'),
            ),
        ),
    ),
)


def benchmark_of(
    text: str, q: Quantity, benchmarks: list[Mention], clause: tuple[int, int], sentence: tuple[int, int], following: int
) -> tuple[str | None, bool]:
    """The number's benchmark, and whether the number is reported 'on' it itself: the first
    construction of :data:`BENCHMARK` that binds one."""
    site = BenchmarkSite(text, q, benchmarks, clause, sentence, following)
    found = next((f for c in BENCHMARK.entries if (f := c.run(site)) is not None), None)
    return found or (None, False)


#: A construction run once the number's metric is read: from the site and the metric, the
#: benchmark and whether the number is reported 'on' it itself, or None when it says nothing.
MeasuredBenchmarkConstruction = Callable[[BenchmarkSite, "str | None"], "tuple[str, bool] | None"]


def _written_in_the_metric(site: BenchmarkSite, metric: str | None) -> tuple[str, bool] | None:
    """A benchmark written in the number's own metric phrase ('GSM8K accuracy by 3.1 points')."""
    if not metric:
        return None
    text, sentence, q = site.text, site.sentence, site.q
    for m in site.benchmarks:
        surface = text[m.start : m.end]
        if sentence[0] <= m.start < q.start and surface != metric and re.search(
            r"(?<![\w-])" + re.escape(surface) + r"(?![\w-])", metric
        ):
            return m.name, True
    return None


#: What the number's metric, once read, says about its benchmark: the constructions
#: :func:`benchmark_in_metric` tries, in order.
MEASURED_BENCHMARK: Table[MeasuredBenchmarkConstruction] = Table(
    "benchmark once the metric is read",
    "run after the metric and benchmark tables (and after a metric that only names the benchmark "
    "is dropped), since it reads the metric; the first that answers overrides the benchmark the "
    "number's sentence gave, and none answering keeps it",
    (
        Construction(
            'benchmark-in-the-metric',
            _written_in_the_metric,
            "'improves GSM8K accuracy by 3.1 points on MMLU': a benchmark in the number's own metric phrase wins over one named after the number",
            (
                Example('We propose FooNet, a sparse decoder. FooNet improves GSM8K accuracy by 3.1 points on MMLU.', 'GSM8K', 'benchmark'),
            ),
        ),
    ),
)


def benchmark_in_metric(
    text: str,
    q: Quantity,
    benchmarks: list[Mention],
    clause: tuple[int, int],
    sentence: tuple[int, int],
    following: int,
    metric: str | None,
) -> tuple[str, bool] | None:
    """The benchmark the number's metric gives it (the first construction of
    :data:`MEASURED_BENCHMARK` that answers), which overrides :func:`benchmark_of`'s, or None."""
    site = BenchmarkSite(text, q, benchmarks, clause, sentence, following)
    return next((f for c in MEASURED_BENCHMARK.entries if (f := c.run(site, metric)) is not None), None)


# Contract v3: a benchmark from context, in exactly two cases. (1) A sentence that scopes the
# ones after it ('We evaluate on SQuAD. Our model reaches 81.1 F1.'), until a sentence names
# another benchmark; (2) a paper that evaluates on exactly one named benchmark, for a number that
# is a result of that evaluation. A number pooled over several (an average), one of efficiency
# (speed, memory, cost), and one of a sentence that brings a test set of its own ('a spelling
# probe over 110 pairs shows ...' is measured on the probe) is not taken to that benchmark.
_SCOPES = re.compile(
    r"\b(?:evaluat\w*|experiments?|test(?:s|ed)?\s+(?:on|it)|benchmark(?:ed|ing)\s+on|assess\w*)\b",
    re.IGNORECASE,
)
# 'across' pools only over evaluations ('across tasks', 'across five datasets'); 'across six models'
# and 'across 2,400 pairs' say whose and how many, not that several benchmarks are pooled.
_EVALUATIONS = r"(?:tasks|benchmarks|datasets|domains|languages|suites|subsets|evaluations|categories)"
_POOLED = re.compile(
    r"\b(?:averag\w*|on\s+average|overall|mean|all\s+" + _EVALUATIONS + r"|across\s+(?:[\w,-]+\s+){0,3}?" + _EVALUATIONS + r")\b",
    re.IGNORECASE,
)
_OWN_TEST_SET = re.compile(
    r"\b(?:probes?|stud(?:y|ies)|surveys?|human\s+evaluation)\b",
    re.IGNORECASE,
)
_EFFICIENCY = re.compile(
    r"\b(?:speed\w*|faster|slower|latenc\w*|throughput|memory|time|times|cost\w*|flops?|parameters?|params|"
    r"size|energy|tokens?|compression|bits?|gpu|hours?|seconds?)\b",
    re.IGNORECASE,
)
# A unit of memory ('4.5 MB', '2.15 GB') makes a number a size, whatever its metric phrase reads
# (a speed in FPS is reported on a benchmark as often as not: it keeps its context).
_MEMORY_UNIT = re.compile(r"^(?:[KMGT]i?B|bytes)$")
# A benchmark named as what a model is trained on ('trained on 40 GB of text (Amazon reviews)',
# 'pre-training on C4') is a training corpus, not an evaluation set (contract v3, decisions 5, 6).
_TRAINED_ON = re.compile(
    r"\b(?:pre-?\s?)?train(?:ed|ing)\s+(?:[\w-]+\s+){0,6}?on\s+[^.;,]{0,40}$", re.IGNORECASE
)


@dataclass(frozen=True)
class ContextSite:
    """What a benchmark from context reads: the document, the number, its sentence, the
    benchmarks the abstract names and those the title names."""

    doc: Document
    q: Quantity
    sentence: tuple[int, int]
    benchmarks: list[Mention]  # the evaluation sets: those named only for training are left out
    title_benchmarks: list[str]


ContextConstruction = Callable[[ContextSite], "str | None"]


def _scoped_by_a_sentence_before(site: ContextSite) -> str | None:
    """The one benchmark of the nearest earlier sentence that names any, when that sentence
    scopes those after it ('We evaluate on SQuAD.')."""
    doc, benchmarks = site.doc, site.benchmarks
    start = site.sentence[0]
    while start > 0:
        before = doc.sentence_of(start - 1)
        if before[0] >= start:
            return None
        named = {b.name for b in benchmarks if before[0] <= b.start < before[1]}
        if named:
            scopes = len(named) == 1 and _SCOPES.search(doc.text, before[0], before[1])
            return next(iter(named)) if scopes else None
        start = before[0]
    return None


def _the_one_benchmark(site: ContextSite) -> str | None:
    """The paper's one benchmark, named in the abstract or in the title."""
    evaluated = {b.name for b in site.benchmarks} | set(site.title_benchmarks)
    return next(iter(evaluated)) if len(evaluated) == 1 else None


#: Contract v3's two cases of a benchmark from context, in the order :func:`context_benchmark`
#: tries them.
CONTEXT_BENCHMARK: Table[ContextConstruction] = Table(
    "benchmark from context",
    "only for a number whose own sentence names no benchmark, and never for an average, an "
    "efficiency number or a sentence with a test set of its own; the sentence that scopes the number "
    "is nearer than the paper's one benchmark, so it comes first",
    (
        Construction(
            'scope-sentence',
            _scoped_by_a_sentence_before,
            "'We evaluate on SQuAD. Our model reaches 81.1 F1.': a sentence scopes those after it, until one names another benchmark",
            (
                Example('We propose a new reader. We evaluate on SQuAD. Our model reaches 81.1 F1. On TriviaQA, it reaches 70.2 F1.', 'SQuAD', 'benchmark'),
                Example('We propose a new reader for SQuAD and TriviaQA. We evaluate on SQuAD. Across 2,400 questions, our model reaches 81.1 F1.', 'SQuAD', 'benchmark'),
            ),
        ),
        Construction(
            'single-benchmark',
            _the_one_benchmark,
            'a paper that evaluates on exactly one named benchmark, in its abstract or its title, reports its results there; a corpus named only as what is trained on is not evaluated on',
            (
                Example('We introduce a new parser. Our parser reaches 93.1 F1.', 'Penn Treebank', 'benchmark', title='A Span-Based Parser on the Penn Treebank'),
                Example('We introduce a new tagger, trained on 40 GB of text (Amazon Reviews). Our tagger reaches 93.1 F1.', 'SST-2', 'benchmark', title='A Sentiment Tagger for SST-2'),
                Example('We introduce a new scene-graph parser for Visual Genome. Our parser reaches a mean recall of 15.9.', 'Visual Genome', 'benchmark'),
            ),
        ),
    ),
)


@dataclass(frozen=True)
class KeptSite:
    """What keeps a number from a benchmark from context: its sentence's text and its metric."""

    sentence: str
    metric: str | None
    unit: str | None = None


def _pooled(site: KeptSite) -> bool:
    """A word of pooling in the sentence, outside the number's own metric when that names a mean
    ('mean recall (mR@50) of 15.9', 'mean IoU'): a metric's name pools nothing."""
    sentence = site.sentence
    if site.metric and site.metric.lower().startswith("mean "):
        sentence = sentence.replace(site.metric, " ")
    return _POOLED.search(sentence) is not None


def _efficiency(site: KeptSite) -> bool:
    if site.unit and _MEMORY_UNIT.match(site.unit):
        return True
    return _EFFICIENCY.search(site.metric or site.sentence) is not None


def _own_test_set(site: KeptSite) -> bool:
    return _OWN_TEST_SET.search(site.sentence) is not None


#: The numbers no benchmark from context is given to: :func:`context_benchmark` asks each.
NOT_FROM_CONTEXT: Table[Callable[[KeptSite], bool]] = Table(
    "no benchmark from context",
    "asked before the two cases of the benchmark from context, for a number whose own sentence "
    "names no benchmark; any that answers keeps the number without one (the order does not matter)",
    (
        Construction(
            'pooled',
            _pooled,
            "'on average across tasks': a number pooled over several evaluations is none of them ('across 2,400 questions', 'across six models' and a metric named 'mean recall' pool none)",
            (Example('We propose a new reader. We evaluate on SQuAD. Our model reaches 81.1 F1 on average across tasks.', None, 'benchmark'),),
        ),
        Construction(
            'efficiency',
            _efficiency,
            "'2.1x faster', 'uses 40% less memory', a size in MB: speed, memory and cost are the method's, not measured on the benchmark",
            (
                Example('We propose a new reader. We evaluate on SQuAD. Our model uses 40% less memory.', None, 'benchmark'),
                Example('We propose a new reader. We evaluate on SQuAD. Our model reads from a 4.5 MB buffer.', None, 'benchmark'),
            ),
        ),
        Construction(
            'own-test-set',
            _own_test_set,
            "'a spelling probe over 110 pairs shows 55.5%': a sentence that brings a test set of its own is measured on it",
            (Example('We propose a new reader. We evaluate on SQuAD. A probe of our model reaches 81.1 F1.', None, 'benchmark'),),
        ),
    ),
)


def evaluation_sets(doc: Document, benchmarks: list[Mention]) -> list[Mention]:
    """The mentions of the benchmarks a paper evaluates on: a benchmark every mention of which
    names what is trained on ('trained on 40 GB of text (Amazon reviews)') is left out."""
    evaluated = {
        b.name for b in benchmarks if _TRAINED_ON.search(doc.text, doc.sentence_of(b.start)[0], b.start) is None
    }
    return [b for b in benchmarks if b.name in evaluated]


def context_benchmark(
    doc: Document, q: Quantity, benchmarks: list[Mention], title_benchmarks: list[str], metric: str | None,
) -> str | None:
    """The benchmark the text scopes a number to when its own sentence names none and no entry of
    :data:`NOT_FROM_CONTEXT` keeps it (the constructions of :data:`CONTEXT_BENCHMARK`), else None."""
    sentence = doc.sentence_of(q.start)
    if any(sentence[0] <= b.start < sentence[1] for b in benchmarks):
        return None
    kept = KeptSite(doc.text[sentence[0] : sentence[1]], metric, q.unit)
    if any(c.run(kept) for c in NOT_FROM_CONTEXT.entries):
        return None
    site = ContextSite(doc, q, sentence, evaluation_sets(doc, benchmarks), title_benchmarks)
    return next((f for c in CONTEXT_BENCHMARK.entries if (f := c.run(site)) is not None), None)
