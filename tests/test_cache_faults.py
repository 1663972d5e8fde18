"""The cache is an optimisation, never a point of failure: a cache that cannot be opened, read
or written (full disk, garbage, truncated, a path under a regular file) costs one warning that
names it and --no-cache; every answer is kept and its cost counted, and a later run works."""

from __future__ import annotations

import logging
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import diskcache
import pytest

from extractor.runs import Run
from tests.runs import read_papers
from extractor.pipeline.runner import run
from tests.conftest import ROOT
from tests.conftest_fake import fixture_papers, openai_config, write_papers
from tests.fake_openai import FakeOpenAI

PAPERS = fixture_papers(6)


def run_all(tmp_path: Path, server: FakeOpenAI, cache_dir: Path, out: str = "run") -> dict:
    source = write_papers(tmp_path / "papers.jsonl", PAPERS)
    summary = run([str(source)], tmp_path / out, openai_config(server, cache_dir=cache_dir))
    assert [r.status for r in summary.results] == ["ok"] * len(PAPERS), [r.error for r in summary.results]
    return summary.info


def cache_warnings(caplog: pytest.LogCaptureFixture, cache_dir: Path) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING and str(cache_dir) in r.getMessage()]


def fill_with_garbage(cache_dir: Path, keep: float | None = None) -> None:
    """Every file of the cache overwritten with garbage, or (``keep``) truncated to that share."""
    for path in cache_dir.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            path.write_bytes(data[: int(len(data) * keep)] if keep is not None else os.urandom(max(len(data), 4096)))


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_a_damaged_cache_is_named_once_and_the_run_goes_on(
    tmp_path: Path, fake_openai: FakeOpenAI, caplog: pytest.LogCaptureFixture, damage: str
) -> None:
    cache_dir = tmp_path / "cache"
    run_all(tmp_path, fake_openai, cache_dir, "first")
    fill_with_garbage(cache_dir, keep=0.5 if damage == "truncated" else None)
    sent = fake_openai.requests
    info = run_all(tmp_path, fake_openai, cache_dir, "second")
    assert fake_openai.requests - sent == len(PAPERS)  # nothing usable was cached: all sent again
    [warning] = cache_warnings(caplog, cache_dir)
    assert "--no-cache" in warning
    assert info["usage"]["requests"] == len(PAPERS) and info["usage"]["cost_usd"] > 0
    assert str(cache_dir) in info["cache_problem"]


def test_a_cache_path_under_a_regular_file_is_named_and_the_run_goes_on(
    tmp_path: Path, fake_openai: FakeOpenAI, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    cache_dir = blocker / "cache"
    info = run_all(tmp_path, fake_openai, cache_dir)
    [warning] = cache_warnings(caplog, cache_dir)
    assert "cannot be opened" in warning and "--no-cache" in warning
    assert info["counts"]["ok"] == len(PAPERS)


def test_an_entry_that_is_not_a_draft_is_a_miss(tmp_path: Path, fake_openai: FakeOpenAI, caplog: pytest.LogCaptureFixture) -> None:
    cache_dir = tmp_path / "cache"
    run_all(tmp_path, fake_openai, cache_dir, "first")
    with diskcache.Cache(str(cache_dir)) as cache:
        for key in list(cache):
            cache[key] = {"draft": "{not json"}
    sent = fake_openai.requests
    run_all(tmp_path, fake_openai, cache_dir, "second")
    assert fake_openai.requests - sent == len(PAPERS)
    assert len(cache_warnings(caplog, cache_dir)) == 1


def _no_bigger_files(limit: int) -> None:
    """In the child: files cannot grow past ``limit`` bytes, as on a full disk (EFBIG)."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def test_a_cache_that_cannot_be_written_keeps_every_answer_and_counts_its_cost(tmp_path: Path) -> None:
    papers = fixture_papers(30)
    source = write_papers(tmp_path / "papers.jsonl", papers)
    cache_dir = tmp_path / "cache"
    out = tmp_path / "run"
    env = {**os.environ, "EXTRACTOR_CACHE_DIR": str(cache_dir), "PYTHONPATH": str(ROOT)}
    with FakeOpenAI() as server:
        command = [
            sys.executable, "-m", "extractor", "run", str(source), "--out", str(out), "--base-url",
            server.base_url, "--model", "gpt-4o-mini", "--concurrency", "2", "-q", "--no-leaderboard",
        ]
        # 256 KiB: the run directory fits; the cache opens, and its write-ahead log outgrows the
        # limit after a few answers.
        limited = subprocess.run(
            command, env=env, cwd=ROOT, capture_output=True, text=True, preexec_fn=lambda: _no_bigger_files(256 * 1024)
        )
        assert limited.returncode == 0, limited.stderr
        warnings = [line for line in limited.stderr.splitlines() if str(cache_dir) in line]
        assert len(warnings) == 1 and "--no-cache" in warnings[0], limited.stderr
        assert server.requests == len(papers)
        assert {p.status for p in read_papers(out)} == {"ok"}
        info = Run.open(out).info()
        assert info["usage"]["requests"] == len(papers) and info["usage"]["cost_usd"] > 0
        # The next run opens the same cache and sends only what it lacks.
        again = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True)
        assert again.returncode == 0, again.stderr
        assert {p.status for p in read_papers(out)} == {"ok"}
        assert server.requests < 2 * len(papers)


class _Planted:
    """A pickle that, once loaded, leaves a file: what an attacker plants in a shared cache."""

    def __init__(self, mark: Path) -> None:
        self.mark = mark

    def __reduce__(self):
        return (Path.touch, (self.mark,))


def test_a_planted_pickle_in_the_cache_is_never_run_and_is_a_miss(
    tmp_path: Path, fake_openai: FakeOpenAI, caplog: pytest.LogCaptureFixture
) -> None:
    cache_dir, mark = tmp_path / "cache", tmp_path / "ran"
    run_all(tmp_path, fake_openai, cache_dir, "first")
    with diskcache.Cache(str(cache_dir)) as cache:  # diskcache's default Disk pickles
        for key in list(cache):
            cache[key] = _Planted(mark)
    sent = fake_openai.requests
    run_all(tmp_path, fake_openai, cache_dir, "second")
    assert not mark.exists()
    assert fake_openai.requests - sent == len(PAPERS)
    assert len(cache_warnings(caplog, cache_dir)) == 1
