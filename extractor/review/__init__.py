"""Reviewer corrections that are never lost: export a run to a sheet, apply the returned sheet,
and report the state.

:func:`load_reviewed` and :func:`reviewed_papers` are what every export calls (leaderboard,
report, gold): the run's papers with the corrections applied, and the review marks to show
beside corrected cells.
"""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from extractor.atomic import atomic_write_bytes, naming
from extractor.errors import ReviewError, literal
from extractor.progress import Step, silent
from extractor.review.corrected import (
    Conflict,
    ReviewMark,
    ReviewState,
    StaleTarget,
    Stamp,
    review_state,
)
from extractor.review.apply import Change
from extractor.review.record import ApplyReport
from extractor.runs.corrections import Batch, Correction, CorrectionStore
from extractor.runs.run import Run
from extractor.schema import PaperResult

__all__ = [
    "ApplyReport",
    "Conflict",
    "Correction",
    "CorrectionStore",
    "ReviewMark",
    "ReviewState",
    "StaleTarget",
    "Stamp",
    "StatusReport",
    "apply_review",
    "export_review",
    "load_reviewed",
    "load_state",
    "reviewed_papers",
    "review_status",
]


def load_state(run: Run) -> ReviewState:
    """The run with its corrections; reading never creates a store."""
    papers = list(run.papers())
    return review_state(papers, run.corrections({p.id for p in papers}))


def reviewed_papers(run: Run) -> Iterator[tuple[PaperResult, dict[str, ReviewMark]]]:
    """The run's papers one at a time, corrections applied, each with its review marks: what an
    export reads when it must not hold a whole run in memory. Only the corrections (a reviewer's
    work, small) are loaded at once."""
    papers = run.papers()
    history: dict[str, list[Correction]] = {}
    for correction in run.corrections():
        history.setdefault(correction.paper_id, []).append(correction)
    for paper in papers:
        corrections = history.get(paper.id)
        if not corrections:
            yield paper, {}
            continue
        state = review_state([paper], corrections)
        yield state.papers[0], state.marks


def load_reviewed(run: Run) -> tuple[list[PaperResult], dict[str, ReviewMark]]:
    """The corrected papers of a run and the review marks by item id (claim id, ``paper/kind/name``
    for methods, models and benchmarks, the paper id for the paper itself)."""
    state = load_state(run)
    return state.papers, state.marks


def export_review(run: Run, out: Path, step: Step = silent) -> dict[str, int]:
    """Write the review workbook; returns how many items of each kind it holds."""
    if Path(out).suffix.lower() != ".xlsx":
        raise ReviewError(f"{literal(out)}: the review workbook is an .xlsx file; give {{out}} a name ending in .xlsx", ("out",))
    from extractor.review.sheet import build_workbook  # openpyxl: only a review sheet needs it

    state = load_state(run)
    try:
        book = build_workbook(state, step, run.names())
    except OSError as exc:  # openpyxl writes each sheet to a temporary file first
        raise naming(exc, Path(tempfile.gettempdir())) if exc.filename is None else exc
    atomic_write_bytes(Path(out), book)
    counts: dict[str, int] = {}
    for target_state in state.targets.values():
        counts[target_state.target.kind] = counts.get(target_state.target.kind, 0) + 1
    return counts


def apply_review(sheet: Path, run: Run, reviewer: str) -> ApplyReport:
    """Validate a returned sheet row by row and record its changes as one batch
    (:func:`~extractor.review.record.record`, the page's path too). What the sheet holds that
    would pass unseen (an edit in a grey column, a deleted row) is among the report's notes."""
    from extractor.review.record import record
    from extractor.review.sheet import read_workbook

    sheet = Path(sheet)
    if not reviewer.strip():
        raise ReviewError("{reviewer} needs a name", ("reviewer",))
    returned = read_workbook(sheet)  # one ReviewError for what is not a readable review sheet
    changes = [
        Change(row.kind, row.id, row.paper_id, row.cells, row.base, f"{row.sheet}!{row.row}",
               f"sheet {row.sheet}, row {row.row}", row.letters, row.problems)
        for row in returned.rows
    ]
    report = record(run, reviewer, changes, str(sheet), sheet_sha256=hashlib.sha256(sheet.read_bytes()).hexdigest())
    report.notes = returned.notes + report.notes
    return report


@dataclass
class StatusReport:
    store: Path
    corrections: int
    batches: list[Batch]
    reviewed: dict[str, int]  # items with a correction, by kind
    decisions: dict[str, int]  # current decisions: accept / reject / edit
    stale: list[StaleTarget]
    conflicts: list[Conflict]
    other_papers: int = 0  # corrections in the store for papers this run does not hold


def review_status(run: Run) -> StatusReport:
    state = load_state(run)
    batches: list[Batch] = []
    other_papers = 0
    if run.store_path.exists():
        with run.store() as db:
            batches = [b for b in db.batches() if b.id in {c.batch_id for c in state.history}]
            other_papers = len(db.history()) - len(state.history)
    reviewed: dict[str, int] = {}
    decisions: dict[str, int] = {}
    for mark in state.marks.values():
        reviewed[mark.kind] = reviewed.get(mark.kind, 0) + 1
        if mark.decision:
            decisions[mark.decision] = decisions.get(mark.decision, 0) + 1
    return StatusReport(run.store_path, len(state.history), batches, reviewed, decisions, state.stale, state.conflicts, other_papers)
