"""One PNG bar chart per block of the leaderboard (matplotlib, imported when charts are drawn)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pandas as pd

from extractor.leaderboard.build import NO_METRIC, Leaderboard
from extractor.pipeline.rundir import atomic_write_bytes
from extractor.progress import Step, silent, tracked

MAX_BARS = 30  # bars per chart; a longer block shows its best entries


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60]


def _text(value: object) -> str:
    """A frame cell as text: a missing value (None or NaN) is empty, never 'nan'."""
    return value if isinstance(value, str) else ""


def _entry_label(row: pd.Series) -> str:
    """'GANQ · Llama-3-8B [2401.00001]'; an entry with no name shows the start of its evidence."""
    names = " \u00b7 ".join(n for n in (_text(row["method_label"]), _text(row["model_name"])) if n)
    if not names:
        evidence = _text(row["evidence"])
        names = "\u201c" + (evidence[:28] + "\u2026" if len(evidence) > 28 else evidence) + "\u201d"
    return f"{names[:44]} [{row['paper_id']}]"


def entry_labels(rows: pd.DataFrame) -> list[str]:
    """One label per bar; bars that would read the same (one model's several numbers in one
    paper) carry their claim id instead of the paper id, as the Claims sheet and review.xlsx show it."""
    labels = [_entry_label(r) for _, r in rows.iterrows()]
    return [
        label.rsplit(" [", 1)[0] + f" [{claim}]" if labels.count(label) > 1 else label
        for label, claim in zip(labels, rows["claim_id"])
    ]


def axis_label(row: pd.Series) -> str:
    """'accuracy (%): higher is better'; 'metric not stated: direction unknown, not ranked'."""
    unit = _text(row["comparable_unit"])
    better = {"higher": "higher is better", "lower": "lower is better"}.get(_text(row["better"]), "direction unknown, not ranked")
    return f"{_text(row['metric']) or NO_METRIC}{f' ({unit})' if unit else ''}: {better}"


def write_charts(board: Leaderboard, directory: Path, step: Step = silent) -> list[Path]:
    """A horizontal bar chart per block with at least two entries; returns the PNG paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths: list[Path] = []
    charted = [block for block in board.blocks.itertuples() if block.entries >= 2]
    for block in tracked(charted, "drawing charts", step):
        rows = board.scores[board.scores["block"] == block.block].head(MAX_BARS)
        labels = entry_labels(rows)
        values = rows["comparable"].tolist()
        colors = ["#2e7d32" if best else "#90a4ae" for best in rows["best"]]
        height = 1.2 + 0.38 * len(rows)
        fig, ax = plt.subplots(figsize=(8, height), dpi=110)
        ax.barh(range(len(rows)), values, color=colors)
        ax.set_yticks(range(len(rows)), labels, fontsize=8)
        ax.invert_yaxis()
        for y, value in enumerate(values):
            # Beside the end of the bar: right of a positive one, left of a negative one.
            ax.annotate(f"{value:g}", (value, y), xytext=(3 if value >= 0 else -3, 0), textcoords="offset points",
                        va="center", ha="left" if value >= 0 else "right", fontsize=7)
        ax.set_xlabel(axis_label(rows.iloc[0]), fontsize=8)
        shown = f" (best {MAX_BARS} of {block.entries})" if block.entries > MAX_BARS else ""
        ax.set_title(block.title + shown, fontsize=9, loc="left")
        ax.spines[["top", "right"]].set_visible(False)
        ax.margins(x=0.12)
        fig.tight_layout()
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png")
        plt.close(fig)
        path = directory / f"{block.block:03d}-{_slug(block.title)}.png"
        atomic_write_bytes(path, buffer.getvalue())
        paths.append(path)
    return paths
