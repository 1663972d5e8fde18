"""The offline backend: the rules extractor behind the backend protocol."""

from __future__ import annotations

from extractor.backends.base import BackendResult
from extractor.backends.rules_options import RulesOptions
from extractor.rules import RULES_VERSION, extract
from extractor.schema import Usage


class RulesBackend:
    name = "rules"
    cacheable = False  # faster to recompute than to look up
    cpu_bound = True

    def __init__(self, options: RulesOptions | None = None) -> None:
        self.workers = (options or RulesOptions()).workers

    def identity(self) -> dict:
        return {"backend": self.name, "rules_version": RULES_VERSION}

    def report(self) -> dict:
        return {}

    def draft(self, abstract: str, title: str | None) -> BackendResult:
        """The rules need no event loop: worker processes call this directly."""
        return BackendResult(draft=extract(abstract, title), usage=Usage())

    async def extract(self, abstract: str, title: str | None) -> BackendResult:
        return self.draft(abstract, title)

    async def aclose(self) -> None:
        return None
