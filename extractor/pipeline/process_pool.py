"""A CPU-bound backend (the rules) in worker processes: papers go out in batches, journal lines
come back. Below :data:`POOL_AFTER` papers the work stays in this process, where starting
workers would cost more than it saves."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import cast

from extractor.backends.base import BackendResult, CpuBoundBackend
from extractor.backends.by_name import get_backend
from extractor.config import RunConfig
from extractor.pipeline.engines import Work
from extractor.pipeline.finish import Failure, finish
from extractor.schema import Usage

#: Papers below which the backend runs in this process: starting workers costs more than it saves.
POOL_AFTER = 1_000
#: Papers per task sent to a worker: large enough that sending costs little.
POOL_BATCH = 64

_worker_backend: CpuBoundBackend | None = None  # each worker process builds its own, once


def _watch(parent: int) -> None:
    """Leave when the run that started this worker is gone. A run killed with SIGKILL cannot
    stop its workers, and they would wait for work for ever."""

    def watch() -> None:
        while True:
            time.sleep(0.5)
            try:
                os.kill(parent, 0)
            except ProcessLookupError:
                os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _start_worker(parent: int, config: RunConfig) -> None:
    """A worker's first act: watch its parent, and build the run's backend."""
    global _worker_backend
    _watch(parent)
    _worker_backend = cast(CpuBoundBackend, get_backend(config))


def drafted_lines(backend: CpuBoundBackend, works: list[Work]) -> list[tuple[int, str]]:
    """Extract, ground and serialize papers with a CPU-bound backend's ``draft``."""
    out = []
    for work in works:
        try:
            outcome: BackendResult | Failure = backend.draft(work.paper.abstract, work.paper.title)
        except Exception as exc:  # a bug on one odd abstract must not stop the batch
            outcome = Failure(f"{type(exc).__name__}: {exc}", Usage())
        out.append((work.position, finish(work.position, work.paper, outcome)))
    return out


def _worker_lines(works: list[Work]) -> list[tuple[int, str]]:
    assert _worker_backend is not None, "a worker runs _start_worker first"
    return drafted_lines(_worker_backend, works)


class PoolEngine:
    """A CPU-bound backend in its ``workers`` processes (started once the run passes
    :data:`POOL_AFTER` papers), or in this one; each worker builds the backend from ``config``."""

    batch = POOL_BATCH

    def __init__(self, backend: CpuBoundBackend, config: RunConfig) -> None:
        self._backend = backend
        self._config = config
        self._workers = backend.workers
        self.window = POOL_BATCH * 4 * backend.workers
        self._pool: ProcessPoolExecutor | None = None
        self._sent = 0

    async def finish(self, works: list[Work]) -> list[tuple[int, str]]:
        self._sent += len(works)
        if self._workers == 1 or (self._pool is None and self._sent <= POOL_AFTER):
            return drafted_lines(self._backend, works)
        if self._pool is None:
            # forkserver: workers do not inherit this process's threads (a progress bar's);
            # the backend's module is imported once, in the server, for every worker
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload([__name__, type(self._backend).__module__])
            self._pool = ProcessPoolExecutor(
                self._workers, mp_context=context, initializer=_start_worker, initargs=(os.getpid(), self._config)
            )
        return await asyncio.get_running_loop().run_in_executor(self._pool, _worker_lines, works)

    async def aclose(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
