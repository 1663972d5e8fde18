"""Batch extraction as a stream: read, deduplicate, extract in a bounded window, journal, write.

Records are read one at a time and flow to the backend through a window of bounded size;
each finished paper is appended to the run's journal (:mod:`extractor.runs.journal`) at once, so memory
does not grow with the input and a run killed at any moment loses only the papers in flight.
Running the same command again takes every paper the journal already has and does the rest.
At the end ``papers.jsonl`` (input order), ``claims.csv`` and ``run.json`` are written from
the journal.

A CPU-bound backend (the rules) runs in its ``workers`` processes once a run is big enough to
pay for starting them (:mod:`.process_pool`); a backend that sends requests runs them on one
event loop within its limits (:mod:`.engines`). The optional steps a backend may have
(:mod:`extractor.backends.base`) are asked for here: a batch's round before the stream, and
after extraction the names the registry does not know, mapped before ``run.json`` is written.
"""

from __future__ import annotations

import asyncio
import json
import logging
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, cast

from extractor.backends.base import (
    Backend,
    BackendResult,
    BatchBackend,
    HandoffBackend,
    BatchPaper,
    CpuBoundBackend,
    NameMappingBackend,
    RequestBackend,
)
from extractor.backends.by_name import get_backend
from extractor.backends.cache import ExtractionCache, cache_key
from extractor.config import RunConfig
from extractor.errors import BackendError, ConfigError, NoInputError, StoreError
from extractor.pipeline.dedupe import Deduper, abstract_hash, in_shard
from extractor.pipeline.engines import BackendEngine, Engine, Work
from extractor.pipeline.finish import finish, fingerprint, reused
from extractor.pipeline.guard import check_request, hold_run_dir, input_paths
from extractor.pipeline.ingest import Paper, count_records, paper_id, read_inputs
from extractor.pipeline.process_pool import PoolEngine
from extractor.runs.corrections import read_history
from extractor.runs.files import (
    CLAIMS_FILE,
    NAMES_FILE,
    PAPERS_FILE,
    REVIEWED_CLAIMS_FILE,
    REVIEWED_STAMP,
    RUN_LEADERBOARD,
    STORE_FILE,
)
from extractor.runs.journal import Entry, Journal
from extractor.runs.names import reviewer_words
from extractor.runs.run import Run
from extractor.runs.writer import RunWriter, claims_text
from extractor.schema import PaperResult, Source, Usage
from extractor.text.safe import path_text
from extractor.version import __version__


log = logging.getLogger(__name__)

#: Called with the journal header of each paper as it finishes (``ok``, ``usage``, ``id``, ``error``).
ResultCallback = Callable[[dict], None]
BatchCallback = Callable[[Any], None]  # a BatchProgress of backends/openai/batch.py

#: The input of papers finished by an engine outside a run (:func:`write_results`).
ENGINE = "<engine>"
#: Failures kept for the end-of-run report (all of them are in papers.jsonl).
FAILURES_SHOWN = 50
_NO_INPUT = "no abstracts in {}: nothing to extract, no run written"


@dataclass
class RunSummary:
    """What a run did: its directory, the ``run.json`` content and the first failures. The
    papers stay on disk (``results`` reads them back) so a summary is small at any scale."""

    out_dir: Path
    info: dict = field(default_factory=dict)
    failures: list[tuple[str, str]] = field(default_factory=list, repr=False)  # (paper id, error)
    notes: list[str] = field(default_factory=list)  # what else was written, for the user

    @property
    def failed(self) -> int:
        return self.info["counts"]["failed"]

    @property
    def run(self) -> Run:
        """The run directory written, to read."""
        return Run.open(self.out_dir)

    @property
    def results(self) -> list[PaperResult]:
        return list(self.run.papers())


def _engine(
    backend: Backend, config: RunConfig, cache: ExtractionCache | None, answered: dict | None
) -> Engine:
    """The engine a backend runs in: worker processes for a CPU-bound one, else this loop."""
    if backend.cpu_bound:
        return PoolEngine(cast(CpuBoundBackend, backend), config)
    return BackendEngine(cast(RequestBackend, backend), cache, answered)


def batch_papers(
    inputs: list[str], config: RunConfig, backend: Backend, cache: ExtractionCache | None, journal: Journal, out_dir: Path,
) -> dict[str, BatchPaper]:
    """Every distinct abstract of this shard that neither the journal nor the cache has, by
    cache key: what a batch must answer. (A batch is one file of requests: these papers are
    held in memory while it is made and read.)"""
    identity = backend.identity()
    wanted: dict[str, BatchPaper] = {}
    for position, paper, digest, first in admitted(inputs, config.max_chars, out_dir):
        if paper.error or first != position or not in_shard(paper, digest, config.shard):
            continue
        key = cache_key(identity, paper.abstract, paper.title)
        if key not in wanted and not journal.done(position, fingerprint(paper)) and (cache is None or cache.get(key) is None):
            wanted[key] = BatchPaper(key, paper.abstract, paper.title)
    return wanted


async def batch_answers(
    inputs: list[str], config: RunConfig, backend: Backend, cache: ExtractionCache | None, journal: Journal,
    out_dir: Path, on_batch: BatchCallback | None,
) -> tuple[dict[str, BackendResult | BackendError] | None, dict]:
    """The answers of a batch, by cache key, for every paper :func:`batch_papers` lists, each
    cached the moment it is validated: from the backend's own batch (:class:`BatchBackend`), or
    from another engine's output files (:class:`HandoffBackend` importing); and what run.json
    says of it. None when this run sends no batch."""
    importing = isinstance(backend, HandoffBackend) and backend.importing
    batching = isinstance(backend, BatchBackend) and backend.batching
    if not (importing or batching):
        return None, {}
    wanted = batch_papers(inputs, config, backend, cache, journal, out_dir)
    store = cache.put if cache is not None else (lambda key, result: None)
    if importing:
        answers, report = backend.import_batch(list(wanted.values()), out_dir, store)  # type: ignore[union-attr]
        return answers, {"batch_import": report.summary()}
    if not wanted:
        return {}, {}
    return await backend.extract_batch(list(wanted.values()), out_dir, store, on_batch), {}  # type: ignore[union-attr]


@dataclass
class ExportSummary:
    """What a batch export wrote: the request files still waiting for answers."""

    out_dir: Path
    identity: dict
    files: list[Any]  # the backend's files, each with path, twin, round and requests

    @property
    def requests(self) -> int:
        return sum(f.requests for f in self.files)


def export_batch(inputs: list[str], out_dir: Path, config: RunConfig, overwrite: bool = False) -> ExportSummary:
    """Write the requests of every paper neither done nor cached into ``out_dir/batch/`` for
    another engine to run, and send nothing (a backend with ``batch_export``); a run with
    ``batch_import`` reads the answers back."""
    out_dir = Path(out_dir)
    check_request(inputs, out_dir)
    backend = get_backend(config)
    if not (isinstance(backend, HandoffBackend) and backend.exporting):
        raise ConfigError(f"backend {config.backend} does not export its requests here; give it the {{batch_export}} option", ("batch_export",))
    with hold_run_dir(out_dir, inputs, overwrite):
        cache = ExtractionCache(config.cache_dir) if config.use_cache else None
        journal = Journal(out_dir, backend.identity())
        try:
            wanted = batch_papers(inputs, config, backend, cache, journal, out_dir)
            files = backend.export_batch(list(wanted.values()), out_dir)
        finally:
            journal.close()
            if cache is not None:
                cache.close()
    return ExportSummary(out_dir, backend.identity(), files)


class _Stream:
    """Drives the papers through an engine in a bounded window and journals every result.

    A paper whose abstract an earlier paper has (its "first") is not sent: it is grounded on
    the first's answer, at once when that is in the journal, or when it arrives.
    """

    def __init__(self, engine: Engine, journal: Journal, on_result: ResultCallback | None) -> None:
        self.engine = engine
        self.journal = journal
        self.on_result = on_result
        self.tasks: set[asyncio.Task] = set()
        self.in_flight = 0
        self.running: set[int] = set()  # positions of firsts not yet journaled
        self.waiting: dict[int, list[Work]] = {}  # first position -> its repeats
        self.batch: list[Work] = []

    def settle(self, lines: list[tuple[int, str]]) -> None:
        self.journal.append(lines)
        for position, line in lines:
            self.running.discard(position)
            if self.on_result:
                self.on_result(json.loads(line.split("\t", 1)[0]))
            repeats = self.waiting.pop(position, None)
            if repeats:
                self.in_flight -= len(repeats)
                outcome = reused(Entry.parse(line))
                self.settle([(w.position, finish(w.position, w.paper, outcome)) for w in repeats])

    def _launch(self) -> None:
        if self.batch:
            works, self.batch = self.batch, []
            task = asyncio.ensure_future(self.engine.finish(works))
            task.size = len(works)  # type: ignore[attr-defined]
            self.tasks.add(task)

    async def _drain(self) -> None:
        done, _ = await asyncio.wait(self.tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            self.tasks.discard(task)
            self.in_flight -= task.size  # type: ignore[attr-defined]
            self.settle(task.result())

    async def add(self, work: Work, first: int) -> None:
        if first != work.position:
            if first in self.running:
                self.waiting.setdefault(first, []).append(work)
                self.in_flight += 1
            else:
                entry = self.journal.entry(first)
                assert entry is not None, f"position {first} is neither done nor running"
                self.settle([(work.position, finish(work.position, work.paper, reused(entry)))])
            return
        self.running.add(work.position)
        self.batch.append(work)
        self.in_flight += 1
        if len(self.batch) >= self.engine.batch:
            self._launch()
        while self.in_flight >= self.engine.window and self.tasks:
            await self._drain()

    async def close(self) -> None:
        self._launch()
        while self.tasks:
            await self._drain()


def admitted(
    inputs: list[str], max_chars: int, scratch: Path
) -> Iterator[tuple[int, Paper, str | None, int]]:
    """Every record to extract: (position, paper, abstract hash, position of the first paper
    with that abstract). A repeated id with the same abstract is left out; with another
    abstract it becomes an input error."""
    deduper = Deduper(scratch)
    try:
        for position, raw in enumerate(read_inputs(inputs, max_chars)):
            verdict = deduper.admit(position, raw)
            if verdict is not None:
                yield position, verdict.paper, verdict.digest, verdict.first
    finally:
        deduper.close()


def load_papers(inputs: list[str], max_chars: int) -> list[Paper]:
    """Every record of ``inputs``, one per id (a clash of ids is an input error), in memory:
    for counting (a dry run), not for a batch."""
    with tempfile.TemporaryDirectory() as scratch:
        return [paper for _, paper, _, _ in admitted(inputs, max_chars, Path(scratch))]


def abstract_groups(papers: list[Paper]) -> dict[str, list[int]]:
    """The indices of the readable papers by abstract hash: one request each, made for the
    first paper of the group."""
    groups: dict[str, list[int]] = {}
    for index, paper in enumerate(papers):
        if not paper.error:
            groups.setdefault(abstract_hash(paper.abstract), []).append(index)
    return groups


async def _stream(
    inputs: list[str], config: RunConfig, engine: Engine, journal: Journal, scratch: Path,
    on_result: ResultCallback | None,
) -> tuple[int, int]:
    """Run every record through ``engine``; (records read, records already in the journal)."""
    stream = _Stream(engine, journal, on_result)
    count = resumed = 0
    try:
        for position, paper, digest, first in admitted(inputs, config.max_chars, scratch):
            count = position + 1
            if not in_shard(paper, digest, config.shard):
                journal.forget(position)
            elif journal.done(position, fingerprint(paper)):
                resumed += 1
            elif paper.error:
                stream.settle([(position, finish(position, paper, None))])
            else:
                await stream.add(Work(position, paper), first)
        await stream.close()
    finally:
        for task in stream.tasks:
            task.cancel()
        await engine.aclose()
    return count, resumed


async def _extract(
    inputs: list[str], config: RunConfig, backend: Backend, cache: ExtractionCache | None, journal: Journal,
    out_dir: Path, on_result: ResultCallback | None, on_batch: BatchCallback | None,
) -> tuple[int, int, dict]:
    """A batch's answers first when the backend has one, then the stream; (records read,
    resumed, what run.json says of the batch)."""
    try:
        answered, said = await batch_answers(inputs, config, backend, cache, journal, out_dir, on_batch)
    except BaseException:
        await backend.aclose()
        raise
    count, resumed = await _stream(inputs, config, _engine(backend, config, cache, answered), journal, out_dir, on_result)
    return count, resumed, said


@dataclass
class _Tally:
    """run.json's counts and usage, summed over the journal's lines in input order."""

    counts: dict = field(default_factory=lambda: dict.fromkeys(
        ("papers", "ok", "failed", "claims", "rejected", "cached"), 0))
    usage: Usage = field(default_factory=Usage)
    failures: list[tuple[str, str]] = field(default_factory=list)

    def add_result(self, result: PaperResult) -> None:
        """A paper finished outside a run (:func:`write_results`)."""
        self.add({
            "ok": result.status == "ok", "claims": len(result.extraction.claims) if result.extraction else 0,
            "rejected": len(result.rejected), "usage": result.usage.model_dump(), "id": result.id, "error": result.error,
        })

    def add(self, header: dict) -> None:
        usage = Usage(**header["usage"])
        self.counts["papers"] += 1
        self.counts["ok" if header["ok"] else "failed"] += 1
        self.counts["claims"] += header["claims"]
        self.counts["rejected"] += header["rejected"]
        self.counts["cached"] += bool(usage.cached and header["ok"])
        self.usage += usage
        if not header["ok"] and len(self.failures) < FAILURES_SHOWN:
            self.failures.append((header["id"], header["error"]))


def extract(abstract: str, title: str | None = None, config: RunConfig | None = None) -> PaperResult:
    """Extract one abstract (offline rules unless ``config`` says otherwise), grounded."""
    config = config or RunConfig()
    paper = Paper(id=paper_id(abstract), abstract=abstract.strip(), title=title, source=Source(file="<python>"))
    engine = _engine(get_backend(config), config, None, None)

    async def go() -> list[tuple[int, str]]:
        try:
            return await engine.finish([Work(0, paper)])
        finally:
            await engine.aclose()

    [(_, line)] = asyncio.run(go())
    return PaperResult.model_validate_json(Entry.parse(line).paper_line)


def run(
    inputs: list[str],
    out_dir: Path,
    config: RunConfig,
    on_start: Callable[[int | None], None] | None = None,
    on_result: ResultCallback | None = None,
    on_batch: BatchCallback | None = None,
    overwrite: bool = False,
) -> RunSummary:
    """Extract every record of ``inputs`` (this shard's share of them) into the run directory
    ``out_dir``, continuing from its journal when an earlier run was cut short. With
    ``config.batch`` the requests go through the Batch API first (state in ``out_dir``).

    Refused before any work: a missing input, an ``out_dir`` that is a file, inputs holding no
    record, a directory another run is writing, or one holding a different run (unless
    ``overwrite``); see :mod:`extractor.pipeline.guard`.
    """
    out_dir = Path(out_dir)
    check_request(inputs, out_dir)
    started = datetime.now(timezone.utc)
    files = [name for name in inputs if name != "-"]  # stdin can be read once: it is checked as it is read
    if files == inputs:
        check_some_record(inputs, config.max_chars)
    with hold_run_dir(out_dir, inputs, overwrite):
        return _run(inputs, out_dir, config, started, on_start, on_result, on_batch)


def check_some_record(inputs: list[str], max_chars: int) -> None:
    """Refuse inputs that hold no record to extract: nothing at all (empty files, an empty
    directory), or only files that cannot be read as a whole (a CSV without an abstract column).
    Reads up to the first record of a file that can be read."""
    unread: list[str] = []
    for paper in read_inputs(inputs, max_chars):
        if not paper.whole_file:
            return
        unread.append(paper.error or "")
    reasons = f" ({'; '.join(unread[:5])}{'; ...' if len(unread) > 5 else ''})" if unread else ""
    raise NoInputError(_NO_INPUT.format(", ".join(map(path_text, inputs)) + reasons))


def _run(
    inputs: list[str],
    out_dir: Path,
    config: RunConfig,
    started: datetime,
    on_start: Callable[[int | None], None] | None,
    on_result: ResultCallback | None,
    on_batch: BatchCallback | None,
) -> RunSummary:
    backend = get_backend(config)
    cache = ExtractionCache(config.cache_dir) if config.use_cache and backend.cacheable else None
    journal = Journal(out_dir, backend.identity())
    if on_start:  # stdin and a shard's share are not counted ahead; an earlier run's are done
        total = None if config.shard else count_records(inputs)
        on_start(None if total is None else max(total - journal.finished, 0))
    try:
        count, resumed, said = asyncio.run(_extract(inputs, config, backend, cache, journal, out_dir, on_result, on_batch))
        if count == 0:
            raise NoInputError(_NO_INPUT.format(", ".join(map(path_text, inputs))))
        tally = _Tally()
        writer = RunWriter(out_dir)
        importing = isinstance(backend, HandoffBackend) and backend.importing  # an import sends nothing
        asking = isinstance(backend, NameMappingBackend) and backend.maps_names and not importing
        names: list[tuple[str, str]] = []
        try:
            for entry in journal.entries(count):
                tally.add(entry.header)
                writer.add(entry.paper_line, json.loads(entry.claims))
                if asking and entry.header["ok"]:
                    names += claim_names(entry.paper_line)
        except BaseException:
            writer.abandon()
            raise
        report = _map_names(out_dir, backend, names, cache, tally) if asking else None
        info = {**run_info(config, backend, tally, started, inputs, resumed), **said}
        if report is not None:
            info["names"] = report.summary()
        if cache is not None and cache.problem:
            info["cache_problem"] = cache.problem
        writer.finish(info)
    finally:
        journal.close()
        if cache is not None:
            cache.close()
    return RunSummary(out_dir=out_dir, info=info, failures=tally.failures)


def write_results(out_dir: Path, results: Iterable[PaperResult], config: RunConfig) -> RunSummary:
    """A run directory from papers an engine finished outside a run (each answer turned into a
    result by :func:`~extractor.halves.paper_result`, in a Ray Data pipeline
    say): ``papers.jsonl``, ``claims.csv`` and ``run.json``, as a run writes them, for
    ``extractor leaderboard``, ``review`` and ``report``. Written one paper at a time."""
    identity = get_backend(config, sending=False).identity()
    out_dir = Path(out_dir)
    started = datetime.now(timezone.utc)
    tally = _Tally()
    with hold_run_dir(out_dir, [ENGINE]):
        writer = RunWriter(out_dir)
        try:
            for result in results:
                tally.add_result(result)
                writer.add(result.model_dump_json(exclude_none=False), claims_text(result))
        except BaseException:
            writer.abandon()
            raise
        finished = datetime.now(timezone.utc)
        info = {
            "extractor_version": __version__, "inputs": [ENGINE], **identity,
            "started": started.isoformat(timespec="seconds"), "finished": finished.isoformat(timespec="seconds"),
            "seconds": round((finished - started).total_seconds(), 3),
            "counts": {**tally.counts, "resumed": 0}, "usage": tally.usage.model_dump(exclude={"cached"}), "files": RUN_FILES,
        }
        writer.finish(info)
    return RunSummary(out_dir=out_dir, info=info, failures=tally.failures)


def claim_names(paper_line: str) -> list[tuple[str, str]]:
    """The (kind, name) of every benchmark and metric a paper's claims give."""
    extraction = json.loads(paper_line).get("extraction") or {}
    return [
        (kind, claim[kind]) for claim in extraction.get("claims", []) for kind in ("benchmark", "metric") if claim.get(kind)
    ]


def _map_names(
    out_dir: Path, backend: NameMappingBackend, names: list[tuple[str, str]], cache: ExtractionCache | None, tally: _Tally,
) -> Any:
    """The backend's names step, after extraction, its usage added to the run's; the names a
    reviewer of the run has spoken about are settled, not asked."""
    try:
        words = reviewer_words(read_history(out_dir / STORE_FILE))
    except StoreError as exc:  # the run's outputs come first; the names are asked without the reviewers' word
        log.warning("warning: %s; names the reviewers settled are asked again", exc)
        words = {}
    settled = {(kind, key) for kind, table in words.items() for key in table}
    report = backend.map_names(out_dir, names, settled, cache, tally.usage.cost_usd)
    tally.usage += report.usage
    return report


#: What each file of a run holds: which are the raw extraction, which carry the corrections.
RUN_FILES = {
    PAPERS_FILE: "raw extraction, one paper a line",
    CLAIMS_FILE: "raw extraction, one claim a row",
    REVIEWED_CLAIMS_FILE: "claims.csv with the reviewers' corrections applied (rewritten by `review apply`)",
    RUN_LEADERBOARD: "ranked scores, corrections applied (rewritten by `review apply`)",
    STORE_FILE: "the reviewers' corrections, append-only",
    NAMES_FILE: "names the registry does not know, mapped by the model (openai backend; applied after the reviewers' aliases)",
    REVIEWED_STAMP: "which corrections claims.reviewed.csv and leaderboard.xlsx carry (files a stopped command left behind are rewritten)",
}


def run_info(
    config: RunConfig, backend: Backend, tally: _Tally, started: datetime, inputs: list[str], resumed: int
) -> dict:
    finished = datetime.now(timezone.utc)
    return {
        "extractor_version": __version__,
        "inputs": inputs,
        "input_paths": input_paths(inputs),
        **backend.identity(),
        **backend.report(),  # e.g. a mode fallback
        **({"shard": f"{config.shard[0]}/{config.shard[1]}"} if config.shard else {}),
        "started": started.isoformat(timespec="seconds"),
        "finished": finished.isoformat(timespec="seconds"),
        "seconds": round((finished - started).total_seconds(), 3),
        "counts": {**tally.counts, "resumed": resumed},
        "usage": tally.usage.model_dump(exclude={"cached"}),
        "files": RUN_FILES,
    }
