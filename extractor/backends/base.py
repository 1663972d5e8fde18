"""The backend protocol: what every backend returns and the methods it has, and the optional
steps some backends add.

A backend turns one abstract into an :class:`~extractor.schema.ExtractionDraft`; grounding,
caching, retries of the batch and output are the runner's business, so the offline rules and
any LLM meet the same small interface. Work that only some backends do is an optional step the
runner asks for when the backend has it (as ``isinstance(backend, BatchBackend)``):

- :class:`BatchBackend`: many abstracts sent as one batch (the OpenAI Batch API);
- :class:`EstimatingBackend`: what a run would send and cost, sending nothing (a dry run);
- :class:`NameMappingBackend`: after extraction, the names the registry does not know mapped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from extractor.grounding import Checked
from extractor.schema import ExtractionDraft, Usage

if TYPE_CHECKING:
    from extractor.backends.limits import RequestLimits

#: The run's response cache (:class:`extractor.backends.cache.ExtractionCache`, which stores
#: this module's results), or None when the run keeps none.
Cache = Any


@dataclass
class BackendResult:
    draft: ExtractionDraft
    usage: Usage
    checked: Checked | None = None  # the draft's grounding when the backend did it already (in validation)


class Backend(Protocol):
    name: str
    cacheable: bool
    #: CPU-bound (the rules): run in worker processes, each building the backend by name and
    #: calling ``draft``; otherwise requests, within ``limits``, on the run's event loop.
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

    workers: int  # processes to run in

    def draft(self, abstract: str, title: str | None) -> BackendResult:
        """Extract one abstract; called in worker processes."""


class RequestBackend(Backend, Protocol):
    """A backend with ``cpu_bound = False``: it sends requests, within these limits."""

    limits: RequestLimits


@dataclass(frozen=True)
class BatchPaper:
    """One distinct abstract to extract in a batch; ``key`` (its cache key) names it throughout."""

    key: str
    abstract: str
    title: str | None


#: Keeps one answer the moment it is validated (the run's cache), by key.
Store = Callable[[str, BackendResult], None]
#: Told of a batch's progress (a backend's own progress record).
OnBatch = Callable[[Any], None]


@runtime_checkable
class BatchBackend(Protocol):
    """A backend that can send many abstracts as one batch; ``batching`` when this run does."""

    batching: bool

    async def extract_batch(
        self, papers: list[BatchPaper], directory: Path, store: Store, on_progress: OnBatch | None = None,
    ) -> dict[str, Any]:
        """The answers by key: a :class:`BackendResult`, or the BackendError of a paper that got none."""


@runtime_checkable
class HandoffBackend(Protocol):
    """A backend whose requests another engine can run: written as files and sent by nobody
    (``exporting``), or its answers read back from that engine's files (``importing``)."""

    exporting: bool
    importing: bool

    def export_batch(self, papers: list[BatchPaper], directory: Path) -> list[Any]:
        """Write the requests of ``papers`` for another engine; the files still waiting for answers."""

    def import_batch(self, papers: list[BatchPaper], directory: Path, store: Store) -> tuple[dict[str, Any], Any]:
        """The answers by key (a :class:`BackendResult`, or a paper's BackendError: failed, or
        pending), and the import's report (``summary()`` for run.json)."""


class Estimate(Protocol):
    """What a backend would send for a run's pending abstracts, as (what, how much) lines."""

    requests: int
    cost_usd: float | None

    def rows(self) -> list[tuple[str, str]]: ...


@runtime_checkable
class EstimatingBackend(Protocol):
    """A backend that can say what it would send and cost, sending nothing."""

    def estimate(
        self, pending: list[tuple[str, str | None]], answered: list[ExtractionDraft], cache: Cache,
    ) -> Estimate:
        """The requests for the ``pending`` abstracts (and titles), and the steps after them for
        the ``answered`` drafts already in the cache."""


@runtime_checkable
class NameMappingBackend(Protocol):
    """A backend that, after extraction, maps the benchmark and metric names the registry does
    not know (the run's ``names.json``); ``maps_names`` when this run does."""

    maps_names: bool

    def map_names(
        self, run_dir: Path, names: Iterable[tuple[str, str]], settled: set[tuple[str, str]],
        cache: Cache, spent: float,
    ) -> Any:
        """Ask about every new (kind, name) not ``settled`` by reviewers; the step's report
        (``summary()`` for run.json, ``usage`` counted in the run's)."""
