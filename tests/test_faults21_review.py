"""Issue 21, the review cases: the correction store on a disk it cannot write, a sheet from
another run, a renamed column and the longest fields a claim may hold (docs/faults.md)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from extractor.review import export_review
from extractor.review.store import STORE_FILE
from tests.conftest import ROOT
from tests.test_review import claim_id, edit, make_run

_APPLY = [sys.executable, "-m", "extractor", "review", "apply"]


def _store_fault(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", script, *args], cwd=ROOT, capture_output=True, text=True)


_FULL_DISK_APPLY = """
import resource, signal, sys
from extractor.cli.app import app
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))  # no file may grow, as on a full disk
app(["review", "apply", sys.argv[1], sys.argv[2], "--reviewer", "alice"])
"""


@pytest.fixture
def edited(tmp_path: Path) -> tuple[Path, Path]:
    """A run and its review sheet with one metric edited."""
    run = make_run(tmp_path / "run")
    book = tmp_path / "review.xlsx"
    export_review(run, book)
    edit(book, book, "Claims", claim_id(run, "p1", 83.6), metric="EM accuracy")
    return run, book


def test_a_full_disk_under_the_correction_store_is_one_line_and_leaves_no_empty_store(edited: tuple[Path, Path]) -> None:
    run, book = edited
    done = _store_fault(_FULL_DISK_APPLY, str(book), str(run))
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    (message,) = done.stderr.strip().splitlines()
    assert message.startswith(f"error: {run / STORE_FILE}: cannot write the correction store"), message
    assert not (run / STORE_FILE).exists()


def _read_only(run: Path, *command: str) -> subprocess.CompletedProcess[str]:
    """``command`` with ``run`` mounted read-only, in a user and mount namespace of its own: even
    root cannot write there (chmod would not stop root)."""
    if shutil.which("unshare") is None:
        pytest.skip("needs unshare to mount the run read-only")
    script = 'mount --bind -o ro "$1" "$1" || exit 99; shift; exec "$@"'
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script, "sh", str(run), *command], cwd=ROOT, capture_output=True, text=True)
    if done.returncode == 99:
        pytest.skip(f"cannot mount read-only here: {done.stderr.strip()}")
    return done


def test_a_read_only_correction_store_is_one_line_and_can_still_be_read(edited: tuple[Path, Path]) -> None:
    run, book = edited
    apply = subprocess.run([*_APPLY, str(book), str(run), "--reviewer", "alice"], cwd=ROOT, capture_output=True, text=True)
    assert apply.returncode == 0, apply.stderr
    edit(book, book, "Claims", claim_id(run, "p1", 2.57), metric="throughput")
    before = (run / STORE_FILE).read_bytes()
    done = _read_only(run, *_APPLY, str(book), str(run), "--reviewer", "bob")
    assert done.returncode == 1, done.stderr
    (message,) = done.stderr.strip().splitlines()
    assert message == (
        f"error: {run / STORE_FILE}: cannot write the correction store "
        "(attempt to write a readonly database); nothing was recorded"
    ), message
    assert (run / STORE_FILE).read_bytes() == before
    status = _read_only(run, sys.executable, "-m", "extractor", "review", "status", str(run))
    assert status.returncode == 0 and "2 corrections in 1 batch by alice" in status.stdout, status.stderr
