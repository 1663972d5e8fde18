import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from extractor.cli.app import app
from extractor.eval.score import (
    Counts,
    GoldClaim,
    GoldPaper,
    close,
    evaluate,
    read_gold,
    score_claims,
    score_names,
    score_sizes,
)
from tests.runs import write_run
from extractor.schema import Benchmark, Claim, Extraction, Method, Model, PaperResult

from .conftest import FIXTURES

runner = CliRunner()


def claim(value: float, value_max: float | None = None, unit: str | None = None) -> Claim:
    return Claim(
        value=value, value_max=value_max, unit=unit, evidence=f"reaches {value}",
        id=f"x#{value}", span=(0, 1), value_span=(0, 1),
    )


def gold(value: float, value_max: float | None = None, unit: str | None = None) -> GoldClaim:
    return GoldClaim(value=value, value_max=value_max, unit=unit)


def counts(score) -> tuple[int, int, int]:
    return score.counts.tp, score.counts.fp, score.counts.fn


# --- claims ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value, matches",
    [(100.0, True), (100.5, True), (99.5, True), (100.51, False), (99.49, False), (-100.0, False)],
)
def test_tolerance_is_half_a_percent_of_the_gold_number(value: float, matches: bool) -> None:
    assert counts(score_claims([claim(value)], [gold(100.0)])) == ((1, 0, 0) if matches else (0, 1, 1))


def test_a_gold_zero_matches_only_zero() -> None:
    assert close(0.0, 0.0) and not close(0.001, 0.0)


def test_range_needs_both_ends() -> None:
    target = [gold(9.0, 34.0, "points")]
    assert counts(score_claims([claim(9.0, 34.0, "points")], target)) == (1, 0, 0)
    assert counts(score_claims([claim(9.0, 34.1, "points")], target)) == (1, 0, 0)  # within 0.5%
    assert counts(score_claims([claim(9.0, 35.0, "points")], target)) == (0, 1, 1)
    assert counts(score_claims([claim(9.0), claim(34.0)], target)) == (0, 2, 1)
    assert counts(score_claims([claim(9.0, 34.0)], [gold(9.0)])) == (0, 1, 1)


def test_a_percent_may_be_given_as_a_fraction() -> None:
    assert counts(score_claims([claim(0.836)], [gold(83.6, unit="%")])) == (1, 0, 0)
    assert counts(score_claims([claim(83.6, unit="%")], [gold(0.836)])) == (1, 0, 0)
    assert counts(score_claims([claim(0.13, 0.38)], [gold(13.0, 38.0, "%")])) == (1, 0, 0)
    # Without a percent on either side, a factor of 100 is a different number.
    assert counts(score_claims([claim(0.5, unit="x")], [gold(50.0)])) == (0, 1, 1)


def test_matching_is_one_to_one_and_closest_first() -> None:
    # 10.03 is closer to 10.04 than to 10.0, so 10.0 is the gold left unmatched.
    result = score_claims([claim(10.03)], [gold(10.0), gold(10.04)])
    assert counts(result) == (1, 0, 1) and result.missed == ["10"]
    # Each gold claim is matched once: a repeated number is extra.
    assert counts(score_claims([claim(10.0)] * 3, [gold(10.0)])) == (1, 2, 0)
    assert counts(score_claims([claim(10.04), claim(10.0)], [gold(10.0), gold(10.04)])) == (2, 0, 0)


def test_optional_values_are_neither_rewarded_nor_punished() -> None:
    result = score_claims([claim(25.0), claim(7.0)], [gold(7.0), gold(3.0)], optional_values=[25.0])
    assert counts(result) == (1, 0, 1)
    assert counts(score_claims([claim(41.0, 43.0)], [], optional_values=[41.0, 43.0])) == (0, 0, 0)
    assert counts(score_claims([claim(41.0, 44.0)], [], optional_values=[41.0, 43.0])) == (0, 1, 0)


def test_errors_name_the_missed_and_extra_claims() -> None:
    result = score_claims([claim(5.0, unit="%")], [gold(9.0, 34.0, "points")])
    assert result.missed == ["9-34 points"]
    assert result.extra == ["5 % ('reaches 5.0')"]


# --- names -----------------------------------------------------------------------------------


def test_names_ignore_case_space_and_punctuation_and_match_any_alias() -> None:
    target = [["CDC", "Causal Diagnosis and Correction"]]
    assert counts(score_names([["causal-diagnosis and correction"]], target)) == (1, 0, 0)
    assert counts(score_names([["cdc"]], target)) == (1, 0, 0)
    assert counts(score_names([["Causal Fix", "C.D.C."]], target)) == (1, 0, 0)
    assert counts(score_names([["Causal Fix"]], target)) == (0, 1, 1)


def test_containment_counts_for_names_of_three_or_more_characters() -> None:
    assert counts(score_names([["SqueezeLLM framework"]], [["SqueezeLLM"]])) == (1, 0, 0)
    assert counts(score_names([["GSM8K"]], [["GSM8K-Platinum"]])) == (1, 0, 0)
    assert counts(score_names([["RAG"]], [["CoRM-RAG"]])) == (1, 0, 0)
    assert counts(score_names([["KV cache"]], [["KV"]])) == (0, 1, 1)  # 'kv' is too short


def test_exact_names_are_paired_before_contained_ones() -> None:
    result = score_names([["MMLU-Pro"], ["MMLU"]], [["MMLU"], ["MMLU-Pro"]])
    assert counts(result) == (2, 0, 0)
    assert counts(score_names([["MMLU"], ["MMLU"]], [["MMLU"]])) == (1, 1, 0)


def test_optional_names_are_neither_rewarded_nor_punished() -> None:
    result = score_names([["SympFormer"], ["TinyStories"]], [["OpenWebText"]], [["SympFormer"]])
    assert counts(result) == (0, 1, 1) and result.extra == ["TinyStories"]


# --- model sizes -----------------------------------------------------------------------------


def test_model_sizes_compare_sets_of_total_and_active_counts() -> None:
    assert counts(score_sizes([30.0, 3.5, 30.0], [30.0, 3.5])) == (2, 0, 0)
    assert counts(score_sizes([0.125, 7.0], [0.125, 1.0])) == (1, 1, 1)
    assert counts(score_sizes([], [8.0, 27.0])) == (0, 0, 2)


# --- papers and runs -------------------------------------------------------------------------


def result(paper_id: str, extraction: Extraction | None, status: str = "ok") -> PaperResult:
    return PaperResult(id=paper_id, status=status, extraction=extraction,
                       error=None if status == "ok" else "boom")


GOLD = [
    GoldPaper(
        id="p1",
        methods=[["GANQ", "GPU-Adaptive Non-Uniform Quantization"]],
        benchmarks=[["GSM8K"]],
        params_b=[30.0, 3.5],
        claims=[gold(2.57, unit="x"), gold(83.6, unit="%")],
    ),
    GoldPaper(id="p2", claims=[gold(1.0)], benchmarks=[["MMLU"]]),
    GoldPaper(id="p3", methods=[["BeNice"]]),
]


def p1_extraction() -> Extraction:
    return Extraction(
        methods=[Method(name="GANQ"), Method(name="FP16", proposed=False)],
        models=[Model(name="Nemotron", params_b=30.0, active_params_b=3.5)],
        benchmarks=[Benchmark(name="gsm8k"), Benchmark(name="MATH")],
        claims=[claim(2.57, unit="x"), claim(4.0, unit="bits")],
    )


def test_evaluate_micro_averages_and_counts_absent_and_failed_papers_as_misses() -> None:
    run = [result("p1", p1_extraction()), result("p3", None, "failed"), result("extra", Extraction())]
    report = evaluate(run, GOLD)
    totals = report.totals
    assert totals["claims"] == Counts(tp=1, fp=1, fn=2)
    assert totals["methods"] == Counts(tp=1, fp=0, fn=1)  # FP16 is not proposed: not scored
    assert totals["benchmarks"] == Counts(tp=1, fp=1, fn=1)
    assert totals["model_sizes"] == Counts(tp=2, fp=0, fn=0)
    assert report.ids_with("missing") == ["p2"] and report.ids_with("failed") == ["p3"]
    assert report.not_in_gold == ["extra"]
    assert totals["claims"].precision == 0.5 and totals["claims"].recall == pytest.approx(1 / 3)
    assert totals["claims"].f1 == pytest.approx(0.4)


def test_undefined_scores_are_none_not_zero() -> None:
    nothing = Counts(tp=0, fp=0, fn=3)
    assert nothing.precision is None and nothing.recall == 0.0 and nothing.f1 == 0.0
    assert Counts().f1 is None


def test_evaluate_can_score_a_subset_of_fields() -> None:
    report = evaluate([result("p1", p1_extraction())], GOLD[:1], fields=("methods", "benchmarks"))
    assert list(report.totals) == ["methods", "benchmarks"]


def _write(tmp_path: Path) -> tuple[Path, Path]:
    run_dir = tmp_path / "run"
    write_run(run_dir, [result("p1", p1_extraction()), result("extra", Extraction())], {})
    gold_path = tmp_path / "gold.jsonl"
    gold_path.write_text("".join(g.model_dump_json(exclude_unset=True) + "\n" for g in GOLD))
    return run_dir, gold_path


def test_cli_prints_the_table_and_the_paper_counts(tmp_path: Path) -> None:
    run_dir, gold_path = _write(tmp_path)
    out = runner.invoke(app, ["eval", str(run_dir), "--gold", str(gold_path)])
    assert out.exit_code == 0, out.output
    assert "model sizes" in out.output
    assert "3 gold papers: 2 missing from the run and 0 failed in it" in out.output
    assert "1 run papers without gold ignored" in out.output


def test_cli_json_and_errors(tmp_path: Path) -> None:
    run_dir, gold_path = _write(tmp_path)
    out = runner.invoke(app, ["eval", str(run_dir), "--gold", str(gold_path), "--json", "--errors"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["scores"]["model_sizes"] == {
        "precision": 1.0, "recall": 1.0, "f1": 1.0, "tp": 2, "fp": 0, "fn": 0,
    }
    assert data["missing_from_run"] == ["p2", "p3"] and data["not_in_gold"] == 1
    p1 = next(e for e in data["errors"] if e["id"] == "p1")
    assert p1["claims"] == {"missed": ["83.6 %"], "extra": ["4 bits ('reaches 4.0')"]}
    assert p1["benchmarks"]["extra"] == ["MATH"]
    text = runner.invoke(app, ["eval", str(run_dir), "--gold", str(gold_path), "--errors"])
    assert "benchmarks extra: MATH" in text.output


def test_cli_names_a_missing_gold_file(tmp_path: Path) -> None:
    run_dir, _ = _write(tmp_path)
    out = runner.invoke(app, ["eval", str(run_dir), "--gold", str(tmp_path / "nope.jsonl")])
    assert out.exit_code == 2 and "nope.jsonl" in out.output


def test_dev_gold_parses_and_has_one_line_per_paper() -> None:
    papers = read_gold(FIXTURES / "gold" / "dev.jsonl")
    assert len(papers) == len({p.id for p in papers}) == 88
