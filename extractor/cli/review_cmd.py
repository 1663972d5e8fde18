"""``extractor review``: the spreadsheet round trip for reviewers, its status, and gold export."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from extractor.cli.common import (
    QuietOption,
    RunDir,
    StoreOption,
    console,
    line,
    progress_bars,
    reports_errors,
    verbatim,
)
from extractor.runs import Run
from extractor.runs.files import STORE_FILE
from extractor.text.counting import counted

REVIEW_EXAMPLES = f"""
Examples:

  extractor review export runs/demo --out review.xlsx

  extractor review apply review.xlsx runs/demo --reviewer alice

  extractor review status runs/demo

  extractor review export-gold runs/demo --out reviewed-gold.jsonl

Corrections live in RUN_DIR/{STORE_FILE} unless --store names a store shared by several runs.
"""

review_app = typer.Typer(
    help="Review extracted results in a spreadsheet; corrections are kept in an append-only store.",
    no_args_is_help=True,
    epilog=verbatim(REVIEW_EXAMPLES),
    rich_markup_mode=None,
)


EXIT_ROWS_REFUSED = 1


@review_app.command("export")
@reports_errors
def export_command(
    run_dir: RunDir,
    out: Annotated[Path, typer.Option("--out", "-o", help="Workbook to write (.xlsx).")],
    store: StoreOption = None,
    quiet: QuietOption = False,
) -> None:
    """Write a review workbook: one row per claim and per method, model, benchmark and paper."""
    from extractor.review import export_review

    with progress_bars(quiet) as step:
        counts = export_review(Run.open(run_dir, store), out, step)
    items = ", ".join(counted(n, kind) for kind, n in sorted(counts.items()))
    console().print(line(f"{items} -> {out}"))


@review_app.command("apply", epilog="Exit status: 0 when every edited row was applied, 1 when some were refused.")
@reports_errors
def apply_command(
    sheet: Annotated[Path, typer.Argument(help="The returned review workbook.", exists=True, dir_okay=False)],
    run_dir: RunDir,
    reviewer: Annotated[str, typer.Option("--reviewer", "-r", help="Your name, recorded with every correction.")],
    store: StoreOption = None,
) -> None:
    """Validate the edited rows and record them; bad rows are reported and skipped."""
    from extractor.review import apply_review

    out = console()
    run = Run.open(run_dir, store)
    report = apply_review(sheet, run, reviewer)
    for message in report.refused:
        out.print(line(("refused", "red"), " ", message))
    for message in report.notes:
        out.print(line(message))
    for message in report.conflicts:
        out.print(line((message, "yellow")))
    counts = report.counts
    decisions = ", ".join(f"{n} {d}" for d, n in sorted(report.decisions.items()))
    out.print(line(
        f"applied {counts['applied']}" + (f" (decisions: {decisions})" if decisions else "")
        + f", unchanged {counts['unchanged']}, refused {counts['refused']}, stale {counts['stale']}; "
        f"{counted(len(report.conflicts), 'conflict')}"
        + (f" (batch {report.batch_id} in {report.store})" if report.batch_id else " (nothing recorded)")
    ))
    if report.batch_id or run.files_behind():  # an earlier apply may have stopped before the files
        from extractor.api import refresh_reviewed_files

        with progress_bars() as step:
            for note in refresh_reviewed_files(run, step):
                out.print(line(note))
    raise typer.Exit(EXIT_ROWS_REFUSED if counts["refused"] else 0)


@review_app.command("status")
@reports_errors
def status_command(run_dir: RunDir, store: StoreOption = None) -> None:
    """Corrections of the run: how many, by whom, and which are stale or in conflict."""
    from extractor.review import review_status

    report = review_status(Run.open(run_dir, store))
    out = console(stderr=False)
    reviewers = sorted({b.reviewer for b in report.batches})
    out.print(line(
        f"{counted(report.corrections, 'correction')} in {counted(len(report.batches), 'batch', 'batches')}"
        + (f" by {', '.join(reviewers)}" if reviewers else "")
        + f" ({report.store})"
    ))
    if report.other_papers:
        out.print(line(
            f"kept for papers not in this run: {report.other_papers} corrections "
            "(another run's, or this directory's before --overwrite); they apply again to those paper ids"
        ))
    if report.reviewed:
        out.print(line("reviewed: " + ", ".join(f"{n} {k}s" for k, n in sorted(report.reviewed.items()))))
    if report.decisions:
        out.print(line("decisions: " + ", ".join(f"{n} {d}" for d, n in sorted(report.decisions.items()))))
    out.print(line(f"stale: {len(report.stale)}"))
    for stale in report.stale:
        changes = "; ".join(
            f"{c.field} {c.new_value!r} by {c.reviewer} {c.at}" for c in stale.corrections
        )
        out.print(line("  ", ("stale", "yellow"), f" {stale.target_id} ({stale.kind}): {stale.reason}"))
        out.print(line(f"    kept: {changes}"))
    out.print(line(f"conflicts: {len(report.conflicts)}"))
    for conflict in report.conflicts:
        w, lo = conflict.winner, conflict.loser
        out.print(line(
            "  ", ("conflict", "yellow"),
            f" {w.target_id} {w.field}: {lo.reviewer} set {lo.new_value!r} at {lo.at}, "
            f"{w.reviewer} set {w.new_value!r} at {w.at} (in force)",
        ))


@review_app.command("export-gold")
@reports_errors
def export_gold_command(
    run_dir: RunDir,
    out: Annotated[Path, typer.Option("--out", "-o", help="Gold JSONL file to write.")],
    store: StoreOption = None,
) -> None:
    """Write accepted and corrected items in the gold format of ANNOTATION.md."""
    from extractor.eval.reviewed_gold import export_gold

    n = export_gold(Run.open(run_dir, store), out)
    console().print(line(f"{counted(n, 'reviewed paper')} -> {out}"))
