"""Which input records are repeats: one id per abstract, one extraction per abstract.

The index lives in a scratch SQLite file, not in memory, so a run of a million records needs
no more memory than a run of a thousand. It is rebuilt from the inputs on every run (reading
them is deterministic), so a killed run leaves nothing in it to trust.
"""

from __future__ import annotations

import errno
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from extractor.pipeline.ingest import Paper
from extractor.text.hashing import normalize_text, short_hash

_COMMIT_EVERY = 20_000


def abstract_hash(abstract: str) -> str:
    """The whitespace-folded abstract's hash: two copies that differ in line wrapping are one."""
    return short_hash(normalize_text(abstract), 32)


def in_shard(paper: Paper, digest: str | None, shard: tuple[int, int] | None) -> bool:
    """Whether the paper is this shard's (``(k, n)``, 1-based k), decided by its abstract's hash so
    every copy of an abstract lands on one shard; a record without one goes by its id."""
    if shard is None:
        return True
    k, n = shard
    key = digest if digest is not None else short_hash(paper.id, 32)
    return int(key[:15], 16) % n == k - 1


@dataclass(frozen=True)
class Admitted:
    """A record let into the run: ``paper`` (an id clash turns it into an input error), the hash
    of its abstract, and the position of the first record with that abstract (its own when new)."""

    paper: Paper
    digest: str | None
    first: int


class Deduper:
    """Sees the records in input order and says, for each, whether it is a repeat to drop (the
    same id and abstract again), a clash (a seen id with another abstract: an input error) or a
    paper, and which earlier paper already has its abstract."""

    def __init__(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        for stale in directory.glob(".dedupe-*.sqlite"):  # left by a killed run
            stale.unlink()
        self._file = tempfile.NamedTemporaryFile(dir=directory, prefix=".dedupe-", suffix=".sqlite")
        with self._failing():
            self._db = sqlite3.connect(self._file.name, isolation_level=None)
            self._db.executescript(
                """
                PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
                CREATE TABLE ids (id TEXT PRIMARY KEY, digest TEXT, source TEXT) WITHOUT ROWID;
                CREATE TABLE abstracts (digest TEXT PRIMARY KEY, position INTEGER) WITHOUT ROWID;
                BEGIN;
                """
            )
        self._pending = 0

    @contextmanager
    def _failing(self) -> Iterator[None]:
        """SQLite's error as the OS error it is (the run directory's disk is full), naming the
        file, so that the run stops in one line."""
        try:
            yield
        except sqlite3.Error as exc:
            raise OSError(errno.EIO, f"cannot write the run's table of records seen ({exc})", self._file.name) from exc

    def admit(self, position: int, paper: Paper) -> Admitted | None:
        """The record at ``position`` as the run should take it, or ``None`` for a repeat."""
        with self._failing():
            return self._admit(position, paper)

    def _admit(self, position: int, paper: Paper) -> Admitted | None:
        self._pending += 1
        if self._pending >= _COMMIT_EVERY:
            self._db.execute("COMMIT")
            self._db.execute("BEGIN")
            self._pending = 0
        digest = abstract_hash(paper.abstract)
        seen = self._db.execute("SELECT digest, source FROM ids WHERE id = ?", (paper.id,)).fetchone()
        if seen is not None:
            if paper.error or seen[0] == digest:
                return None
            where = f"{paper.source.file}:{paper.source.line}"
            clash = replace(
                paper,
                id=f"{paper.id}@{where}",
                error=f"{where}: id {paper.id!r} already used by a different abstract at {seen[1]}",
            )
            return Admitted(clash, None, position)
        self._db.execute(
            "INSERT INTO ids VALUES (?, ?, ?)",
            (paper.id, digest, f"{paper.source.file}:{paper.source.line}"),
        )
        if paper.error:
            return Admitted(paper, None, position)
        return Admitted(paper, digest, self._first(digest, position))

    def _first(self, digest: str, position: int) -> int:
        row = self._db.execute("SELECT position FROM abstracts WHERE digest = ?", (digest,)).fetchone()
        if row is not None:
            return row[0]
        self._db.execute("INSERT INTO abstracts VALUES (?, ?)", (digest, position))
        return position

    def close(self) -> None:
        self._db.close()
        self._file.close()
