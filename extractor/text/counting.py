"""A count and its noun, singular or plural as the number wants: '1 block', '2 blocks'."""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``counted(1, "block")`` is '1 block'; ``counted(2, "batch", "batches")`` '2 batches'.
    Thousands are separated, as everywhere the tool prints a count."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"
