"""The leaderboard: normalized claims from one or more runs, ranked and exported.

:func:`build_leaderboard` is the one entry point (the ``leaderboard`` command, ``extractor run``
and the review tools all call it): it merges papers, counts each claim once, normalizes names,
units and settings, ranks absolute scores within blocks of comparable numbers (same benchmark,
metric, unit, setting and model size) by the metric's direction, sends changes over a baseline
to their own table and flags conflicts (the same entry reported with different values by
different papers; never averaged). :func:`export` writes CSV or XLSX plus one PNG bar chart per
block. Abstracts are untrusted: every text cell goes through :func:`~extractor.pipeline.rundir.neutralize`.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
from openpyxl import Workbook
from openpyxl.cell import Cell, WriteOnlyCell
from openpyxl.drawing.image import Image
from openpyxl.styles import Alignment, Border, Font, NamedStyle, PatternFill, Side
from openpyxl.utils import get_column_letter

from extractor.catalog.normalize import arxiv_id, normalize_claim
from extractor.pipeline.rundir import atomic_write_bytes, atomic_write_text, neutralize
from extractor.review import load_reviewed
from extractor.schema import PaperResult

ARXIV_ABS = "https://arxiv.org/abs/"
NO_METRIC = "metric not stated"
MAX_BARS = 30  # bars per chart; a longer block shows its best entries

#: Review marks: {claim id or paper id: {field: (reviewer, timestamp)}}.
Marks = Mapping[str, Mapping[str, tuple[str, str]]]

#: Columns of the long claims table (CSV header, in order); the XLSX shows them with titles.
CLAIM_COLUMNS: list[tuple[str, str]] = [
    ("paper_id", "Paper"),
    ("claim_id", "Claim id"),
    ("kind", "Kind"),
    ("benchmark", "Benchmark"),
    ("benchmark_as_written", "Benchmark as written"),
    ("benchmark_known", "Known benchmark"),
    ("metric", "Metric"),
    ("metric_as_written", "Metric as written"),
    ("better", "Better"),
    ("method", "Method"),
    ("model", "Model"),
    ("size_b", "Size (B)"),
    ("value", "Value"),
    ("value_max", "Value max"),
    ("unit", "Unit"),
    ("value_as_written", "As written"),
    ("comparable", "Comparable value"),
    ("comparable_unit", "Comparable unit"),
    ("setting", "Setting"),
    ("baseline", "Baseline"),
    ("change_direction", "Change direction"),
    ("evidence", "Evidence"),
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
    ("setting_label", "Setting"),
    ("size_b", "Size (B)"),
    ("rank", "Rank"),
    ("method_name", "Method"),
    ("model_name", "Model"),
    ("comparable", "Value"),
    ("comparable_unit", "Unit"),
    ("value_as_written", "As written"),
    ("paper_id", "Paper"),
    ("evidence", "Evidence"),
    ("conflict", "Conflict"),
    ("reviewed", "Reviewed"),
]
CHANGE_COLUMNS: list[tuple[str, str]] = [
    ("benchmark", "Benchmark"),
    ("metric_label", "Metric"),
    ("method_name", "Method"),
    ("model_name", "Model"),
    ("size_b", "Size (B)"),
    ("value", "Change"),
    ("value_max", "Change max"),
    ("unit", "Unit"),
    ("value_as_written", "As written"),
    ("change_direction", "Direction"),
    ("verdict", "Verdict"),
    ("baseline", "Baseline"),
    ("setting", "Setting"),
    ("paper_id", "Paper"),
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
_ARROWS = {"higher": "\u2191", "lower": "\u2193"}


@dataclass
class Leaderboard:
    """Everything the exports show; DataFrames so a library user can query them too."""

    claims: pd.DataFrame  # every claim, long form, with the original text
    scores: pd.DataFrame  # absolute scores in blocks, ranked; ordered by block then rank
    changes: pd.DataFrame  # changes over a baseline (improvements, reductions, speedups)
    papers: pd.DataFrame
    blocks: pd.DataFrame = field(init=False)  # one row per block: id, title, entries

    def __post_init__(self) -> None:
        if self.scores.empty:
            self.blocks = pd.DataFrame(columns=["block", "title", "entries", "ranked"])
            return
        grouped = self.scores.groupby("block", sort=True)
        self.blocks = pd.DataFrame(
            {
                "title": grouped["block_title"].first(),
                "entries": grouped.size(),
                "ranked": grouped["rank"].count() > 0,
            }
        ).reset_index()


def load_runs(run_dirs: Iterable[Path | str], store: Path | None = None) -> tuple[list[PaperResult], Marks]:
    """The papers of several run directories, in order (duplicates are merged later), with
    their reviewers' corrections applied, and the review marks of what was corrected."""
    papers: list[PaperResult] = []
    marks: dict[str, Mapping[str, tuple[str, str]]] = {}
    for run_dir in run_dirs:
        corrected, found = load_reviewed(Path(run_dir), store)
        papers.extend(corrected)
        marks.update((target, mark.fields) for target, mark in found.items())
    return papers, marks


def _review_text(fields: Mapping[str, tuple[str, str]] | None) -> str | None:
    """'alice 2025-05-01T10:00 (metric, value)': who reviewed what, and when."""
    if not fields:
        return None
    by_mark: dict[tuple[str, str], list[str]] = {}
    for name, (who, when) in fields.items():
        by_mark.setdefault((who, when), []).append(name)
    marks = sorted(by_mark.items(), key=lambda item: item[0][1])
    return "; ".join(f"{who} {when} ({', '.join(sorted(names))})" for (who, when), names in marks)


# The fields of one row of the claims frame, in the order _claim_frame builds them.
_ROW_FIELDS = [
    "paper_id", "claim_id", "kind", "benchmark", "benchmark_as_written", "benchmark_known",
    "metric", "metric_as_written", "better", "method", "model", "size_b", "value_as_written",
    "value", "value_max", "unit", "comparable", "comparable_unit", "setting", "baseline",
    "change_direction", "evidence", "arxiv_id", "setting_label", "setting_key", "method_key",
    "model_key", "metric_label",
]  # fmt: skip


def _claim_frame(results: Sequence[PaperResult], marks: Marks) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The long claims table (each (paper, claim id) once) and the per-paper table."""
    rows: list[tuple] = []
    papers: dict[str, dict] = {}
    seen: set[tuple[str, str]] = set()
    for result in results:
        paper = papers.get(result.id)
        if paper is None or (paper["status"] != "ok" and result.status == "ok"):
            source = f"{result.source.file}:{result.source.line}" if result.source else None
            papers[result.id] = paper = {
                "paper_id": result.id,
                "arxiv_id": arxiv_id(result.id, result.metadata),
                "title": result.title,
                "status": result.status,
                "error": result.error,
                "source": source,
                "rejected": len(result.rejected),
                "rejections": "; ".join(sorted({r.reason for r in result.rejected})[:3]) or None,
                "reviewed": _review_text(marks.get(result.id)),
            }
        if result.extraction is None:
            continue
        abstract = result.abstract or ""
        models = result.extraction.models
        for claim in result.extraction.claims:
            if (result.id, claim.id) in seen:
                continue
            seen.add((result.id, claim.id))
            n = normalize_claim(claim, models)
            metric_label = (n.metric or NO_METRIC) + (f" {_ARROWS[n.direction]}" if n.direction else "")
            rows.append((
                result.id, claim.id, claim.kind,
                n.benchmark, claim.benchmark if claim.benchmark != n.benchmark else None,
                n.benchmark_known if n.benchmark else None,
                n.metric, claim.metric if claim.metric != n.metric else None, n.direction,
                claim.method, claim.model, n.size_b,
                abstract[claim.value_span[0] : claim.value_span[1]] or None,
                claim.value, claim.value_max, n.unit, n.comparable, n.comparable_unit,
                claim.setting, claim.baseline, claim.direction, claim.evidence,
                paper["arxiv_id"], n.setting.label or None, n.setting.key, n.method_key, n.model_key,
                metric_label,
            ))  # fmt: skip
    claims = pd.DataFrame.from_records(rows, columns=_ROW_FIELDS)
    claims["reviewed"] = [_review_text(marks.get(c)) for c in claims["claim_id"]] if marks else None
    claims["method_name"] = _display_names(claims, "method", "method_key")
    claims["model_name"] = _display_names(claims, "model", "model_key")
    return claims, pd.DataFrame(list(papers.values()))


def _display_names(frame: pd.DataFrame, name: str, key: str) -> pd.Series:
    """One spelling per identity (the most frequent one), so 'Llama 3.2-3B' and 'Llama-3.2-3B'
    read as one entry across papers."""
    named = frame.loc[frame[key] != "", [key, name]]
    if named.empty:
        return frame[name]
    counts = named.value_counts(sort=True).reset_index().drop_duplicates(key)
    spelling = dict(zip(counts[key], counts[name]))
    return frame[key].map(spelling).where(frame[key] != "", frame[name])


def _block_title(row: pd.Series) -> str:
    parts = [row["benchmark"], row["metric_label"] + (f" ({row['comparable_unit']})" if row["comparable_unit"] else "")]
    if row["setting_label"]:
        parts.append(row["setting_label"])
    if pd.notna(row["size_b"]):
        size = row["size_b"]
        parts.append(f"{size:g}B models" if size >= 1 else f"{size * 1000:g}M models")
    return " \u00b7 ".join(parts)


def _rank_scores(claims: pd.DataFrame) -> pd.DataFrame:
    """Absolute single-number scores on a named benchmark, in blocks of comparable numbers,
    ranked by the metric's direction (blocks whose direction is unknown are listed unranked)."""
    mask = (
        (claims["kind"] == "score")
        & claims["benchmark"].notna()
        & claims["comparable"].notna()
        & claims["value_max"].isna()
    )
    scores = claims.loc[mask].copy()
    if scores.empty:
        return scores.assign(block=pd.Series(dtype=int), rank=pd.Series(dtype=float), best=False, block_title="")
    scores["setting_label"] = scores["setting_label"].fillna("")
    keys = ["benchmark", "metric_label", "comparable_unit", "setting_key", "size_b"]
    scores["_order"] = scores["benchmark"].str.casefold()
    scores["_signed"] = scores["comparable"].where(scores["better"] == "lower", -scores["comparable"])
    scores = scores.sort_values(["_order", "metric_label", "setting_label", "size_b", "_signed"], na_position="first")
    scores["block"] = scores.groupby(keys, dropna=False, sort=False).ngroup() + 1
    ranked = scores["better"].notna()
    scores["rank"] = scores.loc[ranked].groupby("block")["_signed"].rank(method="min")
    scores["best"] = scores["rank"] == 1
    firsts = scores.drop_duplicates("block").set_index("block")
    scores["block_title"] = scores["block"].map(firsts.apply(_block_title, axis=1))
    scores = scores.sort_values(["block", "_signed"], kind="stable").drop(columns=["_order", "_signed"])
    return scores.reset_index(drop=True)


def _conflicts(scores: pd.DataFrame) -> pd.Series:
    """For each score of a named entry that other papers report with a different value, the
    values and their sources ('conflict: 84.1 % in 2401.00002 vs 83.6 % in 2401.00001')."""
    out = pd.Series(None, index=scores.index, dtype=object)
    identity = ["method_key", "model_key", "benchmark", "metric_label", "comparable_unit", "setting_key"]
    named = scores.loc[(scores["method_key"] != "") | (scores["model_key"] != ""), identity + ["comparable", "paper_id"]]
    if named.empty:
        return out
    named = named.assign(_v=named["comparable"].round(6))
    grouped = named.groupby(identity, dropna=False, sort=False)
    flagged = named[(grouped["paper_id"].transform("nunique") > 1).to_numpy() & (grouped["_v"].transform("nunique") > 1).to_numpy()]
    if flagged.empty:
        return out
    sources: dict[int, dict[tuple[float, str], str]] = {}
    group_ids = flagged.groupby(identity, dropna=False, sort=False).ngroup().tolist()
    for gid, value, rounded, unit, paper in zip(
        group_ids, flagged["comparable"], flagged["_v"], flagged["comparable_unit"], flagged["paper_id"]
    ):
        sources.setdefault(gid, {}).setdefault((rounded, paper), f"{value:g}{' ' + unit if unit else ''} in {paper}")
    texts = {gid: "conflict: " + " vs ".join(found.values()) for gid, found in sources.items()}
    out.loc[flagged.index] = [texts[gid] for gid in group_ids]
    return out


def _verdict(changes: pd.DataFrame) -> pd.Series:
    """'improvement' when the change goes the metric's better way, 'regression' otherwise."""
    known = changes["better"].notna() & changes["change_direction"].notna()
    good = (changes["change_direction"] == "increase") == (changes["better"] == "higher")
    return pd.Series(None, index=changes.index, dtype=object).mask(known & good, "improvement").mask(
        known & ~good, "regression"
    )


def build_leaderboard(results: Sequence[PaperResult], marks: Marks | None = None) -> Leaderboard:
    """The board for these papers. ``marks`` are review marks {claim or paper id: {field:
    (reviewer, timestamp)}}, shown in a 'reviewed' column."""
    claims, papers = _claim_frame(results, marks or {})
    scores = _rank_scores(claims)
    scores["conflict"] = _conflicts(scores)
    if not scores.empty:
        conflict_of = dict(zip(scores["claim_id"], scores["conflict"]))
        claims["conflict"] = claims["claim_id"].map(conflict_of)
    else:
        claims["conflict"] = None
    changes = claims.loc[claims["kind"] == "change"].copy()
    changes["verdict"] = _verdict(changes)
    changes["_order"] = changes["benchmark"].fillna("\uffff").str.casefold()
    changes = changes.sort_values(["_order", "metric_label", "value"], ascending=[True, True, False])
    changes = changes.drop(columns="_order").reset_index(drop=True)
    if not papers.empty:
        counts = claims.groupby("paper_id")["kind"].value_counts().unstack(fill_value=0)
        counts = counts.reindex(columns=["score", "change"], fill_value=0)
        papers["scores"] = papers["paper_id"].map(counts["score"]).fillna(0).astype(int)
        papers["changes"] = papers["paper_id"].map(counts["change"]).fillna(0).astype(int)
        papers["claims"] = papers["scores"] + papers["changes"]
    return Leaderboard(claims=claims, scores=scores, changes=changes, papers=papers)


# ----------------------------------------------------------------------------------- CSV


def _csv_text(frame: pd.DataFrame, columns: Sequence[str]) -> str:
    """CSV of ``columns`` with every text cell neutralized."""
    data = frame.reindex(columns=list(columns))
    for name in data.columns:
        column = data[name]
        if column.dtype.kind not in "biufc":  # text, whatever its dtype (object or str)
            present = column.notna()
            data[name] = column.astype(object).where(~present, column[present].map(neutralize))
    return data.to_csv(index=False, lineterminator="\n")


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


def write_csv(board: Leaderboard, path: Path, wide: bool = False) -> None:
    """Every claim in long form, or (``wide``) one row per method/model and block."""
    if wide:
        table = wide_table(board)
        atomic_write_text(path, _csv_text(table, list(table.columns)))
    else:
        atomic_write_text(path, _csv_text(board.claims, [name for name, _ in CLAIM_COLUMNS]))


# -------------------------------------------------------------------------------- charts


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60]


def _entry_label(row: pd.Series) -> str:
    """'GANQ · Llama-3-8B [2401.00001]'; an entry with no name shows the start of its evidence."""
    names = " \u00b7 ".join(n for n in (row["method_name"], row["model_name"]) if isinstance(n, str) and n)
    if not names:
        evidence = row["evidence"]
        names = "\u201c" + (evidence[:28] + "\u2026" if len(evidence) > 28 else evidence) + "\u201d"
    return f"{names[:44]} [{row['paper_id']}]"


def write_charts(board: Leaderboard, directory: Path) -> list[Path]:
    """A horizontal bar chart per block with at least two entries; returns the PNG paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths: list[Path] = []
    for block in board.blocks.itertuples():
        if block.entries < 2:
            continue
        rows = board.scores[board.scores["block"] == block.block].head(MAX_BARS)
        labels = [_entry_label(r) for _, r in rows.iterrows()]
        values = rows["comparable"].tolist()
        colors = ["#2e7d32" if best else "#90a4ae" for best in rows["best"]]
        height = 1.2 + 0.38 * len(rows)
        fig, ax = plt.subplots(figsize=(8, height), dpi=110)
        ax.barh(range(len(rows)), values, color=colors)
        ax.set_yticks(range(len(rows)), labels, fontsize=8)
        ax.invert_yaxis()
        for y, value in enumerate(values):
            ax.annotate(f"{value:g}", (value, y), xytext=(3, 0), textcoords="offset points", va="center", fontsize=7)
        first = rows.iloc[0]
        unit = f" ({first['comparable_unit']})" if first["comparable_unit"] else ""
        better = {"higher": "higher is better", "lower": "lower is better"}.get(first["better"], "direction unknown, not ranked")
        ax.set_xlabel(f"{first['metric'] or NO_METRIC}{unit}: {better}", fontsize=8)
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


# ---------------------------------------------------------------------------------- XLSX

_FONT = {"name": "Calibri", "size": 11}  # named fonts: a nameless one prints as a serif fallback
# Cell looks, combined per cell into one registered named style (see _StyleBook); a later trait
# wins over an earlier one for the same attribute.
_TRAITS: dict[str, dict[str, object]] = {
    "top": {"alignment": Alignment(vertical="top")},
    "header": {
        "font": Font(**_FONT, bold=True, color="FFFFFF"),
        "fill": PatternFill("solid", fgColor="37474F"),
        "alignment": Alignment(wrap_text=True, vertical="center"),
    },
    "note": {"font": Font(name="Calibri", size=11, bold=True), "alignment": Alignment(wrap_text=True, vertical="top")},
    "muted": {"font": Font(**_FONT, italic=True, color="555555")},
    "first": {"border": Border(top=Side(style="medium", color="37474F"))},
    "bold": {"font": Font(**_FONT, bold=True)},
    "link": {"font": Font(**_FONT, color="1565C0", underline="single")},
    "best": {"fill": PatternFill("solid", fgColor="C8E6C9")},
    "conflict": {"fill": PatternFill("solid", fgColor="FFE0B2")},
    "wrap": {"alignment": Alignment(wrap_text=True, vertical="top")},
    "center": {"alignment": Alignment(horizontal="center", vertical="top")},
    "count": {"number_format": "0"},
}
_LOOK_ONLY = frozenset({"top", "wrap", "center", "count", "link"})  # nothing to show on an empty cell

_WIDTHS = {
    "Benchmark": 18, "Metric": 18, "Setting": 14, "Size (B)": 7, "Rank": 6, "Method": 22, "Model": 22,
    "Value": 9, "Unit": 6, "As written": 9, "Paper": 15, "Evidence": 55, "Conflict": 32, "Reviewed": 20,
    "Title": 50, "Status": 8, "Error": 30, "Source": 30, "Why rejected": 36, "Claim id": 22, "Kind": 8,
    "Change": 8, "Change max": 8, "Direction": 10, "Verdict": 12, "Baseline": 16, "Claims": 8,
    "Scores": 8, "Changes": 8, "Rejected": 9, "Unknown benchmark": 10, "Better": 8, "Value max": 8,
    "Comparable value": 11, "Comparable unit": 11, "Change direction": 10,
}
_COLUMN_TRAITS = {t: frozenset({"count", "center"}) for t in ("Claims", "Scores", "Changes", "Rejected")}
_WRAPPED = ("Evidence", "Conflict", "Title", "Why rejected", "Error")
_EXCEL_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
_LINE = 13  # points per line of wrapped text
WRAP_ROWS = 5000  # sheets up to this many rows wrap long text


def _text(value: object) -> object:
    """A cell value Excel will show as text and never run: neutralized, no control characters."""
    if isinstance(value, str):
        return _EXCEL_ILLEGAL.sub("", neutralize(value))
    return value


class _StyleBook:
    """Named styles composed from traits, registered once per workbook: one named style per
    cell is far cheaper than setting font, fill and border one by one on 100,000 rows."""

    def __init__(self, workbook: Workbook) -> None:
        self.workbook = workbook
        self.names: dict[frozenset[str], str] = {}

    def name(self, traits: frozenset[str]) -> str:
        found = self.names.get(traits)
        if found is None:
            ordered = [t for t in _TRAITS if t in traits]
            style = NamedStyle(name="lb-" + "-".join(ordered), font=Font(**_FONT))
            for trait in ordered:
                for attribute, value in _TRAITS[trait].items():
                    setattr(style, attribute, value)
            self.workbook.add_named_style(style)
            found = self.names[traits] = style.name
        return found


class _SheetWriter:
    """Streams one table into a write-only worksheet: styled header (frozen, filtered),
    landscape fit-to-width printing, optional wrapped long-text columns with sized rows."""

    def __init__(
        self, book: _StyleBook, name: str, columns: list[tuple[str, str]], rows: int, note: str | None = None, plain: bool = False
    ) -> None:
        self.book = book
        self.ws = ws = book.workbook.create_sheet(name)
        self.titles = [title for _, title in columns]
        for i, title in enumerate(self.titles, 1):
            ws.column_dimensions[get_column_letter(i)].width = _WIDTHS.get(title, 14)
        # Everything above the rows is written with the first row: set it up before appending.
        self.header_row = header_row = 2 if note else 1
        ws.freeze_panes = f"A{header_row + 1}"
        ws.print_title_rows = f"1:{header_row}"
        ws.page_setup.orientation = "landscape"
        ws.page_setup.fitToWidth = 1
        ws.page_setup.fitToHeight = 0
        ws.sheet_properties.pageSetUpPr.fitToPage = True
        self.last_column = get_column_letter(len(columns))
        if note:
            # The note spans the table's width and wraps, so it never widens the printed page.
            ws.merged_cells.add(f"A1:{self.last_column}1")
            ws.row_dimensions[1].height = 32
            ws.append([self.cell(note, frozenset({"note"}))])
        ws.row_dimensions[header_row].height = 28
        ws.append([self.cell(t, frozenset({"header"})) for t in self.titles])
        self.rows = 0
        # A plain sheet (the long Claims table) has no per-cell looks: a styled cell costs
        # several times a plain one, and the other sheets carry the links and formats.
        self.paper_col = self.titles.index("Paper") if "Paper" in self.titles and not plain else None
        self.column_traits = {i: _COLUMN_TRAITS[t] for i, t in enumerate(self.titles) if t in _COLUMN_TRAITS and not plain}
        # Long text wraps on sheets a person reads row by row; a longer sheet keeps one line per
        # row, which scans and filters better and writes several times faster.
        wrap = not plain and rows <= WRAP_ROWS
        self.wrapped = {i: _WIDTHS.get(t, 14) for i, t in enumerate(self.titles) if t in _WRAPPED and wrap}
        if self.wrapped:  # rows grow: every cell starts at the top, next to the wrapped text
            for i in range(len(columns)):
                self.column_traits[i] = self.column_traits.get(i, frozenset()) | {"top"}
        for i in self.wrapped:
            self.column_traits[i] = self.column_traits.get(i, frozenset()) | {"wrap"}

    def cell(self, value: object, traits: frozenset[str]) -> Cell:
        cell = WriteOnlyCell(self.ws, value=_text(value))
        cell.style = self.book.name(traits)
        return cell

    def append(self, values: list, arxiv: str | None = None, row_traits: dict[int, frozenset[str]] | None = None) -> None:
        """One row; ``arxiv`` links the Paper cell; ``row_traits`` adds looks per column."""
        row: list[object] = [_text(v) for v in values]
        traits = dict(self.column_traits)
        for i, extra in (row_traits or {}).items():
            traits[i] = traits.get(i, frozenset()) | extra
        if arxiv and self.paper_col is not None:
            traits[self.paper_col] = traits.get(self.paper_col, frozenset()) | {"link"}
        for i, looks in traits.items():
            if row[i] is None and looks <= _LOOK_ONLY:
                continue
            row[i] = cell = self.cell(row[i], looks)
            if i == self.paper_col and arxiv:
                cell.hyperlink = ARXIV_ABS + arxiv
        self.rows += 1
        # Spreadsheets do not grow a row for wrapped text on opening: give it the lines it needs.
        lines = max((len(values[i]) // int(width * 1.15) + 1 for i, width in self.wrapped.items() if isinstance(values[i], str)), default=1)
        if lines > 1:
            self.ws.row_dimensions[self.header_row + self.rows].height = _LINE * min(lines, 8)
        self.ws.append(row)

    def close(self) -> None:
        if self.rows:
            self.ws.auto_filter.ref = f"A{self.header_row}:{self.last_column}{self.header_row + self.rows}"


def _records(frame: pd.DataFrame, columns: list[tuple[str, str]]) -> Iterable[tuple[list, str | None]]:
    """The cells of ``columns`` (None for missing) and the row's arXiv id."""
    names = [name for name, _ in columns]
    data = frame.reindex(columns=names + ["arxiv_id"])
    data = data.astype(object).where(data.notna(), None)
    for row in data.itertuples(index=False, name=None):
        yield list(row[:-1]), row[-1]


def _board_sheet(book: _StyleBook, board: Leaderboard) -> None:
    scores = board.scores
    papers = int((board.papers["scores"] > 0).sum()) if not board.papers.empty else 0
    note = (
        f"Leaderboard: {len(scores)} scores in {len(board.blocks)} blocks from {papers} papers. "
        "A block holds comparable numbers (same benchmark, metric, unit, setting and model size), "
        "ranked by the metric's direction (\u2191 higher is better, \u2193 lower). Changes over a "
        "baseline are on the Improvements sheet; every claim is on the Claims sheet."
    )
    sheet = _SheetWriter(book, "Leaderboard", BOARD_COLUMNS, len(scores), note=note)
    if scores.empty:
        sheet.ws.append([sheet.cell(
            f"No absolute scores on a named benchmark yet: see the Claims sheet ({len(board.claims)} claims).",
            frozenset({"muted"}),
        )])
        return
    titles = sheet.titles
    first_looks = {c: frozenset({"first"}) for c in range(len(titles))}
    first_looks[0] = frozenset({"first", "bold"})
    best_cols = [titles.index(t) for t in ("Rank", "Method", "Model", "Value", "Unit")]
    conflict_col = titles.index("Conflict")
    first = scores["block"].ne(scores["block"].shift()).tolist()
    best = scores["best"].tolist()
    conflict = scores["conflict"].notna().tolist()
    for i, (values, arxiv) in enumerate(_records(scores, BOARD_COLUMNS)):
        looks = dict(first_looks) if first[i] else {}
        if best[i]:
            for c in best_cols:
                looks[c] = looks.get(c, frozenset()) | {"best"}
        if conflict[i]:
            looks[conflict_col] = looks.get(conflict_col, frozenset()) | {"conflict"}
        sheet.append(values, arxiv, looks)
    sheet.close()


def _table_sheet(book: _StyleBook, name: str, frame: pd.DataFrame, columns: list[tuple[str, str]], plain: bool = False) -> None:
    sheet = _SheetWriter(book, name, columns, len(frame), plain=plain)
    for values, arxiv in _records(frame, columns):
        sheet.append(values, arxiv)
    sheet.close()


def _charts_sheet(workbook: Workbook, charts: Sequence[Path]) -> None:
    ws = workbook.create_sheet("Charts")
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.append([_text(f"{len(charts)} charts, one per block with two or more entries (PNG files beside this workbook).")])
    row = 3
    for path in charts:
        image = Image(str(path))
        image.anchor = f"A{row}"
        ws.add_image(image)
        row += int(image.height / 20) + 2


def write_xlsx(board: Leaderboard, path: Path, charts: Sequence[Path] = ()) -> None:
    """Leaderboard, Improvements, Claims and Papers sheets (and the charts, when given). The
    Claims sheet, the long one, is plain (one line per claim, no links) to stay fast."""
    workbook = Workbook(write_only=True)
    book = _StyleBook(workbook)
    _board_sheet(book, board)
    _table_sheet(book, "Improvements", board.changes, CHANGE_COLUMNS)
    unknown = board.claims["benchmark_known"].eq(False).map({True: "unknown", False: None})
    _table_sheet(book, "Claims", board.claims.assign(benchmark_unknown=unknown), SHEET_CLAIM_COLUMNS, plain=True)
    _table_sheet(book, "Papers", board.papers, PAPER_COLUMNS)
    if charts:
        _charts_sheet(workbook, charts)
    buffer = io.BytesIO()
    workbook.save(buffer)
    atomic_write_bytes(path, buffer.getvalue())


# -------------------------------------------------------------------------------- export


@dataclass(frozen=True)
class Exported:
    path: Path
    charts: list[Path]


def charts_dir(out: Path) -> Path:
    """Where the charts of ``board.xlsx`` go: ``board_charts/`` beside it."""
    return out.with_name(out.stem + "_charts")


def export(board: Leaderboard, out: Path, wide: bool = False, charts: bool = True) -> Exported:
    """Write ``out`` (.xlsx or .csv) and, unless ``charts`` is false, the PNG charts beside it."""
    suffix = out.suffix.lower()
    if suffix not in (".xlsx", ".csv"):
        raise ValueError(f"{out}: the output must end in .xlsx or .csv")
    if wide and suffix != ".csv":
        raise ValueError("--wide applies to CSV output")
    pictures = write_charts(board, charts_dir(out)) if charts else []
    if suffix == ".csv":
        write_csv(board, out, wide=wide)
    else:
        write_xlsx(board, out, pictures)
    return Exported(out, pictures)


RUN_LEADERBOARD = "leaderboard.xlsx"


def write_run_leaderboard(run_dir: Path) -> tuple[Leaderboard, Exported]:
    """The board of one run (corrections applied), written into its directory (``leaderboard.xlsx``
    and charts)."""
    board = build_leaderboard(*load_runs([run_dir]))
    return board, export(board, Path(run_dir) / RUN_LEADERBOARD)
