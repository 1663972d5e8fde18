"""How far down can the 20,000-paper workbook go while the board is built as it is? Two floors:

    python benchmarks/board_floor.py RUN_DIR [--repeat 3] [--json]

1. **Writer**: XlsxWriter's public API (constant-memory mode, as ``leaderboard/xlsx.py`` uses it)
   writing the very cells of the workbook's five tables (the non-empty ones, as typed text,
   numbers and booleans) with no cell formats, row heights, links, filters or charts, the rows
   made beforehand and the collector frozen (not timed); against it the CSV writer and
   ``write_xlsx`` on the same board, alternated, medians of ``--repeat``. If PyExcelerate is
   installed (it is no dependency; it writes no charts), it writes the same cells too.
2. **Memory**: the bytes DataFrames hold (their arrays and every distinct object they point to,
   each counted once): the frames the board keeps in memory (``scores``, ``blocks``), and the long
   tables as their properties assemble them whole (the writers never do: they stream the tables'
   chunks from disk), what they would add if they were held.

``benchmarks/waits.py`` runs this at each size and sets the floors beside its targets.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

import pandas as pd
import xlsxwriter

from extractor.leaderboard import Leaderboard, build_leaderboard, load_runs
from extractor.leaderboard.build import TABLES
from extractor.leaderboard.columns import BOARD_COLUMNS, CHANGE_COLUMNS, PAPER_COLUMNS, SHEET_CLAIM_COLUMNS, UNRANKED_COLUMNS
from extractor.leaderboard.tables import write_csv
from extractor.leaderboard.xlsx import _records, _sheet_claims, write_xlsx
from extractor.runs import Run

HELD = ("scores", "blocks")  # in memory; the long tables (leaderboard.build.TABLES) are on disk


def frame_bytes(frames: Iterable[pd.DataFrame]) -> int:
    """The frames' arrays and the distinct objects in them (a text shared by many cells once)."""
    seen: set[int] = set()
    total = 0
    for frame in frames:
        for _, column in frame.items():
            values = column.to_numpy()
            total += values.nbytes
            if values.dtype == object:
                for value in values:
                    if id(value) not in seen:
                        seen.add(id(value))
                        total += sys.getsizeof(value)
    return total


def sheet_rows(board: Leaderboard) -> list[list[tuple]]:
    """The rows of the workbook's tables, in sheet order, with the cells the sheets show."""
    tables: list[tuple[Iterable[pd.DataFrame], list[tuple[str, str]]]] = [
        ([board.scores], BOARD_COLUMNS), (board.chunks("unranked"), UNRANKED_COLUMNS), (board.chunks("changes"), CHANGE_COLUMNS),
        (_sheet_claims(board), SHEET_CLAIM_COLUMNS), (board.chunks("papers"), PAPER_COLUMNS),
    ]  # fmt: skip
    return [[cells for _, rows in _records(frames, columns) for cells, _ in rows] for frames, columns in tables]


def xlsxwriter_floor(sheets: list[list[tuple]], path: Path) -> float:
    """Seconds XlsxWriter takes to write these cells and nothing else."""
    started = time.perf_counter()
    workbook = xlsxwriter.Workbook(path, {"constant_memory": True, "strings_to_numbers": False, "strings_to_formulas": False, "strings_to_urls": False})
    for n, rows in enumerate(sheets):
        ws = workbook.add_worksheet(f"Sheet{n + 1}")
        write_string, write_number, write_boolean = ws.write_string, ws.write_number, ws.write_boolean
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                if value is None or value == "":
                    continue
                if isinstance(value, str):
                    write_string(r, c, value)
                elif isinstance(value, bool):
                    write_boolean(r, c, value)
                else:
                    write_number(r, c, value)
    workbook.close()
    return time.perf_counter() - started


def pyexcelerate_floor(sheets: list[list[tuple]], path: Path) -> float | None:
    try:
        from pyexcelerate import Workbook
    except ImportError:
        return None
    started = time.perf_counter()
    workbook = Workbook()
    for n, rows in enumerate(sheets):
        workbook.new_sheet(f"Sheet{n + 1}", data=[["" if v is None else v for v in row] for row in rows])
    workbook.save(str(path))
    return time.perf_counter() - started


def timed(write) -> float:
    started = time.perf_counter()
    write()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    args = parser.parse_args()
    board = build_leaderboard(*load_runs([Run.open(args.run)]))
    held = frame_bytes(getattr(board, name) for name in HELD)
    spooled = frame_bytes(getattr(board, name) for name in TABLES)
    sheets = sheet_rows(board)
    cells = sum(1 for rows in sheets for row in rows for v in row if v is not None and v != "")
    gc.collect()
    gc.freeze()  # the rows made for the floor are not the writers' to collect
    times: dict[str, list[float]] = {"csv": [], "xlsx": [], "floor": [], "pyexcelerate": []}
    with tempfile.TemporaryDirectory(prefix="board-floor-") as tmp:
        out = Path(tmp)
        for _ in range(args.repeat):
            times["csv"].append(timed(lambda: write_csv(board, out / "b.csv")))
            times["xlsx"].append(timed(lambda: write_xlsx(board, out / "b.xlsx")))
            times["floor"].append(xlsxwriter_floor(sheets, out / "floor.xlsx"))
            other = pyexcelerate_floor(sheets, out / "pe.xlsx")
            if other is not None:
                times["pyexcelerate"].append(other)
    found = {"claims": board.length("claims"), "cells": cells, "held_mb": held / 2**20, "spooled_mb": spooled / 2**20}
    found.update({name: statistics.median(values) for name, values in times.items() if values})
    if args.json:
        print(json.dumps(found))
        return
    print(f"{found['claims']:,} claims, {cells:,} non-empty cells; the frames the board holds {found['held_mb']:.1f} MB, "
          f"its long tables assembled whole {found['spooled_mb']:.1f} MB")
    print(f"writers (medians of {args.repeat}): CSV {found['csv']:.2f} s, write_xlsx {found['xlsx']:.2f} s, "
          f"XlsxWriter's floor on the same cells {found['floor']:.2f} s"
          + (f", PyExcelerate {found['pyexcelerate']:.2f} s" if "pyexcelerate" in found else ""))


if __name__ == "__main__":
    main()
