"""The names of a run: what its model and its reviewers said a benchmark or metric name is.

- ``names.json``: the registry entry the model gave each name the registry does not know ("none"
  kept too, so the name is not asked again), with the model and prompt that said it;
- the reviewers' word, kept in the correction store like any correction: a claim's
  ``benchmark_same_as`` / ``metric_same_as`` says its name is another name of X (the name as
  written in ``old_value``, X in ``new_value``; the name itself says it is no other's, over the
  model's answer; a cleared cell takes the word back, and the model's answer holds again);
  ``setting_condition`` says words of its setting name an evaluation condition (the phrase in
  ``new_value``, the one the cell showed before in ``old_value``, taken back);
  ``block_same_as`` says its block is one with the block of other conditions (the block as the
  claim had it, its benchmark, metric and setting, in ``old_value``; those conditions in
  ``new_value``).

:func:`name_aliases` lays the reviewers' latest word over the model's: every leaderboard applies
the table to every paper of every run on it. Parsing and the tables are pure; reading and
writing are at the edges (atomic).
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

from extractor.catalog.conditions import phrase_key
from extractor.catalog.registry import fold_key
from extractor.errors import InputError
from extractor.atomic import atomic_write_text
from extractor.runs.corrections import Correction
from extractor.runs.files import NAMES_FILE
from extractor.text.hashing import canonical_json

if TYPE_CHECKING:
    from extractor.catalog.normalize import Aliases

FORMAT = 1
log = logging.getLogger(__name__)
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
    except RecursionError:
        raise InputError(where, None, "not a names table (nested too deep)") from None
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
    """The run's answers; none when the run has no table. A table that cannot be read is
    refused naming the file (:class:`~extractor.errors.InputError`)."""
    path = Path(run_dir) / NAMES_FILE
    if not path.exists():
        return []
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(str(path), None, f"not UTF-8 (byte at offset {exc.start})") from None
    return parse_names(text, str(path))


def names_to_extend(run_dir: Path) -> list[NameAnswer]:
    """The run's answers, for a step that adds to them: a table that cannot be read is kept
    beside it (``names.json.damaged``, with a warning) and the step starts a new one, so nothing
    is overwritten unseen."""
    try:
        return read_names(run_dir)
    except InputError as exc:
        path = Path(run_dir) / NAMES_FILE
        kept = path.with_name(NAMES_FILE + ".damaged")
        path.replace(kept)
        log.warning("warning: %s; kept as %s, a new table is written", exc, kept)
        return []


def write_names(run_dir: Path, answers: Iterable[NameAnswer]) -> None:
    atomic_write_text(Path(run_dir) / NAMES_FILE, names_text(answers))


#: The store's correction fields that speak about the board's words (sheet columns of the same
#: name) -> the kind of word, the table it goes to: the claim field whose name they merge, a
#: setting phrase that is a condition, or a block that is one with another.
ALIAS_FIELDS = {
    "benchmark_same_as": "benchmark", "metric_same_as": "metric", "setting_condition": "condition", "block_same_as": "block",
}  # fmt: skip


#: {kind: {key: the word, or None when the reviewer's latest word is that there is none}}: for a
#: 'benchmark' or 'metric', the folded name -> the name it is another name of (None: a cleared
#: cell, or the name itself); for a 'condition', the phrase's key -> the phrase; for a 'block',
#: the block as a claim had it (JSON) -> the conditions of the block it is one with.
Words = dict[str, dict[str, str | None]]


#: A word taken back (a cleared cell, an undo): the reviewers say nothing of the key any more.
TAKEN_BACK = object()


def _said(kind: str, correction: Correction) -> Iterable[tuple[str, object]]:
    """The (key, word) pairs one correction sets in its kind's table; None is a word too (a
    name is its own, no other's), :data:`TAKEN_BACK` is none."""
    old, new = correction.old_value, correction.new_value
    if kind == "condition":
        if old:
            yield phrase_key(str(old)), TAKEN_BACK  # the phrase the cell showed
        if new:
            yield phrase_key(str(new)), str(new)
    elif kind == "block":
        if isinstance(old, dict):
            yield canonical_json(old), str(new) if new else TAKEN_BACK
    elif old:
        key = fold_key(str(old))
        yield key, TAKEN_BACK if not new else str(new) if fold_key(str(new)) != key else None


def reviewer_words(history: Iterable[Correction]) -> Words:
    """Every word a correction history speaks about and its latest word, in written order; a
    word taken back leaves its key unspoken of, so the model's answer for a name holds again."""
    table: Words = {kind: {} for kind in ALIAS_FIELDS.values()}
    for correction in history:
        if (kind := ALIAS_FIELDS.get(correction.field)) is not None:
            for key, word in _said(kind, correction):
                if word is TAKEN_BACK:
                    table[kind].pop(key, None)
                else:
                    table[kind][key] = word  # type: ignore[assignment]  # a name or None: TAKEN_BACK is never kept
    return table


def name_aliases(history: Iterable[Correction], model: Aliases | None = None) -> Aliases:
    """{'benchmark': {folded name: the name it is another name of}, 'metric': {...},
    'condition': {...}, 'block': {...}} from a correction history (a cleared cell takes a word
    back: the model's answer holds again), over the names a model mapped (``model``, a run's ``names.json``): a reviewer's word
    on a name, alias or not, always wins."""
    words = reviewer_words(history)
    return {
        kind: {
            **{key: name for key, name in (model or {}).get(kind, {}).items() if key not in said},
            **{key: name for key, name in said.items() if name},
        }
        for kind, said in words.items()
    }
