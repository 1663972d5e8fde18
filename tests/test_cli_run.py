import csv
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from typer.testing import CliRunner

from extractor.cli.app import app
from tests.runs import read_papers

from tests.fake_openai import FakeOpenAI

from .conftest import FIXTURES

runner = CliRunner()


def test_offline_run_on_the_fixtures_is_all_ok(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    result = runner.invoke(app, ["run", str(FIXTURES / "abstracts"), "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    papers = read_papers(out)
    assert len(papers) == 88  # 2 listings of 5 share 2 papers, and 80 digest abstracts
    assert {p.status for p in papers} == {"ok"}
    info = json.loads((out / "run.json").read_text())
    assert info["backend"] == "rules" and info["counts"]["ok"] == 88
    with (out / "claims.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    abstracts = {p.id: p.abstract for p in papers}
    for row in rows:
        start, end = map(int, row["span"].split("-"))
        evidence = abstracts[row["paper_id"]][start:end]
        # Text a spreadsheet would run as a formula is written with a leading quote.
        assert row["evidence"] == ("'" + evidence if evidence[0] in "=+-@" else evidence)


def test_bad_records_fail_alone_and_set_the_exit_status(tmp_path: Path) -> None:
    data = tmp_path / "in.jsonl"
    data.write_text('{"id": "ok1", "abstract": "GANQ reaches 83.6% accuracy on GSM8K."}\nnot json\n')
    out = tmp_path / "run"
    result = runner.invoke(app, ["run", str(data), "--out", str(out), "-q"])
    assert result.exit_code == 1
    papers = {p.id: p for p in read_papers(out)}
    assert papers["ok1"].status == "ok"
    assert papers["input:in.jsonl:2"].error.startswith(f"{data}:2: malformed JSON")


def test_same_abstract_twice_is_extracted_once_under_both_ids(tmp_path: Path) -> None:
    data = tmp_path / "in.jsonl"
    line = '{{"id": "{}", "abstract": "GANQ reaches 83.6% accuracy on GSM8K."}}\n'
    data.write_text(line.format("a") + line.format("b") + line.format("a"))
    out = tmp_path / "run"
    assert runner.invoke(app, ["run", str(data), "--out", str(out), "-q"]).exit_code == 0
    assert [p.id for p in read_papers(out)] == ["a", "b"]


def test_stdin_is_read(tmp_path: Path) -> None:
    out = tmp_path / "run"
    text = (FIXTURES / "abstracts" / "arxiv-listing-b.txt").read_text()
    result = runner.invoke(app, ["run", "-", "--out", str(out), "-q"], input=text)
    assert result.exit_code == 0, result.output
    assert len(read_papers(out)) == 5


def test_python_front_door_extracts_one_abstract() -> None:
    from extractor import extract

    result = extract("GANQ reaches 83.6% accuracy on GSM8K.")
    assert result.status == "ok" and result.id.startswith("p-")
    assert all(c.evidence in result.abstract for c in result.extraction.claims)


def test_quiet_hides_the_progress_bar_but_not_why_papers_failed(tmp_path: Path) -> None:
    data = tmp_path / "in.jsonl"
    data.write_text('{"id": "ok1", "abstract": "GANQ reaches 83.6% accuracy on GSM8K."}\nnot json\n')
    result = runner.invoke(app, ["run", str(data), "--out", str(tmp_path / "run"), "-q", "--no-leaderboard"])
    assert result.exit_code == 1
    assert f"failed {data}:2: malformed JSON" in result.output
    assert "1 ok, 1 failed" in result.output and "extracting" not in result.output


def test_ctrl_c_leaves_the_bar_where_it_stopped_and_says_how_to_resume(tmp_path: Path) -> None:
    """Ctrl-C reaches the whole process group, as a terminal sends it; the bar is drawn as on a terminal."""
    papers = [{"id": f"p{n}", "abstract": f"GANQ reaches {n}.5% accuracy on GSM8K in run {n}."} for n in range(40)]
    source = tmp_path / "papers.jsonl"
    source.write_text("".join(json.dumps(p) + "\n" for p in papers))
    out = tmp_path / "run"
    env = {**os.environ, "TTY_COMPATIBLE": "1", "NO_COLOR": "1", "COLUMNS": "200", "OPENAI_API_KEY": "test"}
    with FakeOpenAI(latency=0.1) as server:
        command = [sys.executable, "-m", "extractor", "run", str(source), "--out", str(out), "--base-url", server.base_url,
                   "--concurrency", "1", "--no-cache", "--no-leaderboard"]
        # A terminal's child takes Ctrl-C; one started from a background job inherits SIGINT ignored.
        process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env=env, start_new_session=True,
                                   preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        deadline = time.monotonic() + 30
        while server.requests < 5 and time.monotonic() < deadline:
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=60)
    assert process.returncode == 130 and "Traceback" not in err, err
    bars = re.findall(r"extracting\S*\s+\S*\s+(\d+)/(\d+)", err)
    done, total = map(int, bars[-1])
    assert total == 40 and done < 40  # not redrawn as finished
    journal = (out / "journal.tsv").read_text(encoding="utf-8").splitlines()
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", err)  # the terminal's cursor and line controls
    assert plain.rstrip().splitlines()[-1] == (
        f"interrupted: {done} papers done and kept in {out}/journal.tsv; rerun the same command to resume"
    )
    assert len(journal) - 1 == done  # what the line says is what a rerun takes
