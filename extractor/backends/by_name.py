"""Backends by name: the one place a new backend is added, with its options model."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from extractor.backends.base import Backend
from extractor.backends.options import BackendOptions
from extractor.errors import ConfigError


class RunConfig(Protocol):
    """What a backend is made from: a run's options (:class:`extractor.config.RunConfig`)."""

    backend: str
    options: BackendOptions | None
    use_cache: bool


def _rules_options() -> type[BackendOptions]:
    from extractor.backends.rules_options import RulesOptions

    return RulesOptions


def _openai_options() -> type[BackendOptions]:
    from extractor.backends.openai.options import OpenAIOptions

    return OpenAIOptions


def _rules(config: RunConfig, sending: bool) -> Backend:
    from extractor.backends.rules import RulesBackend

    return RulesBackend(config.options)  # type: ignore[arg-type]


def _openai(config: RunConfig, sending: bool) -> Backend:
    from extractor.backends.openai.backend import OpenAIBackend

    return OpenAIBackend(config.options, config.use_cache, sending)  # type: ignore[arg-type]


Factory = Callable[[RunConfig, bool], Backend]
#: name -> (its options model, the backend made from a run's options); imported on first use.
BACKENDS: dict[str, tuple[Callable[[], type[BackendOptions]], Factory]] = {
    "rules": (_rules_options, _rules),
    "openai": (_openai_options, _openai),
}


def _entry(name: str) -> tuple[Callable[[], type[BackendOptions]], Factory]:
    try:
        return BACKENDS[name]
    except KeyError:
        raise ConfigError(f"unknown backend {name!r}; choose one of {', '.join(BACKENDS)}") from None


def options_class(name: str) -> type[BackendOptions]:
    return _entry(name)[0]()


def resolve_options(name: str, given: dict[str, object]) -> BackendOptions:
    """The backend's options from the values given, its environment and its defaults."""
    return options_class(name).resolve(given)


def get_backend(config: RunConfig, sending: bool = True) -> Backend:
    """The run's backend; ``sending`` False for one that only counts what it would send (a dry
    run), which needs no endpoint or key."""
    return _entry(config.backend)[1](config, sending)
