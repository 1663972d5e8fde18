"""The backend protocol and the name registry.

A backend turns one abstract into an :class:`~extractor.schema.ExtractionDraft`; grounding,
caching, retries of the batch and output are the runner's business, so the offline rules and
any LLM meet the same small interface.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ..config import RunConfig
from ..errors import ConfigError
from ..schema import ExtractionDraft, Usage


@dataclass
class BackendResult:
    draft: ExtractionDraft
    usage: Usage


class Backend(Protocol):
    name: str
    cacheable: bool

    def identity(self) -> dict:
        """Everything that changes the output: part of the cache key and of run.json."""

    async def extract(self, abstract: str, title: str | None) -> BackendResult:
        """Extract one abstract; raise :class:`~extractor.errors.BackendError` on failure."""

    async def aclose(self) -> None:
        """Release connections."""


def _rules(config: RunConfig) -> Backend:
    from .rules import RulesBackend

    return RulesBackend()


def _openai(config: RunConfig) -> Backend:
    from .openai_llm import OpenAIBackend

    return OpenAIBackend(config)


BACKENDS: dict[str, Callable[[RunConfig], Backend]] = {"rules": _rules, "openai": _openai}


def get_backend(config: RunConfig) -> Backend:
    try:
        factory = BACKENDS[config.backend]
    except KeyError:
        raise ConfigError(
            f"unknown backend {config.backend!r}; choose one of {', '.join(BACKENDS)}"
        ) from None
    return factory(config)
