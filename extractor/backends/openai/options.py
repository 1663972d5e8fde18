"""The openai backend's options: the endpoint, the model, the prompt, and how requests are sent.

Each is bounded here, so a value no request can use is refused before any work, naming the
option. ``resolve`` fills what was not given from the environment (``OPENAI_BASE_URL``,
``OPENAI_API_KEY``, ``EXTRACTOR_MODEL``), then the defaults.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal
from urllib.parse import urlparse, urlsplit

from pydantic import Field, field_validator, model_validator

from extractor.backends.options import BackendOptions, build_options
from extractor.errors import ConfigError
from extractor.text.safe import redact_url

DEFAULT_MODEL = "gpt-4o-mini"
MODES = ("tools", "json_schema", "json", "md_json")
DEFAULT_PROMPT_VERSION = "v3"  # prompts/<version>/; older versions stay readable
OPENAI_HOST = "api.openai.com"


def check_base_url(url: str) -> None:
    """Refuse a base URL no request can use, in one line, before any work: without it the SDK
    fails on the first request (a port out of range: "unhandled errors in a TaskGroup"; a
    malformed host: a traceback). The URL is shown with its credentials redacted, and not at
    all when it cannot be parsed (nothing then says which part is the secret)."""
    try:
        parts = urlsplit(url)
    except ValueError as exc:
        raise ConfigError(f"{{base_url}}: not a URL ({exc})", ("base_url",)) from None
    shown = redact_url(url)
    written = parts.netloc.rpartition("@")[2].rpartition("]")[2].rpartition(":")[2] if ":" in parts.netloc else ""
    try:
        port = parts.port
    except ValueError:
        port = -1
    if port == -1 or port == 0:
        problem = f"port {written} is out of range (1-65535)" if written.isdigit() else f"port {written!r} is not a number"
        raise ConfigError(f"{{base_url}} {shown}: {problem}", ("base_url",))
    if not parts.scheme or not parts.hostname:
        raise ConfigError(f"{{base_url}} {shown}: give the scheme and host, like http://127.0.0.1:8080/v1", ("base_url",))
    if parts.scheme not in ("http", "https"):
        raise ConfigError(f"{{base_url}} {shown}: the scheme must be http or https", ("base_url",))


class OpenAIOptions(BackendOptions):
    """How the openai backend reaches its endpoint and what it asks."""

    backend = "openai"

    model: str | None = Field(None, description="the model name the endpoint serves")
    base_url: str | None = Field(None, description="an OpenAI-compatible endpoint (default: api.openai.com)")
    fleet: tuple[str, ...] = Field((), description="every base URL of a fleet of servers sharing the requests; base_url is the first")
    api_key: str | None = Field(None, repr=False, description="the endpoint's key; a local server needs none")
    mode: Literal["tools", "json_schema", "json", "md_json"] | None = Field(
        None, description="structured-output mode (default: chosen for the endpoint)")
    prompt_version: str = Field(DEFAULT_PROMPT_VERSION, description="prompts/<version>/")
    temperature: float = Field(0.0, ge=0, le=2)
    max_tokens: int = Field(2048, ge=1, description="the longest answer, in tokens")
    timeout: float = Field(120.0, gt=0, description="seconds to wait for one answer, body included")
    max_retries: int = Field(6, ge=0, description="retries of a request after 429, 5xx, timeouts")
    concurrency: int = Field(8, ge=1, description="requests in flight at once")
    rpm: float | None = Field(None, gt=0, description="at most this many requests per minute")
    max_cost: float | None = Field(None, gt=0, description="stop sending new requests once this many USD are spent")
    batch: bool = Field(False, description="send the requests through the OpenAI Batch API")
    batch_poll: float = Field(30.0, gt=0, description="seconds between two looks at a pending batch")
    map_names: bool = Field(True, description="after extraction, map names the registry does not know, one request each")
    batch_export: bool = Field(False, description="write the requests for another batch engine and send nothing")
    batch_import: tuple[Path, ...] = Field((), description="output files of another batch engine to finish the run with")

    @field_validator("base_url")
    @classmethod
    def _usable_url(cls, url: str | None) -> str | None:
        if url:
            check_base_url(url)
        return url

    @field_validator("fleet")
    @classmethod
    def _usable_urls(cls, urls: tuple[str, ...]) -> tuple[str, ...]:
        for url in urls:
            check_base_url(url)
        return urls

    @model_validator(mode="before")
    @classmethod
    def _one_or_a_fleet(cls, data: object) -> object:
        """Several base URLs are a fleet, the first of them the base URL; one is the base URL."""
        if isinstance(data, dict) and isinstance(data.get("base_url"), (list, tuple)):
            data = {**data, "fleet": tuple(data["base_url"])}
            data["base_url"] = data["fleet"][0] if data["fleet"] else None
        if isinstance(data, dict) and data.get("fleet"):
            fleet = tuple(data["fleet"])
            data = {**data, "base_url": data.get("base_url") or fleet[0], "fleet": fleet if len(fleet) > 1 else ()}
        return data

    @model_validator(mode="after")
    def _fits_together(self) -> OpenAIOptions:
        if self.batch and self.max_cost is not None:
            raise ConfigError("{max_cost} cannot stop a batch once it is submitted; price it first with a dry run of the {batch}", ("max_cost", "batch"))
        if self.fleet and self.batch:
            raise ConfigError("the {batch} sends one batch to one endpoint; give one {base_url}", ("batch", "base_url"))
        if self.fleet and self.base_url != self.fleet[0]:
            raise ConfigError("a fleet's first server is its {base_url}", ("base_url",))
        handoff = "batch_export" if self.batch_export else "batch_import" if self.batch_import else None
        if handoff and self.batch:
            raise ConfigError(
                f"{{{handoff}}} hands the requests to another engine; the {{batch}} sends them to the Batch API: choose one",
                (handoff, "batch"),
            )
        if self.batch_export and self.batch_import:
            raise ConfigError(
                "the {batch_export} writes the requests and stops; import the answers ({batch_import}) in a run of their own",
                ("batch_export", "batch_import"),
            )
        return self

    @property
    def handing_off(self) -> bool:
        """Whether this run hands its requests to another engine (and so sends none)."""
        return self.batch_export or bool(self.batch_import)

    @classmethod
    def resolve(cls, given: dict[str, object]) -> OpenAIOptions:
        """The options from the values given (None: not given), then the environment, then the
        defaults."""
        chosen = {k: v for k, v in given.items() if v is not None}
        chosen.setdefault("model", os.environ.get("EXTRACTOR_MODEL") or DEFAULT_MODEL)
        for name, variable in (("base_url", "OPENAI_BASE_URL"), ("api_key", "OPENAI_API_KEY")):
            if os.environ.get(variable):
                chosen.setdefault(name, os.environ[variable])
        return build_options(cls, chosen)


def choose_mode(options: OpenAIOptions) -> str:
    """The forced mode, else ``json_schema`` for another engine's batch (what vLLM's and
    SGLang's structured outputs take) and every endpoint but api.openai.com, ``tools`` there."""
    if options.mode:
        return options.mode
    if options.handing_off:
        return "json_schema"
    host = urlparse(options.base_url or f"https://{OPENAI_HOST}/v1").hostname
    return "tools" if host == OPENAI_HOST else "json_schema"
