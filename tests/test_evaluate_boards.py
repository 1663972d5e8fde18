"""Board labels: an annotator names, for each score row of a run, the leaderboard it belongs on
(or none); `extractor eval RUN --boards FILE` counts the pairs of two papers' rows with one label
that share a block, and the wrong merges. Made-up abstracts."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from extractor.cli.app import app
from extractor.eval.boards import evaluate_boards, read_board_labels
from tests.runs import read_papers, write_run

from .test_review_aliases import result

ASH = "Ash reaches 70.1 F1 on FooQA and, on its dev questions, 55.0 F1 on FooQA."
ELM = "Elm reaches 68.4 F1 on FooQA and 3.1 seconds per question."
FIR = "Fir reaches 71.0 F1 on FooQA."


def labelled_run(tmp_path: Path) -> tuple[Path, Path]:
    run = tmp_path / "run"
    write_run(run, [
        result("ash", ASH, [
            dict(value=70.1, metric="F1", benchmark="FooQA", method="Ash", evidence="Ash reaches 70.1 F1 on FooQA"),
            dict(value=55.0, metric="F1", benchmark="FooQA", method="Ash", setting="FooQA set",
                 evidence="on its dev questions, 55.0 F1 on FooQA"),
        ]),
        result("elm", ELM, [
            dict(value=68.4, metric="F1", benchmark="FooQA", method="Elm", evidence="Elm reaches 68.4 F1 on FooQA"),
            dict(value=3.1, metric="latency", unit="s", benchmark="FooQA", method="Elm", evidence="3.1 seconds per question"),
        ]),
        result("fir", FIR, [dict(value=71.0, metric="F1", benchmark="FooQA", method="Fir", evidence=FIR)]),
    ], {"backend": "test"})
    ids = {(p.id, c.value): c.id for p in read_papers(run) for c in p.extraction.claims}
    labels = [
        ("ash", 70.1, "FooQA test F1"),
        ("ash", 55.0, "FooQA dev F1"),  # the extraction did not keep the dev split: one block with test
        # (its setting's words, which no condition reads, make it another entry than Ash's 70.1)
        ("elm", 68.4, "FooQA dev F1"),  # the annotator reads Elm's number as a dev one
        ("elm", 3.1, None),  # a latency: on no leaderboard
        ("fir", 71.0, "FooQA test F1"),
    ]
    path = tmp_path / "boards.jsonl"
    path.write_text("".join(
        json.dumps({"paper_id": p, "claim_id": ids[(p, v)], "value": v, "board": b}) + "\n" for p, v, b in labels
    ) + '{"paper_id": "fir", "value": 71.0}\nnot json\n', encoding="utf-8")
    return run, path


def test_pairs_with_one_label_in_one_block_and_wrong_merges(tmp_path: Path) -> None:
    run, path = labelled_run(tmp_path)
    figures, problems = evaluate_boards(run, path)
    assert (figures.rows, figures.found, figures.ranked) == (5, 5, 5)
    # ash-test with fir-test, ash-dev with elm: both pairs share the FooQA F1 block
    assert (figures.pairs, figures.pairs_ranked, figures.together) == (2, 2, 2)
    # elm (dev) beside ash-test and fir (test); ash-dev beside fir (test): three wrong merges
    assert len(figures.wrong) == 3
    assert figures.unboarded == ()  # the latency is a block of its own
    assert problems[0].endswith("boards.jsonl:6: not a board label (claim_id: Field required; board: Field required)")
    assert "boards.jsonl:7: malformed JSON" in problems[1]


def test_a_label_is_found_by_paper_and_value_when_its_claim_id_is_another_runs(tmp_path: Path) -> None:
    run, path = labelled_run(tmp_path)
    lines = [json.loads(line) for line in path.read_text().splitlines()[:5]]
    path.write_text("".join(json.dumps({**line, "claim_id": "from-another-run"}) + "\n" for line in lines))
    figures, _ = evaluate_boards(run, path)
    assert (figures.found, figures.ranked, figures.together) == (5, 5, 2)


def test_the_command_prints_pairs_and_wrong_merges(tmp_path: Path) -> None:
    run, path = labelled_run(tmp_path)
    out = CliRunner().invoke(app, ["eval", str(run), "--boards", str(path), "--errors"])
    assert out.exit_code == 0, out.output
    assert "board-label pairs in one block: 1.000 (2 of 2 pairs of two papers' rows with one board label); of the 2 both ranked: 1.000" in out.output
    assert "wrong merges: 3 (two papers' rows in one block whose board labels differ)" in out.output
    assert "wrong merge: elm 68.4 (FooQA dev F1; block" in out.output
    data = json.loads(CliRunner().invoke(app, ["eval", str(run), "--boards", str(path), "--json"]).stdout)
    assert data["boards"]["wrong_merges"] == 3 and data["boards"]["pairs"]["one_block_share"] == 1.0
    none = CliRunner().invoke(app, ["eval", str(run)])
    assert none.exit_code == 2 and "give --gold, --boards or both" in none.output


def test_a_label_file_reads_every_good_line(tmp_path: Path) -> None:
    path = tmp_path / "b.jsonl"
    path.write_text('{"paper_id": "p", "claim_id": "c", "value": 1, "board": null}\n\n{"paper_id": "p", "claim_id": "c", "value": 1, "board": "x", "extra": 1}\n')
    labels, problems = read_board_labels(path)
    assert [label.board for label in labels] == [None]
    assert problems == [f"{path}:3: not a board label (extra: Extra inputs are not permitted)"]
