"""The run's journal: every finished paper appended the moment it is done, so a run killed at
any moment loses only the papers in flight, and running the same command again continues.

One line per paper, four tab-separated fields (JSON never holds a raw tab):

1. a small JSON header: input position, the input record's fingerprint, status, counts, usage,
   and whether a rerun should try it again (a backend failure) or not (an input error);
2. the paper's ``papers.jsonl`` line, as it will be written;
3. the backend's draft (JSON, or ``null``): a later paper with the same abstract is grounded on it;
4. the paper's ``claims.csv`` rows, as a JSON string.

The final outputs are assembled from it in input order by seeking to each position's line, so
only an offset per paper (8 bytes) is held in memory. A line cut short by a kill is the last
one; it is cut off before anything is appended. A damaged line elsewhere (a header that does not
parse or lacks a field, a position far past every other) is skipped with one warning naming the
file and the line, and its paper is done again; the lines after it are kept.
"""

from __future__ import annotations

import json
import logging
from array import array
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from extractor.atomic import writing
from extractor.runs.files import JOURNAL_FILE
from extractor.runs.writer import claims_text
from extractor.schema import PaperResult
from extractor.text.hashing import canonical_json

_FORMAT = 1
_MISSING = -1
#: A line whose position is this far past the furthest one before it is damaged, not a paper: a
#: run's positions grow with its input (by the shards' count at most), and the index is an array.
MAX_POSITION_JUMP = 1 << 20
_HEADER_FIELDS = {"p": int, "f": int, "ok": bool, "retry": bool, "claims": int, "rejected": int, "usage": dict}

log = logging.getLogger(__name__)


def journal_line(position: int, fingerprint: int, result: PaperResult, draft: str | None, retry: bool) -> str:
    """The line of a finished paper: its input position, the fingerprint of its input record,
    its result and the backend's draft as JSON (None when there was no answer); ``retry`` when
    a rerun should try it again."""
    header = {
        "p": position,
        "f": fingerprint,
        "ok": result.status == "ok",
        "retry": retry,
        "claims": len(result.extraction.claims) if result.extraction else 0,
        "rejected": len(result.rejected),
        "usage": result.usage.model_dump(),
        "id": result.id,
        "error": result.error,
    }
    paper_line = result.model_dump_json(exclude_none=False)
    return "\t".join(
        (canonical_json(header), paper_line, draft or "null", json.dumps(claims_text(result)))
    ) + "\n"


@dataclass(frozen=True)
class Entry:
    """A journal line, split: the header parsed, the rest as written."""

    header: dict
    paper_line: str
    draft: str
    claims: str

    @classmethod
    def parse(cls, line: str) -> Entry:
        header, paper_line, draft, claims = line.rstrip("\n").split("\t", 3)
        return cls(json.loads(header), paper_line, draft, claims)


def _header(line: bytes, furthest: int) -> dict | None:
    """A journal line's header, or None when the line is damaged: not four fields, a header that
    is not a JSON object with each field of its type, a position below 0 or past ``furthest``."""
    fields = line.split(b"\t")
    if len(fields) != 4:
        return None
    try:
        header = json.loads(fields[0])
    except (ValueError, RecursionError):
        return None
    if not isinstance(header, dict) or any(
        not isinstance(header.get(name), kind) or (kind is int and isinstance(header[name], bool))
        for name, kind in _HEADER_FIELDS.items()
    ):
        return None
    return header if 0 <= header["p"] <= furthest and 0 <= header["f"] < 1 << 64 else None


class Journal:
    """The append-only file and, per input position, where its latest line starts."""

    def __init__(self, run_dir: Path, identity: dict) -> None:
        self.path = Path(run_dir) / JOURNAL_FILE
        self._offsets = array("q")
        self._fingerprints = array("Q")  # of the finished record, 0 when it must be (re)done
        head = canonical_json({"journal": _FORMAT, "identity": identity}) + "\n"
        if not self._resume(head):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(head, encoding="utf-8")
        self._writer = self.path.open("ab")
        self._reader = self.path.open("rb")

    def _resume(self, head: str) -> bool:
        """Index the lines of an existing journal written with the same identity; cut a torn
        last line. False when there is nothing to resume."""
        if not self.path.exists():
            return False
        damaged: list[int] = []
        with self.path.open("rb") as handle:
            if handle.readline().decode("utf-8", "replace") != head:
                return False  # another backend, model or prompt: its results are not ours
            good = handle.tell()
            for number, line in enumerate(handle, 2):
                if not line.endswith(b"\n"):
                    break  # torn by a kill: the last line, cut off below
                header = _header(line, len(self._offsets) + MAX_POSITION_JUMP)
                if header is None:
                    damaged.append(number)
                elif not header["retry"]:
                    self._set(header["p"], good, header["f"])
                good += len(line)
        with self.path.open("r+b") as handle:
            handle.truncate(good)
        if damaged:
            lines = ", ".join(map(str, damaged[:10])) + (f" and {len(damaged) - 10} more" if len(damaged) > 10 else "")
            log.warning("warning: %s: line %s skipped (damaged); their papers are done again", self.path, lines)
        return True

    def _set(self, position: int, offset: int, mark: int) -> None:
        grow = position + 1 - len(self._offsets)
        if grow > 0:
            self._offsets.extend([_MISSING] * grow)
            self._fingerprints.extend([0] * grow)
        self._offsets[position] = offset
        self._fingerprints[position] = mark

    @property
    def finished(self) -> int:
        """How many input records an earlier run finished (a changed one is done again)."""
        return sum(1 for mark in self._fingerprints if mark)

    def done(self, position: int, fingerprint: int) -> bool:
        """Whether the input record at ``position``, of this fingerprint, was finished by an
        earlier run (a record that changed since has another fingerprint)."""
        return position < len(self._fingerprints) and self._fingerprints[position] == fingerprint

    def forget(self, position: int) -> None:
        """The record at ``position`` gets no line this run (a repeat, or another shard's)."""
        if position < len(self._offsets):
            self._offsets[position] = _MISSING
            self._fingerprints[position] = 0

    def append(self, lines: list[tuple[int, str]]) -> None:
        """Add finished papers' lines and make them durable against a kill of this process."""
        with writing(self.path):
            for position, line in lines:
                self._set(position, self._writer.tell(), 0)
                self._writer.write(line.encode("utf-8"))
            self._writer.flush()

    def entry(self, position: int) -> Entry | None:
        if position >= len(self._offsets) or self._offsets[position] == _MISSING:
            return None
        self._reader.seek(self._offsets[position])
        return Entry.parse(self._reader.readline().decode("utf-8"))

    def entries(self, count: int) -> Iterator[Entry]:
        """The latest line of each of the first ``count`` positions that has one, in order."""
        with writing(self.path):
            self._writer.flush()
        for position in range(count):
            found = self.entry(position)
            if found is not None:
                yield found

    def close(self) -> None:
        try:
            with writing(self.path):  # the buffered lines are written here at the latest
                self._writer.close()
        finally:
            self._reader.close()
