"""``extractor report``: a self-contained HTML page to read a run."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from extractor.errors import ExtractorError
from extractor.review.report import write_report
from extractor.review.store import STORE_FILE


def report_command(
    run_dir: Annotated[Path, typer.Argument(help="Run directory (holds papers.jsonl).", exists=True, file_okay=False)],
    out: Annotated[Path, typer.Option("--out", "-o", help="HTML file to write.")],
    store: Annotated[
        Optional[Path], typer.Option("--store", help=f"Correction store (default: RUN_DIR/{STORE_FILE}).")
    ] = None,
) -> None:
    """Write one HTML page: abstracts with highlighted evidence, fields, reviews, rejections."""
    try:
        counts = write_report(run_dir, out, store)
    except ExtractorError as exc:
        raise typer.BadParameter(str(exc)) from exc
    Console(stderr=True, soft_wrap=True).print(
        f"{counts.papers} papers ({counts.failed} failed), {counts.claims} claims, "
        f"{counts.rejected} rejected, {counts.reviewed} reviewed -> {out}",
        highlight=False,
    )
