"""``extractor run --batch``: the OpenAI Batch API against the loopback server (files and
batches through the real SDK), end to end: the same requests and results as online, re-asks in
follow-up batches, expired, failed and cancelled items, per-line errors, resume after a kill.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from openai import AsyncOpenAI
from typer.testing import CliRunner

from extractor.backends.openai.batch_files import BATCH_DIR, STATE_FILE, batch_line
from extractor.cli.app import app
from extractor.backends.by_name import get_backend
from extractor.config import RunConfig, make_config
from extractor.errors import ConfigError
from extractor.pipeline.dry_run import dry_run
from extractor.runs.files import CLAIMS_FILE
from tests.runs import read_papers
from extractor.pipeline.runner import run
from tests.conftest import ROOT
from tests.conftest_fake import fixture_papers, openai_config, write_papers
from tests.fake_openai import FakeOpenAI, Fault

POLL = 0.05


def batch_config(server: FakeOpenAI, **options: object) -> RunConfig:
    return openai_config(server, batch=True, batch_poll=POLL, **options)


def inputs(tmp_path: Path, count: int = 5) -> Path:
    return write_papers(tmp_path / "papers.jsonl", fixture_papers(count))


def state(out: Path) -> dict:
    return json.loads((out / BATCH_DIR / STATE_FILE).read_text())


def by_id(out: Path) -> dict:
    return {r.id: r for r in read_papers(out)}


def test_a_batch_sends_the_online_requests_and_gives_the_online_results(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    source = inputs(tmp_path)
    fake_openai.faults.append(Fault("invented_number", match="GANQ"))  # one grounding re-ask
    online = run([str(source)], tmp_path / "online", openai_config(fake_openai, cache_dir=tmp_path / "c1"))
    sent_online = sorted(json.dumps([r.mode, r.messages]) for r in fake_openai.log)
    fake_openai.log.clear()
    fake_openai.faults.append(Fault("invented_number", match="GANQ"))  # the same, in the batch
    lines: list[str] = []
    batched = run([str(source)], tmp_path / "batch", batch_config(fake_openai, cache_dir=tmp_path / "c2"), on_batch=lambda p: lines.append(p.line()))

    assert sorted(json.dumps([r.mode, r.messages]) for r in fake_openai.log) == sent_online  # re-ask included
    assert fake_openai.batch_api.created == ["batch_0001", "batch_0002"]  # the re-ask went in a follow-up batch
    assert (tmp_path / "online" / CLAIMS_FILE).read_text() == (tmp_path / "batch" / CLAIMS_FILE).read_text()
    assert online.info["counts"] == batched.info["counts"] and batched.failed == 0
    ganq = next(r for r in batched.results if "GANQ" in r.abstract)
    assert (ganq.usage.requests, ganq.usage.reasks) == (2, 1)
    # half price: the same tokens cost half of the online figure
    usage_online, usage_batch = online.info["usage"], batched.info["usage"]
    assert usage_batch["prompt_tokens"] == usage_online["prompt_tokens"]
    assert usage_batch["cost_usd"] == pytest.approx(usage_online["cost_usd"] / 2)
    assert any("batch_0001: completed, 5/5 requests answered" in line for line in lines)
    recorded = state(tmp_path / "batch")["submissions"]
    assert [(s["batch_id"], s["round"], s["taken"]) for s in recorded] == [("batch_0001", 1, True), ("batch_0002", 2, True)]
    assert (tmp_path / "batch" / BATCH_DIR / "batch_0001-output.jsonl").exists()

    again = run([str(source)], tmp_path / "batch", batch_config(fake_openai, cache_dir=tmp_path / "c2"))
    # the rerun takes every paper from the run's journal: nothing is submitted again
    assert fake_openai.batch_api.created == ["batch_0001", "batch_0002"] and again.info["counts"]["resumed"] == 5


def test_expired_items_are_reported_per_paper_and_sent_again_on_rerun(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    source = inputs(tmp_path)
    fake_openai.batch_api.expire_after = 2
    first = run([str(source)], tmp_path / "run", batch_config(fake_openai))
    failed = [r for r in first.results if r.status == "failed"]
    assert len(failed) == 3 and first.info["counts"]["ok"] == 2
    assert all("before the completion window expired. (batch batch_0001); rerun to send it again" in r.error for r in failed)

    fake_openai.batch_api.expire_after = None
    fake_openai.log.clear()
    second = run([str(source)], tmp_path / "run", batch_config(fake_openai))
    assert second.failed == 0 and len(fake_openai.log) == 3  # only the expired ones went again
    assert sorted(r.abstract for r in fake_openai.log) == sorted(r.abstract for r in failed)


def test_a_failed_batch_fails_its_papers_with_the_reason_and_a_rerun_sends_them(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    source = inputs(tmp_path, 3)
    fake_openai.batch_api.fail_next = 1
    first = run([str(source)], tmp_path / "run", batch_config(fake_openai))
    assert first.failed == 3 and fake_openai.requests == 0
    assert all("the batch batch_0001 failed: token_limit_exceeded: Enqueued token limit" in r.error for r in first.results)
    second = run([str(source)], tmp_path / "run", batch_config(fake_openai))
    assert second.failed == 0 and fake_openai.batch_api.created == ["batch_0001", "batch_0002"]


def test_a_cancelled_batch_keeps_what_was_answered(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    source = inputs(tmp_path, 4)
    fake_openai.latency = 0.3

    def cancel_after_the_first_answer() -> None:
        while not fake_openai.log:
            time.sleep(0.01)
        fake_openai.batch_api.cancel("batch_0001")

    threading.Thread(target=cancel_after_the_first_answer, daemon=True).start()
    summary = run([str(source)], tmp_path / "run", batch_config(fake_openai))
    statuses = [r.status for r in summary.results]
    assert statuses.count("ok") >= 1 and statuses.count("failed") >= 1
    assert all("cancelled" in r.error for r in summary.results if r.status == "failed")
    assert state(tmp_path / "run")["submissions"][0]["status"] == "cancelled"


def test_a_line_with_an_http_error_fails_that_paper_only(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    source = inputs(tmp_path, 3)
    [target] = [p for p in fixture_papers(3) if "GANQ" in p.abstract]
    fake_openai.faults.append(Fault("server_error", match="GANQ"))
    summary = run([str(source)], tmp_path / "run", batch_config(fake_openai))
    results = by_id(tmp_path / "run")
    assert summary.failed == 1 and "HTTP 500 in batch batch_0001: The server had an error." in results[target.id].error
    assert (tmp_path / "run" / BATCH_DIR / "batch_0001-errors.jsonl").exists()
    fake_openai.log.clear()
    assert run([str(source)], tmp_path / "run", batch_config(fake_openai)).failed == 0
    assert [r.abstract for r in fake_openai.log] == [target.abstract]


def test_a_batch_created_but_not_recorded_is_found_not_created_again(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    """A client killed between creating the batch and recording its id: the rerun finds it."""
    source = inputs(tmp_path, 2)
    config = batch_config(fake_openai)
    dry_run([str(source)], config)  # nothing sent: the state is written by the first real run
    fake_openai.batch_api.fail_next = 1  # the first run records a submission, then fails
    run([str(source)], tmp_path / "run", config)
    recorded = state(tmp_path / "run")
    # the next submission, as a killed client would have left it: uploaded and created, id unrecorded
    papers = fixture_papers(2)
    from extractor.backends.openai.backend import OpenAIBackend
    from extractor.backends.openai.exchange import request_body
    from extractor.backends.cache import cache_key

    backend = OpenAIBackend(config.options)
    lines = b"".join(
        batch_line(cache_key(backend.identity(), p.abstract, None), request_body("json_schema", backend.prompt.messages(p.abstract, None), config.options))
        for p in papers
    )
    name = "input-002-round1-part1.jsonl"
    (tmp_path / "run" / BATCH_DIR / name).write_bytes(lines)

    async def upload_and_create() -> str:
        client = AsyncOpenAI(base_url=fake_openai.base_url, api_key="k")
        uploaded = await client.files.create(file=tmp_path / "run" / BATCH_DIR / name, purpose="batch")
        await client.batches.create(input_file_id=uploaded.id, endpoint="/v1/chat/completions", completion_window="24h")
        await client.close()
        return uploaded.id

    file_id = asyncio.run(upload_and_create())
    keys = [json.loads(line)["custom_id"] for line in lines.splitlines()]
    recorded["submissions"].append({"name": name, "round": 1, "keys": keys, "carry": {}, "file_id": file_id, "batch_id": None, "status": "written", "taken": False})
    (tmp_path / "run" / BATCH_DIR / STATE_FILE).write_text(json.dumps(recorded))

    summary = run([str(source)], tmp_path / "run", config)
    assert summary.failed == 0 and fake_openai.batch_api.created == ["batch_0001", "batch_0002"]
    assert state(tmp_path / "run")["submissions"][1]["batch_id"] == "batch_0002"


def test_killed_while_polling_the_rerun_polls_the_same_batch(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    source = inputs(tmp_path, 4)
    fake_openai.batch_api.seconds = 60  # pending until the test lets it finish
    command = [
        sys.executable, "-m", "extractor", "run", str(source), "--out", str(tmp_path / "run"), "--backend", "openai",
        "--base-url", fake_openai.base_url, "--model", "gpt-4o-mini", "--batch", "--batch-poll", str(POLL), "-q",
        "--no-leaderboard",
    ]
    env = {**os.environ, "OPENAI_API_KEY": "test-key"}
    client = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (
        fake_openai.batch_api.created and (tmp_path / "run" / BATCH_DIR / STATE_FILE).exists()
        and state(tmp_path / "run")["submissions"][0]["batch_id"]
    ):
        time.sleep(0.05)
    polled = fake_openai.batch_api.polls
    while time.monotonic() < deadline and fake_openai.batch_api.polls < polled + 2:  # it is polling
        time.sleep(0.01)
    client.send_signal(signal.SIGKILL)
    client.wait(timeout=30)
    assert fake_openai.batch_api.created == ["batch_0001"] and not (tmp_path / "run" / "papers.jsonl").exists()

    fake_openai.batch_api.seconds = 0  # the batch completes
    rerun = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    assert fake_openai.batch_api.created == ["batch_0001"]  # polled again, never submitted twice
    assert len(fake_openai.log) == 4
    uninterrupted = run([str(source)], tmp_path / "online", openai_config(fake_openai, cache_dir=tmp_path / "other"))
    assert uninterrupted.failed == 0
    assert (tmp_path / "run" / CLAIMS_FILE).read_text() == (tmp_path / "online" / CLAIMS_FILE).read_text()


def test_the_dry_run_prices_a_batch_at_half(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    source = inputs(tmp_path)
    online = dry_run([str(source)], openai_config(fake_openai)).estimate
    batched = dry_run([str(source)], batch_config(fake_openai)).estimate
    assert batched.prompt_tokens == online.prompt_tokens and batched.cost_usd == pytest.approx(online.cost_usd / 2)
    result = CliRunner().invoke(app, [
        "run", str(source), "--out", str(tmp_path / "run"), "--backend", "openai", "--model", "gpt-4o", "--batch", "--dry-run",
    ])
    assert result.exit_code == 0, result.output
    assert "Batch API price" in result.output and "$1.25 in / $5 out" in " ".join(result.output.split())


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"backend": "rules"}, "is an option of backend openai; this run's is backend rules"),
        ({"use_cache": False}, "batch keeps each answer in the cache .* it needs use_cache"),
        ({"max_cost": 1.0}, "max_cost cannot stop a batch once it is submitted"),
    ],
)
def test_options_a_batch_cannot_honour_are_refused(options: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        get_backend(make_config(**{"backend": "openai", "base_url": "http://127.0.0.1:9/v1", "batch": True, **options}))


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--no-cache"], "--batch keeps each answer in the cache .* it needs --cache"),
        (["--max-cost", "1"], "--max-cost cannot stop a batch once it is submitted; price it first with a dry run of the --batch"),
    ],
)
def test_the_command_line_names_the_flags(tmp_path: Path, flags: list[str], message: str) -> None:
    result = CliRunner().invoke(app, [
        "run", str(inputs(tmp_path)), "--out", str(tmp_path / "run"), "--backend", "openai",
        "--base-url", "http://127.0.0.1:9/v1", "--batch", *flags,
    ])
    assert result.exit_code == 2 and re.search(message, result.output), result.output


def test_the_cli_names_the_batch_option(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "extractor", "run", "--help"], capture_output=True, text=True, cwd=ROOT)
    assert "--batch" in result.stdout and "--batch-poll" in result.stdout


def test_an_unreachable_batch_api_is_one_line_and_the_rerun_resumes(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    source = inputs(tmp_path, 2)
    config = batch_config(fake_openai, max_retries=0)
    fake_openai.stop()
    result = CliRunner().invoke(app, [
        "run", str(source), "--out", str(tmp_path / "run"), "--backend", "openai", "--base-url", fake_openai.base_url,
        "--model", "gpt-4o-mini", "--batch", "--batch-poll", str(POLL), "--max-retries", "0",
    ], env={"OPENAI_API_KEY": "k", "EXTRACTOR_CACHE_DIR": str(config.cache_dir)})
    assert result.exit_code == 1 and "the Batch API at" in result.output and "run the same command again to resume" in result.output
    assert "Traceback" not in result.output
    fake_openai.start()
    assert run([str(source)], tmp_path / "run", config).failed == 0 and fake_openai.batch_api.created == ["batch_0001"]


@pytest.mark.parametrize("status", [404, 405])
def test_a_server_without_the_batch_list_runs_from_the_state_file_alone(
    tmp_path: Path, fake_openai: FakeOpenAI, status: int
) -> None:
    fake_openai.batch_api.list_status = status
    out = tmp_path / "run"
    summary = run([str(inputs(tmp_path))], out, batch_config(fake_openai, cache_dir=tmp_path / "c"))
    assert [r.status for r in summary.results] == ["ok"] * 5, [r.error for r in summary.results]
    assert len(fake_openai.batch_api.created) == 1


def _garbage_first_and_no_choices_second(lines: list[str]) -> list[str]:
    second = json.loads(lines[1])
    del second["response"]["body"]["choices"]
    return ["<html><body>502 Bad Gateway</body></html>\n", json.dumps(second) + "\n", *lines[2:]]


def test_bad_lines_in_a_batch_output_lose_no_good_answer_and_each_failure_is_named(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    fake_openai.batch_api.damage_output = _garbage_first_and_no_choices_second
    out = tmp_path / "run"
    summary = run([str(inputs(tmp_path))], out, batch_config(fake_openai, cache_dir=tmp_path / "c"))
    statuses = [r.status for r in summary.results]
    assert statuses.count("ok") == 3, [r.error for r in summary.results]
    failed = [r.error for r in summary.results if r.status == "failed"]
    assert len(failed) == 2
    assert any("output.jsonl:1 is not JSON" in e for e in failed)  # the paper whose line was lost
    assert any("output.jsonl:2 (" in e and "not a chat completion" in e for e in failed)
    rerun = run([str(inputs(tmp_path))], out, batch_config(fake_openai, cache_dir=tmp_path / "c"))
    assert [r.status for r in rerun.results].count("ok") >= 3


def _hostile_ids_and_later_bad_copies(lines: list[str]) -> list[str]:
    """Lines whose custom_id is a list or an object, then for every answered paper a later line
    for the same custom_id that is bad: an HTTP 500, and a body that is not a chat completion."""
    first = json.loads(lines[0])
    hostile = [json.dumps({**first, "custom_id": [first["custom_id"]]}) + "\n", json.dumps({**first, "custom_id": {"k": 1}}) + "\n"]
    later = []
    for text in lines:
        line = json.loads(text)
        failed = {**line, "response": {"status_code": 500, "body": {"error": {"message": "overloaded"}}}}
        garbled = {**line, "response": {"status_code": 200, "body": {"choices": "none"}}}
        later += [json.dumps(failed) + "\n", json.dumps(garbled) + "\n"]
    return [*hostile, *lines, *later]


def test_hostile_custom_ids_are_named_and_a_later_bad_line_never_replaces_a_good_answer(
    tmp_path: Path, fake_openai: FakeOpenAI, caplog: pytest.LogCaptureFixture
) -> None:
    fake_openai.batch_api.damage_output = _hostile_ids_and_later_bad_copies
    out = tmp_path / "run"
    summary = run([str(inputs(tmp_path))], out, batch_config(fake_openai, cache_dir=tmp_path / "c"))
    assert [r.status for r in summary.results] == ["ok"] * 5, [r.error for r in summary.results]
    assert summary.info["usage"]["requests"] == 5  # each paper's good line counted, not its bad copies
    logged = caplog.text
    assert "batch_0001-output.jsonl:1 has a custom_id that is not a string" in logged
    assert "batch_0001-output.jsonl:2 has a custom_id that is not a string" in logged
    again = run([str(inputs(tmp_path))], out, batch_config(fake_openai, cache_dir=tmp_path / "c"))
    assert again.info["counts"]["resumed"] == 5 and fake_openai.batch_api.created == ["batch_0001"]
