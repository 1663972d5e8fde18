"""The offline rules extractor: pure functions from an abstract to an ExtractionDraft.

No network and no model: a number grammar (:mod:`.quantities`) reads every number with its
unit, range and context; :mod:`.claims` decides which are reported results and
:mod:`.attribution` what each is about (metric, benchmark, subject, kind, baseline);
:mod:`.coined` (with :mod:`.cues`, :mod:`.acronyms` and :mod:`.chunks`), :mod:`.models` and
:mod:`.benchmarks` find the paper's own methods, the models with their sizes and the datasets.
Every claim's evidence is a fragment of the abstract, so everything it returns survives
grounding.
"""

from __future__ import annotations

import re

from extractor.catalog.registry import find_benchmarks
from extractor.text.name_keys import name_key, unique_names
from extractor.rules.acronyms import abbreviations
from extractor.rules.attribution import Subjects, build_claims, measure_names, proposed_method
from extractor.rules.benchmark_names import find_benchmark_mentions
from extractor.rules.claims import read_all
from extractor.rules.cues import FIRST_PERSON, Name
from extractor.rules.models import find_models, named_models
from extractor.rules.coined import find_names, singular, title_name
from extractor.rules.quantities import parse_quantities
from extractor.rules.document import Document, Mention, written_at
from extractor.schema import Benchmark, ExtractionDraft, Method
from extractor.text.numbers import find_numbers

RULES_VERSION = "3.1"
# A model named by more than its size ('LLaMA2-7B', 'Mistral 7B'; not '27B models', '720M scale').
_NAMED = re.compile(r"[A-Z][A-Za-z]|[A-Za-z]-?\d|\d[A-Za-z]*-[A-Z]")

__all__ = ["RULES_VERSION", "extract"]


def extract(abstract: str, title: str | None = None) -> ExtractionDraft:
    """Methods, models, benchmarks and claims the abstract states, each with its own words; the
    title names the paper's method ('CyCADA: ...', contract v3: even when the abstract does not
    write it) and the benchmarks it names."""
    doc = Document(abstract)
    mentions = find_numbers(abstract)
    readings = read_all(doc, parse_quantities(doc, mentions))
    sized, sized_mentions = find_models(doc, readings)
    named, named_mentions = named_models(doc, sized_mentions)
    models = unique_names(sized + named)  # a sized reading comes first and wins
    model_mentions = sized_mentions + named_mentions
    model_spans = [(m.start, m.end) for m in model_mentions]
    acronyms = abbreviations(doc)
    names = find_names(doc, acronyms)
    benchmark_mentions = find_benchmark_mentions(doc, names, acronyms, model_spans)
    benchmark_keys = {name_key(b.name) for b in benchmark_mentions}
    own = [
        n
        for n in names
        if n.kind == "method" and not {name_key(a) for a in (n.name, *n.aliases)} & benchmark_keys
    ]
    titled = title_name(title, abstract) if title else None
    known = benchmark_keys | {name_key(a) for n in names for a in (n.name, *n.aliases)}
    known |= {name_key(m.name) for m in models}
    if titled and singular(name_key(titled[0])) not in {singular(k) for k in known}:
        # a title's name the abstract first writes in a first-person sentence ('we propose
        # quantized densely connected U - Nets'), before any other name, is the main method
        at = len(own)
        if titled[1] < 0:  # written only in the title, which names the paper's method (v3)
            at = 0
        elif FIRST_PERSON.search(abstract, *doc.sentence_of(titled[1])):
            at = next((i for i, n in enumerate(own) if n.start > titled[1]), at)
        own.insert(at, Name(titled[0], (), titled[1], "method"))
    methods = [Method(name=n.name, aliases=list(n.aliases), proposed=True) for n in own]
    forms = [(n.name, (n.name, *n.aliases)) for n in own]
    written = _written(abstract, forms)
    subjects = Subjects(
        methods=written,
        models=[m for m in model_mentions if _NAMED.search(m.name)],
        # v3: a paper that proposes a method it never names still has one ('our model reaches ...')
        proposed=proposed_method(abstract, tuple(n.name for n in own)),
        measures=measure_names(abstract, forms, written),
    )
    titled_benchmarks = tuple(dict.fromkeys(b.canonical for b in find_benchmarks(title))) if title else ()
    claims = build_claims(
        doc, readings, mentions, _everywhere(abstract, benchmark_mentions), subjects, titled_benchmarks
    )
    benchmarks = unique_names([*(b.name for b in benchmark_mentions), *titled_benchmarks], name=str)
    return ExtractionDraft(
        methods=methods,
        models=models,
        benchmarks=[Benchmark(name=b) for b in benchmarks],
        claims=claims,
    )


def _written(text: str, names: list[tuple[str, tuple[str, ...]]]) -> list[Mention]:
    """Every place a name, or one of its aliases, is written: a subject is found where it acts."""
    found = []
    for name, surfaces in names:
        for surface in surfaces:
            found.extend(Mention(name, start, start + len(surface)) for start in written_at(text, surface))
    return sorted(found, key=lambda m: m.start)


def _everywhere(text: str, mentions: list[Mention]) -> list[Mention]:
    """Every place a benchmark's name is written, once a cue has shown it is one ('We release
    IneqMath ... An evaluation on IneqMath shows ...'): a claim is tied to the mention near it."""
    spans = [(m.start, m.end) for m in mentions]
    names = [(name, (name,)) for name in dict.fromkeys(m.name for m in mentions)]
    more = [w for w in _written(text, names) if not any(s < w.end and w.start < e for s, e in spans)]
    return sorted([*mentions, *more], key=lambda m: m.start)
