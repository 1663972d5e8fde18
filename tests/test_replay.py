"""Recorded answers replayed through the real pipeline: the fake server in replay mode answers
``extractor run --backend openai`` (SDK, instructor, grounding, cache, leaderboard all real), and
the run is scored against the gold. A change to grounding, normalization or the leaderboard that
loses good answers fails here.

Two recordings: ``fixtures/recorded/test-dev-hand.jsonl``, three dev papers answered by hand from
the contract (test data, labelled as such in its header, not a model's answers), and
``heldout2-new.jsonl``, a capable model's answers to prompt v3 for 30 held-out papers (measured,
never fixed against). The floors sit a little below what each reaches (comments).
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from extractor.runs import Run
from extractor.cli.app import app
from extractor.eval.score import evaluate_run
from extractor.leaderboard.build import build_leaderboard, load_runs
from extractor.pipeline.ingest import read_inputs
from tests.conftest import FIXTURES
from tests.fake_openai import FakeOpenAI, Replay, abstract_key

RECORDING = FIXTURES / "recorded" / "test-dev-hand.jsonl"
FLOORS = {"tuples_f1": 0.8, "tuples_recall": 0.8, "claims_f1": 0.95, "leaderboard_claims": 8}  # 0.833, 0.833, 1.0, 8


SETS = {s["name"]: s for s in json.loads((FIXTURES / "gold" / "sets.json").read_text(encoding="utf-8"))}


def recorded_papers(tmp_path: Path, replay: Replay, set_name: str = "dev") -> tuple[Path, Path]:
    """The set's papers that the recording answers, as a run's input, and their gold."""
    spec = SETS[set_name]
    root = FIXTURES.parent
    papers = [p for p in read_inputs([str(root / spec["abstracts"])]) if not p.error and abstract_key(p.abstract) in replay.answers]
    ids = {p.id for p in papers}
    inputs, gold = tmp_path / "inputs.jsonl", tmp_path / "gold.jsonl"
    inputs.write_text("".join(json.dumps({"id": p.id, "title": p.title, "abstract": p.abstract}) + "\n" for p in papers))
    lines = (root / spec["gold"]).read_text(encoding="utf-8").splitlines()
    gold.write_text("".join(line + "\n" for line in lines if line.strip() and json.loads(line)["id"] in ids))
    return inputs, gold


def test_a_replayed_recording_keeps_its_figures_through_the_pipeline(tmp_path: Path) -> None:
    replay = Replay.read(RECORDING)
    assert "hand-written" in replay.header["model"]
    inputs, gold = recorded_papers(tmp_path, replay)
    out = tmp_path / "run"
    with FakeOpenAI(replay=replay) as server:
        args = ["run", str(inputs), "--out", str(out), "-q", "--backend", "openai", "--model", "recorded",
                "--base-url", server.base_url, "--cache-dir", str(tmp_path / "cache"),
                "--prompt-version", replay.header["prompt_version"]]
        result = CliRunner().invoke(app, args, env={"OPENAI_API_KEY": "replay"})
        assert result.exit_code == 0, result.output
        assert sum(r.name is None for r in server.log) == 3  # one answer per paper: nothing was re-asked
        sent = server.requests  # and one per name the registry does not know
        again = CliRunner().invoke(app, [*args[:3], str(tmp_path / "again"), *args[4:]], env={"OPENAI_API_KEY": "replay"})
        assert again.exit_code == 0 and server.requests == sent  # the cache answered the second run
    report = evaluate_run(out, gold)
    tuples = report.attribution.tuples
    assert tuples.f1 >= FLOORS["tuples_f1"] and tuples.recall >= FLOORS["tuples_recall"]
    assert report.totals["claims"].f1 >= FLOORS["claims_f1"]
    board = build_leaderboard(load_runs([Run.open(out)])[0])
    assert len(board.claims) >= FLOORS["leaderboard_claims"]
    assert (out / "leaderboard.xlsx").is_file()
    assert any("five days" in text for text in board.claims["evidence"])  # a number written as a word


def test_a_capable_models_recording_keeps_its_leaderboard_figures(tmp_path: Path) -> None:
    """heldout2-new replayed: tuples F1 0.824, claims F1 0.993, leaderboard-ready recall 19 of 20."""
    replay = Replay.read(FIXTURES / "recorded" / "heldout2-new.jsonl")
    assert replay.header["prompt_version"] == "v3"
    inputs, gold = recorded_papers(tmp_path, replay, "heldout2-new")
    out = tmp_path / "run"
    with FakeOpenAI(replay=replay) as server:
        args = ["run", str(inputs), "--out", str(out), "-q", "--backend", "openai", "--model", "recorded",
                "--base-url", server.base_url, "--no-cache", "--prompt-version", "v3"]
        result = CliRunner().invoke(app, args, env={"OPENAI_API_KEY": "replay"})
    assert result.exit_code == 0, result.output
    report = evaluate_run(out, gold)
    attribution = report.attribution
    assert attribution.tuples.f1 >= 0.78 and report.totals["claims"].f1 >= 0.97
    assert attribution.ready.value >= 0.85
    board = build_leaderboard(load_runs([Run.open(out)])[0])
    assert len(board.scores) >= 6  # 7 ranked scores (most of its ready claims are changes, on the Improvements sheet)


def test_an_abstract_without_a_recording_fails_by_name(tmp_path: Path) -> None:
    inputs = tmp_path / "inputs.jsonl"
    inputs.write_text(json.dumps({"id": "p-unrecorded", "abstract": "Sparse experts route tokens by similarity alone, at 3.1% less cost."}) + "\n")
    with FakeOpenAI(replay=Replay.read(RECORDING)) as server:
        args = ["run", str(inputs), "--out", str(tmp_path / "run"), "-q", "--backend", "openai", "--model", "recorded",
                "--base-url", server.base_url, "--no-cache", "--max-retries", "0"]
        result = CliRunner().invoke(app, args, env={"OPENAI_API_KEY": "replay"})
    papers = [json.loads(line) for line in (tmp_path / "run" / "papers.jsonl").read_text().splitlines()]
    assert [p["id"] for p in papers] == ["p-unrecorded"]
    assert "no recorded answer for the abstract beginning 'Sparse experts route tokens" in papers[0]["error"]
    assert result.exit_code == 1 and "p-unrecorded" in result.output
