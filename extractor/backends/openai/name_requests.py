"""One short request per name: "which registry entry is this benchmark (or metric) name?".

The answer is bound to a closed list: the request's schema makes ``same_as`` an ``enum`` of the
candidate entries and "none" (a forced tool's parameters or ``response_format``, which servers
turn into constrained decoding; the schema text in the json modes). An answer that does not
parse or names anything outside the list is refused and counts as "none", never re-asked: a
name left as written costs nothing, a wrong merge mixes two leaderboards.

The prompt is ``prompts/names-<version>/`` (``system.md``, ``user.md``); its content hash and
version are part of the cache key (:mod:`extractor.backends.openai.name_mapping`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from string import Template
from typing import Any, Literal

from instructor import ResponseSchema
from instructor.processing import handle_response_model
from pydantic import Field, create_model

from extractor.backends.openai.exchange import CUT_OFF, INSTRUCTOR_MODES, PARSE_ERRORS, mode_parser
from extractor.backends.openai.prompts import PROMPTS_DIR
from extractor.backends.openai.options import OpenAIOptions
from extractor.errors import ConfigError
from extractor.text.hashing import content_hash

NAMES_PROMPT_VERSION = "names-v1"
NONE = "none"
ANSWER_TOKENS = 64  # {"same_as": "<entry>"}: a registry name is a few tokens; more is a model rambling
_FILES = ("system.md", "user.md")


@dataclass(frozen=True)
class NamesPrompt:
    version: str
    hash: str
    system: Template
    user: Template

    def messages(self, kind: str, name: str, candidates: tuple[str, ...]) -> list[dict[str, str]]:
        listed = "\n".join(f"- {entry}" for entry in candidates)
        return [
            {"role": "system", "content": self.system.substitute(kind=kind)},
            {"role": "user", "content": self.user.substitute(kind=kind, name=name, candidates=listed)},
        ]


@lru_cache(maxsize=4)
def load_names_prompt(version: str = NAMES_PROMPT_VERSION) -> NamesPrompt:
    directory = PROMPTS_DIR / version
    missing = [name for name in _FILES if not (directory / name).is_file()]
    if missing:
        raise ConfigError(f"the names prompt {version!r} is incomplete or missing in {PROMPTS_DIR} (missing {', '.join(missing)})")
    texts = {name: (directory / name).read_text(encoding="utf-8") for name in _FILES}
    return NamesPrompt(version, content_hash(texts), Template(texts["system.md"].strip()), Template(texts["user.md"].strip()))


@lru_cache(maxsize=1024)
def answer_model(candidates: tuple[str, ...]) -> type:
    """The answer's pydantic model: ``same_as`` is one of ``candidates`` or "none"."""
    options = Literal[(*candidates, NONE)]  # type: ignore[valid-type]
    return create_model(
        "NameAnswer",
        __base__=ResponseSchema,
        __doc__="The registry entry the name is another name of, or none.",
        same_as=(options, Field(description="one entry of the list, or none")),
    )


def name_request(mode: str, messages: list[dict], candidates: tuple[str, ...], config: OpenAIOptions) -> dict[str, Any]:
    """The Chat Completions body of one name request in this mode, as instructor builds it."""
    _, body = handle_response_model(answer_model(candidates), mode=INSTRUCTOR_MODES[mode], messages=list(messages))
    return {**body, "model": config.model, "temperature": config.temperature, "max_tokens": ANSWER_TOKENS}


@dataclass(frozen=True)
class NameReading:
    """What an answer says: the entry (None for "none"), or why it was refused."""

    same_as: str | None
    refused: str | None = None


def read_name_answer(response: Any, mode: str, candidates: tuple[str, ...]) -> NameReading:
    """The entry a response names; an answer outside the list, or not JSON, is refused."""
    if not getattr(response, "choices", None):
        return NameReading(None, "the server answered without a choice")
    try:
        parsed = mode_parser(mode)(
            response=response, response_model=answer_model(candidates), validation_context=None,
            strict=False, stream=False, is_async=True,
        )
    except (*PARSE_ERRORS, CUT_OFF) as exc:
        return NameReading(None, " ".join(str(exc).split())[:200])
    return NameReading(None if parsed.same_as == NONE else parsed.same_as)
