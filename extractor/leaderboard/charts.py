"""One native bar chart per block of the leaderboard (XlsxWriter's charts): the spreadsheet draws it
from the Leaderboard sheet's own Value cells, so it can be restyled and follows the table; no
picture is rendered here. A chart's text is the sheet's plain text: nothing in it is markup."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from xlsxwriter import Workbook
from xlsxwriter.worksheet import Worksheet

from extractor.leaderboard.build import NO_METRIC, Leaderboard

MAX_BARS = 30  # bars per chart; a longer block shows its best entries
BAR = "#90A4AE"
BEST = "#2E7D32"
_ROW_CM = 0.5  # height of a cell row, about: a chart spans its bars' rows and some
_PIXELS_PER_CM = 96 / 2.54


def _text(value: object) -> str:
    """A frame cell as text: a missing value (None or NaN) is empty, never 'nan'."""
    return value if isinstance(value, str) else ""


def _entry_label(row: Mapping[str, object]) -> str:
    """'GANQ · Llama-3-8B [2401.00001]'; an entry with no name shows the start of its evidence."""
    names = " \u00b7 ".join(n for n in (_text(row["method_label"]), _text(row["model_name"])) if n)
    if not names:
        evidence = _text(row["evidence"])
        names = "\u201c" + (evidence[:28] + "\u2026" if len(evidence) > 28 else evidence) + "\u201d"
    return f"{names[:44]} [{row['paper_id']}]"


def entry_labels(rows: list[dict[str, object]]) -> list[str]:
    """One label per bar; bars that would read the same (one model in two configurations of one
    paper) carry their claim id instead of the paper id, as the Claims sheet and review.xlsx show it."""
    labels = [_entry_label(r) for r in rows]
    return [
        label.rsplit(" [", 1)[0] + f" [{row['claim_id']}]" if labels.count(label) > 1 else label
        for label, row in zip(labels, rows)
    ]


def axis_label(row: Mapping[str, object]) -> str:
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


#: The score columns a chart shows: its bars' labels, values and colours, and its axis.
_CHARTED = ("method_label", "model_name", "evidence", "paper_id", "claim_id", "best", "comparable", "comparable_unit", "better", "metric")


def chart_blocks(board: Leaderboard, first_row: int) -> list[ChartBlock]:
    """The blocks with two or more entries; the Leaderboard sheet's row ``first_row`` holds the
    board's first score, and its rows follow the scores' order."""
    scores = board.scores.reset_index(drop=True)
    rows_of = scores.groupby("block", sort=False).indices  # each block's rows, found once
    records = scores[list(_CHARTED)].to_dict("records")  # read once as Python objects, not a frame per block
    found = []
    for block in board.blocks.itertuples():
        if block.entries < 2:
            continue
        at = rows_of[block.block][:MAX_BARS]
        rows = [records[i] for i in at]
        shown = f" (best {MAX_BARS} of {block.entries})" if block.entries > MAX_BARS else ""
        found.append(ChartBlock(
            block.title + shown, first_row + int(at[0]), entry_labels(rows),
            [bool(row["best"]) for row in rows], axis_label(rows[0]), [float(row["comparable"]) for row in rows],
        ))
    return found


def _plain(text: str) -> str:
    """A chart title as text: XlsxWriter takes a title like ``=Sheet!A1`` for a reference to a
    cell, so one that starts with '=' is given a leading space."""
    return " " + text if text.startswith("=") else text


def _range(sheet: str, column: str, first: int, last: int) -> str:
    return f"='{sheet}'!${column}${first}:${column}${last}"


def add_charts(
    workbook: Workbook, ws: Worksheet, board_sheet: str, value_column: str, blocks: list[ChartBlock],
    write_label: Callable[[int, str], None],
) -> None:
    """A horizontal bar chart per block on ``ws``: its bar labels in column A (the chart's
    categories, written by ``write_label(row index, text)``), its values from ``board_sheet``'s
    ``value_column``, the best bars in green."""
    row = 3  # after the sheet's note and a blank row (1-based, as the references are)
    for block in blocks:
        bars = len(block.labels)
        for i, label in enumerate(block.labels):
            write_label(row - 1 + i, label)
        chart = workbook.add_chart({"type": "bar"})  # horizontal bars
        chart.add_series({
            "values": _range(board_sheet, value_column, block.first_row, block.first_row + bars - 1),
            "categories": _range(ws.name, "A", row, row + bars - 1),
            "fill": {"color": BAR},
            "border": {"none": True},
            "points": [{"fill": {"color": BEST}} if best else None for best in block.best],
            "data_labels": {"value": True},
        })
        chart.set_title({"name": _plain(block.title)})
        chart.set_legend({"none": True})
        chart.set_y_axis({"reverse": True})  # the category axis: the first entry on top, as on the board
        value_axis: dict[str, object] = {"name": _plain(block.axis), "major_gridlines": {"visible": False}}
        if min(block.values) >= 0:
            value_axis["min"] = 0  # a bar's length is its value, as on paper
        chart.set_x_axis(value_axis)
        height = max(5.0, 2.5 + 0.6 * bars)
        chart.set_size({"width": round(24 * _PIXELS_PER_CM), "height": round(height * _PIXELS_PER_CM)})
        ws.insert_chart(row - 1, 2, chart)
        row += max(bars, int(height / _ROW_CM) + 1) + 2  # the chart's rows, then a gap before the next
