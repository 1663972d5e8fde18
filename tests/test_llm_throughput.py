"""The throughput benchmark runs end to end on a handful of papers (so it does not rot)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import ROOT


@pytest.mark.slow
def test_the_benchmark_prints_every_figure_on_a_small_run() -> None:
    result = subprocess.run(
        [
            sys.executable, str(ROOT / "benchmarks" / "llm_throughput.py"),
            "--n", "12", "--latency", "0.02", "--concurrency", "1", "4",
            "--repeat", "1", "--n-overhead", "6", "--n-reask", "8", "--reask-latency", "0.02", "--reask-concurrency", "4",
        ],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "| 1 | 12 |" in out and "| 4 | 12 |" in out  # one row per concurrency
    assert "client CPU per paper:" in out
    assert "| bare openai SDK, new process | 16 |" in out and "ratio extractor run / bare SDK:" in out
    assert "requests sent: 0 in 2 reruns" in out  # the warm reruns are answered from the cache
    for mode in ("tools", "json_schema", "json", "md_json"):
        assert f"| {mode} |" in out
