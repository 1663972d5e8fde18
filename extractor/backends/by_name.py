"""Backends by name: the one place a new backend is added."""

from __future__ import annotations

from collections.abc import Callable

from extractor.backends.base import Backend
from extractor.config import RunConfig
from extractor.errors import ConfigError


def _rules(config: RunConfig) -> Backend:
    from extractor.backends.rules import RulesBackend

    return RulesBackend()


def _openai(config: RunConfig) -> Backend:
    from extractor.backends.openai.backend import OpenAIBackend

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
