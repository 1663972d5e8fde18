"""The library's front door to a batch: the run, then its leaderboard when asked, so Python
users get what ``extractor run`` writes."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from extractor.config import RunConfig
from extractor.atomic import atomic_write_text
from extractor.runs.files import REPORT_FILE, REVIEWED_CLAIMS_FILE, REVIEWED_STAMP, RUN_LEADERBOARD
from extractor.runs.run import Run
from extractor.runs.writer import write_claims
from extractor.pipeline.runner import BatchCallback, ResultCallback, RunSummary
from extractor.pipeline.runner import run as run_batch
from extractor.progress import Step, silent
from extractor.text.counting import counted


def write_leaderboard(run: Run, step: Step = silent) -> list[str]:
    """Write ``leaderboard.xlsx`` (with its native charts) into the run directory, and
    ``claims.reviewed.csv`` (its corrections applied); the lines that tell the user what was
    written, and where tables too long for it went."""
    from extractor.leaderboard import write_run_leaderboard  # loads pandas and openpyxl

    board, exported = write_run_leaderboard(run, step)
    summary = (
        f"leaderboard: {counted(len(board.scores), 'ranked score')} in {counted(len(board.blocks), 'block')}, "
        f"{board.length('unranked')} unranked -> {exported.path}"
    )
    unread = [note] if (note := board.unread_note()) else []
    return [summary, *unread, *exported.notes(), write_reviewed_claims(run)]


def write_reviewed_claims(run: Run) -> str:
    """Write the run's ``claims.reviewed.csv``: ``claims.csv``'s columns with the reviewers'
    corrections applied (a rejected claim is left out, an added one is in); what was written."""
    from extractor.review import reviewed_papers  # loads openpyxl

    mark = run.corrections_mark()
    path = run.file(REVIEWED_CLAIMS_FILE)
    count = write_claims(path, (paper for paper, _ in reviewed_papers(run)))
    atomic_write_text(run.file(REVIEWED_STAMP), json.dumps(mark) + "\n")  # last: the files now carry the mark
    return f"reviewed claims: {counted(count, 'claim')} -> {path}"


def refresh_reviewed_files(run: Run, step: Step = silent) -> list[str]:
    """After corrections were recorded (or when :meth:`Run.files_behind`): the run's files that
    carry them, rewritten (``claims.reviewed.csv``; ``leaderboard.xlsx`` and ``report.html``
    where the run has them), the mark of the corrections they carry last."""
    report = None
    if run.file(REPORT_FILE).exists():  # before the files whose writing ends with the mark
        from extractor.report import write_report

        path = run.file(REPORT_FILE)
        counts = write_report(run, path, step)
        report = f"report: {counted(counts.papers, 'paper')}, {counts.reviewed} reviewed items -> {path}"
    written = write_leaderboard(run, step) if run.file(RUN_LEADERBOARD).exists() else [write_reviewed_claims(run)]
    return written + ([report] if report else [])


def run(
    inputs: list[str],
    out_dir: Path,
    config: RunConfig | None = None,
    *,
    leaderboard: bool = False,
    on_start: Callable[[int | None], None] | None = None,
    on_result: ResultCallback | None = None,
    on_batch: BatchCallback | None = None,
    overwrite: bool = False,
    step: Step = silent,
) -> RunSummary:
    """Extract every record of ``inputs`` into ``out_dir``; with ``leaderboard``, also write
    the run's leaderboard there, as ``extractor run`` does (its lines in ``summary.notes``).
    ``on_start`` gets the number of records to extract (None when it is not known ahead),
    ``on_result`` each paper's journal header as it finishes, ``on_batch`` the Batch API's
    progress; ``overwrite`` replaces a run of other inputs in ``out_dir`` (corrections kept)."""
    summary = run_batch(
        inputs, Path(out_dir), config or RunConfig(),
        on_start=on_start, on_result=on_result, on_batch=on_batch, overwrite=overwrite,
    )
    if leaderboard:
        summary.notes.extend(write_leaderboard(summary.run, step))
    return summary
