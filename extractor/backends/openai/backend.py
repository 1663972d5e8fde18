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
  full jitter, never sooner than the server's Retry-After, at most ``config.max_retries``;
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

from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlparse

from extractor.backends.base import BackendResult
from extractor.backends.openai.prompts import Prompt, load_prompt
from extractor.backends.openai.request_schema import schema_hash
from extractor.config import RunConfig
from extractor.errors import BackendError, ConfigError
from extractor.schema import ExtractionDraft
from extractor.text.safe import redact_url

if TYPE_CHECKING:
    from extractor.backends.openai.batch import BatchPaper, OnProgress, Store
    from extractor.backends.openai.session import Session

OPENAI_HOST = "api.openai.com"


def choose_mode(config: RunConfig) -> str:
    """The forced mode, else ``tools`` for api.openai.com and ``json_schema`` elsewhere."""
    if config.mode:
        return config.mode
    host = urlparse(config.base_url or f"https://{OPENAI_HOST}/v1").hostname
    return "tools" if host == OPENAI_HOST else "json_schema"


def identity_for(config: RunConfig) -> dict:
    """What changes an extraction: the cache key and the head of run.json. The URL is not in
    it, so a local server restarted on another port still hits the cache."""
    prompt = load_prompt(config.prompt_version)
    return {
        "backend": "openai",
        "model": config.model,
        "mode": choose_mode(config),
        "prompt_version": prompt.version,
        "prompt_hash": prompt.hash,
        "schema_hash": schema_hash(),
        "temperature": config.temperature,
        "max_tokens": config.max_tokens,
    }


class OpenAIBackend:
    """Extraction through an OpenAI-compatible endpoint; see the module docstring."""

    name = "openai"
    cacheable = True
    cpu_bound = False

    def __init__(self, config: RunConfig) -> None:
        if not (config.api_key or config.base_url):
            raise ConfigError("the openai backend needs OPENAI_API_KEY or a base URL (--base-url, OPENAI_BASE_URL)")
        if not config.model:
            raise ConfigError("the openai backend needs a model (--model or EXTRACTOR_MODEL)")
        self.config = config
        self.prompt: Prompt = load_prompt(config.prompt_version)
        self._identity = identity_for(config)
        self._session: Session | None = None

    def identity(self) -> dict:
        return dict(self._identity)

    def report(self) -> dict:
        """How the run went, for run.json: the endpoint, the mode used and any fallback."""
        if self._session is None:
            base_url = redact_url(self.config.base_url) if self.config.base_url else None
            return {"base_url": base_url, "mode_used": self._identity["mode"], "mode_fallbacks": []}
        return self._session.report()

    def session(self) -> Session:
        if self._session is None:
            from extractor.backends.openai.session import (
                Session,  # the first request pays for importing openai
            )

            self._session = Session(self.config, self._identity["mode"])
        return self._session

    async def extract(self, abstract: str, title: str | None) -> BackendResult:
        draft, usage, checked = await self.session().extract(self.prompt.messages(abstract, title), abstract, title)
        return BackendResult(draft=ExtractionDraft.model_validate(draft.model_dump()), usage=usage, checked=checked)

    async def extract_batch(
        self, papers: list[BatchPaper], directory: Path, store: Store, on_progress: OnProgress | None = None,
    ) -> dict[str, BackendResult | BackendError]:
        """Many abstracts through the Batch API (:mod:`extractor.backends.openai.batch`), by key."""
        from extractor.backends.openai.batch import extract_batch

        return await extract_batch(
            papers, self.config, directory, self.prompt, self._identity["mode"], store, self.config.batch_poll, on_progress
        )

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.aclose()
