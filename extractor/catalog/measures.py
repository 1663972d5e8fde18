"""The measure a benchmark is scored in, for a metric a paper writes as an alternation.

Papers that report on several benchmarks at once name the measures together: "we improve the
results of bpc / perplexity from 1.06 to 0.99 on enwik8, ..., from 20.5 to 18.3 on WikiText-103"
means bits per character on the character-level sets and perplexity on the word-level ones. An
extraction that takes one of the two for every number puts text8's 1.08 under perplexity. The
registry knows which measures a benchmark is scored in (``scored_in`` of
``extractor/data/benchmarks.json``); when the claim's own evidence writes its metric and one of
those as one alternation ('X / Y', 'X or Y'), the benchmark's measure is the one meant.

Without such an alternation the metric stays as written: text8 has word-level perplexities too
(End-To-End Memory Networks), and "Penn Treebank" is written for its character-level set, so a
measure the registry does not list is no error by itself. Pure functions over the registry.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from extractor.catalog.registry import benchmark_entry, metric_entry

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
