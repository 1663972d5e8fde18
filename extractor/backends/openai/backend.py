"""The ``openai`` backend: any OpenAI-compatible chat endpoint, through instructor.

Modes. ``tools`` (a forced function call) for api.openai.com, where it is the most reliable
way to get one JSON object back; ``json_schema`` (``response_format`` with the schema, which
servers such as vLLM and llama.cpp turn into constrained decoding) for every other endpoint.
``--mode`` forces one. An endpoint that rejects the mode (llama-cpp-python answers HTTP 500
"Input should be 'text' or 'json_object'" to ``json_schema``; others say 400 "not supported")
is detected on the first such answer: the backend switches to the next mode for the rest of the
run, logs it once and reports it in run.json. The order is json_schema -> tools -> json ->
md_json (a refused ``tools`` tries ``json_schema`` first): the modes that send the schema come
first, because servers turn it into constrained decoding; ``json`` sends only "json_object",
and with the schema as mere prompt text a small model writes unrelated JSON.

Retries. The SDK's own retries are off so that every attempt is counted here. One tenacity
loop does both kinds, around instructor's public parts (the request body, built once per mode,
its response parsing and its re-ask messages):

- transport: 429, 408, 409, 5xx, timeouts and connection errors, with exponential backoff and
  full jitter, never sooner than the server's Retry-After, at most ``max_retries``;
- validation re-asks: a reply that is not JSON, does not fit the schema, or has a number,
  evidence or name that is not in the abstract goes back to the model with the reason
  (instructor's re-ask messages), at most twice per paper. Grounding problems are sent back
  once; if the answer is still ungrounded it is taken as it is, and the runner's grounding
  drops those items and records them under ``rejected``.

Usage (tokens of every response, re-asks included), request, retry and re-ask counts and the
cost from :mod:`extractor.backends.openai.pricing` come back with each draft, and with each failure.

This module is light on purpose: the SDK, instructor and the retry policy live in
:mod:`extractor.backends.openai.session`, imported on the first request, so a run answered
entirely from the cache never pays the second it takes to import openai.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from extractor.backends.base import BackendResult, BatchPaper, OnBatch, Store
from extractor.backends.limits import RequestLimits
from extractor.backends.openai.options import OpenAIOptions, choose_mode
from extractor.backends.openai.prompts import Prompt, load_prompt
from extractor.backends.openai.request_schema import schema_hash
from extractor.errors import BackendError, ConfigError
from extractor.schema import ExtractionDraft
from extractor.text.safe import redact_url

if TYPE_CHECKING:
    from extractor.backends.cache import ExtractionCache
    from extractor.backends.openai.batch_handoff import ExportedFile, ImportReport
    from extractor.backends.openai.estimate import Estimate
    from extractor.backends.openai.name_mapping import NamesReport
    from extractor.backends.openai.session import Session

def identity_for(options: OpenAIOptions) -> dict:
    """What changes an extraction: the cache key and the head of run.json. The URL is not in
    it, so a local server restarted on another port still hits the cache."""
    prompt = load_prompt(options.prompt_version)
    return {
        "backend": "openai",
        "model": options.model,
        "mode": choose_mode(options),
        "prompt_version": prompt.version,
        "prompt_hash": prompt.hash,
        "schema_hash": schema_hash(),
        "temperature": options.temperature,
        "max_tokens": options.max_tokens,
    }


class OpenAIBackend:
    """Extraction through an OpenAI-compatible endpoint; see the module docstring. Its optional
    steps (:mod:`extractor.backends.base`): the Batch API, a dry run's estimate, and the names
    mapped after extraction."""

    name = "openai"
    cacheable = True
    cpu_bound = False

    def __init__(self, options: OpenAIOptions, use_cache: bool = True, sending: bool = True) -> None:
        if sending and not options.handing_off and not (options.api_key or options.base_url):
            raise ConfigError("the openai backend needs a key (OPENAI_API_KEY) or a {base_url} (or OPENAI_BASE_URL)", ("base_url",))
        if not options.model:
            raise ConfigError("the openai backend needs a {model} (or EXTRACTOR_MODEL)", ("model",))
        if options.batch and not use_cache:
            raise ConfigError(
                "{batch} keeps each answer in the cache the moment it arrives (that is how a rerun resumes): it needs {use_cache}",
                ("batch", "use_cache"),
            )
        self.options = options
        self.limits = RequestLimits(options.concurrency, options.rpm, options.max_cost)
        self.batching = options.batch
        self.exporting = options.batch_export
        self.importing = bool(options.batch_import)
        self.maps_names = options.map_names
        self.prompt: Prompt = load_prompt(options.prompt_version)
        self._identity = identity_for(options)
        self._session: Session | None = None

    def identity(self) -> dict:
        return dict(self._identity)

    def report(self) -> dict:
        """How the run went, for run.json: the endpoint, the mode used and any fallback."""
        if self._session is None:
            base_url = redact_url(self.options.base_url) if self.options.base_url else None
            return {"base_url": base_url, "mode_used": self._identity["mode"], "mode_fallbacks": []}
        return self._session.report()

    def session(self) -> Session:
        if self._session is None:
            from extractor.backends.openai.session import (
                Session,  # the first request pays for importing openai
            )

            self._session = Session(self.options, self._identity["mode"])
        return self._session

    async def extract(self, abstract: str, title: str | None) -> BackendResult:
        draft, usage, checked = await self.session().extract(self.prompt.messages(abstract, title), abstract, title)
        return BackendResult(draft=ExtractionDraft.model_validate(draft.model_dump()), usage=usage, checked=checked)

    async def extract_batch(
        self, papers: list[BatchPaper], directory: Path, store: Store, on_progress: OnBatch | None = None,
    ) -> dict[str, BackendResult | BackendError]:
        """Many abstracts through the Batch API (:mod:`extractor.backends.openai.batch`), by key."""
        from extractor.backends.openai.batch import extract_batch

        return await extract_batch(
            papers, self.options, directory, self.prompt, self._identity["mode"], store, self.options.batch_poll, on_progress
        )

    def export_batch(self, papers: list[BatchPaper], directory: Path) -> list[ExportedFile]:
        """The request files for another engine (:mod:`extractor.backends.openai.batch_handoff`)."""
        from extractor.backends.openai.batch_handoff import export_requests

        return export_requests(papers, directory, self.prompt, self._identity["mode"], self.options)

    def import_batch(
        self, papers: list[BatchPaper], directory: Path, store: Store,
    ) -> tuple[dict[str, BackendResult | BackendError], ImportReport]:
        """The answers of the ``batch_import`` files, by key, and what the import did."""
        from extractor.backends.openai.batch_handoff import import_answers

        return import_answers(
            papers, directory, list(self.options.batch_import), self.prompt, self._identity["mode"], self.options, store,
        )

    def estimate(
        self, pending: list[tuple[str, str | None]], answered: list[ExtractionDraft], cache: ExtractionCache | None,
    ) -> Estimate:
        """What the run would send and cost (:mod:`extractor.backends.openai.estimate`)."""
        from extractor.backends.openai.estimate import estimate  # loads tiktoken

        return estimate(self.options, pending, answered, cache)

    def map_names(
        self, run_dir: Path, names: Iterable[tuple[str, str]], settled: set[tuple[str, str]],
        cache: ExtractionCache | None, spent: float,
    ) -> NamesReport:
        """After extraction: one request per name the registry does not know
        (:mod:`extractor.backends.openai.name_mapping`)."""
        from extractor.backends.openai.name_mapping import map_names

        return map_names(run_dir, self.options, self.report()["mode_used"], names, settled, cache, spent)

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.aclose()
