"""``--batch-import`` attacked: output files that are damaged, foreign or odd, each line
standing alone (the hand-off itself is in test_batch_handoff.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from extractor.backends.openai.batch_files import BATCH_DIR, STATE_FILE
from extractor.cli.app import app
from extractor.pipeline.runner import export_batch, run
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
