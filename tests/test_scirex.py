import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from extractor.cli.app import app
from extractor.cli.eval_cmd import reconstruction_lines
from extractor.eval.reconstruction import Leaderboards, evaluate_leaderboards, scirex_entries
from extractor.eval.scirex import gold_lines
from extractor.eval.score import Counts, evaluate_run
from extractor.pipeline.ingest import read_inputs
from tests.runs import write_run
from extractor.schema import Benchmark, Claim, Extraction, Method, PaperResult

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


# --- leaderboard reconstruction and cross-paper pairs ----------------------------------------


def _entry(name: str, material: str, metric: str, written: str, **flags: bool) -> dict:
    return {
        "Method": name, "Material": material, "Metric": metric, "Task": "QA", "score": written,
        "Method_in_abstract": flags.get("method", True), "Material_in_abstract": flags.get("material", True),
        "Metric_in_abstract": True, "Task_in_abstract": True, "score_in_abstract": flags.get("score", True),
    }


# Two papers on SciREX's (SQuAD, F1) leaderboard; paper A also on (CNN/Daily Mail, Accuracy).
BOARDS = [
    {
        "doc_id": "a", "title": "BiDAF for machine comprehension",
        "abstract": "BiDAF reaches 77.3 F1 on SQuAD and 76.9 % accuracy on CNN / Daily Mail .",
        "n_ary_relations": [
            _entry("BiDAF", "SQuAD1_1", "F1", "77.3"),
            _entry("BiDAF", "CNN___Daily_Mail", "Accuracy", "76.9%", method=False),  # in the title
            _entry("BiDAF", "SQuAD1_1", "EM", "67.7", score=False),  # score not in the abstract
            _entry("BiDAF", "SQuAD1_1", "F1", "77.3"),  # a duplicate: counted once
        ],
    },
    {
        "doc_id": "b", "title": "Gated self-matching networks",
        "abstract": "Our R-Net model reaches 79.7 F1 on the SQuAD dataset .",
        "n_ary_relations": [_entry("R-Net", "SQuAD1_1", "F1", "79.7", method=False)],
    },
]


def _claim(n: int, value: float, metric: str | None, benchmark: str, method: str | None, unit: str | None = None) -> Claim:
    return Claim(
        id=f"c{n}", value=value, unit=unit, metric=metric, benchmark=benchmark, method=method,
        evidence=f"{value}", span=(0, 1), value_span=(0, 1),
    )


def _boards(tmp_path: Path, records: list[dict], claims: dict[int, list[Claim]]) -> Leaderboards:
    tmp_path.mkdir(exist_ok=True)
    path = tmp_path / "scirex.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    ids = [p.id for p in read_inputs([str(path)])]
    results = [
        PaperResult(id=ids[i], status="ok", extraction=Extraction(claims=found)) for i, found in claims.items()
    ]
    write_run(tmp_path / "run", results, {})
    return evaluate_leaderboards(tmp_path / "run", path)


def test_entries_are_those_with_score_and_dataset_in_the_abstract(tmp_path: Path) -> None:
    path = tmp_path / "scirex.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in BOARDS))
    found = scirex_entries(read_inputs([str(path)]))
    assert [(e.material, e.metric, e.value, e.unit, e.method_written) for e in found] == [
        ("SQuAD1 1", "F1", 77.3, None, True),
        ("CNN Daily Mail", "Accuracy", 76.9, "%", True),  # the title writes BiDAF
        ("SQuAD1 1", "F1", 79.7, None, False),  # neither abstract (per SciREX) nor title
    ]


def test_reconstruction_and_a_cross_paper_pair_in_one_block(tmp_path: Path) -> None:
    figures = _boards(tmp_path, BOARDS, {
        0: [
            _claim(1, 77.3, "F1", "SQuAD", "BiDAF"),  # value, dataset (registry alias) and method
            _claim(2, 0.769, "accuracy", "CNN Daily Mail", "Match-LSTM"),  # the method is wrong
        ],
        1: [_claim(3, 79.7, "F1", "SQuAD 1.1", "R-Net")],  # the method is not written: not needed
    })
    assert figures == Leaderboards(
        entries=3, reconstructed=2, pairs=1, pairs_ranked=1, pairs_one_block=1, boards=1, blocks=1
    )
    assert figures.to_dict()["reconstruction"]["share"] == pytest.approx(2 / 3)


def test_a_percent_as_a_fraction_and_a_name_from_the_title_reconstruct(tmp_path: Path) -> None:
    figures = _boards(tmp_path, BOARDS, {0: [_claim(2, 0.769, "accuracy", "CNN/DailyMail", "BiDAF")]})
    assert (figures.entries, figures.reconstructed) == (3, 1)


def test_an_unranked_row_or_another_block_does_not_count(tmp_path: Path) -> None:
    figures = _boards(tmp_path, BOARDS, {
        0: [_claim(1, 77.3, "F1", "SQuAD", "BiDAF")],
        1: [_claim(3, 79.7, "test F1 on the hidden split", "SQuAD", "R-Net")],  # its own block
    })
    assert (figures.reconstructed, figures.pairs_ranked, figures.pairs_one_block) == (2, 1, 0)
    assert (figures.boards, figures.blocks) == (1, 2)  # one SciREX leaderboard split in two
    unranked = _boards(tmp_path / "u", BOARDS, {0: [_claim(1, 77.3, None, "SQuAD", "BiDAF")]})
    assert (unranked.reconstructed, unranked.pairs_ranked) == (0, 0)  # no metric: not ranked


def test_no_pairs_is_zero_of_zero_not_a_success(tmp_path: Path) -> None:
    figures = _boards(tmp_path, BOARDS[:1], {0: [_claim(1, 77.3, "F1", "SQuAD", "BiDAF")]})
    d = figures.to_dict()
    assert d["pairs"] == {"in_gold": 0, "both_ranked": 0, "one_block": 0, "one_block_share": None}
    assert d["blocks_per_leaderboard"] == {"mean": None, "leaderboards": 0}
    assert [line for line in reconstruction_lines(figures) if "pairs in" in line] == [
        "cross-paper pairs in one block: - (0 of 0 both ranked; 0 pairs in the gold)"
    ]


def test_cli_prints_the_reconstruction_with_the_scirex_gold(tmp_path: Path) -> None:
    _boards(tmp_path, BOARDS, {0: [_claim(1, 77.3, "F1", "SQuAD", "BiDAF")]})
    path = str(tmp_path / "scirex.jsonl")
    out = runner.invoke(app, ["eval", str(tmp_path / "run"), "--gold", path, "--gold-format", "scirex"])
    assert out.exit_code == 0, out.output
    assert "leaderboard reconstruction: 0.333 (1 of 3 SciREX entries" in out.output
    data = json.loads(runner.invoke(app, ["eval", str(tmp_path / "run"), "--gold", path, "--gold-format", "scirex", "--json"]).output)
    assert data["leaderboards"]["reconstruction"] == {"share": 1 / 3, "right": 1, "of": 3}


# Two made-up papers on two SciREX leaderboards: (Foo, F1) and (Foo dev, F1), which the registry
# reads as Foo's test and dev splits; and one more paper on (FOO, F1): the same board as Foo's.
SPLITS = [
    {"doc_id": "c", "title": "Alder", "abstract": "Alder reaches 70.1 F1 on Foo .",
     "n_ary_relations": [_entry("Alder", "Foo", "F1", "70.1")]},
    {"doc_id": "d", "title": "Birch", "abstract": "Birch reaches 68.4 F1 on the Foo dev set .",
     "n_ary_relations": [_entry("Birch", "Foo_dev", "F1", "68.4")]},
    {"doc_id": "e", "title": "Cedar", "abstract": "Cedar reaches 71.0 F1 on FOO .",
     "n_ary_relations": [_entry("Cedar", "FOO", "F1", "71.0")]},
]


def test_two_gold_leaderboards_in_one_block_are_a_wrong_merge(tmp_path: Path) -> None:
    merged = _boards(tmp_path / "merged", SPLITS, {
        0: [_claim(1, 70.1, "F1", "Foo", "Alder")],
        1: [_claim(2, 68.4, "F1", "Foo", "Birch")],  # the dev split not written: one block with Alder's test
        2: [_claim(3, 71.0, "F1", "Foo", "Cedar")],
    })
    # Birch with Alder and with Cedar; Alder with Cedar is one gold board once its names are read
    assert sorted(sorted((p.first.material, p.second.material)) for p in merged.wrong) == [["FOO", "Foo dev"], ["Foo", "Foo dev"]]
    assert merged.wrong[0].describe().startswith("Foo / F1 vs Foo dev / F1: ")
    assert merged.to_dict()["wrong_merges"] == 2
    apart = _boards(tmp_path / "apart", SPLITS, {
        0: [_claim(1, 70.1, "F1", "Foo", "Alder")],
        1: [_claim(2, 68.4, "F1", "Foo dev set", "Birch")],
        2: [_claim(3, 71.0, "F1", "Foo", "Cedar")],
    })
    assert apart.wrong == ()
    assert any(text.startswith("wrong merges: 0 ") for text in reconstruction_lines(apart))
