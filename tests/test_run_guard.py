"""The run directory is guarded before any work: one run at a time, never a different run over
a (reviewed) one without --overwrite, missing or empty inputs and an unusable --out refused
with one line before anything is sent or written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from openpyxl import load_workbook
from typer.testing import CliRunner

from extractor.runs import Run
from extractor.cli.app import app
from tests.runs import read_papers
from extractor.review import apply_review, export_review
from tests.conftest import ROOT
from tests.conftest_fake import fixture_papers, write_papers
from tests.fake_openai import FakeOpenAI

runner = CliRunner()
GANQ = "GANQ reaches 83.6% accuracy on GSM8K."


def one_line_error(result, exit_code: int, words: str) -> None:
    assert result.exit_code == exit_code, result.output
    assert "Traceback" not in result.output
    assert [line for line in result.output.splitlines() if line.startswith("error:") and words in line], result.output


def jsonl(path: Path, *abstracts: str) -> Path:
    path.write_text("".join(json.dumps({"id": f"p{i}", "abstract": a}) + "\n" for i, a in enumerate(abstracts)))
    return path


def rules_run(*args: str):
    return runner.invoke(app, ["run", *args, "--backend", "rules", "--no-leaderboard", "-q"])


def test_a_second_run_into_the_same_out_is_refused_while_the_first_runs(tmp_path: Path) -> None:
    papers = fixture_papers(6)
    source = write_papers(tmp_path / "papers.jsonl", papers)
    out = tmp_path / "run"
    env = {**os.environ, "EXTRACTOR_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}
    with FakeOpenAI(latency=0.3) as server:
        command = [sys.executable, "-m", "extractor", "run", str(source), "--out", str(out), "--base-url",
                   server.base_url, "--model", "m", "--concurrency", "1", "-q", "--no-leaderboard"]
        first = subprocess.Popen(command, env=env, cwd=ROOT)
        deadline = time.monotonic() + 60
        while server.requests < 1:
            assert first.poll() is None and time.monotonic() < deadline
            time.sleep(0.02)
        second = rules_run(str(source), "--out", str(out))
        assert first.wait(timeout=120) == 0
    one_line_error(second, 1, "in use by another run")
    assert [p.id for p in read_papers(out)] == [p.id for p in papers]
    assert {p.status for p in read_papers(out)} == {"ok"}
    assert rules_run(str(source), "--out", str(out)).exit_code == 0  # the lock went with the first run


def test_a_run_of_other_inputs_into_a_reviewed_run_is_refused_unless_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = jsonl(tmp_path / "first.jsonl", GANQ, "QuIP reaches 80.1% on GSM8K.")
    assert rules_run(str(first), "--out", str(out)).exit_code == 0
    assert rules_run(str(first), "--out", str(out)).exit_code == 0  # the same command resumes
    review(out, tmp_path / "review.xlsx")
    typo = jsonl(tmp_path / "typo.jsonl", "Unrelated 1.5x faster abstract.")
    before = (out / "papers.jsonl").read_bytes()
    refused = rules_run(str(typo), "--out", str(out))
    one_line_error(refused, 2, "holds a different run")
    assert "corrections.sqlite" in refused.output and "--overwrite" in refused.output
    assert (out / "papers.jsonl").read_bytes() == before
    overwritten = rules_run(str(typo), "--out", str(out), "--overwrite")
    assert overwritten.exit_code == 0 and [p.id for p in read_papers(out)] == ["p0"]
    # The corrections are kept and counted, never orphaned in silence.
    status = runner.invoke(app, ["review", "status", str(out)])
    assert "kept for papers not in this run: 1 corrections" in status.output, status.output


def test_overwrite_removes_what_described_the_replaced_run(tmp_path: Path) -> None:
    """Its leaderboard, reviewed claims and report: a new run without --leaderboard writes none of them."""
    out = tmp_path / "run"
    first = jsonl(tmp_path / "first.jsonl", GANQ)
    assert runner.invoke(app, ["run", str(first), "--out", str(out), "-q"]).exit_code == 0
    assert runner.invoke(app, ["report", str(out), "--out", str(out / "report.html"), "-q"]).exit_code == 0
    derived = ["leaderboard.xlsx", "claims.reviewed.csv", "reviewed.json", "report.html"]
    assert all((out / name).exists() for name in derived)
    other = jsonl(tmp_path / "other.jsonl", "Unrelated 1.5x faster abstract.")
    result = rules_run(str(other), "--out", str(out), "--overwrite")
    assert result.exit_code == 0, result.output
    assert [name for name in derived if (out / name).exists()] == []
    assert "replaced (asked to overwrite), its leaderboard.xlsx, claims.reviewed.csv, reviewed.json, report.html removed;" in result.output


def review(run: Path, book: Path) -> None:
    """A reviewer accepts the run's second paper."""
    export_review(Run.open(run), book)
    wb = load_workbook(book)
    papers = wb["Papers"]
    header = {c.value: c.column for c in papers[1]}
    papers.cell(3, header["decision"]).value = "accept"
    wb.save(book)
    assert apply_review(book, Run.open(run), "alice").counts["applied"] == 1


def test_a_missing_input_is_refused_before_any_work(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    good = jsonl(tmp_path / "good.jsonl", GANQ)
    out = tmp_path / "run"
    result = runner.invoke(app, ["run", str(good), str(tmp_path / "missing.jsonl"), "--out", str(out),
                                 "--base-url", fake_openai.base_url, "--model", "m", "-q"])
    one_line_error(result, 2, "missing.jsonl: no such file or directory")
    assert fake_openai.requests == 0 and not out.exists()


def _empty(tmp_path: Path, kind: str) -> Path:
    from openpyxl import Workbook

    if kind == "directory":
        (tmp_path / "empty").mkdir()
        return tmp_path / "empty"
    path = tmp_path / f"empty.{kind}"
    if kind == "xlsx":
        Workbook().save(path)
    else:
        path.write_text("\n" if kind == "jsonl" else "")
    return path


@pytest.mark.parametrize("kind", ["jsonl", "csv", "txt", "xlsx", "directory"])
def test_empty_inputs_are_refused_and_no_run_is_written(tmp_path: Path, kind: str) -> None:
    out = tmp_path / "run"
    one_line_error(rules_run(str(_empty(tmp_path, kind)), "--out", str(out)), 2, "no abstracts in")
    assert not out.exists()


def test_inputs_none_of_which_can_be_read_are_refused_naming_why_once(tmp_path: Path) -> None:
    wrong = tmp_path / "wrongcol.csv"
    wrong.write_text("id,text\n1,GANQ reaches 83.6% accuracy on GSM8K.\n")
    out = tmp_path / "run"
    result = rules_run(str(wrong), str(_empty(tmp_path, "directory")), "--out", str(out))
    one_line_error(result, 2, f"no abstracts in {wrong}, {tmp_path / 'empty'} ({wrong}:1: CSV header has no 'abstract' column (read: 'id', 'text'))")
    assert not out.exists()


def test_a_failed_input_is_printed_with_its_place_once(tmp_path: Path) -> None:
    wrong = tmp_path / "wrongcol.csv"
    wrong.write_text("id,text\n1,x\n")
    result = runner.invoke(app, ["run", str(wrong), str(jsonl(tmp_path / "good.jsonl", GANQ)), "--out", str(tmp_path / "run"), "-q"])
    assert result.exit_code == 1, result.output
    assert f"failed {wrong}:1: CSV header has no 'abstract' column (read: 'id', 'text')" in result.output.splitlines(), result.output


def test_an_out_that_is_an_input_directory_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    jsonl(folder / "a.jsonl", GANQ)
    one_line_error(rules_run(str(folder), "--out", str(folder)), 2, f"--out {folder} is the input directory")
    assert sorted(p.name for p in folder.iterdir()) == ["a.jsonl"]
    assert rules_run(str(folder), "--out", str(folder / "run")).exit_code == 0  # inside it is fine


def test_an_out_that_is_a_file_is_refused_before_any_work(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    good = jsonl(tmp_path / "good.jsonl", GANQ)
    out = tmp_path / "notes.txt"
    out.write_text("mine")
    result = runner.invoke(app, ["run", str(good), "--out", str(out), "--base-url", fake_openai.base_url, "--model", "m"])
    one_line_error(result, 2, "is a file")
    assert fake_openai.requests == 0 and out.read_text() == "mine"


@pytest.mark.parametrize("where", ["under-a-file", "proc"])
def test_an_out_that_cannot_be_written_is_one_line_before_any_work(tmp_path: Path, fake_openai: FakeOpenAI, where: str) -> None:
    good = jsonl(tmp_path / "good.jsonl", GANQ)
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    # A path below a regular file, and a read-only file system (/proc refuses even root).
    out = blocker / "run" if where == "under-a-file" else Path("/proc/extractor-run")
    result = runner.invoke(app, ["run", str(good), "--out", str(out), "--base-url", fake_openai.base_url, "--model", "m"])
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert result.output.splitlines()[-1].startswith("error: "), result.output
    assert fake_openai.requests == 0
