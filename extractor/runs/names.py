"""A run's ``names.json``: the registry entry the model gave each name the registry does not
know ("none" kept too, so the name is not asked again), with the model and prompt that said it.

Parsing and the alias table are pure; reading and writing are at the edges (atomic). Every
export applies the table like a reviewer's aliases, reviewers' word first
(:func:`extractor.review.aliases.store_aliases`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

from extractor.catalog.normalize import Aliases
from extractor.catalog.registry import fold_key
from extractor.errors import InputError
from extractor.runs.files import NAMES_FILE
from extractor.runs.writer import atomic_write_text

FORMAT = 1
KINDS = ("benchmark", "metric")


@dataclass(frozen=True)
class NameAnswer:
    kind: str  # benchmark | metric
    name: str  # as the papers write it
    same_as: str | None  # the registry entry, None for "none"
    model: str
    prompt_version: str
    refused: str | None = None  # why an answer was not taken (outside the list, not JSON): counts as none


def parse_names(text: str, where: str) -> list[NameAnswer]:
    """The answers of a ``names.json`` text; a bad record is refused naming ``where`` and its index."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(where, None, f"not JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("names") != FORMAT or not isinstance(data.get("answers"), list):
        raise InputError(where, None, f"not a names table of format {FORMAT} (an object with \"names\": {FORMAT} and \"answers\")")
    answers = []
    for index, record in enumerate(data["answers"]):
        try:
            answer = NameAnswer(**record)
        except TypeError as exc:
            raise InputError(where, None, f"answer {index}: {exc}") from None
        if (
            answer.kind not in KINDS or not isinstance(answer.name, str) or not answer.name.strip()
            or not isinstance(answer.same_as, (str, type(None)))
        ):
            raise InputError(where, None, f"answer {index}: kind must be benchmark or metric, name a non-empty text and same_as a text or null, not {record!r}")
        answers.append(answer)
    return answers


def names_text(answers: Iterable[NameAnswer]) -> str:
    ordered = sorted(answers, key=lambda a: (a.kind, fold_key(a.name)))
    return json.dumps({"names": FORMAT, "answers": [asdict(a) for a in ordered]}, indent=1, ensure_ascii=False) + "\n"


def model_aliases(answers: Iterable[NameAnswer]) -> Aliases:
    """{'benchmark' | 'metric': {folded name: registry entry}} of the answers that name one."""
    table: dict[str, dict[str, str]] = {kind: {} for kind in KINDS}
    for answer in answers:
        if answer.same_as:
            table[answer.kind][fold_key(answer.name)] = answer.same_as
    return table


def read_names(run_dir: Path) -> list[NameAnswer]:
    """The run's answers; none when the run has no table."""
    path = Path(run_dir) / NAMES_FILE
    return parse_names(path.read_text(encoding="utf-8"), str(path)) if path.exists() else []


def write_names(run_dir: Path, answers: Iterable[NameAnswer]) -> None:
    atomic_write_text(Path(run_dir) / NAMES_FILE, names_text(answers))


def runs_model_aliases(run_dirs: Iterable[Path]) -> Aliases:
    """The model's names of several runs, the later run's word last."""
    return model_aliases(answer for run_dir in run_dirs for answer in read_names(run_dir))
