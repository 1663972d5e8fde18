"""The leaderboard: normalized claims from one or more runs, ranked (:mod:`.build`), and
written as CSV (:mod:`.tables`), XLSX (:mod:`.xlsx`) with native charts (:mod:`.charts`)."""

from extractor.leaderboard.build import Leaderboard, build_leaderboard, load_runs
from extractor.leaderboard.export import (
    RUN_LEADERBOARD,
    Exported,
    export,
    write_run_leaderboard,
)
from extractor.leaderboard.tables import wide_table

__all__ = [
    "RUN_LEADERBOARD",
    "Exported",
    "Leaderboard",
    "build_leaderboard",
    "export",
    "load_runs",
    "wide_table",
    "write_run_leaderboard",
]
