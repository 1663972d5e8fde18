"""The Ray Data recipe (``examples/ray_data.py``) on a local Ray instance against the loopback
server: the library's two halves in ``map_batches``, and a run directory the other commands
read, with the same claims as an online run of the same answers. Slow: Ray starts its own
processes; ``ray[data]`` is installed by ``.ci/run`` for this stage only."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from extractor.pipeline.runner import run
from extractor.runs.files import CLAIMS_FILE
from tests.conftest import ROOT
from tests.conftest_fake import fixture_papers, openai_config, write_papers
from tests.fake_openai import FakeOpenAI

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]  # Ray starts in 10-40 s on 2 cores


def test_the_ray_recipe_writes_the_claims_of_an_online_run_and_the_leaderboard_reads_it(tmp_path: Path) -> None:
    pytest.importorskip("ray.data", reason='pip install "ray[data]" (.ci/run does, for the slow stage)')
    source = str(write_papers(tmp_path / "papers.jsonl", fixture_papers(12)))
    with FakeOpenAI(latency=0.01) as server:
        online = run([source], tmp_path / "online", openai_config(server, mode="json_schema"))
        assert online.failed == 0
        served = server.requests
        recipe = subprocess.run([
            sys.executable, str(ROOT / "examples" / "ray_data.py"), source, "--out", str(tmp_path / "ray"),
            "--base-url", server.base_url, "--model", "gpt-4o-mini", "--actors", "2",
        ], capture_output=True, text=True, cwd=tmp_path, timeout=600)
        assert recipe.returncode == 0, recipe.stderr[-3000:]
        assert server.requests - served == 12
    assert "12 ok, 0 failed" in recipe.stdout
    assert (tmp_path / "ray" / CLAIMS_FILE).read_text() == (tmp_path / "online" / CLAIMS_FILE).read_text()
    board = subprocess.run(
        [sys.executable, "-m", "extractor", "leaderboard", str(tmp_path / "ray"), "--out", str(tmp_path / "board.xlsx")],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
    )
    assert board.returncode == 0, board.stderr
