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
    open_run,
    progress_bars,
    reports_errors,
    verbatim,
)
from extractor.runs.files import STORE_FILE
from extractor.text.counting import counted

REVIEW_EXAMPLES = f"""
Examples:

  extractor review serve runs/demo --reviewer alice

  extractor review agreement runs/demo

  extractor review export runs/demo --out review.xlsx

  extractor review apply review.xlsx runs/demo --reviewer alice

  extractor review status runs/demo

  extractor review export-gold runs/demo --out reviewed-gold.jsonl

Corrections live in RUN_DIR/{STORE_FILE} unless --store names a store shared by several runs.
"""

review_app = typer.Typer(
    help="Review extracted results in the browser or a spreadsheet; corrections are kept in an append-only store.",
    no_args_is_help=True,
    epilog=verbatim(REVIEW_EXAMPLES),
    rich_markup_mode=None,
)


EXIT_ROWS_REFUSED = 1


DEFAULT_PORT = 8765


@review_app.command("serve", epilog="Stop it with Ctrl-C: the run's files are rebuilt on the way out.")
@reports_errors
def serve_command(
    run_dir: RunDir,
    reviewer: Annotated[str, typer.Option("--reviewer", "-r", help="Your name, recorded with every decision.")],
    store: StoreOption = None,
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port on 127.0.0.1; 0 takes a free one.")] = DEFAULT_PORT,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the page in the browser.")] = False,
) -> None:
    """Review in the browser: one claim at a time, its number boxed in its abstract, one key per decision."""
    from extractor.api import refresh_reviewed_files
    from extractor.errors import ReviewError, literal
    from extractor.page.serve import listen, serve
    from extractor.page.session import ReviewSession

    if not reviewer.strip():
        raise ReviewError("{reviewer} needs a name", ("reviewer",))
    run = open_run(run_dir, store)
    session = ReviewSession(run, reviewer, rebuild=lambda: refresh_reviewed_files(run))
    err = console()

    def announce(url: str) -> None:
        err.print(line(f"reviewing {run.path} as {reviewer.strip()}; open this URL (Ctrl-C stops and rebuilds the run's files):"))
        print(url, flush=True)  # on a line of its own, for a script to read

    try:
        sock = listen(port)
    except OSError as exc:
        reason = literal(exc.strerror or exc)
        raise ReviewError(f"cannot listen on 127.0.0.1:{port} ({reason}); try {{port}} 0", ("port",)) from exc
    written = serve(session, sock, announce, open_browser)  # a file the rebuild cannot write: one line, naming it
    for note in written:
        err.print(line(note))


@review_app.command("agreement")
@reports_errors
def agreement_command(run_dir: RunDir, store: StoreOption = None) -> None:
    """Agreement between reviewers per field (percent, Krippendorff's alpha) and the disagreements."""
    from extractor.review import load_state
    from extractor.review.agreement import agreement

    result = agreement(load_state(open_run(run_dir, store)))
    out = console(stderr=False)
    out.print(line(
        f"{counted(result.judged, 'item')} judged by two reviewers or more"
        + (f" ({', '.join(result.reviewers)})" if result.reviewers else "")
    ))
    for f in result.fields:
        percent = f"{f.percent:.0f}%" if f.percent is not None else "n/a"
        alpha = f"{f.alpha:.2f}" if f.alpha is not None else "n/a"
        out.print(line(f"  {f.field}: {percent} of {counted(f.pairs, 'pair')} agree on {counted(f.items, 'item')}; alpha {alpha}"))
    open_ = [d for d in result.disagreements if not d.settled]
    out.print(line(f"disagreements: {len(open_)} to settle, {len(result.disagreements) - len(open_)} settled"))
    for d in open_:
        said = " vs ".join(f"{value!r} ({', '.join(who)})" for value, who in d.choices)
        out.print(line(f"  {d.target_id} {d.field}: {said}"))
    if open_:
        out.print(line("settle them in the page: extractor review serve RUN_DIR --reviewer NAME, filter 'reviewers disagree'"))


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
        counts = export_review(open_run(run_dir, store), out, step)
    items = ", ".join(counted(n, kind) for kind, n in sorted(counts.items()))
    console().print(line(f"{items} -> {out}"))


@review_app.command("apply", epilog="Exit status: 0 when every edited row was applied, 1 when some were refused or in conflict.")
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
    run = open_run(run_dir, store)
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
    raise typer.Exit(EXIT_ROWS_REFUSED if counts["refused"] or counts["conflict"] else 0)


@review_app.command("status")
@reports_errors
def status_command(run_dir: RunDir, store: StoreOption = None) -> None:
    """Corrections of the run: how many, by whom, and which are stale or in conflict."""
    from extractor.review import review_status

    report = review_status(open_run(run_dir, store))
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

    n = export_gold(open_run(run_dir, store), out)
    console().print(line(f"{counted(n, 'reviewed paper')} -> {out}"))
