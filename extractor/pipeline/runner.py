"""Batch extraction: read, deduplicate, extract with bounded concurrency, ground, write.

The cache is the resume mechanism: every successful extraction is stored the moment it
returns, so a run killed at any point is continued by running the same command again.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from extractor.backends.base import Backend, BackendResult
from extractor.backends.registry import get_backend
from extractor.config import RunConfig
from extractor.errors import BackendError, BudgetExceeded, NoInputError
from extractor.grounding import ground
from extractor.pipeline.cache import ExtractionCache, cache_key
from extractor.pipeline.ingest import Paper, paper_id, read_inputs
from extractor.pipeline.rundir import write_run
from extractor.pipeline.rundir_guard import check_request, hold_run_dir, input_paths
from extractor.schema import PaperResult, Source, Usage
from extractor.text.hashing import normalize_text
from extractor.version import __version__

ResultCallback = Callable[[PaperResult], None]
BatchCallback = Callable[[Any], None]  # a BatchProgress of backends/openai/batch.py


class RateLimiter:
    """Spaces request starts so no more than ``rpm`` begin in any minute."""

    def __init__(self, rpm: float | None) -> None:
        self._interval = 60.0 / rpm if rpm else 0.0
        self._next = 0.0
        self._lock = asyncio.Lock()

    async def wait(self) -> None:
        if not self._interval:
            return
        async with self._lock:
            now = time.monotonic()
            delay = self._next - now
            self._next = max(now, self._next) + self._interval
        if delay > 0:
            await asyncio.sleep(delay)


@dataclass
class Spend:
    """Money reported by responses so far, checked before each new request."""

    cap: float | None
    spent: float = 0.0

    def check(self) -> None:
        if self.cap is not None and self.spent >= self.cap:
            raise BudgetExceeded(
                f"not sent: --max-cost ${self.cap:.4f} reached (spent ${self.spent:.4f}); "
                "rerun with a higher cap to continue"
            )


@dataclass
class RunSummary:
    results: list[PaperResult]
    info: dict = field(default_factory=dict)

    @property
    def failed(self) -> int:
        return sum(r.status == "failed" for r in self.results)


def _unique_by_id(papers: Iterable[Paper]) -> list[Paper]:
    """One record per id; a second, different abstract under a seen id is an input error."""
    first: dict[str, Paper] = {}
    out = []
    for paper in papers:
        seen = first.get(paper.id)
        if seen is None:
            first[paper.id] = paper
            out.append(paper)
        elif not paper.error and normalize_text(seen.abstract) != normalize_text(paper.abstract):
            where = f"{seen.source.file}:{seen.source.line}"
            out.append(
                Paper(
                    id=f"{paper.id}@{paper.source.file}:{paper.source.line}",
                    abstract=paper.abstract,
                    title=paper.title,
                    source=paper.source,
                    metadata=paper.metadata,
                    error=f"{paper.source.file}:{paper.source.line}: id {paper.id!r} "
                    f"already used by a different abstract at {where}",
                )
            )
    return out


def _result(paper: Paper, **fields: object) -> PaperResult:
    return PaperResult(
        id=paper.id,
        title=paper.title,
        source=paper.source,
        abstract=paper.abstract or None,
        metadata=paper.metadata,
        **fields,
    )


def load_papers(inputs: list[str], max_chars: int) -> list[Paper]:
    """Every record of ``inputs``, one per id (a clash of ids is an input error)."""
    return _unique_by_id(read_inputs(inputs, max_chars))


def abstract_groups(papers: list[Paper]) -> dict[str, list[int]]:
    """The indices of the readable papers by whitespace-folded abstract: one request each,
    made for the first paper of the group."""
    groups: dict[str, list[int]] = {}
    for index, paper in enumerate(papers):
        if not paper.error:
            groups.setdefault(normalize_text(paper.abstract), []).append(index)
    return groups


async def batch_answers(
    papers: list[Paper],
    groups: dict[str, list[int]],
    backend: Backend,
    cache: ExtractionCache | None,
    out_dir: Path,
    on_batch: BatchCallback | None,
) -> dict[str, BackendResult | BackendError]:
    """The answers of the Batch API for every distinct abstract not in the cache, by cache
    key; each one is cached the moment it is validated."""
    from extractor.backends.openai.batch import BatchPaper

    identity = backend.identity()
    wanted: dict[str, BatchPaper] = {}
    for indices in groups.values():
        paper = papers[indices[0]]
        key = cache_key(identity, paper.abstract, paper.title)
        if cache is None or cache.get(key) is None:
            wanted[key] = BatchPaper(key, paper.abstract, paper.title)
    if not wanted:
        return {}
    store = cache.put if cache is not None else (lambda key, result: None)
    return await backend.extract_batch(list(wanted.values()), out_dir, store, on_batch)  # type: ignore[attr-defined]


async def extract_papers(
    papers: list[Paper],
    backend: Backend,
    config: RunConfig,
    cache: ExtractionCache | None = None,
    on_result: ResultCallback | None = None,
    out_dir: Path | None = None,
    on_batch: BatchCallback | None = None,
) -> list[PaperResult]:
    """Extract every paper; the same abstract is sent once; results come back in input order.
    With ``config.batch`` every request goes through the Batch API (state in ``out_dir``)."""
    results: list[PaperResult | None] = [None] * len(papers)
    for index, paper in enumerate(papers):
        if paper.error:
            results[index] = _result(paper, status="failed", error=paper.error)
            if on_result:
                on_result(results[index])
    groups = abstract_groups(papers)

    identity = backend.identity()
    semaphore = asyncio.Semaphore(max(1, config.concurrency))
    limiter = RateLimiter(config.rpm)
    spend = Spend(config.max_cost)
    answered = await batch_answers(papers, groups, backend, cache, Path(out_dir or "."), on_batch) if config.batch else {}

    async def obtain(paper: Paper) -> BackendResult:
        key = cache_key(identity, paper.abstract, paper.title)
        if config.batch:  # answered by the batch (its own usage), else by the cache, never online
            outcome = answered.get(key) or (cache.get(key) if cache is not None else None)
            if outcome is None:
                raise BackendError("the batch gave no answer for this abstract; rerun to send it again")
            if isinstance(outcome, BackendError):
                raise outcome
            return outcome
        if cache is not None and backend.cacheable:
            hit = cache.get(key)
            if hit is not None:
                return hit
        async with semaphore:
            spend.check()
            await limiter.wait()
            try:
                outcome = await backend.extract(paper.abstract, paper.title)
            except BackendError as exc:  # failed attempts cost money too
                spend.spent += exc.usage.cost_usd if exc.usage else 0.0
                raise
        spend.spent += outcome.usage.cost_usd
        if cache is not None and backend.cacheable:
            cache.put(key, outcome)
        return outcome

    async def process(indices: list[int]) -> None:
        first = papers[indices[0]]
        try:
            outcome = await obtain(first)
        except Exception as exc:  # one paper's failure never stops the batch
            message = str(exc) if isinstance(exc, BudgetExceeded) else f"{type(exc).__name__}: {exc}"
            spent = exc.usage if isinstance(exc, BackendError) and exc.usage else Usage()
            for n, index in enumerate(indices):
                usage = spent if n == 0 else Usage()
                results[index] = _result(papers[index], status="failed", error=message, usage=usage)
                if on_result:
                    on_result(results[index])
            return
        for n, index in enumerate(indices):
            paper = papers[index]
            extraction, rejected = ground(outcome.draft, paper.abstract, paper.id)
            usage = outcome.usage if n == 0 else Usage(cached=True)
            results[index] = _result(
                paper, status="ok", extraction=extraction, rejected=rejected, usage=usage
            )
            if on_result:
                on_result(results[index])

    await asyncio.gather(*(process(indices) for indices in groups.values()))
    return [r for r in results if r is not None]


def extract(abstract: str, title: str | None = None, config: RunConfig | None = None) -> PaperResult:
    """Extract one abstract (offline rules unless ``config`` says otherwise), grounded."""
    config = config or RunConfig()
    paper = Paper(id=paper_id(abstract), abstract=abstract.strip(), title=title, source=Source(file="<python>"))
    backend = get_backend(config)

    async def go() -> list[PaperResult]:
        try:
            return await extract_papers([paper], backend, config)
        finally:
            await backend.aclose()

    return asyncio.run(go())[0]


def run_info(
    config: RunConfig, backend: Backend, results: list[PaperResult], started: datetime, inputs: list[str]
) -> dict:
    usage = sum((r.usage for r in results), Usage())
    finished = datetime.now(timezone.utc)
    return {
        "extractor_version": __version__,
        "inputs": inputs,
        "input_paths": input_paths(inputs),
        **backend.identity(),
        **(backend.report() if hasattr(backend, "report") else {}),  # e.g. a mode fallback
        "started": started.isoformat(timespec="seconds"),
        "finished": finished.isoformat(timespec="seconds"),
        "seconds": round((finished - started).total_seconds(), 3),
        "counts": {
            "papers": len(results),
            "ok": sum(r.status == "ok" for r in results),
            "failed": sum(r.status == "failed" for r in results),
            "claims": sum(len(r.extraction.claims) for r in results if r.extraction),
            "rejected": sum(len(r.rejected) for r in results),
            "cached": sum(r.usage.cached for r in results if r.status == "ok"),
        },
        "usage": usage.model_dump(exclude={"cached"}),
    }


def run(
    inputs: list[str],
    out_dir: Path,
    config: RunConfig,
    on_start: Callable[[int], None] | None = None,
    on_result: ResultCallback | None = None,
    on_batch: BatchCallback | None = None,
    overwrite: bool = False,
) -> RunSummary:
    """Extract every record of ``inputs`` into the run directory ``out_dir``.

    Refused before any work: a missing input, an ``out_dir`` that is a file, inputs holding no
    record, a directory another run is writing, or one holding a different run (unless
    ``overwrite``); see :mod:`extractor.pipeline.rundir_guard`.
    """
    out_dir = Path(out_dir)
    check_request(inputs, out_dir)
    started = datetime.now(timezone.utc)
    papers = load_papers(inputs, config.max_chars)
    if not papers:
        raise NoInputError(f"no abstracts in {', '.join(inputs)}: nothing to extract, no run written")
    with hold_run_dir(out_dir, inputs, overwrite):
        return _run_papers(papers, inputs, out_dir, config, started, on_start, on_result, on_batch)


def _run_papers(
    papers: list[Paper],
    inputs: list[str],
    out_dir: Path,
    config: RunConfig,
    started: datetime,
    on_start: Callable[[int], None] | None,
    on_result: ResultCallback | None,
    on_batch: BatchCallback | None,
) -> RunSummary:
    if on_start:
        on_start(len(papers))
    backend = get_backend(config)
    cache = ExtractionCache(config.cache_dir) if config.use_cache and backend.cacheable else None

    async def go() -> list[PaperResult]:
        try:
            return await extract_papers(papers, backend, config, cache, on_result, out_dir, on_batch)
        finally:
            await backend.aclose()

    try:
        results = asyncio.run(go())
    finally:
        if cache is not None:
            cache.close()
    info = run_info(config, backend, results, started, inputs)
    if cache is not None and cache.problem:
        info["cache_problem"] = cache.problem
    write_run(out_dir, results, info)
    return RunSummary(results=results, info=info)
