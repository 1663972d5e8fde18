"""Rows of a run's Leaderboard sheet drawn for a hand audit: each printed with its
benchmark, metric, setting, subject, value and evidence, for a reader to judge against the
abstract (right when value, metric, benchmark and subject are right under contract v3).

    python benchmarks/audit_rows.py runs/scirex --rows 30 --seed 19

All rows when the sheet has fewer. The draw is ``random.Random(seed).sample`` over the sheet's
rows in their order, so the same board and seed give the same rows.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import pandas as pd


def drawn_rows(board: Path, rows: int, seed: int) -> pd.DataFrame:
    """The audited rows of the workbook's Leaderboard sheet (header on its second row)."""
    sheet = pd.read_excel(board, sheet_name="Leaderboard", header=1)
    scores = sheet[sheet["Value"].notna()]
    if len(scores) <= rows:
        return scores
    return scores.loc[sorted(random.Random(seed).sample(list(scores.index), rows))]


def _text(value: object) -> str:
    return "" if pd.isna(value) else str(value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path, help="a run directory (its leaderboard.xlsx) or a workbook")
    parser.add_argument("--rows", type=int, default=30)
    parser.add_argument("--seed", type=int, default=19)
    args = parser.parse_args()
    board = args.run / "leaderboard.xlsx" if args.run.is_dir() else args.run
    for n, (_, row) in enumerate(drawn_rows(board, args.rows, args.seed).iterrows(), 1):
        subject = " ".join(_text(row[c]) for c in ("Method", "Model") if _text(row[c]))
        where = " | ".join(_text(row[c]) for c in ("Benchmark", "Metric", "Setting"))
        context = " (benchmark from context)" if _text(row["Benchmark source"]) else ""
        print(f"{n}. [{where}] {subject} = {_text(row['Value'])} {_text(row['Unit'])}{context}")
        print(f"   {_text(row['Paper'])} {_text(row['Title'])[:80]}")
        print(f"   {_text(row['Evidence'])}")


if __name__ == "__main__":
    main()
