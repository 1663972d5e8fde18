"""The ``openai`` backend: any OpenAI-compatible chat endpoint, through instructor.

Modes. ``tools`` (a forced function call) for api.openai.com, where it is the most reliable
way to get one JSON object back; ``json_schema`` (``response_format`` with the schema, which
servers such as vLLM and llama.cpp turn into constrained decoding) for every other endpoint.
``--mode`` forces one. An endpoint that rejects the mode (llama-cpp-python answers HTTP 500
"Input should be 'text' or 'json_object'" to ``json_schema``; others say 400 "not supported")
is detected on the first such answer: the backend switches to the next mode of
:data:`FALLBACK` for the rest of the run, logs it once and reports it in run.json.

Retries. The SDK's own retries are off (``max_retries=0``) so that every attempt is counted
here. One tenacity loop, handed to instructor, does both kinds of retry:

- transport: 429, 408, 409, 5xx, timeouts and connection errors, with exponential backoff and
  full jitter, never sooner than the server's Retry-After, at most ``config.max_retries``;
- validation re-asks: a reply that is not JSON, does not fit the schema, or names a number,
  evidence or name that is not in the abstract goes back to the model with the reason (by
  instructor's re-ask messages), at most :data:`MAX_REASKS` times. Grounding problems are sent
  back once (:data:`GROUNDING_REASKS`); if the answer is still ungrounded it is accepted as
  it is and the runner's grounding drops those items and records them under ``rejected``.

Usage (tokens of every response, re-asks included), request, retry and re-ask counts and the
cost from :mod:`extractor.pricing` are returned with each draft, and with each failure.
"""

from __future__ import annotations

import json
import logging
import random
import re
from contextvars import ContextVar
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from datetime import datetime, timezone
from typing import Any
from urllib.parse import urlparse

import instructor
from instructor.core import Hooks, IncompleteOutputException, InstructorRetryException, ResponseParsingError
from openai import APIConnectionError, APIStatusError, APITimeoutError, AsyncOpenAI
from pydantic import ConfigDict, ValidationError, model_validator
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception

from ..config import MODES, RunConfig
from ..errors import BackendError, ConfigError
from ..grounding import problems
from ..hashing import content_hash
from ..pricing import cost_usd
from ..prompts import Prompt, load_prompt
from ..schema import ExtractionDraft, Usage
from . import BackendResult

log = logging.getLogger(__name__)
# instructor logs every failed attempt at ERROR level; they are counted and reported here.
logging.getLogger("instructor").addHandler(logging.NullHandler())

OPENAI_HOST = "api.openai.com"
INSTRUCTOR_MODES: dict[str, instructor.Mode] = {
    "tools": instructor.Mode.TOOLS,
    "json_schema": instructor.Mode.JSON_SCHEMA,
    "json": instructor.Mode.JSON,
    "md_json": instructor.Mode.MD_JSON,
}
FALLBACK: dict[str, str | None] = {"json_schema": "json", "tools": "json", "json": "md_json", "md_json": None}
MAX_REASKS = 2
GROUNDING_REASKS = 1
BACKOFF_BASE = 0.5  # seconds; the n-th retry waits up to BACKOFF_BASE * 2**n
BACKOFF_MAX = 30.0
RETRY_AFTER_MAX = 120.0
NO_KEY = "no-key"  # local servers need no key, but the SDK wants one
PARSE_ERRORS = (ValidationError, json.JSONDecodeError, ResponseParsingError)

# A refusal of the mode names the feature and says it is not accepted.
_MODE_WORDS = re.compile(r"response_format|json_schema|json_object|tool_choice|\btools?\b|function", re.I)
_REFUSAL_WORDS = re.compile(
    r"not (?:be )?supported|unsupported|input should be|not allowed|not available|does not support|"
    r"doesn't support|unknown|unrecognized|invalid",
    re.I,
)


def choose_mode(config: RunConfig) -> str:
    """The forced mode, else ``tools`` for api.openai.com and ``json_schema`` elsewhere."""
    if config.mode:
        if config.mode not in MODES:
            raise ConfigError(f"unknown mode {config.mode!r}; choose one of {', '.join(MODES)}")
        return config.mode
    host = urlparse(config.base_url or f"https://{OPENAI_HOST}/v1").hostname
    return "tools" if host == OPENAI_HOST else "json_schema"


def schema_hash() -> str:
    return content_hash(ExtractionDraft.model_json_schema())


def identity_for(config: RunConfig) -> dict:
    """What changes an extraction: the cache key and the head of run.json. The URL is not in
    it, so a restarted local server on another port still hits the cache."""
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


def mode_refusal(error: BaseException | None) -> str | None:
    """The server's words when an HTTP error says it does not accept the structured-output
    mode (as opposed to a transient failure or a bad request of another kind)."""
    if not isinstance(error, APIStatusError) or error.status_code not in (400, 404, 415, 422, 500, 501):
        return None
    text = server_message(error)
    return text if _MODE_WORDS.search(text) and _REFUSAL_WORDS.search(text) else None


def server_message(error: APIStatusError) -> str:
    body = error.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else inner
        if message:
            return str(message)
    return error.response.text or error.message


def is_transient(error: BaseException) -> bool:
    """Worth retrying: rate limits, server errors, timeouts and connection failures."""
    if isinstance(error, APIStatusError):
        return error.status_code in (408, 409, 429) or error.status_code >= 500
    return isinstance(error, (APITimeoutError, APIConnectionError))


def retry_after(error: BaseException) -> float | None:
    """Seconds the server asked us to wait (``retry-after-ms``, ``retry-after`` in seconds or
    as an HTTP date), capped at :data:`RETRY_AFTER_MAX`."""
    if not isinstance(error, APIStatusError):
        return None
    headers = error.response.headers
    seconds: float | None = None
    if headers.get("retry-after-ms"):
        try:
            seconds = float(headers["retry-after-ms"]) / 1000
        except ValueError:
            pass
    elif headers.get("retry-after"):
        value = headers["retry-after"]
        try:
            seconds = float(value)
        except ValueError:
            try:
                seconds = (parsedate_to_datetime(value) - datetime.now(timezone.utc)).total_seconds()
            except (TypeError, ValueError):
                pass
    return None if seconds is None else min(max(seconds, 0.0), RETRY_AFTER_MAX)


class _Attempts:
    """The attempts for one abstract: usage from every response, the retry policy, counts."""

    def __init__(self, abstract: str, max_retries: int) -> None:
        self.abstract = abstract
        self.max_retries = max_retries
        self.grounding_reasks_left = GROUNDING_REASKS
        self.prompt_tokens = self.completion_tokens = 0
        self.requests = self.retries = self.reasks = 0
        self.last_response: Any = None

    # instructor hooks
    def on_request(self, *args: Any, **kwargs: Any) -> None:
        self.requests += 1

    def on_response(self, response: Any) -> None:
        self.last_response = response
        usage = getattr(response, "usage", None)
        if usage is not None:
            self.prompt_tokens += usage.prompt_tokens or 0
            self.completion_tokens += usage.completion_tokens or 0

    def hooks(self) -> Hooks:
        hooks = Hooks()
        hooks.on("completion:kwargs", self.on_request)
        hooks.on("completion:response", self.on_response)
        return hooks

    def refusal(self) -> str | None:
        """The model's refusal message in the last response, if it refused."""
        choices = getattr(self.last_response, "choices", None)
        return getattr(choices[0].message, "refusal", None) if choices else None

    # tenacity policy
    def should_retry(self, error: BaseException) -> bool:
        if isinstance(error, PARSE_ERRORS):
            return self.refusal() is None
        return is_transient(error) and mode_refusal(error) is None

    def should_stop(self, state: RetryCallState) -> bool:
        if isinstance(state.outcome.exception(), PARSE_ERRORS):
            return self.reasks >= MAX_REASKS
        return self.retries >= self.max_retries

    def wait(self, state: RetryCallState) -> float:
        error = state.outcome.exception()
        if isinstance(error, PARSE_ERRORS):
            return 0.0
        backoff = random.uniform(0, min(BACKOFF_MAX, BACKOFF_BASE * 2**self.retries))
        return max(backoff, retry_after(error) or 0.0)

    def count(self, state: RetryCallState) -> None:
        if isinstance(state.outcome.exception(), PARSE_ERRORS):
            self.reasks += 1
        else:
            self.retries += 1

    def retrying(self) -> AsyncRetrying:
        return AsyncRetrying(
            retry=retry_if_exception(self.should_retry),
            stop=self.should_stop,
            wait=self.wait,
            before_sleep=self.count,
            reraise=True,
        )

    def usage(self, model: str | None) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens,
            completion_tokens=self.completion_tokens,
            requests=self.requests,
            retries=self.retries,
            reasks=self.reasks,
            cost_usd=cost_usd(model, self.prompt_tokens, self.completion_tokens),
        )


# The attempts of the paper being validated. A context variable rather than instructor's
# validation context: instructor renders every message as a Jinja template when a context is
# given, which would rewrite abstracts that contain "{{" or "{#".
_ATTEMPTS: ContextVar[_Attempts | None] = ContextVar("extractor_openai_attempts", default=None)


class GroundedDraft(ExtractionDraft):
    # Sent to the model under the same name, description and schema as ExtractionDraft.
    __doc__ = ExtractionDraft.__doc__
    model_config = ConfigDict(title="ExtractionDraft")

    @model_validator(mode="after")
    def _grounded(self) -> GroundedDraft:
        """Send ungrounded items back to the model once, with the reasons."""
        attempts = _ATTEMPTS.get()
        if attempts is None or attempts.grounding_reasks_left <= 0:
            return self
        found = problems(self, attempts.abstract)
        if found:
            attempts.grounding_reasks_left -= 1
            raise ValueError(
                "these items are not supported by the abstract; copy numbers, names and evidence "
                "exactly from the abstract or leave the item out:\n- " + "\n- ".join(found)
            )
        return self


@dataclass
class Fallback:
    refused: str
    used: str
    reason: str


class OpenAIBackend:
    """Extraction through an OpenAI-compatible endpoint; see the module docstring."""

    name = "openai"
    cacheable = True

    def __init__(self, config: RunConfig) -> None:
        if not (config.api_key or config.base_url):
            raise ConfigError("the openai backend needs OPENAI_API_KEY or a base URL (--base-url, OPENAI_BASE_URL)")
        if not config.model:
            raise ConfigError("the openai backend needs a model (--model or EXTRACTOR_MODEL)")
        self.config = config
        self.prompt: Prompt = load_prompt(config.prompt_version)
        self._identity = identity_for(config)
        self.mode: str = self._identity["mode"]
        self.fallbacks: list[Fallback] = []
        self._openai = AsyncOpenAI(
            api_key=config.api_key or NO_KEY,
            base_url=config.base_url,
            timeout=config.timeout,
            max_retries=0,
        )
        self._clients: dict[str, instructor.AsyncInstructor] = {}

    def identity(self) -> dict:
        return dict(self._identity)

    def report(self) -> dict:
        """How the run went, for run.json: the endpoint, the mode used and any fallback."""
        return {
            "base_url": str(self._openai.base_url),
            "mode_used": self.mode,
            "mode_fallbacks": [vars(f) for f in self.fallbacks],
        }

    def _client(self, mode: str) -> instructor.AsyncInstructor:
        if mode not in self._clients:
            self._clients[mode] = instructor.from_openai(self._openai, mode=INSTRUCTOR_MODES[mode])
        return self._clients[mode]

    def _fall_back(self, refused: str, reason: str, usage: Usage) -> None:
        """Switch every later request to the next mode, once per refused mode."""
        if self.mode != refused:  # another paper in flight already switched
            return
        following = FALLBACK[refused]
        if following is None:
            raise BackendError(f"the endpoint refused every structured-output mode; last: {refused}: {reason}", usage)
        self.mode = following
        self.fallbacks.append(Fallback(refused, following, reason))
        log.warning("the endpoint refused mode %s (%s); using %s from now on", refused, _one_line(reason), following)

    async def extract(self, abstract: str, title: str | None) -> BackendResult:
        attempts = _Attempts(abstract, self.config.max_retries)
        token = _ATTEMPTS.set(attempts)
        try:
            while True:
                mode = self.mode
                try:
                    draft = await self._client(mode).create(
                        response_model=GroundedDraft,
                        messages=self.prompt.messages(abstract, title),
                        max_retries=attempts.retrying(),
                        strict=False,
                        hooks=attempts.hooks(),
                        model=self.config.model,
                        temperature=self.config.temperature,
                        max_tokens=self.config.max_tokens,
                    )
                    break
                except InstructorRetryException as exc:
                    reason = mode_refusal(exc.__cause__)
                    if reason is None:
                        raise BackendError(self._explain(exc.__cause__ or exc, attempts), attempts.usage(self.config.model)) from exc
                    self._fall_back(mode, reason, attempts.usage(self.config.model))
                except IncompleteOutputException as exc:
                    message = (
                        f"the answer was cut off at the token limit (finish_reason=length, "
                        f"max_tokens={self.config.max_tokens}); rerun with a higher limit"
                    )
                    raise BackendError(message, attempts.usage(self.config.model)) from exc
        finally:
            _ATTEMPTS.reset(token)
        plain = ExtractionDraft.model_validate(draft.model_dump())
        return BackendResult(draft=plain, usage=attempts.usage(self.config.model))

    def _explain(self, error: BaseException, attempts: _Attempts) -> str:
        """One clear line: what went wrong, what the server said, after how many attempts."""
        tries = f"after {attempts.requests} attempt{'s' * (attempts.requests != 1)}"
        url = str(self._openai.base_url)
        refusal = attempts.refusal()
        if refusal:
            return f"the model refused: {refusal}"
        if isinstance(error, APIStatusError):
            return f"HTTP {error.status_code} from {url} {tries}: {_one_line(server_message(error))}"
        if isinstance(error, APITimeoutError):
            return f"no answer from {url} within {self.config.timeout:g} s {tries}"
        if isinstance(error, APIConnectionError):
            return f"cannot reach {url} {tries}: {error.__cause__ or error}"
        if isinstance(error, PARSE_ERRORS):
            return f"the model's answer is not a valid extraction {tries} ({attempts.reasks} re-asks): {_one_line(str(error))}"
        return f"{type(error).__name__} {tries}: {error}"

    async def aclose(self) -> None:
        await self._openai.close()


def _one_line(text: str, limit: int = 300) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "\u2026"
