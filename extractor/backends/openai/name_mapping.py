"""After an LLM run's extraction: the benchmark and metric names the registry does not know,
each mapped by one short cached request to a registry entry or "none" (``--no-map-names``
turns it off).

A name is asked about once: not when the registry knows it (after normalization and aliases),
not when a reviewer of the run has spoken about it, not when the run's ``names.json`` has an
answer for it. The answer is cached in the extraction cache under the kind, the name, the
candidate list, the model and the names prompt's version and hash, so a rerun, or another run
meeting the name, sends nothing. The requests are counted like the extraction's: usage in
run.json, and ``--max-cost`` checked before each (names left unasked are asked by a rerun).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from extractor.catalog.candidates import candidates
from extractor.catalog.normalize import normalize_benchmark, normalize_metric
from extractor.catalog.registry import fold_key
from extractor.backends.openai.options import OpenAIOptions
from extractor.errors import BackendError, BudgetExceeded
from extractor.backends.cache import ExtractionCache, names_key
from extractor.backends.limits import RateLimiter, Spend
from extractor.runs.names import NameAnswer, names_to_extend, write_names
from extractor.schema import Usage

if TYPE_CHECKING:
    from extractor.backends.openai.name_requests import NamesPrompt

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Question:
    kind: str
    name: str
    candidates: tuple[str, ...]


def unknown(kind: str, name: str) -> bool:
    """Whether the registry does not know a benchmark or metric name (normalized)."""
    info = normalize_benchmark(name) if kind == "benchmark" else normalize_metric(name)
    return info.name is not None and not info.known


def new_questions(names: Iterable[tuple[str, str]], settled: set[tuple[str, str]]) -> list[Question]:
    """One question per distinct (kind, folded name) the registry does not know and nobody has
    settled (a reviewer's word, an earlier answer), in first-seen order."""
    seen = set(settled)
    questions = []
    for kind, name in names:
        key = (kind, fold_key(name))
        if key in seen or not key[1]:
            continue
        seen.add(key)
        if unknown(kind, name):
            questions.append(Question(kind, name.strip(), candidates(kind, name)))
    return questions


def names_identity(model: str | None, prompt: NamesPrompt) -> dict:
    """What changes a name's answer besides the name and its candidates: part of the cache key."""
    return {"model": model, "prompt_version": prompt.version, "prompt_hash": prompt.hash}


@dataclass
class NamesReport:
    """What the step did, for run.json."""

    asked: int = 0  # requests answered (first attempts)
    cached: int = 0  # answers taken from the cache
    mapped: int = 0  # answers naming a registry entry, cached ones included
    refused: int = 0  # answers outside the list or not JSON: counted as none
    failed: int = 0  # no answer after the retries: asked again by a rerun
    not_sent: int = 0  # left for a rerun by --max-cost
    usage: Usage = field(default_factory=Usage)

    def summary(self) -> dict:
        counts = {k: v for k, v in vars(self).items() if k != "usage"}
        return {**counts, "usage": self.usage.model_dump(exclude={"cached"})}


def map_names(
    out_dir: Path, config: OpenAIOptions, mode: str, names: Iterable[tuple[str, str]], settled: set[tuple[str, str]],
    cache: ExtractionCache | None, spent: float,
) -> NamesReport:
    """Ask about every new name of the run, record the answers in ``names.json``; ``spent`` is
    what the run spent before (for ``--max-cost``)."""
    from extractor.backends.openai.name_requests import NAMES_PROMPT_VERSION, load_names_prompt

    prompt = load_names_prompt(NAMES_PROMPT_VERSION)
    previous = names_to_extend(out_dir)
    done = settled | {(a.kind, fold_key(a.name)) for a in previous}
    questions = new_questions(names, done)
    report = NamesReport()
    if not questions:
        return report
    answers = asyncio.run(_answers(questions, config, mode, prompt, cache, Spend(config.max_cost, spent), report))
    write_names(out_dir, [*previous, *answers])
    return report


async def _answers(
    questions: list[Question], config: OpenAIOptions, mode: str, prompt: NamesPrompt, cache: ExtractionCache | None, spend: Spend,
    report: NamesReport,
) -> list[NameAnswer]:
    from extractor.backends.openai.name_requests import name_request, read_name_answer
    from extractor.backends.openai.session import Session

    session = Session(config, mode)
    semaphore = asyncio.Semaphore(config.concurrency)
    limiter = RateLimiter(config.rpm)
    identity = names_identity(config.model, prompt)

    async def ask(question: Question) -> NameAnswer | None:
        key = names_key(identity, question.kind, question.name, question.candidates)
        hit = cache.get_value(key) if cache is not None else None
        if hit is not None:
            report.cached += 1
            return NameAnswer(**hit)
        async with semaphore:
            try:
                spend.check()
            except BudgetExceeded:
                report.not_sent += 1
                return None
            await limiter.wait()
            messages = prompt.messages(question.kind, question.name, question.candidates)
            request = name_request(session.mode, messages, question.candidates, config)
            try:
                reading, usage = await session.complete(request, lambda r: read_name_answer(r, session.mode, question.candidates))
            except BackendError as exc:
                report.failed += 1
                report.usage += exc.usage or Usage()
                spend.spent += exc.usage.cost_usd if exc.usage else 0.0
                log.warning("warning: the name %r was not mapped: %s", question.name, exc)
                return None
        report.asked += 1
        report.usage += usage
        spend.spent += usage.cost_usd
        answer = NameAnswer(question.kind, question.name, reading.same_as, config.model or "", prompt.version, reading.refused)
        if reading.refused:
            report.refused += 1  # not cached: another run asks again
        elif cache is not None:
            cache.put_value(key, vars(answer))
        return answer

    try:
        found = await asyncio.gather(*map(ask, questions))
    finally:
        await session.aclose()
    answers = [a for a in found if a is not None]
    report.mapped = sum(1 for a in answers if a.same_as)
    return answers
