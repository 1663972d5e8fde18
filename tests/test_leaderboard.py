"""The leaderboard: ranking by direction, changes kept apart, conflicts, dedup across runs,
formula neutralization in XLSX and CSV, charts, the wide CSV and the command."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from openpyxl import load_workbook
from typer.testing import CliRunner

from extractor.runs import Run
from extractor.cli.app import app
from extractor.grounding import ground
from extractor.leaderboard import (
    build_leaderboard,
    export,
    load_runs,
    wide_table,
)
from extractor.leaderboard.charts import axis_label, entry_labels
from extractor.leaderboard.xlsx import PAGE_CHARS
from tests.runs import write_run
from extractor.review import Stamp
from extractor.schema import ClaimDraft, ExtractionDraft, Model, PaperResult

A = (
    "We propose GANQ. With Llama-3-8B, GANQ reaches 83.6% accuracy on GSM8K in the 8-shot "
    "setting and a perplexity of 5.42 on WikiText-2, a 2.57x speedup over FP16."
)
B = (
    "On GSM-8K (8-shot), QuIP reaches 80.1% with Llama 3-8B while GANQ reaches 84.1%. "
    "Perplexity on WikiText-2 is 5.90 for QuIP."
)
EVIL = (
    '=HYPERLINK("http://evil.example","click") GANQ scores 12.5% on GSM8K. '
    "+cmd| scores 11.5% on GSM8K. -2+3 scores 10.5% on GSM8K. @SUM(1) scores 9.5% on GSM8K."
)


def paper(paper_id: str, abstract: str, claims: list[dict], models: list[Model] | None = None) -> PaperResult:
    """A grounded PaperResult built the way the runner builds one."""
    draft = ExtractionDraft(models=models or [], claims=[ClaimDraft(**c) for c in claims])
    extraction, rejected = ground(draft, abstract, paper_id)
    assert not rejected, rejected
    return PaperResult(id=paper_id, title=f"Paper {paper_id}", status="ok", abstract=abstract,
                       extraction=extraction)


def gsm(value: float, evidence: str, method: str, model: str = "Llama-3-8B") -> dict:
    return dict(value=value, unit="%", metric="accuracy", benchmark="GSM8K", method=method,
                model=model, setting="8-shot", evidence=evidence)


@pytest.fixture
def results() -> list[PaperResult]:
    a = paper("2401.00001", A, [
        gsm(83.6, "GANQ reaches 83.6% accuracy on GSM8K", "GANQ"),
        dict(value=5.42, metric="perplexity", benchmark="WikiText-2", method="GANQ", model="Llama-3-8B",
             evidence="a perplexity of 5.42 on WikiText-2"),
        dict(value=2.57, unit="x", metric="speedup", method="GANQ", baseline="FP16", kind="change",
             direction="increase", evidence="a 2.57x speedup over FP16"),
    ], models=[Model(name="Llama-3-8B", params_b=8)])
    b = paper("2401.00002", B, [
        gsm(80.1, "QuIP reaches 80.1% with Llama 3-8B", "QuIP", "Llama 3-8B"),
        gsm(84.1, "GANQ reaches 84.1%", "GANQ", "Llama 3-8B"),
        dict(value=5.90, metric="PPL", benchmark="wikitext2", method="QuIP", model="Llama 3-8B",
             evidence="Perplexity on WikiText-2 is 5.90 for QuIP"),
    ])
    failed = PaperResult(id="p-broken", status="failed", error="backend timed out")
    return [a, b, failed]


def test_scores_ranked_by_direction_and_changes_kept_apart(results: list[PaperResult]) -> None:
    board = build_leaderboard(results)
    gsm8k = board.scores[board.scores["benchmark"] == "GSM8K"]
    assert gsm8k["method_name"].tolist() == ["GANQ", "GANQ", "QuIP"]  # accuracy: higher first
    assert gsm8k["comparable"].tolist() == [84.1, 83.6, 80.1]
    assert gsm8k["rank"].tolist() == [1, 2, 3]
    assert gsm8k["model_name"].nunique() == 1  # 'Llama 3-8B' = 'Llama-3-8B'
    ppl = board.scores[board.scores["benchmark"] == "WikiText-2"]
    assert ppl["comparable"].tolist() == [5.42, 5.90]  # perplexity: lower first
    assert ppl["best"].tolist() == [True, False]
    assert "speedup" not in board.scores["metric"].tolist()
    assert board.changes["metric"].tolist() == ["speedup"]
    assert board.changes["verdict"].tolist() == ["improvement"]


def test_a_models_size_is_a_column_and_a_shot_count_splits(results: list[PaperResult]) -> None:
    """A 70B and an 8B model's 8-shot scores are one leaderboard (the size shown on each row);
    a zero-shot score is another."""
    other = paper("2401.00003", "GANQ reaches 90.2% on GSM8K with Llama-3-70B (8-shot), 70.3% with Llama-3-8B zero-shot.", [
        gsm(90.2, "GANQ reaches 90.2% on GSM8K with Llama-3-70B", "GANQ", "Llama-3-70B"),
        dict(gsm(70.3, "70.3% with Llama-3-8B zero-shot", "GANQ"), setting="zero-shot"),
    ], models=[Model(name="Llama-3-70B", params_b=70), Model(name="Llama-3-8B", params_b=8)])
    board = build_leaderboard([*results, other])
    gsm8k = board.scores[board.scores["benchmark"] == "GSM8K"]
    assert gsm8k["block"].nunique() == 2
    eight = gsm8k[gsm8k["block_conditions"] == "8-shot"]
    assert eight["comparable"].tolist() == [90.2, 84.1, 83.6, 80.1] and set(eight["size_b"]) == {70.0, 8.0}
    assert gsm8k.loc[gsm8k["block_conditions"] == "0-shot", "comparable"].tolist() == [70.3]
    assert (gsm8k.groupby("block")["rank"].min() == 1).all()


def test_conflicts_flag_both_sources_and_are_not_averaged(results: list[PaperResult]) -> None:
    board = build_leaderboard(results)
    ganq = board.scores[(board.scores["method_name"] == "GANQ") & (board.scores["benchmark"] == "GSM8K")]
    assert len(ganq) == 2 and set(ganq["comparable"]) == {83.6, 84.1}
    for text in ganq["conflict"]:
        assert "2401.00001" in text and "2401.00002" in text
    assert board.scores.loc[board.scores["method_name"] == "QuIP", "conflict"].isna().all()


def test_same_claim_in_two_runs_counts_once(results: list[PaperResult], tmp_path: Path) -> None:
    write_run(tmp_path / "r1", results, {})
    write_run(tmp_path / "r2", results[:1], {})
    board = build_leaderboard(*load_runs([Run.open(tmp_path / "r1"), Run.open(tmp_path / "r2")]))
    assert len(board.claims) == 6
    assert board.claims["claim_id"].is_unique
    assert len(board.papers) == 3


def test_review_marks_show_who_and_when(results: list[PaperResult]) -> None:
    claim_id = results[0].extraction.claims[0].id
    marks = {claim_id: {"value": Stamp("alice", "2025-05-01T10:00", 83.6, 84.0),
                        "metric": Stamp("alice", "2025-05-01T10:00", "accuracy", "EM accuracy"),
                        "decision": Stamp("bob", "2025-05-03", None, "accept")},
             "p-broken": {"decision": Stamp("bob", "2025-05-02", None, "reject")}}
    board = build_leaderboard(results, marks)
    row = board.claims.set_index("claim_id").loc[claim_id]
    assert row["reviewed"] == (
        "alice 2025-05-01T10:00: metric \u201caccuracy\u201d \u2192 \u201cEM accuracy\u201d, value 83.6 \u2192 84; "
        "bob 2025-05-03: decision accept"
    )
    assert board.papers.set_index("paper_id").loc["p-broken", "reviewed"] == "bob 2025-05-02: decision reject"


def test_workbook_sheets_links_and_highlight(results: list[PaperResult], tmp_path: Path) -> None:
    out = tmp_path / "board.xlsx"
    exported = export(build_leaderboard(results), out)
    book = load_workbook(out)
    assert book.sheetnames == ["Leaderboard", "Unranked", "Improvements", "Claims", "Papers", "Charts"]
    board = book["Leaderboard"]
    assert board.freeze_panes == "A3"
    assert board.auto_filter.ref.startswith("A2:")
    header = [c.value for c in board[2]]
    assert header[:11] == [
        "Benchmark", "Metric", "Conditions", "Block", "Rank", "Method", "Model", "Size (B)", "Configuration", "Value", "Unit",
    ]
    first = {h: c for h, c in zip(header, board[3])}
    assert first["Benchmark"].value == "GSM8K" and first["Value"].value == 84.1
    assert first["Value"].fill.fgColor.rgb.endswith("C8E6C9")  # best of its block
    assert first["Paper"].hyperlink.target == "https://arxiv.org/abs/2401.00002"
    assert first["Conflict"].value.startswith("conflict:")
    papers = book["Papers"]
    assert [c.value for c in papers[1]][:3] == ["Paper", "Title", "Status"]
    statuses = {row[0].value: row[2].value for row in papers.iter_rows(min_row=2)}
    assert statuses["p-broken"] == "failed"
    assert book["Improvements"].max_row == 2
    assert book["Claims"].max_row == 7
    assert exported.charts == 2 and not (tmp_path / "board_charts").exists()  # drawn by the spreadsheet
    charts = book["Charts"]._charts
    assert [c.type for c in charts] == ["bar", "bar"]
    # Each chart's values are the Leaderboard sheet's own Value cells of its block.
    value_letter = board.cell(2, header.index("Value") + 1).column_letter
    refs = [c.series[0].val.numRef.f for c in charts]
    assert all(ref.startswith(f"'Leaderboard'!${value_letter}$") for ref in refs), refs
    first_block = [r for r in board.iter_rows(min_row=3, values_only=True) if r[0] == "GSM8K" and r[1] == first["Metric"].value]
    assert refs[0] == f"'Leaderboard'!${value_letter}$3:${value_letter}${2 + len(first_block)}"
    assert charts[0].series[0].cat.numRef.f == f"'Charts'!$A$3:$A${2 + len(first_block)}"


def test_no_charts_and_empty_board(tmp_path: Path) -> None:
    out = tmp_path / "empty.xlsx"
    exported = export(build_leaderboard([PaperResult(id="p-x", status="failed", error="boom")]), out, charts=False)
    assert exported.charts == 0 and "Charts" not in load_workbook(out).sheetnames
    sheet = load_workbook(out)["Leaderboard"]
    assert "No score names its metric, benchmark and subject yet" in sheet["A3"].value


def _evil_results() -> list[PaperResult]:
    claims = [
        dict(value=12.5, unit="%", metric="accuracy", benchmark="GSM8K", method="GANQ",
             evidence='=HYPERLINK("http://evil.example","click") GANQ scores 12.5% on GSM8K'),
        dict(value=11.5, unit="%", metric="accuracy", benchmark="GSM8K", evidence="+cmd| scores 11.5% on GSM8K"),
        dict(value=10.5, unit="%", metric="accuracy", benchmark="GSM8K", evidence="-2+3 scores 10.5% on GSM8K"),
        dict(value=9.5, unit="%", metric="accuracy", benchmark="GSM8K", evidence="@SUM(1) scores 9.5% on GSM8K"),
    ]
    return [paper("p-evil", EVIL, claims)]


def test_formula_injection_is_neutralized_in_xlsx(tmp_path: Path) -> None:
    out = tmp_path / "evil.xlsx"
    export(build_leaderboard(_evil_results()), out, charts=False)
    book = load_workbook(out)
    cells = [c for ws in book for row in ws.iter_rows() for c in row if isinstance(c.value, str)]
    assert any("HYPERLINK" in c.value for c in cells)
    # Typed as text with the quote-prefix style, shown as written (no visible apostrophe).
    formula_like = [c for c in cells if c.value[0] in "=+-@"]
    assert formula_like and all(c.quotePrefix for c in formula_like)
    assert all(c.data_type != "f" for ws in book for row in ws.iter_rows() for c in row)


@pytest.mark.parametrize("wide", [False, True])
def test_formula_injection_is_neutralized_in_csv(tmp_path: Path, wide: bool) -> None:
    out = tmp_path / "evil.csv"
    export(build_leaderboard(_evil_results()), out, wide=wide, charts=False)
    cells = [cell for row in csv.reader(io.StringIO(out.read_text())) for cell in row]
    assert any("HYPERLINK" in c or "GANQ" in c for c in cells)
    assert not [c for c in cells if c[:1] in ("=", "+", "-", "@")]


def test_long_csv_keeps_original_text(results: list[PaperResult], tmp_path: Path) -> None:
    out = tmp_path / "claims.csv"
    export(build_leaderboard(results), out, charts=False)
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert len(rows) == 6
    ppl = next(r for r in rows if r["metric_as_written"] == "PPL")
    assert ppl["metric"] == "perplexity" and ppl["benchmark"] == "WikiText-2"
    assert ppl["benchmark_as_written"] == "wikitext2" and ppl["value_as_written"] == "5.90"


def test_wide_csv_one_row_per_entry(results: list[PaperResult], tmp_path: Path) -> None:
    board = build_leaderboard(results)
    wide = wide_table(board)
    assert list(wide.columns[:2]) == ["method", "model"]
    ganq = wide[wide["method"] == "GANQ"].iloc[0]
    gsm_col = next(c for c in wide.columns if c.startswith("GSM8K"))
    assert ganq[gsm_col] == "84.1 | 83.6"  # two papers disagree: both values in rank order, no mean
    quip = wide[wide["method"] == "QuIP"].iloc[0]
    assert quip[gsm_col] == 80.1
    out = tmp_path / "wide.csv"
    export(board, out, wide=True, charts=False)
    assert out.read_text().splitlines()[0].startswith("method,model,")


def test_leaderboard_command(results: list[PaperResult], tmp_path: Path) -> None:
    write_run(tmp_path / "run", results, {})
    out = tmp_path / "lb.xlsx"
    result = CliRunner().invoke(app, ["leaderboard", str(tmp_path / "run"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.exists() and not (tmp_path / "lb_charts").exists()
    assert "2 blocks" in result.output and "(with 2 charts)" in result.output
    bad = CliRunner().invoke(app, ["leaderboard", str(tmp_path / "run"), "--out", str(tmp_path / "x.xlsx"), "--wide"])
    assert bad.exit_code == 2


def test_run_writes_the_leaderboard_into_its_directory(tmp_path: Path) -> None:
    fixtures = Path(__file__).parent.parent / "fixtures" / "abstracts"
    result = CliRunner().invoke(app, ["run", str(fixtures), "--out", str(tmp_path / "run"), "-q", "--no-cache"])
    assert result.exit_code == 0, result.output
    book = load_workbook(tmp_path / "run" / "leaderboard.xlsx", read_only=True)
    assert book.sheetnames[:5] == ["Leaderboard", "Unranked", "Improvements", "Claims", "Papers"]
    skipped = CliRunner().invoke(app, ["run", str(fixtures), "--out", str(tmp_path / "bare"), "-q", "--no-leaderboard"])
    assert skipped.exit_code == 0 and not (tmp_path / "bare" / "leaderboard.xlsx").exists()


def test_chart_labels_never_say_nan_and_tell_bars_apart() -> None:
    text = "With Llama-3-8B the loss falls by 0.15 at 5M and by 0.65 at 100M parameters; accuracy is 61.4 on GSM8K; it gets 61.2 on CIFAR-10."
    result = paper("2401.00009", text, [
        dict(value=0.15, metric="loss", benchmark="GSM8K", model="Llama-3-8B", setting="at 5M",
             evidence="the loss falls by 0.15 at 5M"),
        dict(value=0.65, metric="loss", benchmark="GSM8K", model="Llama-3-8B", setting="at 100M parameters",
             evidence="by 0.65 at 100M parameters"),
        dict(value=61.2, benchmark="CIFAR-10", evidence="it gets 61.2 on CIFAR-10"),
    ])
    board = build_leaderboard([result])
    scores = board.scores
    loss = scores[scores["metric"] == "loss"]
    labels = entry_labels(loss.to_dict("records"))
    assert len(set(labels)) == 2 and all(label.startswith("Llama-3-8B [2401.00009#") for label in labels)
    assert {label.split("[")[1].rstrip("]") for label in labels} == set(loss["claim_id"])
    assert axis_label(loss.iloc[0]) == "loss: lower is better"
    # A score without a metric (or a subject) is never ranked: it is listed, and labelled, as unranked.
    assert scores["metric"].notna().all()
    unstated = board.unranked[board.unranked["metric"].isna()]
    assert unstated["unranked"].tolist() == ["missing metric, subject"]
    assert axis_label(unstated.iloc[0]) == "metric not stated: direction unknown, not ranked"
    assert entry_labels(unstated.to_dict("records")) == ["\u201cit gets 61.2 on CIFAR-10\u201d [2401.00009]"]


def test_workbook_columns_are_readable_and_print_legibly(results: list[PaperResult], tmp_path: Path) -> None:
    """Long text wraps (Setting and Baseline too), ids keep their digits and are never cut, and
    a wide sheet prints on more pages across instead of shrinking to a few points."""
    text = "Under the 2401.10100 protocol and 4-bit weights, GANQ is 12.5% faster than the FP16 baseline of Frantar et al."
    results = [*results, paper("2401.10100", text, [dict(
        value=12.5, unit="%", metric="speedup", kind="change", direction="increase", method="GANQ",
        baseline="the FP16 baseline of Frantar et al.", setting="4-bit weights",
        evidence="GANQ is 12.5% faster than the FP16 baseline of Frantar et al.")])]
    out = tmp_path / "board.xlsx"
    export(build_leaderboard(results), out, charts=False)
    book = load_workbook(out)
    improvements = book["Improvements"]
    header = [c.value for c in improvements[1]]
    row = next(r for r in improvements.iter_rows(min_row=2) if r[header.index("Paper")].value == "2401.10100")
    cells = dict(zip(header, row))
    assert cells["Paper"].value == "2401.10100" and cells["Paper"].data_type == "s" and cells["Paper"].number_format == "@"
    assert cells["Baseline"].alignment.wrap_text and cells["Setting"].alignment.wrap_text
    claims = book["Claims"]
    header = [c.value for c in claims[1]]
    letter = {h: claims.cell(1, i + 1).column_letter for i, h in enumerate(header)}
    ids = [c.value for c in next(claims.iter_cols(min_col=header.index("Claim id") + 1, min_row=2))]
    assert claims.column_dimensions[letter["Claim id"]].width >= max(map(len, ids)) + 2
    assert claims.cell(2, header.index("Evidence") + 1).alignment.wrap_text
    # The Claims sheet is too wide for one legible page: two pages across, rows kept together.
    widths = sum(claims.column_dimensions[letter[h]].width for h in header)
    assert widths > PAGE_CHARS and claims.page_setup.fitToWidth == 2 and claims.page_setup.pageOrder == "overThenDown"
    assert (book["Leaderboard"].page_setup.fitToWidth or 1) == 1  # left out, it is 1 (the format's default)


def test_long_work_reports_progress_by_stage(results: list[PaperResult], tmp_path: Path) -> None:
    write_run(tmp_path / "run", results, {})
    steps: list[tuple[str, int, int]] = []
    board = build_leaderboard(*load_runs([Run.open(tmp_path / "run")], step=lambda *s: steps.append(s)))
    export(board, tmp_path / "board.xlsx", step=lambda *s: steps.append(s))
    stages = {stage: (done, total) for stage, done, total in steps}
    assert stages == {"reading runs": (1, 1), "writing board.xlsx": (7, 7)}
    assert steps[0] == ("reading runs", 0, 1)
    quiet = CliRunner().invoke(app, ["leaderboard", str(tmp_path / "run"), "--out", str(tmp_path / "q.csv"), "-q", "--excel"])
    assert quiet.exit_code == 0 and quiet.output.startswith("5 ranked scores in 2 blocks")
    assert (tmp_path / "q.csv").read_bytes().startswith(b"\xef\xbb\xbfpaper_id,")
    xlsx = CliRunner().invoke(app, ["leaderboard", str(tmp_path / "run"), "--out", str(tmp_path / "q.xlsx"), "--excel"])
    assert xlsx.exit_code == 2 and "--excel applies to CSV output" in xlsx.output


def test_chart_text_is_plain_text_whatever_the_ids_hold(tmp_path: Path) -> None:
    """An id with math markup (`m$\\frac{$1`) is a label like any other: the workbook is written."""
    results = [
        paper("m$\\frac{$1", "GANQ reaches 83.6% accuracy on GSM8K with Llama-3-8B.", [
            dict(value=83.6, unit="%", metric="accuracy", benchmark="GSM8K", method="GANQ", evidence="GANQ reaches 83.6% accuracy on GSM8K")]),
        paper("$x$", "SqueezeLLM reaches 79.1% accuracy on GSM8K with Llama-3-8B.", [
            dict(value=79.1, unit="%", metric="accuracy", benchmark="GSM8K", method="SqueezeLLM", evidence="SqueezeLLM reaches 79.1% accuracy on GSM8K")]),
    ]
    out = tmp_path / "board.xlsx"
    exported = export(build_leaderboard(results), out)
    assert exported.charts == 1
    labels = [row[0] for row in load_workbook(out)["Charts"].iter_rows(min_row=3, max_row=4, values_only=True)]
    assert labels == ["GANQ [m$\\frac{$1]", "SqueezeLLM [$x$]"]
