"""The working part of the openai backend: the SDK client, instructor, the retry policy, the
mode fallback and the error messages (see :mod:`extractor.backends.openai.backend`)."""

from __future__ import annotations

import logging
import random
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from openai import APIConnectionError, APIStatusError, APITimeoutError, AsyncOpenAI
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception

from extractor.backends.openai.exchange import (
    CUT_OFF,
    MAX_REASKS,
    PARSE_ERRORS,
    EmptyAnswerError,
    GroundedDraft,
    Grounding,
    NotJSONError,
    attempts_text,
    cut_off_message,
    invalid_message,
    one_line,
    refused_message,
    parse_answer,
    reask_body,
    refusal,
    request_body,
)
from extractor.backends.openai.fleet import DeadlineExceeded, Fleet, Server, is_transient, retry_after
from extractor.backends.openai.pricing import cost_usd
from extractor.backends.openai.options import OpenAIOptions
from extractor.backends.openai.tokens import counted_tokens, reported_tokens, usage_warning
from extractor.errors import BackendError
from extractor.grounding import Checked
from extractor.schema import Usage
from extractor.text.safe import redact, redact_url, url_secrets

log = logging.getLogger("extractor.backends.openai.backend")
T = TypeVar("T")

# After a refusal the run uses the first mode of this list the endpoint has not refused. The two
# modes that send the schema come first: a server turns it into constrained decoding (llama.cpp
# makes a grammar of the tool's parameters), while json sends only "json_object" and the schema
# as prompt text, which a small model ignores. So json_schema -> tools -> json -> md_json, and a
# refused tools tries json_schema next.
FALLBACK_ORDER = ("json_schema", "tools", "json", "md_json")
BACKOFF_BASE = 0.5  # seconds; the n-th retry waits up to BACKOFF_BASE * 2**n
BACKOFF_MAX = 30.0
NO_KEY = "no-key"  # local servers need no key, but the SDK wants one
# A refusal of the mode names the feature and says it is not accepted.
_MODE_WORDS = re.compile(r"response_format|json_schema|json_object|tool_choice|\btools?\b|function", re.I)
_REFUSAL_WORDS = re.compile(
    r"not (?:be )?supported|unsupported|input should be|not allowed|not available|does not support|"
    r"doesn't support|unknown|unrecognized|invalid",
    re.I,
)


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


class Attempts:
    """The attempts for one abstract: usage from every response, the retry policy, counts."""

    def __init__(self, max_retries: int, model: str | None = None, fleet: Fleet | None = None) -> None:
        self.max_retries = max_retries
        self.model = model
        self.fleet = fleet
        self.server: str | None = None  # the URL of the last attempt's server
        self.prompt_tokens = self.completion_tokens = 0
        self.requests = self.retries = self.reasks = 0
        self.last_response: Any = None

    def on_response(self, response: Any, request: dict) -> bool:
        """Count a response's tokens; True when its server reported none usable (they are
        counted here, from the request and the answer). A body that is no chat completion (a
        proxy's HTML page) answered nothing and counts nothing."""
        self.last_response = response
        if not hasattr(response, "choices"):
            return False
        reported = reported_tokens(response)
        tokens = reported or counted_tokens(response, request, self.model)
        self.prompt_tokens += tokens[0]
        self.completion_tokens += tokens[1]
        return reported is None

    def refusal(self) -> str | None:
        """The model's refusal message in the last response, if it refused."""
        return refusal(self.last_response)

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
        if self.fleet is not None and self.fleet.another_is_healthy():
            return 0.0  # the failed server rests; another takes the retry now
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


def next_mode(refused: set[str]) -> str | None:
    """The mode to use once the endpoint has refused these: see :data:`FALLBACK_ORDER`."""
    return next((mode for mode in FALLBACK_ORDER if mode not in refused), None)


@dataclass
class Fallback:
    refused: str
    used: str
    reason: str


def _split_query(url: str | None) -> tuple[str | None, dict[str, str]]:
    """The base URL without its query string, and the query's parameters."""
    if not url:
        return url, {}
    parts = urlsplit(url)
    return urlunsplit(parts._replace(query="")), dict(parse_qsl(parts.query, keep_blank_values=True))


def open_client(config: OpenAIOptions, max_retries: int = 0, url: str | None = None) -> tuple[AsyncOpenAI, str]:
    """The SDK client for the configured endpoint (or ``url``, one server of a fleet), and its
    URL as it may be written (credentials redacted). A query in the base URL (``?key=...``) is
    sent as the query of every request: left inside the base URL, the SDK would append each
    request's path after it."""
    base_url, query = _split_query(url or config.base_url)
    client = AsyncOpenAI(
        api_key=config.api_key or NO_KEY,
        base_url=base_url,
        default_query=query or None,
        timeout=config.timeout,
        max_retries=max_retries,
    )
    shown = redact_url(f"{client.base_url}" + (f"?{urlencode(query)}" if query else ""))
    return client, shown


def untransformed(create: Callable[..., Awaitable[Any]]) -> Callable[[dict], Awaitable[Any]]:
    """``chat.completions.create(**request)`` without the SDK's walk of the request body
    against its TypedDicts (every message and the whole schema, 117 calls a request: the
    largest part of the SDK's own CPU per request after the HTTP send). Our bodies are plain
    JSON the walk leaves as they are (``tests/test_openai_backend.py`` pins that in every
    mode), so the body goes whole as ``extra_body``, which the SDK merges over the walked
    ``model`` and empty ``messages``: the same JSON reaches the server."""

    async def send(request: dict) -> Any:
        return await create(model=request["model"], messages=(), extra_body=request)

    return send


def open_fleet(config: OpenAIOptions) -> Fleet:
    """The run's servers: every ``--base-url`` of a fleet, or the one endpoint."""
    servers = []
    for url in config.fleet or (config.base_url,):
        client, shown = open_client(config, url=url)
        # The SDK imports openai.resources.chat (about 0.5 s) on the first access: paid here,
        # when the session is made, not while the first request is being sent.
        servers.append(Server(shown, client, untransformed(client.chat.completions.create)))
    return Fleet(servers)


class Session:
    """The endpoint (or fleet) of one run: the clients, the current mode and the fallbacks taken."""

    def __init__(self, config: OpenAIOptions, mode: str) -> None:
        self.config = config
        self.mode = mode
        self.fallbacks: list[Fallback] = []
        self.fleet = open_fleet(config)
        self.url = self.fleet.servers[0].url
        self.secrets = sorted(  # what an error may repeat, longest first
            {secret for url in config.fleet or (config.base_url,) for secret in url_secrets(url, config.api_key)},
            key=len, reverse=True,
        )
        self.usage_counted = False  # said once: the server reports no usable usage

    def report(self) -> dict:
        fleet = {"servers": self.fleet.report()} if len(self.fleet.servers) > 1 else {}
        return {"base_url": self.url, **fleet, "mode_used": self.mode, "mode_fallbacks": [vars(f) for f in self.fallbacks]}

    async def _send(self, request: dict, attempts: Attempts) -> Any:
        """One attempt at ``request`` on the server the fleet picks, counted."""
        server = self.fleet.pick()
        attempts.requests += 1
        attempts.server = server.url
        response = await self.fleet.send(server, request, self.config.timeout)
        self._received(attempts, response, request)
        return response

    def _received(self, attempts: Attempts, response: Any, request: dict) -> None:
        """Count a response's tokens; say once per run when the server's own count is unusable."""
        if attempts.on_response(response, request) and not self.usage_counted:
            self.usage_counted = True
            log.warning(usage_warning(self.url))

    async def _create(self, mode: str, messages: list[dict], attempts: Attempts, grounding: Grounding) -> GroundedDraft:
        """Send, parse and validate, with the retries and re-asks of :class:`Attempts`. This is
        instructor's ``create`` loop built from its public parts (request, parsing, re-ask
        messages): ``create`` repeats per request work that is the same for every paper."""
        request = request_body(mode, messages, self.config)

        async def attempt() -> GroundedDraft:
            nonlocal request
            response = await self._send(request, attempts)
            try:
                return parse_answer(response, mode, grounding)
            except PARSE_ERRORS as exc:
                request = reask_body(request, mode, response, exc)
                raise

        return await attempts.retrying()(attempt)

    async def complete(self, request: dict, read: Callable[[Any], T]) -> tuple[T, Usage]:
        """One request with the transport retries and no re-ask: ``read`` turns the response
        into a value and must not raise a parse error (a short request's bad answer is taken as
        it is). :class:`BackendError` after the retries, with what was spent."""
        attempts = Attempts(self.config.max_retries, self.config.model, self.fleet)

        async def attempt() -> T:
            return read(await self._send(request, attempts))

        try:
            value = await attempts.retrying()(attempt)
        except Exception as exc:
            raise BackendError(redact(self._explain(exc, attempts), self.secrets), attempts.usage(self.config.model)) from exc
        return value, attempts.usage(self.config.model)

    def _fall_back(self, refused: str, reason: str, usage: Usage) -> None:
        """Switch every later request to the next mode, once per refused mode."""
        if self.mode != refused:  # another paper in flight already switched
            return
        following = next_mode({refused} | {f.refused for f in self.fallbacks})
        if following is None:
            raise BackendError(f"the endpoint refused every structured-output mode; last: {refused}: {reason}", usage)
        self.mode = following
        self.fallbacks.append(Fallback(refused, following, reason))
        log.warning("the endpoint refused mode %s (%s); using %s from now on", refused, one_line(reason), following)

    async def extract(
        self, messages: list[dict], abstract: str, title: str | None = None
    ) -> tuple[GroundedDraft, Usage, Checked | None]:
        """The validated draft, what it cost and its grounding (None when the validator did not
        ground it: after a grounding re-ask); :class:`BackendError` after the retries."""
        attempts = Attempts(self.config.max_retries, self.config.model, self.fleet)
        grounding = Grounding(abstract, title)
        model = self.config.model
        while True:
            mode = self.mode
            try:
                draft = await self._create(mode, messages, attempts, grounding)
                return draft, attempts.usage(model), grounding.checked
            except CUT_OFF as exc:
                raise BackendError(cut_off_message(self.config.max_tokens), attempts.usage(model)) from exc
            except Exception as exc:  # after the retries: explained in one line, or a mode refusal
                reason = mode_refusal(exc)
                if reason is None:
                    raise BackendError(redact(self._explain(exc, attempts), self.secrets), attempts.usage(model)) from exc
                self._fall_back(mode, redact(reason, self.secrets), attempts.usage(model))

    def _explain(self, error: BaseException, attempts: Attempts) -> str:
        """One clear line: what went wrong, what the server said, after how many attempts."""
        tries = attempts_text(attempts.requests)
        url = attempts.server or self.url
        refusal = attempts.refusal()
        if refusal:
            return refused_message(refusal)
        if isinstance(error, APIStatusError):
            return f"HTTP {error.status_code} from {url} {tries}: {one_line(server_message(error))}"
        if isinstance(error, (APITimeoutError, DeadlineExceeded)):
            return f"no answer from {url} within {self.config.timeout:g} s {tries}"
        if isinstance(error, APIConnectionError):
            return f"cannot reach {url} {tries}: {error.__cause__ or error}"
        if isinstance(error, (NotJSONError, EmptyAnswerError)):
            return f"{error} ({url}, {tries})"
        if isinstance(error, PARSE_ERRORS):
            return invalid_message(attempts.requests, attempts.reasks, error)
        return f"{type(error).__name__} {tries}: {error}"

    async def aclose(self) -> None:
        await self.fleet.aclose()
