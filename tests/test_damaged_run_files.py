"""A run directory whose files were damaged (by a kill, a disk, a hand) is still read: what can be
read is kept, the rest is skipped with one warning naming the file and the line, and nothing
extracted or corrected is lost. The journal, papers.jsonl, run.json, names.json and the
correction store each get the case that used to stop a command with a traceback."""

from __future__ import annotations

import json
import logging
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from extractor.api import refresh_reviewed_files, run
from extractor.cli.app import app
from extractor.config import make_config
from extractor.errors import StoreError
from extractor.runs import Run
from extractor.runs.corrections import Batch, NewCorrection
from extractor.runs.files import NAMES_FILE, REVIEWED_CLAIMS_FILE, RUN_FILE, STORE_FILE
from extractor.runs.journal import JOURNAL_FILE, MAX_POSITION_JUMP
from extractor.runs.names import names_to_extend
from tests.conftest import FIXTURES

runner = CliRunner()
SOURCE = str(FIXTURES / "abstracts" / "arxiv-listing-a.txt")


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    out = tmp_path / "run"
    run([SOURCE], out, make_config("rules"), leaderboard=True)
    return out


def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


@pytest.mark.parametrize(
    "damage",
    [
        lambda header: b"{not json" + header[header.index(b"\t"):],  # the header does not parse
        lambda header: header.replace(b'"retry":false,', b""),  # a field missing
        lambda header: header.replace(b'"p":1,', b'"p":1000000000000,'),  # a position far past the rest
    ],
)
def test_a_damaged_journal_line_is_skipped_and_the_lines_after_it_are_kept(
    demo: Path, damage, caplog: pytest.LogCaptureFixture
) -> None:
    journal = demo / JOURNAL_FILE
    lines = _lines(journal)
    assert b'"p":1,' in lines[2]
    lines[2] = damage(lines[2])  # the second paper's line, in the middle
    journal.write_bytes(b"".join(lines))
    with caplog.at_level(logging.WARNING):
        summary = run([SOURCE], demo, make_config("rules"))
    counts = summary.info["counts"]
    assert counts["resumed"] == counts["papers"] - 1  # only the damaged line's paper is done again
    assert f"{journal}: line 3 skipped (damaged)" in caplog.text
    assert MAX_POSITION_JUMP < 1_000_000_000_000


def test_a_papers_line_that_is_not_utf8_is_skipped_naming_it(demo: Path) -> None:
    papers = demo / "papers.jsonl"
    lines = _lines(papers)
    lines[1] = lines[1].replace(b'"id":', b'"id\xff":', 1)
    papers.write_bytes(b"".join(lines))
    for command in (["leaderboard", str(demo), "--out", str(demo / "b.csv")], ["review", "status", str(demo)],
                    ["report", str(demo), "--out", str(demo / "r.html")], ["review", "export", str(demo), "--out", str(demo / "s.xlsx")]):
        result = runner.invoke(app, command)
        assert result.exit_code == 1 and "Traceback" not in result.output, (command, result.output)
        assert f"{papers}:2: line skipped: not UTF-8 (byte 0xff" in result.output


@pytest.mark.parametrize("content", [b"garbage{", b"\xff\xfe", b'"a string"', b"[1, 2]", b'{"input_paths": "x"}', b"[" * 100_000])
def test_a_damaged_run_json_neither_stops_a_rerun_nor_the_report(demo: Path, content: bytes) -> None:
    (demo / RUN_FILE).write_bytes(content)
    rerun = runner.invoke(app, ["run", SOURCE, "--out", str(demo), "--no-leaderboard"])
    assert rerun.exit_code == 0 and "Traceback" not in rerun.output, rerun.output
    assert json.loads((demo / RUN_FILE).read_text())["counts"]["resumed"] > 0  # rewritten, the journal resumed
    (demo / RUN_FILE).write_bytes(content)
    report = runner.invoke(app, ["report", str(demo), "--out", str(demo / "r.html")])
    assert report.exit_code == 0 and "Traceback" not in report.output, report.output


@pytest.mark.parametrize("content", [b"\xff{}", b"[" * 100_000, b'{"names": 1, "answers": [[1, 2]]}'])
def test_a_names_table_that_cannot_be_read_is_named_and_kept(demo: Path, content: bytes, caplog: pytest.LogCaptureFixture) -> None:
    (demo / NAMES_FILE).write_bytes(content)
    result = runner.invoke(app, ["leaderboard", str(demo), "--out", str(demo / "b.csv")])
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    with caplog.at_level(logging.WARNING):
        assert names_to_extend(demo) == []  # a step that adds names starts a new table ...
    assert (demo / (NAMES_FILE + ".damaged")).read_bytes() == content  # ... and keeps the old one
    assert not (demo / NAMES_FILE).exists() and "kept as" in caplog.text


def _correct(run_dir: Path) -> None:
    """A paper with claims rejected, recorded as `review apply` records it."""
    target = Run.open(run_dir)
    paper = next(p for p in target.papers() if p.extraction and p.extraction.claims)
    with target.store() as db:
        batch = Batch(f"b-{len(db.history())}", "alice", "2026-01-01T00:00:00+00:00", None, None, str(run_dir), {})
        db.append(batch, [NewCorrection(paper.id, paper.id, "paper", "decision", None, "reject")])


def test_a_junk_row_in_the_store_is_skipped_naming_it_and_the_others_apply(demo: Path) -> None:
    _correct(demo)
    _correct(demo)
    with sqlite3.connect(demo / STORE_FILE) as db:
        db.execute("DROP TRIGGER corrections_no_update")
        db.execute("UPDATE corrections SET new_value = '{junk' WHERE id = 1")
    result = runner.invoke(app, ["review", "status", str(demo)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{demo / STORE_FILE}: correction 1 skipped: its new_value is not JSON" in result.output
    assert "decisions: 1 reject" in result.output


def test_a_damaged_store_is_one_line_for_every_reader(demo: Path) -> None:
    _correct(demo)
    store = demo / STORE_FILE
    data = bytearray(store.read_bytes())
    data[4096:] = b"\x13" * (len(data) - 4096)  # every page but the schema's overwritten
    store.write_bytes(bytes(data))
    for command in (["review", "status", str(demo)], ["leaderboard", str(demo), "--out", str(demo / "b.csv")],
                    ["report", str(demo), "--out", str(demo / "r.html")]):
        result = runner.invoke(app, command)
        assert result.exit_code == 1 and "Traceback" not in result.output, (command, result.output)
        assert f"error: {store}: cannot" in result.output
    with pytest.raises(StoreError):
        Run.open(demo).corrections()


def test_files_a_stopped_apply_left_behind_the_store_are_rewritten_by_the_next(demo: Path) -> None:
    target = Run.open(demo)
    refresh_reviewed_files(target)
    assert not target.files_behind()
    before = (demo / REVIEWED_CLAIMS_FILE).read_text()
    _correct(demo)  # recorded, as `review apply` records, then killed before the files were rewritten
    assert target.files_behind()
    book = demo / "untouched.xlsx"
    assert runner.invoke(app, ["review", "export", str(demo), "--out", str(book)]).exit_code == 0
    result = runner.invoke(app, ["review", "apply", str(book), str(demo), "--reviewer", "bob"])
    assert result.exit_code == 0 and "nothing recorded" in result.output
    assert not target.files_behind() and (demo / REVIEWED_CLAIMS_FILE).read_text() != before  # the rejected paper's claims are gone
