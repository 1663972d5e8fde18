"""The limits a backend that sends requests keeps: requests in flight, requests per minute, and
money spent."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from extractor.errors import BudgetExceeded


@dataclass(frozen=True)
class RequestLimits:
    """How a backend's requests are sent: this many at once, at most ``rpm`` a minute, none
    after ``max_cost`` USD."""

    concurrency: int
    rpm: float | None = None
    max_cost: float | None = None


class RateLimiter:
    """Spaces request starts so no more than ``rpm`` begin in any minute."""

    def __init__(self, rpm: float | None) -> None:
        self._interval = 60.0 / rpm if rpm else 0.0
        self._next = 0.0
        self._lock = asyncio.Lock()

    async def wait(self) -> None:
        if not self._interval:
            return
        async with self._lock:
            now = time.monotonic()
            delay = self._next - now
            self._next = max(now, self._next) + self._interval
        if delay > 0:
            await asyncio.sleep(delay)


@dataclass
class Spend:
    """Money reported by responses so far, checked before each new request."""

    cap: float | None
    spent: float = 0.0

    def check(self) -> None:
        if self.cap is not None and self.spent >= self.cap:
            raise BudgetExceeded(
                f"not sent: {{max_cost}} ${self.cap:.4f} reached (spent ${self.spent:.4f}); "
                "rerun with a higher cap to continue", ("max_cost",),
            )
