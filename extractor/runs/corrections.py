"""The correction store: an append-only SQLite history of what reviewers changed.

Every correction is one row: who, when (UTC), which paper and item, which field, the value it
replaced, the new value, the value the reviewer's sheet showed (to detect concurrent edits) and
the extracted item as it was (to detect re-extraction). Rows are never updated or deleted:
triggers refuse both, so the current state is always derived from the full history (latest row
per target and field). Schema changes are numbered migrations, recorded when applied, so an old
store opened by a newer version is brought forward exactly as a new one is built.
"""

from __future__ import annotations

import json
import sqlite3
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, fields
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal, get_args

from extractor.errors import SkippedLineWarning, StoreError
from extractor.text.hashing import canonical_json

TargetKind = Literal["claim", "method", "model", "benchmark", "paper"]
TARGET_KINDS: tuple[str, ...] = get_args(TargetKind)

Migration = Callable[[sqlite3.Connection], None]
MIGRATIONS: list[tuple[str, Migration]] = []


def migration(fn: Migration) -> Migration:
    """Register a migration; they run in the order they are defined, each once per store."""
    MIGRATIONS.append((fn.__name__, fn))
    return fn


def _append_only(db: sqlite3.Connection, table: str) -> None:
    for action in ("UPDATE", "DELETE"):
        db.execute(
            f"CREATE TRIGGER {table}_no_{action.lower()} BEFORE {action} ON {table} "
            f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: {action} refused'); END"
        )


@migration
def m001_initial(db: sqlite3.Connection) -> None:
    kinds = ", ".join(f"'{k}'" for k in TARGET_KINDS)
    # Values are stored as canonical JSON so None, numbers, text and lists keep their type.
    db.execute(
        f"""
        CREATE TABLE corrections (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            batch_id TEXT NOT NULL,
            reviewer TEXT NOT NULL,
            at TEXT NOT NULL,
            paper_id TEXT NOT NULL,
            target_id TEXT NOT NULL,
            target_kind TEXT NOT NULL CHECK (target_kind IN ({kinds})),
            field TEXT NOT NULL,
            old_value TEXT,
            new_value TEXT,
            base_value TEXT,
            extracted TEXT,
            conflict_with INTEGER REFERENCES corrections(id),
            note TEXT,
            source TEXT
        )
        """
    )
    db.execute("CREATE INDEX corrections_target ON corrections(target_id, field, id)")
    db.execute("CREATE INDEX corrections_paper ON corrections(paper_id)")
    _append_only(db, "corrections")


@migration
def m002_batches(db: sqlite3.Connection) -> None:
    db.execute(
        """
        CREATE TABLE batches (
            id TEXT PRIMARY KEY,
            reviewer TEXT NOT NULL,
            at TEXT NOT NULL,
            sheet TEXT,
            sheet_sha256 TEXT,
            run_dir TEXT,
            summary TEXT
        )
        """
    )
    _append_only(db, "batches")


@dataclass(frozen=True)
class Correction:
    """One row of the history. ``extracted`` is the extracted item when the row was written
    (None for an item a reviewer added); ``base_value`` is what the reviewer's sheet showed."""

    id: int
    batch_id: str
    reviewer: str
    at: str
    paper_id: str
    target_id: str
    target_kind: TargetKind
    field: str
    old_value: Any
    new_value: Any
    base_value: Any
    extracted: dict | None
    conflict_with: int | None
    note: str | None
    source: str | None


@dataclass(frozen=True)
class NewCorrection:
    """A correction about to be appended (the store assigns id, batch, reviewer and time)."""

    paper_id: str
    target_id: str
    target_kind: TargetKind
    field: str
    old_value: Any
    new_value: Any
    base_value: Any = None
    extracted: dict | None = None
    conflict_with: int | None = None
    note: str | None = None
    source: str | None = None


@dataclass(frozen=True)
class Batch:
    id: str
    reviewer: str
    at: str
    sheet: str | None
    sheet_sha256: str | None
    run_dir: str | None
    summary: dict


_JSON_COLUMNS = ("old_value", "new_value", "base_value", "extracted")
_COLUMNS = [f.name for f in fields(Correction)]


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class CorrectionStore:
    """The history of one store file. Use as a context manager; write inside ``transaction()``."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        existed = self.path.exists()
        try:
            with self.failing("open"):
                # Autocommit mode: transactions are explicit (BEGIN IMMEDIATE), so a reader-then-
                # writer apply cannot interleave with another reviewer's apply on a shared store.
                self.db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
                self.db.execute("PRAGMA foreign_keys = ON")
                self.migrate()
        except StoreError:
            self._discard_empty(existed)
            raise

    def _discard_empty(self, existed: bool) -> None:
        """After a failed open: the connection closed, and the empty file sqlite made for a new
        store removed (it holds nothing, and would pass for a store)."""
        if hasattr(self, "db"):
            self.db.close()
        if not existed and self.path.exists() and self.path.stat().st_size == 0:
            self.path.unlink(missing_ok=True)

    @contextmanager
    def failing(self, doing: str) -> Iterator[None]:
        """SQLite's errors (a read-only mount, a full disk, not a database) as one line naming
        the store, instead of a traceback."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, (sqlite3.IntegrityError, sqlite3.ProgrammingError)):
                raise  # a row the schema refuses is a bug of ours, not the disk's
            recorded = "; nothing was recorded" if doing == "write" else ""
            raise StoreError(f"{self.path}: cannot {doing} the correction store ({exc}){recorded}") from exc

    def __enter__(self) -> CorrectionStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.db.close()

    def migrate(self) -> list[str]:
        """Apply the migrations this store has not seen; returns their names. A store that
        has them all is not written, so it can be read from a read-only mount."""
        if not self._pending():
            return []
        with self.transaction():
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
            )
            done = {row[0] for row in self.db.execute("SELECT name FROM migrations")}
            applied = []
            for name, fn in MIGRATIONS:
                if name not in done:
                    fn(self.db)
                    self.db.execute("INSERT INTO migrations VALUES (?, ?)", (name, utc_now()))
                    applied.append(name)
        return applied

    def _pending(self) -> bool:
        """Whether a migration is still to apply (read without taking the write lock)."""
        tables = self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'migrations'")
        if tables.fetchone() is None:
            return True
        done = {row[0] for row in self.db.execute("SELECT name FROM migrations")}
        return any(name not in done for name, _ in MIGRATIONS)

    def applied_migrations(self) -> list[str]:
        return [row[0] for row in self.db.execute("SELECT name FROM migrations ORDER BY rowid")]

    @contextmanager
    def transaction(self) -> Iterator[None]:
        if self.db.in_transaction:  # nested: the outer transaction decides
            yield
            return
        with self.failing("write"):
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                with suppress(sqlite3.Error):  # a failed write may have rolled back already
                    self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")

    def history(self, paper_ids: set[str] | None = None) -> list[Correction]:
        """Every correction in the order it was written (optionally only for some papers). A
        row whose values are not JSON is skipped with a warning naming it (it cannot be applied,
        and the rest can); a damaged database is one error naming the store."""
        out = []
        with self.failing("read"):
            rows = self.db.execute(f"SELECT {', '.join(_COLUMNS)} FROM corrections ORDER BY id").fetchall()
        for row in rows:
            record = dict(zip(_COLUMNS, row))
            if paper_ids is not None and record["paper_id"] not in paper_ids:
                continue
            try:
                for column in _JSON_COLUMNS:
                    if record[column] is not None:
                        record[column] = json.loads(record[column])
            except (TypeError, ValueError, RecursionError) as exc:
                warnings.warn(
                    f"{self.path}: correction {record['id']} skipped: its {column} is not JSON ({type(exc).__name__})",
                    SkippedLineWarning, stacklevel=2,
                )
                continue
            out.append(Correction(**record))
        return out

    def append(self, batch: Batch, corrections: list[NewCorrection]) -> list[Correction]:
        """Record a batch and its corrections in one transaction."""
        written = []
        with self.transaction():
            self.db.execute(
                "INSERT INTO batches VALUES (?, ?, ?, ?, ?, ?, ?)",
                (batch.id, batch.reviewer, batch.at, batch.sheet, batch.sheet_sha256,
                 batch.run_dir, canonical_json(batch.summary)),
            )
            for item in corrections:
                record = {
                    **{f.name: getattr(item, f.name) for f in fields(NewCorrection)},
                    "batch_id": batch.id,
                    "reviewer": batch.reviewer,
                    "at": batch.at,
                }
                stored = {
                    k: canonical_json(v) if k in _JSON_COLUMNS and v is not None else v
                    for k, v in record.items()
                }
                names = list(stored)
                cursor = self.db.execute(
                    f"INSERT INTO corrections ({', '.join(names)}) "
                    f"VALUES ({', '.join('?' for _ in names)})",
                    [stored[n] for n in names],
                )
                written.append(Correction(id=cursor.lastrowid, **record))
        return written

    def batches(self) -> list[Batch]:
        with self.failing("read"):
            rows = self.db.execute(
                "SELECT id, reviewer, at, sheet, sheet_sha256, run_dir, summary FROM batches ORDER BY rowid"
            ).fetchall()
        return [Batch(*row[:6], summary=_summary(row[6])) for row in rows]


def read_history(path: Path, paper_ids: set[str] | None = None) -> list[Correction]:
    """The corrections of the store at ``path`` in the order they were written (optionally only
    of some papers); none when there is no store. Reading never creates one."""
    if not Path(path).exists():
        return []
    with CorrectionStore(path) as db:
        return db.history(paper_ids)


def _summary(text: str | None) -> dict:
    """A batch's counts as recorded; none when the record is not a JSON object (it is shown,
    never applied)."""
    try:
        summary = json.loads(text or "{}")
    except (ValueError, RecursionError):
        return {}
    return summary if isinstance(summary, dict) else {}
