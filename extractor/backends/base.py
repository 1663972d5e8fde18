"""The backend protocol: what every backend returns and the methods it has.

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
    #: CPU-bound (the rules): run in worker processes, each building the backend by name and
    #: calling ``draft``; otherwise requests, ``concurrency`` at once on the run's event loop.
    cpu_bound: bool

    def identity(self) -> dict:
        """Everything that changes the output: part of the cache key and of run.json."""

    def report(self) -> dict:
        """How the run went, for run.json (an endpoint, a mode fallback); may be empty."""

    async def extract(self, abstract: str, title: str | None) -> BackendResult:
        """Extract one abstract; raise :class:`~extractor.errors.BackendError` on failure."""

    async def aclose(self) -> None:
        """Release connections."""


class CpuBoundBackend(Backend, Protocol):
    """A backend with ``cpu_bound = True``: it also extracts without an event loop."""

    def draft(self, abstract: str, title: str | None) -> BackendResult:
        """Extract one abstract; called in worker processes."""
