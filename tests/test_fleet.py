"""A fleet: ``--base-url`` given more than once spreads the requests over OpenAI-compatible
servers (loopback fakes here), each at its share of the concurrency; a server that fails or
answers 429 rests by itself while the others serve; run.json counts each server's requests and
failures, credentials redacted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from extractor.config import RunConfig, make_config
from extractor.errors import ConfigError
from extractor.pipeline.runner import run
from extractor.runs.writer import CLAIMS_FILE
from tests.conftest import ROOT
from tests.conftest_fake import fixture_papers, openai_config, write_papers
from tests.fake_openai import FakeOpenAI, Fault


def papers(tmp_path: Path, count: int) -> str:
    return str(write_papers(tmp_path / "papers.jsonl", fixture_papers(count)))


def fleet_config(*servers: FakeOpenAI, **options: object) -> RunConfig:
    return openai_config(servers[0], base_url=tuple(s.base_url for s in servers), **options)


def test_two_servers_both_serve_each_at_its_share_and_give_the_one_server_claims(tmp_path: Path) -> None:
    source = papers(tmp_path, 16)
    with FakeOpenAI(latency=0.1) as a, FakeOpenAI(latency=0.1) as b:
        summary = run([source], tmp_path / "fleet", fleet_config(a, b, concurrency=4))
        assert summary.failed == 0
        assert a.requests and b.requests and a.requests + b.requests == 16
        assert (a.most_in_flight, b.most_in_flight) == (2, 2)  # half of --concurrency 4 each
        assert summary.info["servers"] == [
            {"base_url": f"{a.base_url}/", "requests": a.requests, "failures": 0},
            {"base_url": f"{b.base_url}/", "requests": b.requests, "failures": 0},
        ]
        assert run([source], tmp_path / "one", openai_config(a, cache_dir=tmp_path / "other")).failed == 0
    assert (tmp_path / "fleet" / CLAIMS_FILE).read_text() == (tmp_path / "one" / CLAIMS_FILE).read_text()


def test_a_server_down_leaves_the_run_ok_and_is_counted(tmp_path: Path) -> None:
    source = papers(tmp_path, 8)
    with FakeOpenAI() as up, FakeOpenAI() as down:
        down.stop()  # its port refuses connections
        summary = run([source], tmp_path / "run", fleet_config(down, up, concurrency=2, max_retries=2))
        assert summary.failed == 0 and up.requests == 8
        [gone, served] = summary.info["servers"]
        assert gone["failures"] == gone["requests"] >= 1 and served == {"base_url": f"{up.base_url}/", "requests": 8, "failures": 0}


def test_a_server_answering_429_rests_while_the_other_serves(tmp_path: Path) -> None:
    source = papers(tmp_path, 8)
    with FakeOpenAI(faults=[Fault("rate_limit", times=100, seconds=30)]) as limited, FakeOpenAI() as other:
        summary = run([source], tmp_path / "run", fleet_config(limited, other, concurrency=2))
        assert summary.failed == 0 and other.requests == 8
        # rested for its Retry-After (30 s) after its first 429: never asked again in this run
        assert limited.requests == 1 and summary.info["servers"][0]["failures"] == 1


def test_the_fleet_s_credentials_are_redacted_in_run_json(tmp_path: Path) -> None:
    source = papers(tmp_path, 2)
    with FakeOpenAI() as a, FakeOpenAI() as b:
        config = openai_config(a, base_url=(f"{a.base_url}?key=sekret-one", f"http://u:sekret-two@127.0.0.1:{b.port}/v1"))
        summary = run([source], tmp_path / "run", config)
    text = (tmp_path / "run" / "run.json").read_text()
    assert summary.failed == 0 and "sekret" not in text and "key=***" in text and "u:***@" in text


def test_base_url_given_twice_is_a_fleet_and_the_batch_api_refuses_one() -> None:
    urls = ["http://127.0.0.1:8001/v1", "http://127.0.0.1:8002/v1"]
    options = make_config("openai", model="m", base_url=urls, api_key="k").options
    assert options.fleet == tuple(urls) and options.base_url == urls[0]
    with pytest.raises(ConfigError, match="give one base_url"):
        make_config("openai", model="m", base_url=urls, api_key="k", batch=True)
    with pytest.raises(ConfigError, match="port 99999 is out of range"):
        make_config("openai", model="m", base_url=[urls[0], "http://127.0.0.1:99999/v1"], api_key="k")


def test_the_cli_takes_base_url_more_than_once(tmp_path: Path) -> None:
    source = papers(tmp_path, 4)
    with FakeOpenAI() as a, FakeOpenAI() as b:
        result = subprocess.run([
            sys.executable, "-m", "extractor", "run", source, "--out", str(tmp_path / "run"), "--model", "m",
            "--base-url", a.base_url, "--base-url", b.base_url, "--concurrency", "2", "-q", "--no-leaderboard",
            "--cache-dir", str(tmp_path / "c"),
        ], capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert result.returncode == 0, result.stderr
        assert a.requests and b.requests
