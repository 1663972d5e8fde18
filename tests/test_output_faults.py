"""Where the commands write: an ``--out`` that is not a regular file is refused by name, never
replaced (an output is a new file moved into place: as root, ``--out /dev/full`` used to turn
the device into an empty file)."""

from __future__ import annotations

import os
import resource
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from extractor.cli.app import app
from tests.conftest import ROOT
from tests.test_review import make_run


@pytest.mark.parametrize(
    ("command", "name"),
    [
        (["report"], "r.html"),
        (["review", "export-gold"], "gold.jsonl"),
        (["leaderboard"], "board.csv"),
        (["review", "export"], "review.xlsx"),
    ],
)
def test_an_out_that_is_a_fifo_or_a_directory_is_refused_and_left_as_it_is(tmp_path: Path, command: list[str], name: str) -> None:
    run = make_run(tmp_path / "run")
    fifo = tmp_path / "fifo" / name
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    folder = tmp_path / "folder" / name
    folder.mkdir(parents=True)
    link = tmp_path / "link" / name  # as /dev/stdout is a link to a pipe or a terminal
    link.parent.mkdir()
    link.symlink_to(fifo)
    for out, kind in ((fifo, "a FIFO (named pipe)"), (folder, "a directory"), (link, "a FIFO (named pipe)")):
        result = CliRunner().invoke(app, [*command, str(run), "--out", str(out)], env={"COLUMNS": "400"})
        assert result.exit_code == 2 and "Traceback" not in result.output, result.output
        assert f"error: {out}: {kind}, not a regular file" in result.output, result.output
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and folder.is_dir() and link.is_symlink()
    assert [p.name for p in fifo.parent.iterdir()] == [name]  # no temporary left beside it


def _limited(limit: int) -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


@pytest.mark.parametrize(
    ("command", "limit", "named", "reason"),
    [
        (["review", "export", "{run}", "--out", "{tmp}/review.xlsx"], 2048, tempfile.gettempdir(), "File too large"),  # openpyxl builds it there
        (["run", str(ROOT / "fixtures" / "abstracts"), "--out", "{tmp}/again"], 2048, "{tmp}/again/.dedupe-", "disk I/O error"),
        # the journal's buffered lines fail at a flush or at its close, which named no file
        (["run", str(ROOT / "fixtures" / "abstracts"), "--out", "{tmp}/again"], 60 * 1024, "{tmp}/again/journal.tsv", "File too large"),
        # the board's long tables are spooled to a temporary file, the sheets' rows too
        (["leaderboard", "{run}", "--out", "{tmp}/board.xlsx"], 2048, tempfile.gettempdir(), "File too large"),
    ],
)
def test_a_disk_that_fills_is_one_line_naming_where(tmp_path: Path, command: list[str], limit: int, named: str, reason: str) -> None:
    run = make_run(tmp_path / "run")
    fill = {"run": str(run), "tmp": str(tmp_path)}
    env = {**os.environ, "EXTRACTOR_CACHE_DIR": str(tmp_path / "cache")}
    result = subprocess.run(  # a file may grow to `limit` bytes: `ulimit -f`, a disk nearly full
        [sys.executable, "-m", "extractor", *(part.format(**fill) for part in command)],
        capture_output=True, text=True, env=env, preexec_fn=lambda: _limited(limit), timeout=300,
    )
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    [error] = [text for text in result.stderr.splitlines() if text.startswith("error:")]
    assert error.startswith(f"error: {named.format(**fill)}") and reason in error, error
