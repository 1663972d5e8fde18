"""Engines turn papers into journal lines (the backend's answer, grounded: :mod:`.finish`):
:class:`BackendEngine` runs a backend's requests on this event loop (cache, concurrency, rate and
cost caps); a CPU-bound backend runs in worker processes instead (:mod:`.process_pool`). The
runner's stream drives either the same way."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Protocol

from extractor.backends.base import BackendResult, RequestBackend
from extractor.errors import BackendError, BudgetExceeded
from extractor.backends.cache import ExtractionCache, cache_key
from extractor.pipeline.finish import Failure, finish
from extractor.pipeline.ingest import Paper
from extractor.backends.limits import RateLimiter, Spend
from extractor.schema import Usage


@dataclass(frozen=True)
class Work:
    """A paper to extract, at its input position."""

    position: int
    paper: Paper


class Engine(Protocol):
    """Turns papers into journal lines; ``batch`` papers per call, at most ``window`` in flight."""

    batch: int
    window: int

    async def finish(self, works: list[Work]) -> list[tuple[int, str]]: ...

    async def aclose(self) -> None: ...


class BackendEngine:
    """A backend that sends requests, on this event loop, within its limits: ``concurrency``
    requests at once, the rate and cost caps; with the cache. With ``answered`` (a batch's
    answers by cache key) nothing is sent online: a paper's answer is the batch's, else the
    cache's."""

    batch = 1

    def __init__(
        self,
        backend: RequestBackend,
        cache: ExtractionCache | None,
        answered: dict[str, BackendResult | BackendError] | None = None,
    ) -> None:
        limits = backend.limits
        self.window = 2 * limits.concurrency  # the next papers are ready when a slot frees
        self._answered = answered
        self._backend = backend
        self._identity = backend.identity()
        self._cache = cache if backend.cacheable else None
        self._semaphore = asyncio.Semaphore(limits.concurrency)
        self._limiter = RateLimiter(limits.rpm)
        self._spend = Spend(limits.max_cost)

    async def _obtain(self, paper: Paper) -> BackendResult:
        key = cache_key(self._identity, paper.abstract, paper.title)
        if self._answered is not None:  # answered by the batch (its own usage), else by the cache
            outcome = self._answered.get(key) or (self._cache.get(key) if self._cache is not None else None)
            if outcome is None:
                raise BackendError("the batch gave no answer for this abstract; rerun to send it again")
            if isinstance(outcome, BackendError):
                raise outcome
            return outcome
        if self._cache is not None:
            hit = self._cache.get(key)
            if hit is not None:
                return hit
        async with self._semaphore:
            self._spend.check()
            await self._limiter.wait()
            try:
                outcome = await self._backend.extract(paper.abstract, paper.title)
            except BackendError as exc:  # failed attempts cost money too
                self._spend.spent += exc.usage.cost_usd if exc.usage else 0.0
                raise
        self._spend.spent += outcome.usage.cost_usd
        if self._cache is not None:
            self._cache.put(key, outcome)
        return outcome

    async def finish(self, works: list[Work]) -> list[tuple[int, str]]:
        [work] = works
        try:
            outcome: BackendResult | Failure = await self._obtain(work.paper)
        except Exception as exc:  # one paper's failure never stops the batch
            message = str(exc) if isinstance(exc, BudgetExceeded) else f"{type(exc).__name__}: {exc}"
            usage = exc.usage if isinstance(exc, BackendError) and exc.usage else Usage()
            outcome = Failure(message, usage)
        return [(work.position, finish(work.position, work.paper, outcome))]

    async def aclose(self) -> None:
        await self._backend.aclose()
