"""``extractor report``: a self-contained HTML page to read a run."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from extractor.cli.common import (
    QuietOption,
    RunDir,
    StoreOption,
    console,
    line,
    open_run,
    progress_bars,
)
from extractor.runs.files import REPORT_FILE
from extractor.text.counting import counted


def report_command(
    run_dir: RunDir,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help=f"HTML file to write (default: RUN_DIR/{REPORT_FILE}, rebuilt by every command that records corrections).")] = None,
    store: StoreOption = None,
    quiet: QuietOption = False,
) -> None:
    """Write one HTML page: abstracts with highlighted evidence, fields, reviews, rejections."""
    from extractor.report import write_report

    run = open_run(run_dir, store)
    out = out or run.file(REPORT_FILE)
    with progress_bars(quiet) as step:
        counts = write_report(run, out, step)
    console().print(line(
        f"{counted(counts.papers, 'paper')} ({counts.failed} failed), {counted(counts.claims, 'claim')}, "
        f"{counts.rejected} rejected, {counts.reviewed} reviewed -> {out}"
    ))
