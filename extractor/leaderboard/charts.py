"""One native bar chart per block of the leaderboard (openpyxl.chart): the spreadsheet draws it
from the Leaderboard sheet's own Value cells, so it can be restyled and follows the table; no
picture is rendered here. A chart's text is the sheet's plain text: nothing in it is markup."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd
from openpyxl.chart import BarChart, Reference
from openpyxl.chart.label import DataLabelList
from openpyxl.chart.marker import DataPoint
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from extractor.leaderboard.build import NO_METRIC, Leaderboard

MAX_BARS = 30  # bars per chart; a longer block shows its best entries
BAR = "90A4AE"
BEST = "2E7D32"
_ROW_CM = 0.5  # height of a cell row, about: a chart spans its bars' rows and some


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


@dataclass(frozen=True)
class ChartBlock:
    """A block to chart: its title, where its bars' values sit on the Leaderboard sheet (the
    ``bars`` rows from ``first_row``), their labels, which bars are best, the value axis' title."""

    title: str
    first_row: int
    labels: list[str]
    best: list[bool]
    axis: str
    values: list[float]


def chart_blocks(board: Leaderboard, first_row: int) -> list[ChartBlock]:
    """The blocks with two or more entries; the Leaderboard sheet's row ``first_row`` holds the
    board's first score, and its rows follow the scores' order."""
    scores = board.scores.reset_index(drop=True)
    found = []
    for block in board.blocks.itertuples():
        if block.entries < 2:
            continue
        rows = scores[scores["block"] == block.block].head(MAX_BARS)
        shown = f" (best {MAX_BARS} of {block.entries})" if block.entries > MAX_BARS else ""
        found.append(ChartBlock(
            block.title + shown, first_row + int(rows.index[0]), entry_labels(rows),
            [bool(b) for b in rows["best"]], axis_label(rows.iloc[0]), [float(v) for v in rows["comparable"]],
        ))
    return found


def add_charts(
    ws: WriteOnlyWorksheet, board_ws: WriteOnlyWorksheet, value_column: int, blocks: list[ChartBlock],
    label_cell: Callable[[str], object],
) -> None:
    """A horizontal bar chart per block on ``ws``: its bar labels in column A (the chart's
    categories), its values from ``board_ws``'s ``value_column``, the best bars in green."""
    row = 3  # after the sheet's note and a blank row
    for block in blocks:
        bars = len(block.labels)
        for label in block.labels:
            ws.append([label_cell(label)])
        chart = BarChart()
        chart.type = "bar"  # horizontal bars, the first entry on top as on the board
        chart.title = block.title
        chart.legend = None
        chart.add_data(Reference(board_ws, min_col=value_column, min_row=block.first_row, max_row=block.first_row + bars - 1))
        chart.set_categories(Reference(ws, min_col=1, min_row=row, max_row=row + bars - 1))
        chart.x_axis.scaling.orientation = "maxMin"
        chart.x_axis.delete = False
        chart.y_axis.delete = False
        chart.y_axis.title = block.axis
        if min(block.values) >= 0:
            chart.y_axis.scaling.min = 0  # a bar's length is its value, as on paper
        chart.y_axis.majorGridlines = None
        series = chart.series[0]
        series.graphicalProperties.solidFill = BAR
        series.graphicalProperties.line.noFill = True
        for index, best in enumerate(block.best):
            if best:
                point = DataPoint(idx=index)
                point.graphicalProperties.solidFill = BEST
                series.dPt.append(point)
        series.dLbls = DataLabelList()
        series.dLbls.showVal = True
        for flag in ("showSerName", "showCatName", "showLegendKey", "showPercent"):
            setattr(series.dLbls, flag, False)
        chart.width = 24
        chart.height = max(5.0, 2.5 + 0.6 * bars)
        ws.add_chart(chart, f"C{row}")
        span = max(bars, int(chart.height / _ROW_CM) + 1)
        for _ in range(span - bars + 2):  # the chart's rows, then a gap before the next
            ws.append([])
        row += span + 2
