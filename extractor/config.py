"""Run options, resolved in one order: an explicit value, then the environment, then a default."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields
from pathlib import Path
from urllib.parse import urlsplit

from platformdirs import user_cache_dir

from extractor.errors import ConfigError
from extractor.schema import CELL_CHARS
from extractor.text.safe import redact_url

DEFAULT_MODEL = "gpt-4o-mini"
MODES = ("tools", "json_schema", "json", "md_json")
DEFAULT_MAX_CHARS = 20_000  # an abstract longer than this is refused: it is not an abstract
DEFAULT_PROMPT_VERSION = "v3"  # prompts/<version>/; older versions stay readable


def default_cache_dir() -> Path:
    return Path(os.environ.get("EXTRACTOR_CACHE_DIR") or user_cache_dir("extractor"))


def default_workers() -> int:
    """The cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def parse_shard(text: str) -> tuple[int, int]:
    """``"K/N"`` (1 <= K <= N): this machine's share of the papers."""
    k, _, n = text.partition("/")
    try:
        shard = int(k), int(n)
    except ValueError:
        raise ConfigError(f"shard must be K/N, like 1/4, not {text!r}") from None
    return shard


def check_base_url(url: str) -> None:
    """Refuse a base URL no request can use, in one line, before any work: without it the SDK
    fails on the first request (a port out of range: "unhandled errors in a TaskGroup"; a
    malformed host: a traceback). The URL is shown with its credentials redacted, and not at
    all when it cannot be parsed (nothing then says which part is the secret)."""
    try:
        parts = urlsplit(url)
    except ValueError as exc:
        raise ConfigError(f"--base-url: not a URL ({exc})") from None
    shown = redact_url(url)
    written = parts.netloc.rpartition("@")[2].rpartition("]")[2].rpartition(":")[2] if ":" in parts.netloc else ""
    try:
        port = parts.port
    except ValueError:
        port = -1
    if port == -1 or port == 0:
        problem = f"port {written} is out of range (1-65535)" if written.isdigit() else f"port {written!r} is not a number"
        raise ConfigError(f"--base-url {shown}: {problem}")
    if not parts.scheme or not parts.hostname:
        raise ConfigError(f"--base-url {shown}: give the scheme and host, like http://127.0.0.1:8080/v1")
    if parts.scheme not in ("http", "https"):
        raise ConfigError(f"--base-url {shown}: the scheme must be http or https")


@dataclass
class RunConfig:
    backend: str = "rules"
    model: str | None = None
    base_url: str | None = None
    api_key: str | None = None
    mode: str | None = None
    prompt_version: str = DEFAULT_PROMPT_VERSION
    temperature: float = 0.0
    max_tokens: int = 2048
    timeout: float = 120.0
    max_retries: int = 6
    concurrency: int = 8
    rpm: float | None = None
    max_cost: float | None = None
    max_chars: int = DEFAULT_MAX_CHARS
    cache_dir: Path = field(default_factory=default_cache_dir)
    use_cache: bool = True
    batch: bool = False  # the OpenAI Batch API instead of online requests
    batch_poll: float = 30.0  # seconds between two looks at a pending batch
    workers: int = field(default_factory=default_workers)  # processes for the rules backend
    shard: tuple[int, int] | None = None  # (k, n): only the k-th of n shares of the papers
    map_names: bool = True  # openai: map names the registry does not know, one request per name

    def __post_init__(self) -> None:
        """Refuse values no run can use, naming the option, before any work starts."""
        if self.mode is not None and self.mode not in MODES:
            raise ConfigError(f"unknown mode {self.mode!r}; choose one of {', '.join(MODES)}")
        for name, low in (
            ("concurrency", 1), ("max_tokens", 1), ("max_chars", 1), ("max_retries", 0), ("workers", 1),
        ):
            if getattr(self, name) < low:
                raise ConfigError(f"{name} must be {low} or more, not {getattr(self, name)}")
        if self.batch and self.backend != "openai":
            raise ConfigError(f"--batch sends requests through the OpenAI Batch API; backend {self.backend} sends none")
        if self.batch and not self.use_cache:
            raise ConfigError("--batch keeps each answer in the cache the moment it arrives (that is how a rerun resumes); drop --no-cache")
        if self.batch and self.max_cost is not None:
            raise ConfigError("--max-cost cannot stop a batch once it is submitted; price it first with --dry-run --batch")
        for name in ("timeout", "rpm", "max_cost", "batch_poll"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise ConfigError(f"{name} must be more than 0, not {value}")
        if self.max_chars > CELL_CHARS:  # the review sheet shows each abstract in one cell
            raise ConfigError(f"max_chars must be {CELL_CHARS} or less (what a spreadsheet cell holds), not {self.max_chars}")
        if not 0 <= self.temperature <= 2:
            raise ConfigError(f"temperature must be between 0 and 2, not {self.temperature}")
        if self.shard is not None and not 1 <= self.shard[0] <= self.shard[1]:
            raise ConfigError(f"shard must be K/N with 1 <= K <= N, not {self.shard[0]}/{self.shard[1]}")
        if self.base_url:
            check_base_url(self.base_url)
        self.cache_dir = Path(self.cache_dir)


def resolve_backend(
    backend: str | None, base_url: str | None, api_key: str | None
) -> tuple[str, str]:
    """The backend to use and a one-line reason, for the line printed at the start of a run."""
    if backend:
        return backend, f"backend {backend} (chosen with --backend)"
    if base_url or os.environ.get("OPENAI_BASE_URL"):
        return "openai", "backend openai (a base URL is configured)"
    if api_key or os.environ.get("OPENAI_API_KEY"):
        return "openai", "backend openai (OPENAI_API_KEY is set)"
    return "rules", "backend rules (offline; set OPENAI_API_KEY or --base-url to use an LLM)"


def make_config(
    backend: str | None = None,
    model: str | None = None,
    base_url: str | None = None,
    api_key: str | None = None,
    **options: object,
) -> RunConfig:
    """The run's options: each given value, else the environment (OPENAI_BASE_URL,
    OPENAI_API_KEY, EXTRACTOR_MODEL), else the default. ``options`` are other RunConfig fields;
    a None among them means "not given". An unknown option is refused, naming it."""
    unknown = sorted(set(options) - {f.name for f in fields(RunConfig)})
    if unknown:
        raise ConfigError(f"unknown option{'s' * (len(unknown) > 1)} {', '.join(unknown)}")
    name, _ = resolve_backend(backend, base_url, api_key)
    return RunConfig(
        backend=name,
        model=model or os.environ.get("EXTRACTOR_MODEL") or (DEFAULT_MODEL if name == "openai" else None),
        base_url=base_url or os.environ.get("OPENAI_BASE_URL"),
        api_key=api_key or os.environ.get("OPENAI_API_KEY"),
        **{k: v for k, v in options.items() if v is not None},
    )
