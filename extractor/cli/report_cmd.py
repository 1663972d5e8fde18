"""``extractor report``: a self-contained HTML page to read a run."""

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
)
from extractor.runs import Run
from extractor.text.counting import counted


def report_command(
    run_dir: RunDir,
    out: Annotated[Path, typer.Option("--out", "-o", help="HTML file to write.")],
    store: StoreOption = None,
    quiet: QuietOption = False,
) -> None:
    """Write one HTML page: abstracts with highlighted evidence, fields, reviews, rejections."""
    from extractor.report import write_report

    with progress_bars(quiet) as step:
        counts = write_report(Run.open(run_dir, store), out, step)
    console().print(line(
        f"{counted(counts.papers, 'paper')} ({counts.failed} failed), {counted(counts.claims, 'claim')}, "
        f"{counts.rejected} rejected, {counts.reviewed} reviewed -> {out}"
    ))
