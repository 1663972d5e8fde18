"""Version-3 gold (docs/ANNOTATION.md, "How a run is scored"): ``proposed`` on every claim, the
subject of an unnamed proposed method, and the leaderboard figures, on cases computed by hand."""

import json
from pathlib import Path

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from extractor.cli.app import app
from extractor.eval.score import Accuracy, GoldPaper, evaluate, read_gold, score_attribution
from tests.runs import write_run
from extractor.schema import Claim, Extraction, PaperResult

runner = CliRunner()


def claim(value: float, benchmark: str | None, method: str | None, proposed: bool, metric: str = "accuracy") -> Claim:
    return Claim(
        id=f"x#{value}", value=value, metric=metric, benchmark=benchmark, method=method,
        proposed=proposed, evidence=f"reaches {value}", span=(0, 1), value_span=(0, 1),
    )


def gold_claim(value: float, benchmark: list[str] | None, subject: list[list[str]] | None, proposed: bool | None) -> dict:
    line = {"value": value, "metric": ["accuracy"], "benchmark": benchmark, "subject": subject, "kind": "score"}
    if proposed is not None:
        line["proposed"] = proposed
    return line


# g1 named proposed, g2 unnamed proposed, g3 a baseline without benchmark, g4 a baseline never
# extracted. Ready (metric, benchmark, subject known; proposed is a subject): g1, g2, g4.
V3 = {
    "id": "p1", "version": 3, "claims": [
        gold_claim(80.0, ["SQuAD"], [["BiDAF"]], True),
        gold_claim(70.0, ["SQuAD"], None, True),
        gold_claim(60.0, None, [["BERT"]], False),
        gold_claim(50.0, ["SQuAD"], [["BERT"]], False),
    ],
}
RUN = [
    claim(80.0, "SQuAD", "BiDAF", proposed=True),  # right
    claim(70.0, "SQuAD", None, proposed=True),  # right: proposed, no method named
    claim(60.0, None, "BERT", proposed=True),  # the name matches, proposed does not
]


def test_v3_subject_needs_proposed_to_agree_and_unnamed_is_proposed_without_a_method() -> None:
    paper = GoldPaper.model_validate(V3)
    scored = score_attribution(RUN, paper.claims)
    assert scored.accuracy["subject"] == Accuracy(2, 3)
    assert (scored.tuples.tp, scored.tuples.fp, scored.tuples.fn) == (2, 1, 2)
    named = [claim(70.0, "SQuAD", "BiDAF", proposed=True)]  # names a method the paper never names
    assert score_attribution(named, paper.claims).accuracy["subject"] == Accuracy(0, 1)


def test_leaderboard_ready_recall_and_named_benchmark_accuracy() -> None:
    scored = score_attribution(RUN, GoldPaper.model_validate(V3).claims)
    assert scored.ready == Accuracy(2, 3)  # g1 and g2 right, g4 missed; g3 not ready
    assert scored.named_benchmark == Accuracy(2, 2)  # matched gold naming one: g1, g2
    wrong_benchmark = [claim(80.0, "CoQA", "BiDAF", proposed=True)]
    scored = score_attribution(wrong_benchmark, GoldPaper.model_validate(V3).claims)
    assert (scored.ready, scored.named_benchmark) == (Accuracy(0, 3), Accuracy(0, 1))


def test_zero_of_zero_is_no_figure() -> None:
    paper = GoldPaper.model_validate({"id": "p", "version": 3, "claims": [gold_claim(60.0, None, [["BERT"]], False)]})
    scored = score_attribution([claim(60.0, None, "BERT", proposed=False)], paper.claims)
    assert (scored.ready, scored.named_benchmark) == (Accuracy(0, 0), Accuracy(0, 0))
    assert scored.ready.value is None and scored.to_dict()["leaderboard_ready_recall"]["accuracy"] is None


def test_v2_gold_ignores_proposed_and_counts_only_named_subjects_as_ready() -> None:
    v2 = {"id": "p1", "claims": [{k: v for k, v in c.items() if k != "proposed"} for c in V3["claims"]]}
    scored = score_attribution(RUN, GoldPaper.model_validate(v2).claims)
    assert scored.accuracy["subject"] == Accuracy(3, 3)  # 60.0 BERT counts whatever proposed says
    assert scored.ready == Accuracy(1, 2)  # g1 and g4 have a subject; g2 has none under v2


def test_a_v3_record_whose_claim_lacks_proposed_is_refused_by_name() -> None:
    bad = {"id": "p9", "version": 3, "claims": [gold_claim(1.0, None, None, None)]}
    with pytest.raises(ValidationError, match="p9: version-3 claims 0 lack 'proposed'"):
        GoldPaper.model_validate(bad)


def test_v1_v2_and_v3_records_in_one_gold_file(tmp_path: Path) -> None:
    v1 = {"id": "p0", "claims": [{"value": 5.0, "metric": "accuracy"}]}
    v2 = {"id": "p2", "claims": [gold_claim(40.0, ["SQuAD"], [["BERT"]], None)]}
    path = tmp_path / "gold.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in (v1, V3, v2)))
    results = [
        PaperResult(id="p0", status="ok", extraction=Extraction(claims=[claim(5.0, None, None, False)])),
        PaperResult(id="p1", status="ok", extraction=Extraction(claims=RUN)),
        PaperResult(id="p2", status="ok", extraction=Extraction(claims=[claim(40.0, "SQuAD", "BERT", False)])),
    ]
    attribution = evaluate(results, read_gold(path)).attribution
    assert attribution is not None
    assert (attribution.attributed, attribution.unattributed) == (5, 1)
    assert attribution.ready == Accuracy(3, 4) and attribution.named_benchmark == Accuracy(3, 3)
    write_run(tmp_path / "run", results, {})
    out = runner.invoke(app, ["eval", str(tmp_path / "run"), "--gold", str(path)])
    assert out.exit_code == 0, out.output
    assert "leaderboard-ready recall (metric, benchmark and subject known): 0.750 (3 of 4)" in out.output
    assert "named-benchmark accuracy (value-matched gold naming a benchmark): 1.000 (3 of 3)" in out.output
