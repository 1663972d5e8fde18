"""Constructions as data: each sentence construction the rules read is a named entry
of its field's table, with the function it runs, why it exists or sits where it does, and the
sentences it was written for with what the rules must read from them. A table is a tuple in
order: its position is its order, and each table's docstring says why the order matters.

``tests/test_rules.py`` runs every example through the whole extractor; ``python -m
extractor.rules.constructions`` writes the page that lists them (docs/constructions.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

F = TypeVar("F", bound=Callable[..., object])


@dataclass(frozen=True)
class Example:
    """A sentence a construction was written for, and the value of ``attribute`` on its claim
    number ``claim`` (in the order written) that the whole extractor must read from it.
    ``attribute`` ``values`` is the values of all its claims (for what is or is not a claim)."""

    text: str
    expected: object
    attribute: str
    claim: int = 0
    title: str | None = None


@dataclass(frozen=True)
class Construction(Generic[F]):
    """One construction: its name, the function it runs, a one-line reason, its examples."""

    name: str
    run: F
    reason: str
    examples: tuple[Example, ...]


@dataclass(frozen=True)
class Table(Generic[F]):
    """A field's constructions in the order they are tried; ``order`` says why it matters."""

    field: str
    order: str
    entries: tuple[Construction[F], ...]

    def __post_init__(self) -> None:
        names = [c.name for c in self.entries]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ValueError(f"table {self.field!r}: constructions named twice: {', '.join(duplicates)}")
        bare = [c.name for c in self.entries if not c.examples]
        if bare:
            raise ValueError(f"table {self.field!r}: constructions without an example: {', '.join(bare)}")
