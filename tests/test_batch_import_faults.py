"""``--batch-import`` attacked: output files that are damaged, foreign or odd, each line
standing alone (the hand-off itself is in test_batch_handoff.py)."""

from __future__ import annotations

import json
import os
import resource
import shlex
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from typer.testing import CliRunner

from extractor.backends.openai.batch_files import BATCH_DIR, MAX_LINE, STATE_FILE
from extractor.cli.app import app
from extractor.pipeline.runner import export_batch, run
from tests.conftest import ROOT
from tests.conftest_fake import fixture_papers, write_papers
from tests.fake_openai import FakeOpenAI
from tests.test_batch_handoff import answer, exported, offline_config


def _exported_and_answered(tmp_path: Path, server: FakeOpenAI, count: int) -> tuple[str, Path, Path]:
    papers = str(write_papers(tmp_path / "papers.jsonl", fixture_papers(count)))
    out = tmp_path / "run"
    export_batch([papers], out, offline_config(tmp_path / "c"))
    return papers, out, answer(server, exported(out), tmp_path, "out.jsonl")


def test_a_line_that_is_not_utf8_is_named_never_read_with_a_replacement_character(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    papers, out, output = _exported_and_answered(tmp_path, fake_openai, 3)
    good = output.read_bytes()
    first, rest = good.split(b"\n", 1)
    damaged = first.replace(b'\\"unit\\":\\"x\\"', b'\\"unit\\":\\"x\\",\\"metric\\":\\"speed\xffup\\"')
    assert damaged != first
    output.write_bytes(damaged + b"\n" + rest)
    summary = run([papers], out, offline_config(tmp_path / "c", output))
    said = summary.info["batch_import"]
    column = damaged.index(b"\xff") + 1
    assert said["problems"] == [f"out.jsonl:1 is not UTF-8 (byte 0xff at column {column}); the line is not read"]
    assert (said["taken"], said["pending"]) == (2, 1)
    assert not any("\ufffd" in (c.metric or "") for r in summary.results if r.extraction for c in r.extraction.claims)
    (tmp_path / "fixed.jsonl").write_bytes(good)
    assert run([papers], out, offline_config(tmp_path / "c", tmp_path / "fixed.jsonl")).failed == 0


@pytest.mark.parametrize("damage", ["{garbage", "[]", '{"submissions": [{"name": 5}]}', '{"submissions": 5}', "\udcff"])
def test_a_damaged_batch_state_is_one_line_naming_it(tmp_path: Path, fake_openai: FakeOpenAI, damage: str) -> None:
    papers, out, output = _exported_and_answered(tmp_path, fake_openai, 2)
    state = out / BATCH_DIR / STATE_FILE
    state.write_bytes(damage.encode("utf-8", "surrogateescape"))
    env = {"EXTRACTOR_CACHE_DIR": str(tmp_path / "c"), "OPENAI_API_KEY": "", "OPENAI_BASE_URL": ""}
    command = ["run", papers, "--out", str(out), "--backend", "openai", "--model", "gpt-4o-mini", "-q"]
    for handoff in (["--batch-import", str(output)], ["--batch-export"]):
        result = CliRunner().invoke(app, [*command, *handoff], env=env)
        assert result.exit_code == 2 and "Traceback" not in result.output, result.output
        assert f"error: {state}: cannot be read" in " ".join(result.output.split()), result.output
    assert state.read_bytes() == damage.encode("utf-8", "surrogateescape")  # kept as it was, for its owner to see


def _answered_by(output: Path, model: str, to: Path) -> Path:
    lines = [json.loads(text) for text in output.read_text().splitlines()]
    for line in lines:
        line["response"]["body"]["model"] = model
    to.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return to


def test_answers_by_another_model_than_the_run_asked_are_said(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    papers, out, output = _exported_and_answered(tmp_path, fake_openai, 2)
    other = run([papers], out, offline_config(tmp_path / "c", _answered_by(output, "llama-3-8b", tmp_path / "llama.jsonl")))
    assert other.info["batch_import"]["problems"] == [
        "llama.jsonl: 2 answers by model 'llama-3-8b', not gpt-4o-mini (--model): taken and cached as gpt-4o-mini's; "
        "if the engine ran another model, export again with --model naming it"
    ]
    snapshot = tmp_path / "again"
    export_batch([papers], snapshot, offline_config(tmp_path / "c2"))
    dated = answer(fake_openai, exported(snapshot), tmp_path, "dated-src.jsonl")
    summary = run([papers], snapshot, offline_config(tmp_path / "c2", _answered_by(dated, "gpt-4o-mini-2024-07-18", tmp_path / "dated.jsonl")))
    assert summary.info["batch_import"]["problems"] == []  # a dated snapshot of the model asked for


def test_a_line_longer_than_any_answer_is_named_and_read_past_not_held(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    papers, out, output = _exported_and_answered(tmp_path, fake_openai, 2)
    first, second = output.read_text().splitlines()
    huge = json.loads(first)
    huge["response"]["body"]["choices"][0]["message"]["content"] = "x" * (4 * MAX_LINE)
    (tmp_path / "huge.jsonl").write_text(json.dumps(huge) + "\n" + second + "\n")
    tracemalloc.start()
    summary = run([papers], out, offline_config(tmp_path / "c", tmp_path / "huge.jsonl"))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    said = summary.info["batch_import"]
    assert said["problems"] == [f"huge.jsonl:1 is longer than {MAX_LINE:,} bytes, more than any answer holds; the line is not read"]
    assert (said["taken"], said["pending"]) == (1, 1)
    assert peak < 2.5 * MAX_LINE, peak  # never the whole line: one of 300 MB used to take 15 GB and six minutes


def test_the_commands_an_export_prints_can_be_pasted_with_spaces_in_the_paths(tmp_path: Path) -> None:
    folder = tmp_path / "my papers"
    folder.mkdir()
    papers = str(write_papers(folder / "daily papers.jsonl", fixture_papers(2)))
    out = tmp_path / "runs" / "first try"
    env = {"EXTRACTOR_CACHE_DIR": str(tmp_path / "c"), "OPENAI_API_KEY": "", "OPENAI_BASE_URL": "", "COLUMNS": "1000"}
    result = CliRunner().invoke(app, ["run", papers, "--out", str(out), "--backend", "openai", "--model", "m", "--batch-export"], env=env)
    assert result.exit_code == 0, result.output
    commands = {line.split()[0]: shlex.split(line) for line in result.output.splitlines() if line.strip().startswith(("extractor run", "vLLM:"))}
    [request_file] = exported(out)
    assert commands["extractor"][:4] == ["extractor", "run", papers, "--out"] and commands["extractor"][4] == str(out)
    assert commands["vLLM:"][1:4] == ["vllm", "run-batch", "-i"] and commands["vLLM:"][4] == str(request_file)


def test_an_import_with_another_model_than_the_export_says_why_nothing_is_taken(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    papers, out, output = _exported_and_answered(tmp_path, fake_openai, 2)
    other = run([papers], out, offline_config(tmp_path / "c", output, model="gpt-4o"))
    said = other.info["batch_import"]
    assert (said["taken"], said["pending"]) == (0, 2)
    assert said["problems"] == [
        "out.jsonl: 2 lines answer requests exported for other papers or with other options than this run's "
        "(another --model, --mode or prompt?); not taken: import them with the options of the export"
    ]
    same = run([papers], out, offline_config(tmp_path / "c", output))
    assert same.info["batch_import"]["problems"] == [] and same.failed == 0


def test_an_export_onto_a_full_disk_names_the_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    out = tmp_path / "run"
    env = {**os.environ, "EXTRACTOR_CACHE_DIR": str(tmp_path / "c"), "OPENAI_API_KEY": "", "OPENAI_BASE_URL": ""}
    limit = 100 * 1024  # `ulimit -f 100`: the run's small files fit, the 88 requests do not
    result = subprocess.run(
        [sys.executable, "-m", "extractor", "run", str(ROOT / "fixtures" / "abstracts"), "--out", str(out),
         "--backend", "openai", "--model", "m", "--batch-export", "--no-cache", "-q"],
        capture_output=True, text=True, env=env, timeout=300,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit)),
    )
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert f"error: {out / BATCH_DIR / 'input-001-round1-part1.jsonl'}: File too large" in result.stderr, result.stderr
    assert [p.name for p in (out / BATCH_DIR).iterdir()] == []
