"""Credentials in --base-url (``user:key@``, ``?key=``) reach the endpoint and nothing else:
run.json, errors, papers.jsonl, the workbook and the terminal show them redacted."""

from __future__ import annotations

from pathlib import Path

from openpyxl import load_workbook
from typer.testing import CliRunner

from extractor.cli.app import app
from extractor.text.safe import redact_url
from tests.conftest_fake import fixture_papers, write_papers
from tests.fake_openai import FakeOpenAI, Fault

PAPERS = fixture_papers(3)


def test_redact_url_hides_userinfo_and_query_values() -> None:
    assert redact_url("http://user:s3cret@host:8080/v1?key=abc&x=1") == "http://user:***@host:8080/v1?key=***&x=***"
    assert redact_url("https://tok@host/v1") == "https://***@host/v1"
    assert redact_url("http://127.0.0.1:8080/v1") == "http://127.0.0.1:8080/v1"


def test_credentials_in_the_base_url_are_sent_and_never_written(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    fake_openai.faults.append(Fault("server_error", times=10, match=PAPERS[1].abstract[:80]))
    source = write_papers(tmp_path / "papers.jsonl", PAPERS)
    url = fake_openai.base_url.replace("http://", "http://alice:pw-SECRET1@") + "?key=SECRET2"
    out = tmp_path / "run"
    result = CliRunner().invoke(app, ["run", str(source), "--out", str(out), "--base-url", url, "--model", "m", "--max-retries", "0"])
    assert result.exit_code == 1, result.output  # one paper failed, with the endpoint in its error
    assert all(path.endswith("/chat/completions?key=SECRET2") for path in fake_openai.paths), fake_openai.paths
    written = [result.output] + [p.read_text(errors="replace") for p in out.iterdir() if p.suffix in (".json", ".jsonl", ".csv")]
    book = load_workbook(out / "leaderboard.xlsx")
    written += [str(c.value) for ws in book for row in ws.iter_rows() for c in row if c.value is not None]
    assert not [text for text in written if "SECRET" in text]
    assert "HTTP 500 from http://alice:***@127.0.0.1:" in result.output
    assert "/v1/?key=***" in (out / "run.json").read_text()
