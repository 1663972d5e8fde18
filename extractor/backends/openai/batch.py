"""The OpenAI Batch API: the online requests, sent as a file and answered within 24 hours at
half the price, outside the online rate limits.

Papers in, per-paper results out (:func:`extract_batch`). Each paper's request body is the
online one (:func:`~extractor.backends.openai.exchange.request_body`, same mode), one JSONL line
whose ``custom_id`` is the paper's cache key. The file is uploaded (files API, purpose
``batch``), a batch is created over it, and polled; its output and error files are downloaded
into the run directory, and every answer is parsed, validated and grounded by
:func:`~extractor.backends.openai.exchange.parse_answer`, exactly as online. An answer worth a
re-ask (not JSON, not the schema, ungrounded) goes out again in a follow-up batch, with
instructor's re-ask messages, within the online limits (two re-asks, one for grounding).

Everything needed to resume is in ``RUN_DIR/batch/``: ``state.json`` (each submission: its
input file, file id, batch id, what is carried over for re-asks, and whether its answers were
taken), the input files, and the downloaded output and error files. Each step is recorded
before the next one starts, so a client killed at any moment resumes on rerun: a submission
with a batch id is polled, never created again; one whose file was uploaded but whose batch id
was not recorded is looked up among the batches (by input file) before a batch is created.
Papers of an expired, failed or cancelled batch, and papers whose line came back with an HTTP
error, fail with a reason that says so; they are not in the cache, so a rerun sends them again.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from openai import APIError, APIStatusError
from openai.types import Batch

from extractor.backends.base import BackendResult, BatchPaper, Store
from extractor.backends.openai.batch_answers import Answered, TokenCounter, best, follow_up, judge
from extractor.backends.openai.batch_files import (
    BATCH_DIR,
    ENDPOINT,
    BatchState,
    Carry,
    Submission,
    read_outputs,
)
from extractor.backends.openai.exchange import request_body
from extractor.backends.openai.prompts import Prompt
from extractor.backends.openai.session import open_client
from extractor.backends.openai.options import OpenAIOptions
from extractor.errors import BackendError
from extractor.text.safe import redact, url_secrets

log = logging.getLogger(__name__)
COMPLETION_WINDOW = "24h"
TERMINAL = frozenset({"completed", "expired", "cancelled", "failed"})
RERUN = "rerun to send it again"


@dataclass(frozen=True)
class BatchProgress:
    """One poll of one batch, for a progress line."""

    batch_id: str
    round: int
    status: str
    completed: int
    failed: int
    total: int

    def line(self) -> str:
        kind = "requests" if self.round == 1 else f"re-asks (round {self.round})"
        return f"batch {self.batch_id}: {self.status}, {self.completed + self.failed}/{self.total} {kind} answered, {self.failed} failed"


OnProgress = Callable[[BatchProgress], None]


class BatchRun:
    """One run directory's batches against one endpoint; see the module docstring."""

    def __init__(
        self, config: OpenAIOptions, directory: Path, prompt: Prompt, mode: str,
        poll_seconds: float, on_progress: OnProgress | None = None,
    ) -> None:
        self.config = config
        self.mode = mode
        self.prompt = prompt
        self.poll_seconds = poll_seconds
        self.on_progress = on_progress
        self.state = BatchState(directory / BATCH_DIR)
        self.client, self.url = open_client(config, config.max_retries)
        self.secrets = url_secrets(config.base_url, config.api_key)  # what a server may repeat
        self.tokens = TokenCounter(prompt, mode, config, self.url)

    async def extract(self, papers: list[BatchPaper], store: Store) -> dict[str, BackendResult | BackendError]:
        """Every paper's draft (stored with ``store`` the moment it is validated) or its failure."""
        wanted = {paper.key: paper for paper in papers}
        results: dict[str, BackendResult | BackendError] = {}
        waiting = {key for s in self.state.open() for key in s.keys}
        fresh = [p for p in papers if p.key not in waiting]
        if fresh:
            self.state.add(1, ((p.key, request_body(self.mode, self.prompt.messages(p.abstract, p.title), self.config)) for p in fresh))
            self.state.save()
        while True:
            mine = [s for s in self.state.open() if any(key in wanted for key in s.keys)]
            if not mine:
                return results
            for submission in mine:
                await self._submit(submission)
            await asyncio.gather(*(self._finish(s, wanted, results, store) for s in mine))

    async def _submit(self, submission: Submission) -> None:
        """Upload the file and create the batch, unless an earlier run did (never twice)."""
        if submission.file_id is None:
            uploaded = await self.client.files.create(file=self.state.directory / submission.name, purpose="batch")
            submission.file_id = uploaded.id
            self.state.save()
        if submission.batch_id is None:
            existing = await self._batch_of(submission.file_id)
            batch = existing or await self.client.batches.create(
                input_file_id=submission.file_id, endpoint=ENDPOINT, completion_window=COMPLETION_WINDOW,
                metadata={"extractor_input": submission.name},
            )
            submission.batch_id, submission.status = batch.id, batch.status
            self.state.save()

    async def _batch_of(self, file_id: str) -> Batch | None:
        """The batch already made of this input file, if a killed run created it unrecorded. A
        server without the list (404 or 405: several OpenAI-compatible ones) has none to find
        that way: the state file alone says what was created."""
        try:
            async for batch in self.client.batches.list(limit=100):
                if batch.input_file_id == file_id:
                    return batch
        except APIStatusError as exc:
            if exc.status_code not in (404, 405):
                raise
        return None

    async def _finish(
        self, submission: Submission, wanted: dict[str, BatchPaper],
        results: dict[str, BackendResult | BackendError], store: Store,
    ) -> None:
        """Poll until the batch ends, then take its answers."""
        assert submission.batch_id is not None
        while True:
            batch = await self.client.batches.retrieve(submission.batch_id)
            counts = batch.request_counts
            if self.on_progress:
                self.on_progress(BatchProgress(
                    batch.id, submission.round, batch.status,
                    counts.completed if counts else 0, counts.failed if counts else 0,
                    counts.total if counts and counts.total else len(submission.keys),
                ))
            if batch.status in TERMINAL:
                break
            await asyncio.sleep(self.poll_seconds)
        submission.status = batch.status
        outputs = {
            "output": await self._download(batch.output_file_id, f"{batch.id}-output.jsonl"),
            "errors": await self._download(batch.error_file_id, f"{batch.id}-errors.jsonl"),
        }
        answered = await self._read(submission, batch, outputs, wanted)
        for key, answer in answered.items():
            if answer.result is not None:
                store(key, answer.result)
                results[key] = answer.result
            elif answer.error is not None:
                results[key] = BackendError(answer.error, answer.carry.usage(self.config.model))
        follow_up(self.state, submission, {key: a for key, a in answered.items() if a.reask is not None}, self.mode)
        # the follow-up and "taken" are recorded together: a rerun either takes this batch's
        # answers again (the cache makes that harmless) or finds the follow-up, never both
        submission.taken = True
        submission.carry = {}
        self.state.save()

    @staticmethod
    def _carry(submission: Submission, key: str) -> Carry:
        """A copy of what earlier rounds left for ``key``: the recorded one is never changed."""
        return replace(submission.carry.get(key) or Carry())

    async def _download(self, file_id: str | None, name: str) -> Path | None:
        """The output or error file, kept in the batch directory."""
        if file_id is None:
            return None
        path = self.state.directory / name
        if not path.exists():
            tmp = path.with_name(f".{name}.tmp")
            async with self.client.files.with_streaming_response.content(file_id) as response:
                await response.stream_to_file(tmp)
            if self.secrets:  # kept on disk, and read into errors: what it repeats of the credentials goes
                clean = tmp.with_name(f"{tmp.name}.clean")
                with tmp.open(encoding="utf-8", errors="surrogateescape", newline="") as raw, clean.open(
                    "w", encoding="utf-8", errors="surrogateescape", newline=""
                ) as out:
                    out.writelines(redact(line, self.secrets) for line in raw)
                os.replace(clean, tmp)
            os.replace(tmp, path)
        return path

    async def _read(
        self, submission: Submission, batch: Batch, outputs: dict[str, Path | None], wanted: dict[str, BatchPaper],
    ) -> dict[str, Answered]:
        """Each wanted paper of the submission: its answer, a re-ask, or why it failed."""
        answered: dict[str, Answered] = {}
        unreadable: list[str] = []  # each line stands alone: a bad one never loses the others
        keys = set(submission.keys)
        source = f"batch {batch.id}"
        for item in read_outputs([path for path in outputs.values() if path is not None], unreadable):
            if item.key in wanted and item.key in keys:
                paper = wanted[item.key]
                answer = judge(item, self._carry(submission, item.key), paper.abstract, paper.title, self.mode, self.config, source, RERUN, self.tokens)
                if answer.problem:
                    unreadable.append(answer.problem)
                answered[item.key] = best(answered.get(item.key), answer)
        for problem in unreadable:
            log.warning("warning: batch %s: %s", batch.id, problem)
        why = {
            "expired": f"the batch {batch.id} expired (24 h window) before this request ran",
            "cancelled": f"the batch {batch.id} was cancelled before this request ran",
            "failed": f"the batch {batch.id} failed: {redact(_batch_errors(batch), self.secrets)}",
        }.get(batch.status, f"the batch {batch.id} ended ({batch.status}) without an answer for this request")
        if unreadable:
            why += f" (unreadable lines: {'; '.join(unreadable)[:500]})"
        for key in submission.keys:
            if key in wanted and key not in answered:
                answered[key] = Answered(self._carry(submission, key), error=f"{why}; {RERUN}")
        return answered

    async def aclose(self) -> None:
        await self.client.close()


def _batch_errors(batch: Batch) -> str:
    data = (batch.errors.data if batch.errors else None) or []
    return "; ".join(f"{e.code}: {e.message}" for e in data) or "no reason given"


async def extract_batch(
    papers: list[BatchPaper], config: OpenAIOptions, directory: Path, prompt: Prompt, mode: str,
    store: Store, poll_seconds: float, on_progress: OnProgress | None = None,
) -> dict[str, BackendResult | BackendError]:
    """Extract ``papers`` through the Batch API, resuming what ``directory`` records."""
    run = BatchRun(config, directory, prompt, mode, poll_seconds, on_progress)
    try:
        return await run.extract(papers, store)
    except APIError as exc:  # after the SDK's own retries: the state is saved, a rerun resumes
        reason = redact(str(exc), run.secrets)
        raise BackendError(f"the Batch API at {run.url} failed: {reason}; run the same command again to resume") from exc
    finally:
        await run.aclose()

