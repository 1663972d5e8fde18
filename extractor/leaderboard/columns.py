"""The columns of every table the leaderboard writes: key in the frame, title on the sheet,
and the sheet column's width. CSV headers are the keys; XLSX shows the titles."""

from __future__ import annotations

#: Columns of the long claims table (CSV header, in order); the XLSX shows them with titles.
CLAIM_COLUMNS: list[tuple[str, str]] = [
    ("paper_id", "Paper"),
    ("title", "Title"),
    ("claim_id", "Claim id"),
    ("kind", "Kind"),
    ("benchmark", "Benchmark"),
    ("benchmark_source", "Benchmark source"),
    ("benchmark_as_written", "Benchmark as written"),
    ("benchmark_known", "Known benchmark"),
    ("metric", "Metric"),
    ("metric_as_written", "Metric as written"),
    ("better", "Better"),
    ("method", "Method"),
    ("proposed", "Proposed method"),
    ("model", "Model"),
    ("size_b", "Size (B)"),
    ("value", "Value"),
    ("value_max", "Value max"),
    ("bound", "Bound"),
    ("unit", "Unit"),
    ("value_as_written", "As written"),
    ("comparable", "Comparable value"),
    ("comparable_unit", "Comparable unit"),
    ("setting", "Setting"),
    ("conditions", "Conditions"),
    ("configuration", "Configuration"),
    ("baseline", "Baseline"),
    ("change_direction", "Change direction"),
    ("evidence", "Evidence"),
    ("unranked", "Unranked because"),
    ("conflict", "Conflict"),
    ("reviewed", "Reviewed"),
]
#: The Claims sheet: the same claims without three derived columns (the long sheet sets the
#: workbook's write time); an unknown benchmark is marked rather than every known one.
_SHEET_DROPPED = {"better", "comparable", "comparable_unit"}
SHEET_CLAIM_COLUMNS: list[tuple[str, str]] = [
    ("benchmark_unknown", "Unknown benchmark") if key == "benchmark_known" else (key, title)
    for key, title in CLAIM_COLUMNS
    if key not in _SHEET_DROPPED
]
BOARD_COLUMNS: list[tuple[str, str]] = [
    ("benchmark", "Benchmark"),
    ("metric_label", "Metric"),
    ("block_conditions", "Conditions"),  # the block's evaluation conditions ('5-shot, dev')
    ("block_about", "Block"),  # its papers, and what its rows do not share ('2 papers; configurations differ')
    ("rank", "Rank"),
    ("method_label", "Method"),
    ("model_name", "Model"),
    ("size_b", "Size (B)"),
    ("configuration", "Configuration"),  # the row's own setting words and cost ('single model, 34ms')
    ("comparable", "Value"),
    ("comparable_unit", "Unit"),
    ("value_as_written", "As written"),
    ("benchmark_source", "Benchmark source"),
    ("paper_id", "Paper"),
    ("title", "Title"),
    ("evidence", "Evidence"),
    ("conflict", "Conflict"),
    ("reviewed", "Reviewed"),
]
UNRANKED_COLUMNS: list[tuple[str, str]] = [
    ("unranked", "Unranked because"),
    ("benchmark", "Benchmark"),
    ("metric_label", "Metric"),
    ("method_label", "Method"),
    ("model_name", "Model"),
    ("size_b", "Size (B)"),
    ("value", "Value"),
    ("value_max", "Value max"),
    ("bound", "Bound"),
    ("unit", "Unit"),
    ("value_as_written", "As written"),
    ("setting", "Setting"),
    ("benchmark_source", "Benchmark source"),
    ("paper_id", "Paper"),
    ("title", "Title"),
    ("evidence", "Evidence"),
    ("reviewed", "Reviewed"),
]
CHANGE_COLUMNS: list[tuple[str, str]] = [
    ("benchmark", "Benchmark"),
    ("metric_label", "Metric"),
    ("method_label", "Method"),
    ("model_name", "Model"),
    ("size_b", "Size (B)"),
    ("value", "Change"),
    ("value_max", "Change max"),
    ("bound", "Bound"),
    ("unit", "Unit"),
    ("value_as_written", "As written"),
    ("change_direction", "Direction"),
    ("verdict", "Verdict"),
    ("baseline", "Baseline"),
    ("setting", "Setting"),
    ("paper_id", "Paper"),
    ("title", "Title"),
    ("evidence", "Evidence"),
    ("reviewed", "Reviewed"),
]
PAPER_COLUMNS: list[tuple[str, str]] = [
    ("paper_id", "Paper"),
    ("title", "Title"),
    ("status", "Status"),
    ("claims", "Claims"),
    ("scores", "Scores"),
    ("changes", "Changes"),
    ("rejected", "Rejected"),
    ("rejections", "Why rejected"),
    ("error", "Error"),
    ("source", "Source"),
    ("reviewed", "Reviewed"),
]

#: Sheet column widths (characters), by title.
WIDTHS = {
    "Benchmark": 18, "Metric": 18, "Setting": 14, "Size (B)": 7, "Rank": 6, "Method": 22, "Model": 22,
    "Value": 9, "Unit": 6, "As written": 9, "Paper": 15, "Evidence": 46, "Conflict": 26, "Reviewed": 20,
    "Title": 22, "Status": 8, "Error": 30, "Source": 30, "Why rejected": 36, "Claim id": 25, "Kind": 8,
    "Change": 8, "Change max": 8, "Direction": 10, "Verdict": 12, "Baseline": 16, "Claims": 8,
    "Scores": 8, "Changes": 8, "Rejected": 9, "Unknown benchmark": 10, "Better": 8, "Value max": 8,
    "Comparable value": 11, "Comparable unit": 11, "Change direction": 10, "Block from": 10,
    "Unranked because": 34, "Proposed method": 9, "Bound": 7, "Benchmark source": 10,
    "Conditions": 12, "Block": 22, "Configuration": 16,
}
#: The Leaderboard sheet's own widths, narrower than the other sheets' where its columns are
#: more, so it still prints one legible page across.
BOARD_WIDTHS = {**WIDTHS, "Evidence": 34, "Title": 18, "Conflict": 20, "Method": 20, "Model": 20, "Reviewed": 18}
