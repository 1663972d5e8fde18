"""``extractor leaderboard``: one board (XLSX with native charts, or CSV) from one or more runs."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from extractor.cli.common import QuietOption, StoreOption, console, line, open_run, progress_bars
from extractor.text.counting import counted

LEADERBOARD_EXAMPLES = """
Examples:

  extractor leaderboard runs/demo --out board.xlsx            # with a chart per block

  extractor leaderboard runs/a runs/b --out board.csv

  extractor leaderboard runs/a --out by-method.csv --wide     # one row per method/model

  extractor leaderboard runs/a --out claims.csv --excel       # a CSV Excel reads as UTF-8
"""


def leaderboard_command(
    run_dirs: Annotated[list[Path], typer.Argument(help="Run directories (or papers.jsonl files) to merge.", exists=True)],
    out: Annotated[Path, typer.Option("--out", "-o", help="FILE.xlsx or FILE.csv to write.")],
    wide: Annotated[bool, typer.Option("--wide", help="CSV with one row per method/model and one column per benchmark/metric.")] = False,
    charts: Annotated[bool, typer.Option("--charts/--no-charts", show_default=False, help="A native chart per block in the workbook (default: --charts; a CSV has none).")] = True,
    excel: Annotated[bool, typer.Option("--excel", help="CSV for Excel: UTF-8 with a byte-order mark, so τ and ↓ are not read as Ï„ and â†“.")] = False,
    store: StoreOption = None,
    quiet: QuietOption = False,
) -> None:
    """Rank the runs' scores per benchmark and metric; changes, claims and papers in their own tables."""
    from extractor.leaderboard import build_leaderboard, export, load_runs

    with progress_bars(quiet) as step:
        board = build_leaderboard(*load_runs([open_run(run_dir, store) for run_dir in run_dirs], step))
        exported = export(board, out, wide=wide, charts=charts, excel=excel, step=step)
    out_console = console()
    out_console.print(line(
        f"{counted(len(board.scores), 'ranked score')} in {counted(len(board.blocks), 'block')}, {board.length('unranked')} unranked, "
        f"{counted(board.length('changes'), 'change')}, "
        f"{counted(board.length('claims'), 'claim')} from {counted(board.length('papers'), 'paper')} -> {exported.path}"
        + (f" (with {counted(exported.charts, 'chart')})" if exported.charts else "")
    ))
    for note in [n for n in (board.unread_note(),) if n] + exported.notes():
        out_console.print(line(note))
