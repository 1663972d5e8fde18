"""The servers a run sends to: one endpoint, or a fleet of OpenAI-compatible servers (several
vLLM replicas, ``--base-url`` given more than once) sharing the requests; and what makes one
fail: an error worth a retry (:func:`is_transient`), the wait it asks for (:func:`retry_after`),
an attempt past its deadline.

Each request goes to the healthy server with the fewest requests in flight, so each server
holds its share of ``--concurrency`` (the run's limit on requests in flight) and a slower one
gets fewer. A server whose request fails (HTTP 429 or 5xx, a timeout, a dropped or refused
connection) rests by itself, for a backoff that doubles with each failure in a row (at least
its Retry-After), while the others take its share; a retry goes at once to a healthy server
when there is one. Its next success ends the backoff. The requests and failures of each server
are counted for ``run.json``, URLs with credentials redacted.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any

from openai import APIConnectionError, APIStatusError, APITimeoutError, AsyncOpenAI

from extractor.backends.openai.exchange import NotJSONError

RETRY_AFTER_MAX = 120.0
REST_BASE = 1.0  # seconds a server rests after its first failure in a row
REST_MAX = 60.0


class DeadlineExceeded(Exception):
    """An attempt that outlived ``--timeout`` as a whole: the SDK's (httpx's) timeout bounds each
    read, so a server that drips its body a byte at a time would hold the request for ever."""


def is_transient(error: BaseException) -> bool:
    """Worth retrying: rate limits, server errors, timeouts and connection failures."""
    if isinstance(error, APIStatusError):
        return error.status_code in (408, 409, 429) or error.status_code >= 500
    return isinstance(error, (APITimeoutError, APIConnectionError, NotJSONError, DeadlineExceeded))


def retry_after(error: BaseException) -> float | None:
    """Seconds the server asked us to wait (``retry-after-ms``, ``retry-after`` in seconds or
    as an HTTP date), capped at :data:`RETRY_AFTER_MAX`."""
    if not isinstance(error, APIStatusError):
        return None
    headers = error.response.headers
    seconds: float | None = None
    try:
        if headers.get("retry-after-ms"):
            seconds = float(headers["retry-after-ms"]) / 1000
        elif headers.get("retry-after"):
            value = headers["retry-after"]
            try:
                seconds = float(value)
            except ValueError:
                seconds = (parsedate_to_datetime(value) - datetime.now(timezone.utc)).total_seconds()
    except (TypeError, ValueError):  # a header we cannot read: fall back to our own backoff
        return None
    return None if seconds is None else min(max(seconds, 0.0), RETRY_AFTER_MAX)


@dataclass
class Server:
    """One endpoint: its client, the send, and how it has fared."""

    url: str  # as it may be written: credentials redacted
    client: AsyncOpenAI
    send: Callable[[dict], Awaitable[Any]]
    in_flight: int = 0
    requests: int = 0
    failures: int = 0
    failed_in_a_row: int = 0
    rests_until: float = 0.0  # time.monotonic()

    def report(self) -> dict:
        return {"base_url": self.url, "requests": self.requests, "failures": self.failures}


class Fleet:
    """The servers of a run and the choice of one per request; see the module docstring."""

    def __init__(self, servers: list[Server]) -> None:
        self.servers = servers

    def _healthy(self) -> list[Server]:
        now = time.monotonic()
        return [s for s in self.servers if s.rests_until <= now]

    def pick(self) -> Server:
        """The healthy server with the fewest requests in flight (the first on a tie), else the
        one whose rest ends first."""
        if len(self.servers) == 1:
            return self.servers[0]
        healthy = self._healthy()
        if healthy:
            return min(healthy, key=lambda s: s.in_flight)
        return min(self.servers, key=lambda s: s.rests_until)

    async def send(self, server: Server, request: dict, timeout: float) -> Any:
        """The response of ``server`` (:meth:`pick`) to ``request`` within ``timeout`` seconds
        (the attempt as a whole, body included); a failure of the server rests it, and is raised."""
        server.in_flight += 1
        server.requests += 1
        try:
            try:
                response = await asyncio.wait_for(server.send(request), timeout)
            except asyncio.TimeoutError:
                raise DeadlineExceeded() from None
        except Exception as exc:
            if is_transient(exc):
                self._rest(server, exc)
            raise
        finally:
            server.in_flight -= 1
        server.failed_in_a_row = 0
        return response

    def _rest(self, server: Server, error: BaseException) -> None:
        server.failures += 1
        server.failed_in_a_row += 1
        rest = min(REST_MAX, REST_BASE * 2 ** (server.failed_in_a_row - 1))
        server.rests_until = time.monotonic() + max(rest, retry_after(error) or 0.0)

    def another_is_healthy(self) -> bool:
        """Whether a retry can go at once to another server, one that is not resting."""
        return len(self.servers) > 1 and bool(self._healthy())

    def report(self) -> list[dict]:
        return [s.report() for s in self.servers]

    async def aclose(self) -> None:
        for server in self.servers:
            await server.client.close()
