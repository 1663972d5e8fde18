"""The unit a text writes right after a number, and whether a claim's unit or metric agrees.

Grounding asks what the evidence writes at a claim's number: '41.3 ms' is a time, so a claim of
41.3 % there (or of a top-1 accuracy, which is measured in %) says what the text does not. Only
units a reader cannot mistake are read: percentages and points, ratios ('2.3x', '3 times'),
times, memory sizes, token and frame rates, decibels.
"""

from __future__ import annotations

import re
from functools import lru_cache

# Each unit: its spellings (a pattern, case ignored), the unit, what kind of quantity it measures.
_UNITS: tuple[tuple[str, str, str], ...] = (
    (r"(?:%|percent(?:age)?)\s?points?\b|pp\b|p\.p\.|points?\b|pts?\b", "points", "proportion"),
    (r"%|percent\b|per\s?cent\b|pct\b", "%", "proportion"),
    (r"(?:[x\u00d7](?![a-z])|times\b|-?fold\b)(?!\s?\d)", "x", "ratio"),  # not '3 x 3' (a product)
    (r"[\u00b5\u03bcu]s\b|microseconds?\b", "\u00b5s", "time"),
    (r"ms\b|msecs?\b|milliseconds?\b", "ms", "time"),
    (r"s\b|secs?\b|seconds?\b", "s", "time"),
    (r"mins?\b|minutes?\b", "min", "time"),
    (r"h\b|hrs?\b|hours?\b", "h", "time"),
    *((rf"{p}{i}b\b", f"{p.upper()}{i}B", "memory") for p in "kmgt" for i in ("", "i")),
    (r"tokens?\s?/\s?s(?:ec)?\b|tok/s\b|tokens?\s+per\s+second\b", "tokens/s", "rate"),
    (r"fps\b|frames?\s?(?:/\s?s(?:ec)?|per\s+second)\b", "fps", "rate"),
    (r"db\b", "dB", "decibels"),
)
_SPELLINGS = re.compile("|".join(f"(?P<u{i}>{pattern})" for i, (pattern, _, _) in enumerate(_UNITS)), re.IGNORECASE)
# What may stand between a number and its unit: '41.3 ms', '83.6\\%' (LaTeX), '18 % PER'.
_BETWEEN = re.compile(r"[ \t\u00a0\u202f~]{0,2}\\?")


def _read(text: str, at: int = 0) -> tuple[str, str] | None:
    """(unit, kind) of the unit spelled at ``at`` in ``text``, if any."""
    found = _SPELLINGS.match(text, at)
    if found is None:
        return None
    _, unit, kind = _UNITS[int(found.lastgroup[1:])]  # type: ignore[index]
    return unit, kind


def unit_at(text: str, end: int) -> str | None:
    """The unit written right after the number that ends at ``end`` ('ms' in '41.3 ms per
    query'), in one spelling; None when no unit a reader cannot mistake is written there."""
    read = _read(text, _BETWEEN.match(text, end).end())  # type: ignore[union-attr]
    return read[0] if read else None


@lru_cache(maxsize=1024)
def _claimed(unit: str) -> tuple[str, str] | None:
    """(unit, kind) of a claim's or the registry's unit, read from its start ('ms per query')."""
    return _read(unit.strip())


def unit_kind(unit: str | None) -> str | None:
    """What a unit measures: 'proportion', 'ratio', 'time', 'memory', 'rate' or 'decibels';
    None for a unit not read here."""
    read = _claimed(unit) if unit else None
    return read[1] if read else None


def same_unit(claimed: str, written: str) -> bool:
    """Whether a claim's unit says what the text writes at its number: the same unit in any
    spelling, or a percentage and points (a writer's '2.3%' gain is often points)."""
    read = _claimed(claimed)
    return read is not None and (read[0] == written or {read[0], written} <= {"%", "points"})
