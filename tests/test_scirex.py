import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from extractor.cli.app import app
from extractor.eval.scirex import gold_lines
from extractor.eval.score import Counts, evaluate_run
from extractor.pipeline.ingest import read_inputs
from extractor.pipeline.rundir import write_run
from extractor.schema import Benchmark, Extraction, Method, PaperResult

runner = CliRunner()


def _relation(method: str, material: str) -> dict:
    return {
        "Method": method, "Material": material, "Metric": "F1", "Task": "QA", "score": "77.3",
        "Method_in_abstract": True, "Material_in_abstract": True,
        "Metric_in_abstract": False, "Task_in_abstract": True, "score_in_abstract": False,
    }


def _mentions(*items: tuple[str, str]) -> list[dict]:
    return [{"type": kind, "text": text, "tok_start": 0, "tok_end": 1} for kind, text in items]


# A 3-record slice in the format of scirex_train_abstracts.jsonl: one paper with results
# tuples, one without an abstract, one with only a generic method mention.
SLICE = [
    {
        "doc_id": "aaa",
        "title": "Bidirectional Attention Flow for Machine Comprehension",
        "abstract": "We introduce the Bi - Directional Attention Flow ( BiDAF ) network with LSTM "
        "encoders , and reach the state of the art on the Stanford Question Answering Dataset "
        "( SQuAD ) and the CNN / DailyMail cloze test .",
        "abstract_mentions": _mentions(
            ("Method", "Bi - Directional Attention Flow"), ("Method", "BiDAF"),
            ("Method", "LSTM"), ("Material", "Stanford Question Answering Dataset"),
            ("Material", "SQuAD"), ("Material", "CNN / DailyMail cloze test"),
        ),
        "n_ary_relations": [_relation("BiDAF", "SQuAD1_1"), _relation("BiDAF", "CNN___Daily_Mail")],
    },
    {"doc_id": "bbb", "title": "No abstract", "abstract": None},
    {
        "doc_id": "ccc",
        "title": "A study",
        "abstract": "We train a CNN on images and report what it learns about texture .",
        "abstract_mentions": _mentions(("Method", "CNN")),
        "n_ary_relations": [],
    },
]


@pytest.fixture
def scirex_file(tmp_path: Path) -> Path:
    path = tmp_path / "scirex.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in SLICE))
    return path


def test_gold_is_salient_entities_with_their_mentions_and_the_rest_optional(scirex_file: Path) -> None:
    first, third = gold_lines(scirex_file)  # the record without an abstract is left out
    assert first["doc_id"] == "aaa" and third["doc_id"] == "ccc"
    assert first["methods"] == [["BiDAF"]]
    assert first["optional"]["methods"] == [["Bi - Directional Attention Flow"], ["LSTM"]]
    assert first["benchmarks"] == [["CNN Daily Mail", "CNN / DailyMail cloze test"], ["SQuAD1 1", "SQuAD"]]
    assert first["optional"]["benchmarks"] == [["Stanford Question Answering Dataset"]]
    assert third["methods"] == [] and third["optional"]["methods"] == [["CNN"]]


def test_gold_ids_are_the_ids_a_run_of_the_same_file_gets(scirex_file: Path) -> None:
    ids = [p.id for p in read_inputs([str(scirex_file)]) if not p.error]
    assert [line["id"] for line in gold_lines(scirex_file)] == ids


def test_scoring_a_hand_made_run_on_the_slice(scirex_file: Path, tmp_path: Path) -> None:
    first, third = (p.id for p in read_inputs([str(scirex_file)]) if not p.error)
    results = [
        PaperResult(id=first, status="ok", extraction=Extraction(
            methods=[
                Method(name="BiDAF", aliases=["Bi-Directional Attention Flow"]),  # required
                Method(name="LSTM"),  # optional: neither rewarded nor punished
                Method(name="Highway Network"),  # not tagged by SciREX: extra
            ],
            benchmarks=[Benchmark(name="SQuAD"), Benchmark(name="Stanford Question Answering Dataset")],
        )),
        PaperResult(id=third, status="ok", extraction=Extraction(methods=[Method(name="CNN")])),
    ]
    write_run(tmp_path / "run", results, {})
    report = evaluate_run(tmp_path / "run", scirex_file, "scirex")
    assert report.totals == {
        "methods": Counts(tp=1, fp=1, fn=0),
        "benchmarks": Counts(tp=1, fp=0, fn=1),  # CNN / DailyMail was missed
    }


def test_cli_runs_and_scores_the_slice_end_to_end(scirex_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    ran = runner.invoke(app, ["run", str(scirex_file), "--out", str(out), "-q"])
    assert ran.exit_code == 1  # the record without an abstract fails, the others are ok
    scored = runner.invoke(
        app, ["eval", str(out), "--gold", str(scirex_file), "--gold-format", "scirex", "--json"]
    )
    assert scored.exit_code == 0, scored.output
    data = json.loads(scored.output)
    assert list(data["scores"]) == ["methods", "benchmarks"]
    assert data["scores"]["benchmarks"]["tp"] + data["scores"]["benchmarks"]["fn"] == 2
    assert data["gold_papers"] == 2 and data["not_in_gold"] == 1 and data["missing_from_run"] == []


def test_cli_refuses_an_unknown_gold_format(scirex_file: Path, tmp_path: Path) -> None:
    write_run(tmp_path / "run", [], {})
    out = runner.invoke(app, ["eval", str(tmp_path / "run"), "--gold", str(scirex_file), "--gold-format", "x"])
    assert out.exit_code == 2 and "annotation, scirex" in out.output
