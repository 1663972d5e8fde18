"""The backend protocol: what every backend returns and the three methods it has.

A backend turns one abstract into an :class:`~extractor.schema.ExtractionDraft`; grounding,
caching, retries of the batch and output are the runner's business, so the offline rules and
any LLM meet the same small interface.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from extractor.grounding import Checked
from extractor.schema import ExtractionDraft, Usage


@dataclass
class BackendResult:
    draft: ExtractionDraft
    usage: Usage
    checked: Checked | None = None  # the draft's grounding when the backend did it already (in validation)


class Backend(Protocol):
    name: str
    cacheable: bool

    def identity(self) -> dict:
        """Everything that changes the output: part of the cache key and of run.json."""

    async def extract(self, abstract: str, title: str | None) -> BackendResult:
        """Extract one abstract; raise :class:`~extractor.errors.BackendError` on failure."""

    async def aclose(self) -> None:
        """Release connections."""
