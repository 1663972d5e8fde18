"""The registry entries an unknown name is closest to: the closed list a model may answer from
(:mod:`extractor.backends.openai.name_requests`), short so that each request stays short.

Each registry name and alias is scored against the name by the standard library's
``SequenceMatcher`` ratio, of the names as written and of their words sorted (so a reordering
scores as a match), case and punctuation folded; each entry is listed once, under its canonical
name, best first.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from functools import cache, lru_cache

from extractor.catalog.registry import load_registry

#: How many registry entries a name request lists.
CANDIDATES = 12


_WORD = re.compile(r"\w+")


def _forms(name: str) -> tuple[str, str]:
    """A name folded (lower case, words joined by one space) and its words sorted."""
    words = _WORD.findall(name.lower())
    return " ".join(words), " ".join(sorted(words))


@cache
def _surfaces(kind: str) -> tuple[list[tuple[str, str]], list[str]]:
    """Every name and alias of the registry's benchmarks or metrics (both forms), and its
    canonical name."""
    registry = load_registry()
    entries = registry.benchmarks if kind == "benchmark" else registry.metrics
    pairs = [(surface, entry.name) for entry in entries for surface in (entry.name, *entry.aliases)]
    return [_forms(s) for s, _ in pairs], [c for _, c in pairs]


def _score(matcher: SequenceMatcher, text: str) -> float:
    matcher.set_seq1(text)
    return matcher.ratio() if matcher.real_quick_ratio() > 0.3 else 0.0


@lru_cache(maxsize=65536)
def candidates(kind: str, name: str, limit: int = CANDIDATES) -> tuple[str, ...]:
    """The ``limit`` registry entries (canonical names) closest to ``name``, best first."""
    surfaces, canonical = _surfaces(kind)
    folded, ordered = _forms(name)
    as_written, sorted_words = SequenceMatcher(b=folded, autojunk=False), SequenceMatcher(b=ordered, autojunk=False)
    scores = [max(_score(as_written, f), _score(sorted_words, o)) for f, o in surfaces]
    found: dict[str, None] = {}
    for index in sorted(range(len(scores)), key=lambda i: -scores[i]):
        found.setdefault(canonical[index])
        if len(found) == limit:
            break
    return tuple(found)
