"""``extractor leaderboard``: one board (XLSX or CSV, plus charts) from one or more runs."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from extractor.cli.common import QuietOption, StoreOption, console, line, progress_bars

LEADERBOARD_EXAMPLES = """
Examples:

  extractor leaderboard runs/demo --out board.xlsx            # + board_charts/*.png

  extractor leaderboard runs/a runs/b --out board.csv --no-charts

  extractor leaderboard runs/a --out by-method.csv --wide     # one row per method/model

  extractor leaderboard runs/a --out claims.csv --excel       # a CSV Excel reads as UTF-8
"""


def leaderboard_command(
    run_dirs: Annotated[list[Path], typer.Argument(help="Run directories (or papers.jsonl files) to merge.", exists=True)],
    out: Annotated[Path, typer.Option("--out", "-o", help="FILE.xlsx or FILE.csv to write.")],
    wide: Annotated[bool, typer.Option("--wide", help="CSV with one row per method/model and one column per benchmark/metric.")] = False,
    no_charts: Annotated[bool, typer.Option("--no-charts", help="Do not write the PNG charts (FILE_charts/).")] = False,
    excel: Annotated[bool, typer.Option("--excel", help="CSV for Excel: UTF-8 with a byte-order mark, so τ and ↓ are not read as Ï„ and â†“.")] = False,
    store: StoreOption = None,
    quiet: QuietOption = False,
) -> None:
    """Rank the runs' scores per benchmark and metric; changes, claims and papers in their own tables."""
    from extractor.leaderboard import build_leaderboard, export, load_runs

    with progress_bars(quiet) as step:
        board = build_leaderboard(*load_runs(run_dirs, store, step))
        exported = export(board, out, wide=wide, charts=not no_charts, excel=excel, step=step)
    console().print(line(
        f"{len(board.scores)} ranked scores in {len(board.blocks)} blocks, {len(board.unranked)} unranked, "
        f"{len(board.changes)} changes, "
        f"{len(board.claims)} claims from {len(board.papers)} papers -> {exported.path}"
        + (f" (+{len(exported.charts)} charts)" if exported.charts else "")
    ))
    for note in exported.notes():
        console.print(line(note))
