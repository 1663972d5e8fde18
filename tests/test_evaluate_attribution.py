"""Attribution and tuple scoring (docs/ANNOTATION.md version 2, "How a run is scored")."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from extractor.cli.app import app
from extractor.eval.attribution import benchmark_right, metric_right, subject_right
from extractor.eval.score import (
    Counts,
    GoldClaim,
    GoldPaper,
    evaluate,
    score_attribution,
)
from tests.runs import write_run
from extractor.schema import Claim, Extraction, PaperResult

runner = CliRunner()


def claim(value: float, evidence: str = "", **attribution: str | None) -> Claim:
    return Claim(
        value=value, evidence=evidence or f"reaches {value}", id=f"x#{value}",
        span=(0, 1), value_span=(0, 1), **attribution,
    )


def gold(
    value: float,
    metric: list[str] | None = None,
    benchmark: list[str] | None = None,
    subject: list[list[str]] | None = None,
    kind: str = "score",
) -> GoldClaim:
    return GoldClaim(value=value, metric=metric or [], benchmark=benchmark, subject=subject, kind=kind)


# --- one attribute at a time -----------------------------------------------------------------


@pytest.mark.parametrize(
    "extracted, phrasings, right",
    [
        ("top-1 accuracy", ["accuracy"], True),  # the gold phrase inside the extracted one
        ("accuracy", ["top-1 accuracy"], True),  # and the other way round
        ("Pass@1", ["pass@1"], True),  # case and punctuation do not count
        ("EM", ["exact match"], True),  # too short to contain, but the same registry metric
        ("F-measure", ["f1 score"], True),  # registry aliases on both sides
        ("acc", ["accuracy"], True),  # three characters are enough to be contained
        ("EM", ["emission rate"], False),  # two are not, and 'emission rate' is no registry metric
        ("latency", ["accuracy"], False),
        (None, [], True),  # the text gives no metric and none was extracted
        ("accuracy", [], False),  # a metric where the text gives none
        (None, ["accuracy"], False),
    ],
)
def test_metric(extracted: str | None, phrasings: list[str], right: bool) -> None:
    assert metric_right(extracted, phrasings) is right


@pytest.mark.parametrize(
    "extracted, aliases, right",
    [
        (None, [], True),
        ("gsm-8k", ["GSM8K"], True),
        ("the MMLU-Pro benchmark", ["MMLU-Pro"], True),
        ("HumanEval", ["MBPP"], False),
        ("GSM8K", [], False),
        (None, ["GSM8K"], False),
    ],
)
def test_benchmark(extracted: str | None, aliases: list[str], right: bool) -> None:
    assert benchmark_right(extracted, aliases) is right


def test_subject_is_the_method_or_the_model_against_any_alias_list() -> None:
    target = [["GANQ", "GPU-Adaptive Non-Uniform Quantization"], ["LLaMA-2-7B"]]
    assert subject_right("GANQ", None, target)
    assert subject_right(None, "Llama 2 7B", target)
    assert subject_right("FP16", "LLaMA-2-7B", target)  # the model is enough
    assert not subject_right("FP16", None, target)
    assert not subject_right(None, None, target)
    assert subject_right(None, None, [])
    assert not subject_right("GANQ", None, [])  # credits a method where the text names none


# --- tuples ----------------------------------------------------------------------------------


GANQ = [["GANQ"]]


def test_a_tuple_needs_value_metric_benchmark_and_subject() -> None:
    target = [
        gold(2.57, ["speedup"], None, GANQ, "change"),
        gold(83.6, ["accuracy"], ["GSM8K"], GANQ),
        gold(7.0, ["perplexity"], ["WikiText-2"], GANQ),
    ]
    extracted = [
        claim(2.57, metric="speedup", method="GANQ", kind="score"),  # kind wrong: still a tuple
        claim(83.6, metric="accuracy", benchmark="MATH", method="GANQ"),  # benchmark wrong
        claim(4.0, metric="bits"),  # no gold value
    ]
    result = score_attribution(extracted, target)
    assert result.tuples == Counts(tp=1, fp=2, fn=2)
    assert {a: (c.right, c.total) for a, c in result.accuracy.items()} == {
        "metric": (2, 2), "benchmark": (1, 2), "subject": (2, 2), "kind": (1, 2),
    }
    assert [(w.value, w.attribute, w.gold, w.extracted) for w in result.wrong] == [
        ("2.57", "kind", "change", "score"),
        ("83.6", "benchmark", "GSM8K", "MATH"),
    ]


def test_a_claim_matching_only_an_optional_value_leaves_both_tuple_counts() -> None:
    result = score_attribution([claim(25.0), claim(9.0)], [gold(7.0)], optional_values=[25.0])
    assert result.tuples == Counts(tp=0, fp=1, fn=1)


def test_respectively_is_scored_claim_by_claim_after_value_matching() -> None:
    # "72.6% on HumanEval and 58.1% on MBPP": giving both to MBPP gets one benchmark wrong;
    # the pairing follows the values, not the benchmarks.
    target = [gold(72.6, ["pass@1"], ["HumanEval"], GANQ), gold(58.1, ["pass@1"], ["MBPP"], GANQ)]
    extracted = [
        claim(72.6, metric="pass@1", benchmark="MBPP", method="GANQ"),
        claim(58.1, metric="pass@1", benchmark="MBPP", method="GANQ"),
    ]
    result = score_attribution(extracted, target)
    assert result.tuples == Counts(tp=1, fp=1, fn=1)
    assert result.accuracy["benchmark"].right == 1


def test_equal_values_pair_with_the_gold_claim_they_agree_with() -> None:
    target = [gold(10.0, ["accuracy"], ["MMLU"], GANQ), gold(10.0, ["accuracy"], ["GSM8K"], GANQ)]
    extracted = [
        claim(10.0, metric="accuracy", benchmark="GSM8K", method="GANQ"),
        claim(10.0, metric="accuracy", benchmark="MMLU", method="GANQ"),
    ]
    assert score_attribution(extracted, target).tuples == Counts(tp=2, fp=0, fn=0)


# --- version-1 gold --------------------------------------------------------------------------


def test_version_one_claims_score_values_only() -> None:
    v1 = GoldClaim.model_validate({"value": 83.6, "unit": "%", "metric": "accuracy", "kind": "score"})
    assert v1.attribution is None
    result = score_attribution([claim(83.6, metric="latency"), claim(1.0)], [v1])
    assert result.tuples == Counts() and result.unattributed == 1 and result.attributed == 0
    assert all(c.total == 0 for c in result.accuracy.values())


def _run(tmp_path: Path, claims: list[dict]) -> tuple[Path, Path]:
    run_dir = tmp_path / "run"
    extraction = Extraction(claims=[claim(83.6, "GANQ reaches 83.6 on GSM8K", metric="accuracy", method="GANQ")])
    write_run(run_dir, [PaperResult(id="p1", status="ok", extraction=extraction)], {})
    gold_path = tmp_path / "gold.jsonl"
    gold_path.write_text(json.dumps({"id": "p1", "claims": claims}) + "\n")
    return run_dir, gold_path


def test_cli_says_plainly_when_the_gold_is_version_one(tmp_path: Path) -> None:
    run_dir, gold_path = _run(tmp_path, [{"value": 83.6, "metric": "accuracy", "kind": "score"}])
    out = runner.invoke(app, ["eval", str(run_dir), "--gold", str(gold_path)])
    assert out.exit_code == 0, out.output
    assert "Version-1 gold" in out.output and "values only" in " ".join(out.output.split())
    assert "tuples" not in out.output
    data = json.loads(runner.invoke(app, ["eval", str(run_dir), "--gold", str(gold_path), "--json"]).output)
    assert data["attribution"]["unattributed_gold_claims"] == 1
    assert data["attribution"]["tuples"]["tp"] == 0


def test_cli_headline_attributes_and_errors(tmp_path: Path) -> None:
    v2 = {"value": 83.6, "metric": ["accuracy"], "benchmark": ["GSM8K"], "subject": [["GANQ"]], "kind": "score"}
    run_dir, gold_path = _run(tmp_path, [v2])
    out = runner.invoke(app, ["eval", str(run_dir), "--gold", str(gold_path), "--errors"], env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    text = " ".join(out.output.split())
    assert "tuples (value, metric, benchmark, subject)" in text and "attribute accuracy" in text
    assert "benchmark wrong on 83.6: gold 'GSM8K', extracted '(none)' ('GANQ reaches 83.6 on GSM8K')" in text
    data = json.loads(runner.invoke(app, ["eval", str(run_dir), "--gold", str(gold_path), "--json", "--errors"]).output)
    assert data["attribution"]["tuples"] == {"precision": 0.0, "recall": 0.0, "f1": 0.0, "tp": 0, "fp": 1, "fn": 1}
    assert data["attribution"]["attributes"]["metric"] == {"accuracy": 1.0, "right": 1, "of": 1}
    assert data["errors"][0]["attributes"] == [{
        "value": "83.6", "attribute": "benchmark", "gold": "GSM8K", "extracted": "(none)",
        "evidence": "GANQ reaches 83.6 on GSM8K",
    }]


def test_scirex_gold_scores_no_attribution() -> None:
    report = evaluate([], [GoldPaper(id="p")], fields=("methods",))
    assert report.attribution is None and "attribution" not in report.to_dict()


def test_v3_subject_needs_proposed_to_agree_and_the_leaderboard_figures_count_ready_claims() -> None:
    """Contract v3: a subject is right when the names match and `proposed` agrees; an unnamed
    proposed method is right when the claim says proposed and names no method. Leaderboard-ready
    recall counts the gold claims with metric, benchmark and subject (or proposed) known;
    named-benchmark accuracy the value-matched gold claims that name a benchmark."""
    from extractor.eval.score import GoldClaim, score_attribution
    from extractor.grounding import ground
    from extractor.schema import ClaimDraft, ExtractionDraft

    abstract = "We evaluate on SQuAD. Our model reaches 81.1 F1, BiDAF 77.3 F1 on SQuAD, and it runs 2.0x faster."
    draft = ExtractionDraft(claims=[
        ClaimDraft(value=81.1, metric="F1", benchmark="SQuAD", proposed=True, evidence="Our model reaches 81.1 F1"),
        ClaimDraft(value=77.3, metric="F1", benchmark="SQuAD", method="BiDAF", proposed=True, evidence="BiDAF 77.3 F1 on SQuAD"),
        ClaimDraft(value=2.0, unit="x", metric="speedup", kind="change", proposed=True, evidence="it runs 2.0x faster"),
    ])
    claims = ground(draft, abstract, "p")[0].claims
    gold = [
        GoldClaim(value=81.1, metric=["f1"], benchmark=["SQuAD"], subject=None, proposed=True),
        GoldClaim(value=77.3, metric=["f1"], benchmark=["SQuAD"], subject=[["BiDAF"]], proposed=False),
        GoldClaim(value=2.0, unit="x", metric=["speedup"], benchmark=None, subject=None, kind="change", proposed=True),
    ]
    score = score_attribution(claims, gold)
    # 81.1: unnamed proposed, right; 77.3: BiDAF named but wrongly proposed; 2.0: right, not ready.
    assert [w.value for w in score.wrong] == ["77.3"]
    assert (score.tuples.tp, score.tuples.fn) == (2, 1)
    assert (score.ready.right, score.ready.total) == (1, 2)
    assert (score.named_benchmark.right, score.named_benchmark.total) == (2, 2)
    # Version-2 gold (no proposed key) scores the names alone, as before.
    v2 = [GoldClaim(value=77.3, metric=["f1"], benchmark=["SQuAD"], subject=[["BiDAF"]])]
    assert score_attribution(claims[1:2], v2).tuples.tp == 1
