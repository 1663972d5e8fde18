"""What each reported result is about, read from the grammar of its sentence (ANNOTATION.md,
"Attribution").

Each attribute has its module: :mod:`.metric`, :mod:`.benchmark`, :mod:`.subject` and
:mod:`.change` (kind, direction, baseline), all reading noun phrases with :mod:`.phrases`.
:func:`build_claims` reads them for each result, then :func:`.lists.align` aligns the results
of a sentence with each other (lists, ``respectively``, shares).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from extractor.text.name_keys import name_key
from extractor.rules.attribution.benchmark import benchmark_in_metric, benchmark_of, context_benchmark
from extractor.rules.attribution.change import (
    baseline_of,
    improved_direction,
    kind_of,
    kind_of_gap,
    starting_condition,
)
from extractor.rules.attribution.lists import Draft, align
from extractor.rules.attribution.metric import metric_of
from extractor.rules.attribution.subject import (
    UNNAMED_PROPOSED,
    Subjects,
    measure_names,
    proposed_method,
    subject_of,
)
from extractor.rules.claims import CLAIM, SETTING, Reading
from extractor.rules.quantities import Quantity
from extractor.rules.document import Document, Mention
from extractor.rules.table import Construction, Example, Table
from extractor.schema import MAX_EVIDENCE, ClaimDraft
from extractor.text.numbers import NumberMention, bound_before

__all__ = ["Subjects", "build_claims", "measure_names", "proposed_method"]


@dataclass(frozen=True)
class Named:
    """What a result's words named, as each step of :func:`build_claims` read it: a check of
    :data:`METRIC_CHECK` or :data:`SUBJECT_CHECK` may clear a name that cannot be what it was
    read as."""

    metric: str | None
    firm: bool
    benchmark: str | None
    method: str | None
    benchmark_keys: frozenset[str]


NamedCheck = Construction[Callable[[Named], "Named | None"]]


def _metric_naming_the_benchmark(n: Named) -> Named | None:
    if n.metric and n.benchmark and name_key(n.metric) == name_key(n.benchmark):
        return replace(n, metric=None, firm=False)
    return None


def _loose_metric_naming_the_subject(n: Named) -> Named | None:
    return replace(n, metric=None) if not n.firm and n.metric is not None and n.metric == n.method else None


def _subject_that_is_a_benchmark(n: Named) -> Named | None:
    return replace(n, method=None) if n.method and name_key(n.method) in n.benchmark_keys else None


#: A metric read with the number that only names where it was measured: the checks run once the
#: metric and benchmark are read, before anything reads the metric.
METRIC_CHECK: Table[NamedCheck] = Table(
    "metric checked against the benchmark",
    "run right after the metric and benchmark tables, before the tables that read the metric "
    "(benchmark and kind once the metric is read); each check that answers clears what it names",
    (
        Construction(
            "metric-naming-the-benchmark",
            _metric_naming_the_benchmark,
            "'GSM8K: 85.3': a label that is the benchmark's name says where the number was measured, not what",
            (Example("We propose FooNet. FooNet scores on GSM8K: 85.3%.", None, "metric"),),
        ),
    ),
)

#: Names read for a result that cannot be what they were read as: the checks run once its subject
#: is read.
SUBJECT_CHECK: Table[NamedCheck] = Table(
    "names checked against the subject",
    "run once the subject is read (they compare the metric and the method with it), before the "
    "results of a sentence are aligned; each check that answers clears what it names",
    (
        Construction(
            "loose-metric-naming-the-subject",
            _loose_metric_naming_the_subject,
            "'a 70.2% supervised baseline': a noun loosely bound after the number that is also its subject names whose the number is, not what",
            (Example("FooNet reaches 80.1% accuracy on MMLU against a 70.2% supervised baseline.", None, "metric", claim=1),),
        ),
        Construction(
            "subject-that-is-a-benchmark",
            _subject_that_is_a_benchmark,
            "'The accuracies on MNIST and SVHN are ...': a benchmark read as the subject says where, never who",
            (Example("We evaluate FooNet on MNIST and SVHN. MNIST reaches 98.1% accuracy.", None, "method"),),
        ),
    ),
)


def _checked(table: Table[NamedCheck], named: Named) -> Named:
    """``named`` after every check of ``table`` that answers, in order."""
    for construction in table.entries:
        named = construction.run(named) or named
    return named


def _setting(readings: list[Reading], text: str, span: tuple[int, int]) -> str | None:
    phrases = []
    for r in readings:
        if r.role == SETTING and span[0] <= r.phrase[0] and r.phrase[1] <= span[1]:
            phrase = text[r.phrase[0] : r.phrase[1]].strip(" ,;(")
            if phrase and phrase not in phrases:
                phrases.append(phrase)
    return ", ".join(phrases[:3]) or None


def _unit(q: Quantity) -> str | None:
    if q.form == "fraction" and q.denominator is not None:
        return f"/{q.denominator:g}"
    if q.unit is None and q.scale is not None:
        return q.scale
    return q.unit


def _evidence(doc: Document, q: Quantity, mentions: list[NumberMention]) -> str:
    """The clause that states the number (the sentence when the clause is a stub), cut so that
    this number is the first of its value in it: grounding locates a claim by its first match."""
    text = doc.text
    start, end = doc.clause_of(q.start)
    if end < q.end or end - start < 30:
        start, end = doc.sentence_of(q.start)
        end = max(end, q.end)
    for m in mentions:
        if m.start >= q.start:
            break
        if m.start >= start and m.matches(q.value):
            start = q.start
            break
    if end - start > MAX_EVIDENCE:  # a run-on sentence: the part around the number
        start = max(start, min(q.start, end - MAX_EVIDENCE))
        end = start + MAX_EVIDENCE
    return text[start:end].strip()


def _past_math(text: str, q: Quantity) -> Quantity:
    """'$80.3\\%$ zero-shot ImageNet-1k accuracy', '\\textbf{85.3\\%} accuracy': the words bound to a
    number written in inline math or in a macro's braces start after they close."""
    return replace(q, end=q.end + 1) if text[q.end : q.end + 1] in ("$", "}") else q


def _in_name(q: Quantity, names: list[Mention]) -> bool:
    """A version written apart from its name ('FlowNet 2.0 is ...', 'on VQA v2.0') is part of a
    method or benchmark the rules found, not a result."""
    return any(m.start <= q.start and q.end <= m.end for m in names)


def build_claims(
    doc: Document,
    readings: list[Reading],
    mentions: list[NumberMention],
    benchmarks: list[Mention],
    subjects: Subjects,
    title_benchmarks: tuple[str, ...] = (),
) -> list[ClaimDraft]:
    """A claim for every quantity read as a result, with what its sentence says about it (and
    a benchmark its context gives, contract v3: ``title_benchmarks`` are those the title names)."""
    text = doc.text
    names = [*subjects.methods, *subjects.models, *benchmarks]
    results = [
        _past_math(text, r.quantity) for r in readings if r.role == CLAIM and not _in_name(r.quantity, names)
    ]
    drafts: list[Draft] = []
    benchmark_keys = frozenset(name_key(b.name) for b in benchmarks)
    for index, q in enumerate(results):
        clause = doc.clause_of(q.start)
        sentence = doc.sentence_of(q.start)
        following = results[index + 1].start if index + 1 < len(results) else len(text)
        limit = min(clause[1], following)
        kind, direction = kind_of(doc, q, clause)
        metric, firm = metric_of(doc, q, clause, sentence, limit)
        benchmark, own_benchmark = benchmark_of(text, q, benchmarks, clause, sentence, following)
        read = _checked(METRIC_CHECK, Named(metric, firm, benchmark, None, benchmark_keys))
        metric, firm = read.metric, read.firm
        named = benchmark_in_metric(text, q, benchmarks, clause, sentence, following, metric)
        if named:  # 'improves GSM8K accuracy by 3.1 points and MATH accuracy by 4.2 points'
            benchmark, own_benchmark = named
        kind, direction = kind_of_gap(text, q, (clause, sentence), metric, (kind, direction))
        baseline = baseline_of(text, q, clause) if kind == "change" or q.form == "before" else None
        if q.form == "before" and baseline is None:
            baseline = starting_condition(text, q, sentence, subjects)
        previous = doc.sentence_of(sentence[0] - 1) if sentence[0] > 0 else None
        method, model, compared = subject_of(text, q, (sentence, previous), limit, subjects, baseline)
        read = _checked(SUBJECT_CHECK, Named(metric, firm, benchmark, method, benchmark_keys))
        metric, method = read.metric, read.method
        drafts.append(
            Draft(q, metric, firm, benchmark, own_benchmark, method, model, baseline, kind, direction, compared)
        )
    align(doc, drafts, benchmarks, subjects)
    drafts = [
        d if d.benchmark else replace(d, benchmark=context_benchmark(doc, d.q, benchmarks, title_benchmarks, d.metric))
        for d in drafts
    ]
    own = {m.name for m in subjects.methods} | ({subjects.proposed} if subjects.proposed else set())
    return [
        ClaimDraft(
            value=d.q.value,
            value_max=d.q.value_max,
            bound=bound_before(text, d.q.start),
            unit=_unit(d.q),
            metric=d.metric,
            benchmark=d.benchmark,
            method=None if d.method == UNNAMED_PROPOSED else d.method,
            model=d.model,
            baseline=d.baseline,
            setting=_setting(readings, text, doc.clause_of(d.q.start))
            or _setting(readings, text, doc.sentence_of(d.q.start)),
            kind=d.kind,
            direction=improved_direction(
                text, d.q, (doc.clause_of(d.q.start), doc.sentence_of(d.q.start)), d.metric, (d.kind, d.direction)
            ),
            proposed=d.method is not None and d.method in own,
            evidence=_evidence(doc, d.q, mentions),
        )
        for d in drafts
    ]
