"""The workbook writer (XlsxWriter, streamed) gives the cells the earlier writer (openpyxl's
write-only mode) gave: ``fixtures/leaderboard/openpyxl-board.xlsx`` is the board below as that
writer wrote it (commit bcc5333), written again by this writer when the Leaderboard and Claims
sheets took their columns of evaluation conditions and configurations (Conditions, Block,
Configuration), and again when a score naming no metric took its benchmark's one measure (its
GSM8K row with no metric is an accuracy, unranked for its subject alone: two cells of Unranked
and two of Claims), and again when the Leaderboard's note came to name every evaluation condition
of the list (its A1 alone); both are read back with openpyxl and compared cell by cell."""

from __future__ import annotations

from pathlib import Path

from openpyxl import load_workbook
from openpyxl.worksheet.worksheet import Worksheet

from extractor.grounding import ground
from extractor.leaderboard import Leaderboard, build_leaderboard, export
from extractor.schema import ClaimDraft, ExtractionDraft, Model, PaperResult
from tests.conftest import ROOT

REFERENCE = ROOT / "fixtures" / "leaderboard" / "openpyxl-board.xlsx"
# XlsxWriter stores a column's width as Excel shows it (characters plus the cell padding, in
# 1/256 of a character); openpyxl stored the bare number of characters.
PADDING = 0.72
PIXEL = 0.75  # XlsxWriter stores a row's height in whole pixels (0.75 point each)

_TEXTS = {
    "2401.00001": (
        "We propose GANQ. With Llama-3-8B, GANQ reaches 83.6% accuracy on GSM8K in the 8-shot "
        "setting and a perplexity of 5.42 on WikiText-2, a 2.57x speedup over FP16."
    ),
    "2401.00002": (
        "On GSM-8K (8-shot), QuIP reaches 80.1% with Llama 3-8B while GANQ reaches 84.1%. "
        "Perplexity on WikiText-2 is 5.90 for QuIP."
    ),
    "=1+1": (
        '=HYPERLINK("http://evil.example","click") GANQ scores 12.5% on GSM8K. '
        "+cmd| scores 11.5% on GSM8K. -0.52 points on MMLU for @SUM(1)."
    ),
    "p-control": "Our method reaches 83.6% on GSM8K.\x0c It uses\x00 NUL and \x1b escapes on GSM8K.",
}


def _paper(paper_id: str, claims: list[dict], title: str, models: list[Model] | None = None) -> PaperResult:
    abstract = _TEXTS[paper_id]
    draft = ExtractionDraft(models=models or [], claims=[ClaimDraft(**c) for c in claims])
    extraction, rejected = ground(draft, abstract, paper_id)
    assert not rejected, rejected
    return PaperResult(id=paper_id, title=title, status="ok", abstract=abstract, extraction=extraction)


def reference_board() -> Leaderboard:
    """A small board with every look the writer has: ranked blocks with a best entry and a
    conflict, arXiv links, a change, an unranked score, wrapped long text, formula-like text,
    control characters, a failed paper, and two charts."""
    gsm = dict(unit="%", metric="accuracy", benchmark="GSM8K", setting="8-shot")
    results = [
        _paper("2401.00001", [
            dict(gsm, value=83.6, method="GANQ", model="Llama-3-8B", evidence="GANQ reaches 83.6% accuracy on GSM8K"),
            dict(value=5.42, metric="perplexity", benchmark="WikiText-2", method="GANQ", model="Llama-3-8B",
                 evidence="a perplexity of 5.42 on WikiText-2"),
            dict(value=2.57, unit="x", metric="speedup", method="GANQ", baseline="FP16", kind="change",
                 direction="increase", evidence="a 2.57x speedup over FP16"),
        ], "GANQ: a long title that wraps in its column because it is longer than the column is wide",
            models=[Model(name="Llama-3-8B", params_b=8)]),
        _paper("2401.00002", [
            dict(gsm, value=80.1, method="QuIP", model="Llama 3-8B", evidence="QuIP reaches 80.1% with Llama 3-8B"),
            dict(gsm, value=84.1, method="GANQ", model="Llama 3-8B", evidence="GANQ reaches 84.1%"),
            dict(value=5.90, metric="PPL", benchmark="wikitext2", method="QuIP", model="Llama 3-8B",
                 evidence="Perplexity on WikiText-2 is 5.90 for QuIP"),
        ], "Paper 2401.00002"),
        _paper("=1+1", [
            dict(value=12.5, unit="%", metric="accuracy", benchmark="GSM8K", method="GANQ",
                 evidence='=HYPERLINK("http://evil.example","click") GANQ scores 12.5% on GSM8K'),
            dict(value=11.5, unit="%", metric="accuracy", benchmark="GSM8K", evidence="+cmd| scores 11.5% on GSM8K"),
            dict(value=-0.52, metric="points", benchmark="MMLU", evidence="-0.52 points on MMLU for @SUM(1)"),
        ], "@SUM(A1)"),
        _paper("p-control", [
            dict(value=83.6, unit="%", benchmark="GSM8K", evidence="reaches 83.6% on GSM8K.\x0c It"),
        ], "T\x00itle"),
        PaperResult(id="p-broken", status="failed", error="=backend timed out"),
    ]  # fmt: skip
    return build_leaderboard(results)


def _cells(sheet: Worksheet) -> list[tuple]:
    """Every cell as the reader sees it: value, type, quote prefix, wrap, number format, fill,
    bold, and link."""
    return [
        (c.coordinate, c.value, c.data_type if c.value is not None else None, bool(c.quotePrefix), bool(c.alignment.wrap_text), c.number_format,
         c.fill.fgColor.rgb[-6:] if c.fill.fill_type else None, bool(c.font.b), c.hyperlink.target if c.hyperlink else None)
        for row in sheet.iter_rows() for c in row if c.value is not None or c.has_style and c.fill.fill_type
    ]  # fmt: skip


def _widths(sheet: Worksheet) -> dict[int, float]:
    """Each column's width (a writer may give adjacent columns of one width as one range)."""
    return {i: d.width for d in sheet.column_dimensions.values() if d.width for i in range(d.min, d.max + 1)}


def test_the_new_writer_gives_the_cells_the_openpyxl_writer_gave(tmp_path: Path) -> None:
    out = tmp_path / "board.xlsx"
    exported = export(reference_board(), out)
    new, old = load_workbook(out), load_workbook(REFERENCE)
    assert new.sheetnames == old.sheetnames and exported.charts == 2
    for name in old.sheetnames:
        assert _cells(new[name]) == _cells(old[name]), name
        assert new[name].freeze_panes == old[name].freeze_panes, name
        assert new[name].auto_filter.ref == old[name].auto_filter.ref, name
        assert new[name].merged_cells.ranges == old[name].merged_cells.ranges, name
        old_widths, new_widths = _widths(old[name]), _widths(new[name])
        assert new_widths.keys() == old_widths.keys(), name
        assert all(0 <= new_widths[k] - old_widths[k] <= PADDING for k in old_widths), (name, old_widths, new_widths)
        old_heights, new_heights = (
            {i: d.height for i, d in sheet.row_dimensions.items() if d.height} for sheet in (old[name], new[name])
        )
        assert new_heights.keys() == old_heights.keys(), name
        assert all(abs(new_heights[i] - old_heights[i]) <= PIXEL for i in old_heights), (name, old_heights, new_heights)
        setup, was = new[name].page_setup, old[name].page_setup
        # left out, they are the file format's defaults: portrait, and one page across
        assert (setup.orientation or "portrait", setup.fitToWidth or 1, setup.fitToHeight, setup.pageOrder) == (
            was.orientation or "portrait", was.fitToWidth or 1, was.fitToHeight, was.pageOrder), name
    for chart, was in zip(new["Charts"]._charts, old["Charts"]._charts, strict=True):
        assert chart.type == was.type == "bar"
        assert chart.series[0].val.numRef.f == was.series[0].val.numRef.f
        assert chart.series[0].cat.numRef.f == was.series[0].cat.numRef.f
        assert [p.idx for p in chart.series[0].dPt] == [p.idx for p in was.series[0].dPt]
