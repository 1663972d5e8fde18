"""Versioned prompts: template files under ``prompts/<version>/``, never text in the code.

A version directory holds ``system.md`` (instructions, with ``$examples``), ``user.md`` (one
abstract: ``$title``, ``$abstract``), ``example.md`` (one worked example: ``$input``,
``$output``) and ``examples.jsonl`` (few-shot examples from the dev gold, each an abstract and
its ExtractionDraft). The templates use :class:`string.Template`, so the braces of JSON and
LaTeX in abstracts need no escaping. The content hash of the files is part of the cache key:
editing a prompt re-extracts, an unchanged prompt never does.

The package reaches the files through ``extractor/data/prompts``, which links each file of the
repository's ``prompts/`` (one link per file: the build backend, flit_core, copies linked files
into the wheel but does not enter a linked directory).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from string import Template

from extractor.backends.openai.options import DEFAULT_PROMPT_VERSION
from extractor.errors import ConfigError
from extractor.schema import ExtractionDraft
from extractor.text.hashing import content_hash

PROMPTS_DIR = Path(str(files("extractor") / "data" / "prompts"))
PROMPT_FILES = ("system.md", "user.md", "example.md", "examples.jsonl")
NO_TITLE = "(none)"


@dataclass(frozen=True)
class Example:
    id: str
    title: str | None
    abstract: str
    output: ExtractionDraft


@dataclass(frozen=True)
class Prompt:
    """One prompt version, rendered for an abstract by :meth:`messages`."""

    version: str
    hash: str
    instructions: str  # the system prompt without its examples
    examples_text: str  # the rendered few-shot examples
    system: str
    user_template: Template
    examples: tuple[Example, ...]

    def user(self, abstract: str, title: str | None) -> str:
        return self.user_template.substitute(abstract=abstract, title=title or NO_TITLE)

    def messages(self, abstract: str, title: str | None) -> list[dict[str, str]]:
        return [
            {"role": "system", "content": self.system},
            {"role": "user", "content": self.user(abstract, title)},
        ]


def available_versions() -> list[str]:
    """The extraction prompts' versions (``names-*``, the names step's prompt, is not one)."""
    return sorted(p.name for p in PROMPTS_DIR.iterdir() if (p / "examples.jsonl").is_file()) if PROMPTS_DIR.is_dir() else []


@lru_cache(maxsize=8)
def load_prompt(version: str = DEFAULT_PROMPT_VERSION) -> Prompt:
    """Read and check one prompt version (each example must validate as an ExtractionDraft)."""
    directory = PROMPTS_DIR / version
    missing = [name for name in PROMPT_FILES if not (directory / name).is_file()]
    if missing:
        known = ", ".join(available_versions()) or "none"
        raise ConfigError(
            f"prompt version {version!r} is incomplete or missing in {PROMPTS_DIR} "
            f"(missing {', '.join(missing)}; versions found: {known})"
        )
    texts = {name: (directory / name).read_text(encoding="utf-8") for name in PROMPT_FILES}
    examples = tuple(
        Example(
            id=record["id"],
            title=record.get("title"),
            abstract=record["abstract"],
            output=ExtractionDraft.model_validate(record["output"]),
        )
        for record in map(json.loads, filter(str.strip, texts["examples.jsonl"].splitlines()))
    )
    user_template = Template(texts["user.md"].strip())
    example_template = Template(texts["example.md"].strip())
    examples_text = "\n\n".join(
        example_template.substitute(
            input=user_template.substitute(abstract=e.abstract, title=e.title or NO_TITLE),
            output=e.output.model_dump_json(exclude_defaults=True),
        )
        for e in examples
    )
    system = Template(texts["system.md"].strip())
    return Prompt(
        version=version,
        hash=content_hash(texts),
        instructions=system.substitute(examples="").strip(),
        examples_text=examples_text,
        system=system.substitute(examples=examples_text),
        user_template=user_template,
        examples=examples,
    )
