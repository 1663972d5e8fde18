"""Name matching for scoring: the rule of ANNOTATION.md for methods, benchmarks and subjects."""

from __future__ import annotations

from collections.abc import Sequence

from extractor.text.name_keys import name_key

MIN_CONTAINED = 3  # a name must have this many characters (after name_key) to match inside another


def name_cost(names: Sequence[str], aliases: Sequence[str]) -> int | None:
    """0 for an exact (normalized) match, 1 for containment, None for no match."""
    keys = [k for k in map(name_key, names) if k]
    targets = [k for k in map(name_key, aliases) if k]
    if any(k == t for k in keys for t in targets):
        return 0
    for k in keys:
        for t in targets:
            short, long = (k, t) if len(k) <= len(t) else (t, k)
            if len(short) >= MIN_CONTAINED and short in long:
                return 1
    return None
