"""A run directory as one object: open it, then ask it for its papers, its info, the names its
model mapped and its reviewers' corrections.

Every command that reads a run (leaderboard, review, report, eval) opens a :class:`Run`; the
files' formats stay in their own modules (:mod:`.writer`, :mod:`.journal`, :mod:`.names`,
:mod:`.corrections`). Reading never writes: a run without a correction store has no
corrections, and none is created until a reviewer records one (:meth:`Run.store`).
"""

from __future__ import annotations

import json
import logging
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from extractor.errors import InputError, NotARunError, SkippedLineWarning
from extractor.runs.corrections import Correction, CorrectionStore, read_history
from extractor.runs.files import PAPERS_FILE, REVIEWED_STAMP, RUN_FILE, STORE_FILE
from extractor.runs.names import NameAnswer, read_names
from extractor.schema import PaperResult

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Run:
    """A run directory and the correction store its reviewers write to (the run's own
    ``corrections.sqlite`` unless another was given: one store may serve several runs)."""

    path: Path
    store_path: Path
    papers_path: Path

    @classmethod
    def open(cls, path: Path | str, store: Path | str | None = None) -> Run:
        """The run in ``path`` (a run directory, or its ``papers.jsonl`` given directly);
        refused at once when there is none."""
        given = Path(path)
        papers = given / PAPERS_FILE if given.is_dir() else given
        if not papers.is_file():
            raise NotARunError(f"{path}: not a run directory (no {PAPERS_FILE}); give a directory an `extractor run` wrote")
        directory = papers.parent
        return cls(directory, Path(store) if store is not None else directory / STORE_FILE, papers)

    def file(self, name: str) -> Path:
        """The path of one of the run's files (:mod:`extractor.runs.files`)."""
        return self.path / name

    def papers(self) -> Iterator[PaperResult]:
        """The papers, read one at a time as they are iterated (a run of a million papers is
        never held whole). A line that does not parse (or is not UTF-8) is skipped with one
        warning naming the file and the line."""
        with self.papers_path.open("rb") as handle:
            for number, raw in enumerate(handle, 1):
                if not raw.strip():
                    continue
                try:
                    yield PaperResult.model_validate_json(raw.decode("utf-8"))
                except UnicodeDecodeError as exc:
                    self._skipped(number, f"not UTF-8 (byte 0x{raw[exc.start]:02x} at column {exc.start + 1})")
                except ValidationError as exc:
                    first = exc.errors()[0]
                    self._skipped(number, f"{'.'.join(map(str, first['loc'])) or 'line'}: {first['msg']}")

    def _skipped(self, number: int, problem: str) -> None:
        warnings.warn(f"{self.papers_path}:{number}: line skipped: {problem}", SkippedLineWarning, stacklevel=3)

    def info(self) -> dict:
        """``run.json``: backend, model, counts, usage, times; empty before a run has ended, and
        (with a warning) when the file is not a JSON object."""
        path = self.file(RUN_FILE)
        if not path.exists():
            return {}
        try:
            info = json.loads(path.read_bytes().decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            log.warning("warning: %s: unreadable, taken as empty (%s)", path, type(exc).__name__)
            return {}
        if not isinstance(info, dict):
            log.warning("warning: %s: not a JSON object, taken as empty", path)
            return {}
        return info

    def names(self) -> list[NameAnswer]:
        """The registry entries the model gave names the registry does not know (``names.json``);
        none, with a warning, when the table cannot be read."""
        try:
            return read_names(self.path)
        except InputError as exc:
            log.warning("warning: %s; its names are not applied", exc)
            return []

    def corrections(self, paper_ids: set[str] | None = None) -> list[Correction]:
        """The reviewers' corrections in the order they were written (optionally only of some
        papers); none when no store exists yet."""
        return read_history(self.store_path, paper_ids)

    def corrections_mark(self) -> dict:
        """Which corrections the run's store holds now: the store and its latest correction (0 for
        none). The reviewed files record the mark they were written with (:data:`REVIEWED_STAMP`)."""
        latest = max((c.id for c in self.corrections()), default=0)
        return {"store": str(self.store_path.resolve()), "latest": latest}

    def files_behind(self) -> bool:
        """Whether corrections were recorded that the reviewed files do not carry yet (a command
        stopped between recording them and rewriting the files)."""
        if not self.store_path.exists():
            return False
        try:
            stamp = json.loads(self.file(REVIEWED_STAMP).read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            return True
        return stamp != self.corrections_mark()

    def store(self) -> CorrectionStore:
        """The correction store, opened (and made, the first time) to record corrections."""
        return CorrectionStore(self.store_path)
