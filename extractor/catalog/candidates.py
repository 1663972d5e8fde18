"""The registry entries an unknown name is closest to: the closed list a model may answer from
(:mod:`extractor.backends.openai.names`), short so that each request stays short.

rapidfuzz's ``WRatio`` (which weighs a name that is a part or a reordering of another) over
every registry name and alias; each entry is listed once, under its canonical name, best first.
"""

from __future__ import annotations

from functools import cache, lru_cache

from extractor.catalog.registry import load_registry

#: How many registry entries a name request lists.
CANDIDATES = 12


@cache
def _surfaces(kind: str) -> tuple[list[str], list[str]]:
    """Every name and alias of the registry's benchmarks or metrics, and its canonical name."""
    registry = load_registry()
    entries = registry.benchmarks if kind == "benchmark" else registry.metrics
    pairs = [(surface, entry.name) for entry in entries for surface in (entry.name, *entry.aliases)]
    return [s for s, _ in pairs], [c for _, c in pairs]


@lru_cache(maxsize=65536)
def candidates(kind: str, name: str, limit: int = CANDIDATES) -> tuple[str, ...]:
    """The ``limit`` registry entries (canonical names) closest to ``name``, best first."""
    from rapidfuzz import fuzz, process, utils  # imported on first use, as the proposal does

    surfaces, canonical = _surfaces(kind)
    found: dict[str, None] = {}
    for _, _, index in process.extract(
        name, surfaces, scorer=fuzz.WRatio, processor=utils.default_process, limit=len(surfaces)
    ):
        found.setdefault(canonical[index])
        if len(found) == limit:
            break
    return tuple(found)
