"""The servers a run sends to, and what makes one fail: an error worth a retry
(:func:`is_transient`), the wait it asks for (:func:`retry_after`), an attempt past its deadline."""

from __future__ import annotations

from datetime import datetime, timezone
from email.utils import parsedate_to_datetime

from openai import APIConnectionError, APIStatusError, APITimeoutError

from extractor.backends.openai.exchange import NotJSONError

RETRY_AFTER_MAX = 120.0


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
