"""Write a leaderboard where the user asked: the writer is chosen by the output's suffix."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from extractor.errors import UsageError
from extractor.leaderboard.build import Leaderboard, build_leaderboard, load_runs
from extractor.leaderboard.tables import write_csv
from extractor.leaderboard.xlsx import EXCEL_ROWS, Moved, write_xlsx
from extractor.runs.files import RUN_LEADERBOARD
from extractor.progress import Step, silent
from extractor.runs.run import Run


@dataclass(frozen=True)
class Exported:
    path: Path
    charts: int = 0  # native charts in the workbook
    moved: list[Moved] = field(default_factory=list)  # tables too long for the workbook: CSV

    def notes(self) -> list[str]:
        """What the user must be told beyond the file's name: where long tables went."""
        return [
            f"{m.sheet}: {m.rows:,} rows, past Excel's row limit -> {m.path} (the {m.sheet} sheet says so)"
            for m in self.moved
        ]


def export(
    board: Leaderboard, out: Path, wide: bool = False, charts: bool = True, excel: bool = False, step: Step = silent,
    max_rows: int = EXCEL_ROWS - 2,
) -> Exported:
    """Write ``out`` (.xlsx or .csv; ``excel``: a CSV Excel reads as UTF-8); a workbook holds
    a native chart per block unless ``charts`` is false (a CSV has none)."""
    suffix = out.suffix.lower()
    if suffix not in (".xlsx", ".csv"):
        raise UsageError(f"{out}: the output must end in .xlsx or .csv")
    for flag, given in (("--wide", wide), ("--excel", excel)):
        if given and suffix != ".csv":
            raise UsageError(f"{flag} applies to CSV output")
    if suffix == ".csv":
        write_csv(board, out, wide=wide, excel=excel)
        return Exported(out)
    written = write_xlsx(board, out, charts, step, max_rows)
    return Exported(out, written.charts, written.moved)


def write_run_leaderboard(run: Run, step: Step = silent) -> tuple[Leaderboard, Exported]:
    """The board of one run (its corrections applied), written into its directory as
    ``leaderboard.xlsx``."""
    board = build_leaderboard(*load_runs([run]))
    return board, export(board, run.file(RUN_LEADERBOARD), step=step)
