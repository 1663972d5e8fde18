"""CSV exports: the long claims table and the wide one (method/model by block)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import pandas as pd

from extractor.leaderboard.build import Leaderboard
from extractor.leaderboard.columns import CLAIM_COLUMNS
from extractor.atomic import atomic_file
from extractor.text.safe import CSV_LINE_END, csv_cell


def csv_text(frame: pd.DataFrame, columns: Sequence[str], header: bool = True) -> str:
    """CSV of ``columns`` with every text cell made safe (:func:`~extractor.text.safe.csv_cell`);
    without its header line when ``header`` is false (a later chunk of one table)."""
    data = frame.reindex(columns=list(columns))
    for name in data.columns:
        column = data[name]
        if column.dtype.kind not in "biufc":  # text, whatever its dtype (object or str)
            present = column.notna()
            data[name] = column.astype(object).where(~present, column[present].map(csv_cell))
    data.columns = [csv_cell(name) for name in data.columns]  # wide headers are benchmark names
    return data.to_csv(index=False, header=header, lineterminator=CSV_LINE_END)


def wide_table(board: Leaderboard) -> pd.DataFrame:
    """One row per method and model, one column per block (benchmark, metric, setting, size).
    A cell where papers disagree lists every value ('84.1 | 85'), never their mean."""
    scores = board.scores
    if scores.empty:
        return pd.DataFrame(columns=["method", "model"])
    entry = scores.assign(
        method=scores["method_name"].fillna(""),
        model=scores["model_name"].fillna(""),
    )
    unnamed = (entry["method"] == "") & (entry["model"] == "")
    entry.loc[unnamed, "method"] = "(unnamed) " + entry.loc[unnamed, "paper_id"]
    keys = ["method", "model", "block"]
    grouped = entry.groupby(keys)["comparable"]
    cells = grouped.first().astype(object)
    disputed = grouped.nunique() > 1
    if disputed.any():
        values = entry.set_index(keys)["comparable"]
        cells[disputed] = [
            " | ".join(f"{v:g}" for v in pd.unique(values.loc[[key]])) for key in cells.index[disputed]
        ]
    wide = cells.unstack("block")
    titles = board.blocks.set_index("block")["title"]
    wide.columns = [titles[b] for b in wide.columns]
    return wide.reset_index()


#: Excel reads a CSV as the local code page unless it starts with a UTF-8 byte-order mark.
EXCEL_BOM = "\ufeff"


def write_csv(board: Leaderboard, path: Path, wide: bool = False, excel: bool = False) -> None:
    """Every claim in long form, or (``wide``) one row per method/model and block; ``excel``
    starts the file with a byte-order mark so Excel reads τ and ↓ as UTF-8, not as 'Ï„'."""
    start = EXCEL_BOM if excel else ""
    if wide:
        table = wide_table(board)
        write_frames_csv(path, [table], list(table.columns), start)
    else:
        write_frames_csv(path, board.chunks("claims"), [name for name, _ in CLAIM_COLUMNS], start)


def write_frames_csv(path: Path, frames: Iterable[pd.DataFrame], columns: Sequence[str], start: str = "") -> None:
    """``columns`` of the frames, one after another, as one CSV (:func:`csv_text`) written
    atomically a frame at a time (the header once, after ``start``): a table read from disk in
    chunks is never whole in memory, nor is its text."""
    with atomic_file(path, binary=True) as handle:
        handle.write(start.encode("utf-8"))
        header = True
        for frame in frames:
            handle.write(csv_text(frame, columns, header).encode("utf-8"))
            header = False
        if header:  # no rows: the header alone
            handle.write(csv_text(pd.DataFrame(), columns).encode("utf-8"))
