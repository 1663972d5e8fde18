"""The endpoint faults: a body that drips past --timeout, credentials a server echoes
back, an HTML answer, a port out of range and a malformed base URL (docs/faults.md). The fake
server is a real HTTP server: the openai SDK, instructor and tenacity run as against an endpoint."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from extractor.cli.app import app
from extractor.pipeline.runner import run
from tests.conftest_fake import fixture_papers, openai_config, write_papers
from tests.fake_openai import FakeOpenAI, Fault

PAPERS = fixture_papers(2)


def _run(tmp_path: Path, server: FakeOpenAI, **options: object):
    source = write_papers(tmp_path / "papers.jsonl", PAPERS)
    return run([str(source)], tmp_path / "run", openai_config(server, cache_dir=tmp_path / "c", **options))


@pytest.mark.parametrize("retries", [0, 2])
def test_an_html_answer_fails_after_the_retries_asked_for_saying_it_is_not_json(tmp_path: Path, fake_openai: FakeOpenAI, retries: int) -> None:
    fake_openai.faults.append(Fault("html", match="GANQ", times=10))
    summary = _run(tmp_path, fake_openai, max_retries=retries)
    (failed,) = [r for r in summary.results if r.status == "failed"]
    assert failed.error == (
        "BackendError: the server answered HTTP 200 with an HTML page, not JSON: "
        f"'<html><body><h1>Gateway</h1><p>Please sign in.</p></body></html>' ({fake_openai.base_url}/, "
        f"after {retries + 1} attempt{'s' * bool(retries)})"
    ), failed.error
    assert len(fake_openai.requests_for("GANQ")) == retries + 1
    assert [r.status for r in summary.results].count("ok") == 1


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("http://127.0.0.1:99999/v1", "--base-url http://127.0.0.1:99999/v1: port 99999 is out of range (1-65535)"),
        ("http://[::1/v1", "--base-url: not a URL (Invalid IPv6 URL)"),
        ("127.0.0.1:8080/v1", "--base-url 127.0.0.1:8080/v1: give the scheme and host, like http://127.0.0.1:8080/v1"),
        ("ftp://alice:pw-SECRET@host/v1", "--base-url ftp://alice:***@host/v1: the scheme must be http or https"),
    ],
)
def test_a_base_url_no_request_can_use_is_one_line_before_any_work(tmp_path: Path, url: str, problem: str) -> None:
    source = write_papers(tmp_path / "papers.jsonl", PAPERS)
    out = tmp_path / "run"
    result = CliRunner().invoke(app, ["run", str(source), "--out", str(out), "--base-url", url, "--model", "m"], env={"COLUMNS": "400"})
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines()[-1] == f"error: {problem}", result.output
    assert "SECRET" not in result.output and not out.exists()


def test_timeout_bounds_the_whole_attempt_against_a_body_that_drips(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    fake_openai.faults.append(Fault("drip", match="GANQ", times=10, seconds=0.05))  # its ~700-byte body: 35 s
    started = time.monotonic()
    summary = _run(tmp_path, fake_openai, timeout=1.0, max_retries=1)
    elapsed = time.monotonic() - started
    (failed,) = [r for r in summary.results if r.status == "failed"]
    assert failed.error == f"BackendError: no answer from {fake_openai.base_url}/ within 1 s after 2 attempts", failed.error
    assert elapsed < 15, elapsed  # two attempts of 1 s, a backoff and the run's own work; not 2 x 35 s
    assert [r.status for r in summary.results].count("ok") == 1


@pytest.mark.parametrize("userinfo", ["alice:pw-SECRET1@", ""])  # httpx sends Basic auth, else the Bearer key
def test_credentials_a_server_echoes_back_are_never_written(tmp_path: Path, fake_openai: FakeOpenAI, userinfo: str) -> None:
    import base64
    import json

    def echo(body: dict, headers: dict[str, str], path: str) -> tuple[int, dict]:
        auth = next(v for k, v in headers.items() if k.lower() == "authorization")
        message = f"Invalid request {path} with Authorization: {auth}"
        return 401, {"error": {"message": message, "type": "invalid_request_error"}}

    basic = base64.b64encode(b"alice:pw-SECRET1").decode()
    fake_openai.echo = echo
    source = write_papers(tmp_path / "papers.jsonl", PAPERS)
    url = fake_openai.base_url.replace("http://", f"http://{userinfo}") + "?key=SECRET2"
    out = tmp_path / "run"
    result = CliRunner().invoke(
        app, ["run", str(source), "--out", str(out), "--base-url", url, "--model", "m", "--max-retries", "0"],
        env={"OPENAI_API_KEY": "sk-SECRET3", "COLUMNS": "400"},
    )
    assert result.exit_code == 1, result.output
    errors = [json.loads(line)["error"] for line in (out / "papers.jsonl").read_text().splitlines()]
    shown = "Basic ***" if userinfo else "Bearer ***"
    assert all("HTTP 401" in e and f"Authorization: {shown}" in e and "?key=***" in e for e in errors), errors
    written = [result.output, *[p.read_text(errors="replace") for p in out.rglob("*") if p.is_file() and p.suffix != ".xlsx"]]
    assert not [text for text in written if "SECRET" in text or basic in text], written


def test_credentials_a_server_echoes_in_batch_output_are_never_written(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    """The Batch API path too: the error file it downloads, the failures it writes and what it
    prints hold no key and no query value, only ``***``."""
    import json

    def echo(body: dict, headers: dict[str, str], path: str) -> tuple[int, dict]:
        auth = next(v for k, v in headers.items() if k.lower() == "authorization")
        return 401, {"error": {"message": f"Invalid request {path} with Authorization: {auth}", "type": "invalid_request_error"}}

    fake_openai.echo = echo
    source = write_papers(tmp_path / "papers.jsonl", PAPERS)
    out = tmp_path / "run"
    result = CliRunner().invoke(
        app,
        ["run", str(source), "--out", str(out), "--base-url", fake_openai.base_url + "?key=SECRET2", "--model", "m",
         "--batch", "--batch-poll", "0.05"],
        env={"OPENAI_API_KEY": "sk-SECRET3", "COLUMNS": "400"},
    )
    assert result.exit_code == 1, result.output
    errors = [json.loads(line)["error"] for line in (out / "papers.jsonl").read_text().splitlines()]
    assert all("HTTP 401 in batch" in e and "Authorization: Bearer ***" in e for e in errors), errors
    written = [result.output, *[p.read_text(errors="replace") for p in out.rglob("*") if p.is_file() and p.suffix != ".xlsx"]]
    assert not [text for text in written if "SECRET" in text], written
