"""Progress of long library work, reported to whoever shows it (the CLI draws rich bars on
stderr; a library caller passes nothing and pays nothing)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")

#: Called as ``step(stage, done, total)``: ``done`` of the ``total`` units of ``stage`` are finished.
Step = Callable[[str, int, int], None]

UPDATES = 200  # the most reports one stage sends, however many items it has


def silent(stage: str, done: int, total: int) -> None:
    """The step of a caller who shows no progress."""


def tracked(items: Sequence[T], stage: str, step: Step = silent) -> Iterator[T]:
    """Yield ``items`` and report them done under ``stage`` (at most :data:`UPDATES` times)."""
    total = len(items)
    every = max(1, total // UPDATES)
    step(stage, 0, total)
    for done, item in enumerate(items, start=1):
        yield item
        if done % every == 0 or done == total:
            step(stage, done, total)
