"""Run options, resolved in one order: an explicit value, then the environment, then a default."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from platformdirs import user_cache_dir

DEFAULT_MODEL = "gpt-4o-mini"
MODES = ("tools", "json_schema", "json", "md_json")
DEFAULT_MAX_CHARS = 20_000  # an abstract longer than this is refused: it is not an abstract


def default_cache_dir() -> Path:
    return Path(os.environ.get("EXTRACTOR_CACHE_DIR") or user_cache_dir("extractor"))


@dataclass
class RunConfig:
    backend: str = "rules"
    model: str | None = None
    base_url: str | None = None
    api_key: str | None = None
    mode: str | None = None
    prompt_version: str = "v1"
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
) -> tuple[RunConfig, str]:
    name, reason = resolve_backend(backend, base_url, api_key)
    config = RunConfig(
        backend=name,
        model=model or os.environ.get("EXTRACTOR_MODEL") or (DEFAULT_MODEL if name == "openai" else None),
        base_url=base_url or os.environ.get("OPENAI_BASE_URL"),
        api_key=api_key or os.environ.get("OPENAI_API_KEY"),
        **{k: v for k, v in options.items() if v is not None},
    )
    return config, reason
