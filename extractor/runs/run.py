"""A run directory as one object: open it, then ask it for its papers, its info, the names its
model mapped and its reviewers' corrections.

Every command that reads a run (leaderboard, review, report, eval) opens a :class:`Run`; the
files' formats stay in their own modules (:mod:`.writer`, :mod:`.journal`, :mod:`.names`,
:mod:`.corrections`). Reading never writes: a run without a correction store has no
corrections, and none is created until a reviewer records one (:meth:`Run.store`).
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from extractor.errors import NotARunError, SkippedLineWarning
from extractor.runs.corrections import Correction, CorrectionStore, read_history
from extractor.runs.files import PAPERS_FILE, RUN_FILE, STORE_FILE
from extractor.runs.names import NameAnswer, read_names
from extractor.schema import PaperResult


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
            raise NotARunError(f"{path}: not a run directory (no {PAPERS_FILE}); give the --out of an `extractor run`")
        directory = papers.parent
        return cls(directory, Path(store) if store is not None else directory / STORE_FILE, papers)

    def file(self, name: str) -> Path:
        """The path of one of the run's files (:mod:`extractor.runs.files`)."""
        return self.path / name

    def papers(self) -> Iterator[PaperResult]:
        """The papers, read one at a time as they are iterated (a run of a million papers is
        never held whole). A line that does not parse is skipped with one warning naming the
        file and the line."""
        with self.papers_path.open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                try:
                    yield PaperResult.model_validate_json(line)
                except ValidationError as exc:
                    first = exc.errors()[0]
                    problem = f"{'.'.join(map(str, first['loc'])) or 'line'}: {first['msg']}"
                    warnings.warn(f"{self.papers_path}:{number}: line skipped: {problem}", SkippedLineWarning, stacklevel=2)

    def info(self) -> dict:
        """``run.json``: backend, model, counts, usage, times; empty before a run has ended."""
        path = self.file(RUN_FILE)
        return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}

    def names(self) -> list[NameAnswer]:
        """The registry entries the model gave names the registry does not know (``names.json``)."""
        return read_names(self.path)

    def corrections(self, paper_ids: set[str] | None = None) -> list[Correction]:
        """The reviewers' corrections in the order they were written (optionally only of some
        papers); none when no store exists yet."""
        return read_history(self.store_path, paper_ids)

    def store(self) -> CorrectionStore:
        """The correction store, opened (and made, the first time) to record corrections."""
        return CorrectionStore(self.store_path)
