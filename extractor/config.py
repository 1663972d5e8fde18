"""A run's options: those every run has (inputs' bounds, cache, shard) and the chosen backend's
own (:mod:`extractor.backends.options`), each resolved in one order: an explicit value, then
the environment, then a default."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from platformdirs import user_cache_dir

from extractor.backends.options import BackendOptions
from extractor.errors import ConfigError
from extractor.schema import CELL_CHARS

DEFAULT_MAX_CHARS = 20_000  # an abstract longer than this is refused: it is not an abstract
#: The options every run has, whatever its backend.
RUN_OPTIONS = ("max_chars", "cache_dir", "use_cache", "shard")


def default_cache_dir() -> Path:
    return Path(os.environ.get("EXTRACTOR_CACHE_DIR") or user_cache_dir("extractor"))


def parse_shard(text: str) -> tuple[int, int]:
    """``"K/N"`` (1 <= K <= N): this machine's share of the papers."""
    k, _, n = text.partition("/")
    try:
        shard = int(k), int(n)
    except ValueError:
        raise ConfigError(f"{{shard}} must be K/N, like 1/4, not {text!r}", ("shard",)) from None
    return shard


@dataclass
class RunConfig:
    """The options of one run: the backend by name, its own options (its defaults when not
    given), and the options any run has."""

    backend: str = "rules"
    options: BackendOptions | None = None
    max_chars: int = DEFAULT_MAX_CHARS
    cache_dir: Path = field(default_factory=default_cache_dir)
    use_cache: bool = True
    shard: tuple[int, int] | None = None  # (k, n): only the k-th of n shares of the papers

    def __post_init__(self) -> None:
        """Refuse values no run can use, naming the option, before any work starts."""
        from extractor.backends.by_name import options_class

        kind = options_class(self.backend)
        if self.options is None:
            self.options = kind()
        elif not isinstance(self.options, kind):
            raise ConfigError(f"backend {self.backend} takes {kind.__name__}, not {type(self.options).__name__}")
        if self.max_chars < 1:
            raise ConfigError(f"{{max_chars}} must be 1 or more, not {self.max_chars}", ("max_chars",))
        if self.max_chars > CELL_CHARS:  # the review sheet shows each abstract in one cell
            raise ConfigError(f"{{max_chars}} must be {CELL_CHARS} or less (what a spreadsheet cell holds), not {self.max_chars}", ("max_chars",))
        if self.shard is not None and not 1 <= self.shard[0] <= self.shard[1]:
            raise ConfigError(f"{{shard}} must be K/N with 1 <= K <= N, not {self.shard[0]}/{self.shard[1]}", ("shard",))
        self.cache_dir = Path(self.cache_dir)


def resolve_backend(backend: str | None, base_url: str | None, api_key: str | None) -> tuple[str, str]:
    """The backend to use and a one-line reason, for the line printed at the start of a run."""
    if backend:
        return backend, f"backend {backend} (chosen)"
    if base_url or os.environ.get("OPENAI_BASE_URL"):
        return "openai", "backend openai (a base URL is configured)"
    if api_key or os.environ.get("OPENAI_API_KEY"):
        return "openai", "backend openai (OPENAI_API_KEY is set)"
    return "rules", "backend rules (offline; set OPENAI_API_KEY or a base URL to use an LLM)"


def make_config(backend: str | None = None, **options: object) -> RunConfig:
    """A run's options from the values given (None: not given): the backend by name, else the
    openai backend when a key or a base URL is configured, else the offline rules; the options
    every run has go to :class:`RunConfig`, the others to the backend's own options model, which
    refuses, naming it, an option it does not take."""
    from extractor.backends.by_name import BACKENDS, options_class, resolve_options

    given = {k: v for k, v in options.items() if v is not None}
    name, why = resolve_backend(backend, given.get("base_url"), given.get("api_key"))  # type: ignore[arg-type]
    run = {k: given.pop(k) for k in RUN_OPTIONS if k in given}
    for option in sorted(set(given) - set(options_class(name).model_fields)):
        owners = [other for other in BACKENDS if option in options_class(other).model_fields]
        if owners:
            raise ConfigError(
                f"{{{option}}} is an option of backend {' and '.join(owners)}; this run's is {why}", (option,)
            )
    return RunConfig(backend=name, options=resolve_options(name, given), **run)  # type: ignore[arg-type]
