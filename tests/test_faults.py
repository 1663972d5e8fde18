"""The openai backend under faults, against the loopback server: transport retries, validation
re-asks, grounding, refusals, the cost cap, and a run killed with SIGKILL.

Each fault is scripted on the server for one paper (matched by the start of its abstract), so
the other papers show that the batch goes on.
"""

from __future__ import annotations

import csv
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import diskcache
import pytest
from typer.testing import CliRunner

from extractor.cli.app import app
from extractor.runs import Run
from tests.runs import read_papers
from extractor.pipeline.runner import run
from extractor.schema import PaperResult
from tests.conftest import ROOT
from tests.conftest_fake import fixture_papers, openai_config, write_papers
from tests.fake_openai import (
    INVENTED_BENCHMARK,
    INVENTED_VALUE,
    FakeOpenAI,
    Fault,
    grounded_answer,
)

PAPERS = fixture_papers(4)
TARGET = PAPERS[1]  # the paper each test aims its fault at
MATCH = TARGET.abstract[:80]


def run_batch(tmp_path: Path, server: FakeOpenAI, out: str = "run", papers=PAPERS, **options: object) -> dict[str, PaperResult]:
    source = write_papers(tmp_path / "papers.jsonl", papers)
    summary = run([str(source)], tmp_path / out, openai_config(server, **options))
    return {r.id: r for r in summary.results}


def assert_others_ok(results: dict[str, PaperResult]) -> None:
    assert all(r.status == "ok" and r.usage.retries == r.usage.reasks == 0 for i, r in results.items() if i != TARGET.id)


def second_request_text(server: FakeOpenAI) -> str:
    """Everything the model was sent when it was asked again about the target paper."""
    first, second = server.requests_for(MATCH)
    return "\n".join(str(m.get("content")) for m in second.messages)


# -- transport retries ---------------------------------------------------------------------


def test_429_waits_for_retry_after(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    fake_openai.faults.append(Fault("rate_limit", match=MATCH, seconds=1))
    results = run_batch(tmp_path, fake_openai)
    target = results[TARGET.id]
    assert target.status == "ok" and target.usage.retries == 1 and target.usage.requests == 2
    refused, retried = fake_openai.requests_for(MATCH)
    assert refused.fault == "rate_limit"
    waited = retried.at - refused.at
    # At least what the server asked; the upper bound only tells Retry-After from the client's
    # own exponential backoff (up to a minute), not how fast this machine is.
    assert 1.0 <= waited < 30, f"waited {waited:.2f} s after Retry-After: 1"
    assert_others_ok(results)


def test_server_errors_are_retried_until_success(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    fake_openai.faults.append(Fault("server_error", times=2, match=MATCH))
    results = run_batch(tmp_path, fake_openai)
    assert results[TARGET.id].status == "ok"
    assert (results[TARGET.id].usage.retries, results[TARGET.id].usage.requests) == (2, 3)
    assert Run.open(tmp_path / "run").info()["usage"]["retries"] == 2
    assert_others_ok(results)


def test_a_read_timeout_is_retried(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    fake_openai.faults.append(Fault("timeout", match=MATCH, seconds=1.5))
    results = run_batch(tmp_path, fake_openai, timeout=0.5)
    assert results[TARGET.id].status == "ok" and results[TARGET.id].usage.retries == 1
    assert_others_ok(results)


def test_a_dropped_connection_is_retried(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    fake_openai.faults.append(Fault("drop", match=MATCH))
    results = run_batch(tmp_path, fake_openai)
    assert results[TARGET.id].status == "ok" and results[TARGET.id].usage.retries == 1
    assert_others_ok(results)


def test_the_server_going_away_mid_run_and_coming_back(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    papers = fixture_papers(10)
    fake_openai.latency = 0.05
    fake_openai.faults.append(Fault("outage", match=papers[4].abstract[:80], seconds=1.0))
    results = run_batch(tmp_path, fake_openai, papers=papers, concurrency=3)
    assert [r.status for r in results.values()] == ["ok"] * 10
    assert sum(r.usage.retries for r in results.values()) >= 1
    assert read_papers(tmp_path / "run")[4].usage.retries >= 1


def test_retries_are_bounded_and_the_error_says_what_happened(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    fake_openai.faults.append(Fault("server_error", times=100, match=MATCH))
    results = run_batch(tmp_path, fake_openai, max_retries=2)
    target = results[TARGET.id]
    assert target.status == "failed"
    assert target.error == (
        f"BackendError: HTTP 500 from {fake_openai.base_url}/ after 3 attempts: The server had an error."
    )
    assert (target.usage.requests, target.usage.retries) == (3, 2)
    assert target.usage.prompt_tokens == 0  # errors carry no usage
    assert len(fake_openai.requests_for(MATCH)) == 3
    assert_others_ok(results)


# -- validation re-asks and grounding ------------------------------------------------------


@pytest.mark.parametrize("mode", ["tools", "json_schema", "md_json"])
def test_malformed_json_is_sent_back_and_fixed(tmp_path: Path, fake_openai: FakeOpenAI, mode: str) -> None:
    fake_openai.faults.append(Fault("malformed", match=MATCH))
    results = run_batch(tmp_path, fake_openai, mode=mode)
    target = results[TARGET.id]
    assert target.status == "ok" and (target.usage.reasks, target.usage.requests) == (1, 2)
    assert re.search(r"validation errors? for ExtractionDraft", second_request_text(fake_openai))
    assert [c.value for c in target.extraction.claims] == [c.value for c in grounded_answer(TARGET.abstract).claims]
    assert_others_ok(results)


def test_schema_invalid_json_is_sent_back_with_the_errors(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    fake_openai.faults.append(Fault("schema_invalid", match=MATCH))
    results = run_batch(tmp_path, fake_openai)
    assert results[TARGET.id].status == "ok" and results[TARGET.id].usage.reasks == 1
    feedback = second_request_text(fake_openai)
    assert "claims.0.evidence" in feedback and "Field required" in feedback and "claims.0.value" in feedback
    assert_others_ok(results)


def test_keys_the_schema_does_not_define_are_dropped_without_a_reask(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    fake_openai.faults.append(Fault("extra_keys", match=MATCH))
    results = run_batch(tmp_path, fake_openai)
    target = results[TARGET.id]
    assert target.status == "ok" and (target.usage.reasks, target.usage.requests) == (0, 1)
    assert [c.value for c in target.extraction.claims] == [c.value for c in grounded_answer(TARGET.abstract).claims]


def test_an_invented_number_is_sent_back_once_with_the_reason(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    fake_openai.faults.append(Fault("invented_number", match=MATCH))
    results = run_batch(tmp_path, fake_openai)
    target = results[TARGET.id]
    assert target.status == "ok" and target.usage.reasks == 1 and target.rejected == []
    assert f"value {INVENTED_VALUE:g} is not written in the evidence" in second_request_text(fake_openai)
    assert INVENTED_VALUE not in [c.value for c in target.extraction.claims]


def test_a_number_invented_twice_is_rejected_and_never_reaches_claims_csv(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    fake_openai.faults.append(Fault("invented_number", times=5, match=MATCH))
    results = run_batch(tmp_path, fake_openai)
    target = results[TARGET.id]
    # asked again once, then the answer is taken and grounding drops the invented claim
    assert target.status == "ok" and (target.usage.reasks, target.usage.requests) == (1, 2)
    [rejection] = target.rejected
    assert rejection.field == "claims" and rejection.item["value"] == INVENTED_VALUE
    assert rejection.reason == f"value {INVENTED_VALUE:g} is not written in the evidence"
    sent = fake_openai.requests_for(MATCH)
    assert target.usage.prompt_tokens == sum(r.usage["prompt_tokens"] for r in sent)  # the re-ask included
    assert target.usage.completion_tokens == sum(r.usage["completion_tokens"] for r in sent)
    assert [c.value for c in target.extraction.claims] == [c.value for c in grounded_answer(TARGET.abstract).claims]
    with (tmp_path / "run" / "claims.csv").open() as handle:
        values = [float(row["value"]) for row in csv.DictReader(handle)]
    assert INVENTED_VALUE not in values and len(values) == sum(len(r.extraction.claims) for r in results.values())
    assert read_papers(tmp_path / "run")[1].rejected == [rejection]


def test_an_invented_benchmark_is_asked_about_then_cleared_and_its_numbers_kept(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    fake_openai.faults.append(Fault("invented_name", times=5, match=MATCH))
    results = run_batch(tmp_path, fake_openai)
    target = results[TARGET.id]
    expected = grounded_answer(TARGET.abstract).claims
    assert expected, "the target paper needs claims for this test"
    assert target.status == "ok" and (target.usage.reasks, target.usage.requests) == (1, 2)
    assert f"benchmark {INVENTED_BENCHMARK!r} does not occur in the abstract" in second_request_text(fake_openai)
    # every number is kept, without the invented name; each clearing is recorded with its reason
    assert [(c.value, c.benchmark) for c in target.extraction.claims] == [(c.value, None) for c in expected]
    assert {(r.field, r.reason) for r in target.rejected} == {
        ("attribution", f"benchmark {INVENTED_BENCHMARK!r} does not occur in the abstract")
    }
    assert [r.item["value"] for r in target.rejected] == [c.value for c in expected]
    with (tmp_path / "run" / "claims.csv").open() as handle:
        assert INVENTED_BENCHMARK not in handle.read()
    assert_others_ok(results)


def test_an_invented_bound_is_asked_about_then_cleared_and_its_numbers_kept(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    """A bound takes a score off the ranking: one the text does not write is not believed."""
    fake_openai.faults.append(Fault("invented_bound", times=5, match=MATCH))
    results = run_batch(tmp_path, fake_openai)
    target = results[TARGET.id]
    expected = grounded_answer(TARGET.abstract).claims
    assert target.status == "ok" and (target.usage.reasks, target.usage.requests) == (1, 2)
    reason = "bound 'upper' is not written: no 'less than', 'below' or 'at most' before the number"
    assert reason in second_request_text(fake_openai)
    assert [(c.value, c.bound) for c in target.extraction.claims] == [(c.value, None) for c in expected]
    assert {(r.field, r.reason) for r in target.rejected} == {("attribution", reason)}
    with (tmp_path / "run" / "claims.csv").open() as handle:
        assert {row["bound"] for row in csv.DictReader(handle)} == {""}
    assert_others_ok(results)


def test_an_answer_cut_off_by_the_token_limit_fails_clearly_and_a_rerun_retries_it(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    fake_openai.faults.append(Fault("length", match=MATCH))
    results = run_batch(tmp_path, fake_openai, max_tokens=300)
    target = results[TARGET.id]
    assert target.status == "failed"
    assert "cut off at the token limit (finish_reason=length, max_tokens=300)" in target.error
    assert target.usage.completion_tokens > 0  # the cut answer was paid for and is counted
    assert_others_ok(results)
    sent = fake_openai.requests
    again = run_batch(tmp_path, fake_openai, out="rerun", max_tokens=300)
    assert all(r.status == "ok" for r in again.values())
    assert fake_openai.requests == sent + 1  # only the failed paper is sent again


@pytest.mark.parametrize("mode", ["tools", "json"])
def test_a_refusal_fails_that_paper_and_the_batch_goes_on(tmp_path: Path, fake_openai: FakeOpenAI, mode: str) -> None:
    fake_openai.faults.append(Fault("refusal", match=MATCH))
    results = run_batch(tmp_path, fake_openai, mode=mode)
    target = results[TARGET.id]
    assert target.status == "failed"
    assert target.error == "BackendError: the model refused: I'm sorry, but I can't help with that request."
    assert target.usage.requests == 1 and target.usage.reasks == 0  # a refusal is not re-asked
    [refused] = fake_openai.requests_for(MATCH)
    assert target.usage.prompt_tokens == refused.usage["prompt_tokens"] > 0  # paid for, so counted
    info = Run.open(tmp_path / "run").info()
    assert info["usage"]["prompt_tokens"] == sum(r.usage["prompt_tokens"] for r in fake_openai.log)
    assert_others_ok(results)


def test_the_cli_reports_a_failed_paper_and_exits_1(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    fake_openai.faults.append(Fault("refusal", match=MATCH))
    source = write_papers(tmp_path / "papers.jsonl", PAPERS)
    result = CliRunner().invoke(
        app, ["run", str(source), "--out", str(tmp_path / "run"), "--base-url", fake_openai.base_url, "--model", "m"]
    )
    assert result.exit_code == 1
    assert f"failed {TARGET.id}: BackendError: the model refused" in " ".join(result.output.split())


# -- cost cap --------------------------------------------------------------------------------


def test_max_cost_stops_new_requests_and_a_rerun_continues(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    papers = fixture_papers(6)
    fake_openai.latency = 0.1
    capped = run_batch(tmp_path, fake_openai, papers=papers, concurrency=2, max_cost=1e-9)
    statuses = [r.status for r in capped.values()]
    assert statuses.count("ok") == 2 and fake_openai.requests == 2  # the two in flight finished
    for result in capped.values():
        if result.status == "failed":
            assert result.error.startswith("not sent: max_cost $0.0000 reached")
    info = Run.open(tmp_path / "run").info()
    assert info["usage"]["cost_usd"] > 1e-9 and info["counts"]["failed"] == 4
    rerun = run_batch(tmp_path, fake_openai, papers=papers, concurrency=2)
    assert [r.status for r in rerun.values()] == ["ok"] * 6
    assert fake_openai.requests == 6  # the two done are in the journal; each other paper sent once
    assert Run.open(tmp_path / "run").info()["counts"]["resumed"] == 2


# -- a run killed with SIGKILL ----------------------------------------------------------------


def _comparable(run_dir: Path) -> list[dict]:
    """papers.jsonl without usage (a resumed run read some papers from the cache)."""
    return [p.model_dump(exclude={"usage"}) for p in read_papers(run_dir)]


def test_a_run_killed_with_sigkill_resumes_to_the_same_output(tmp_path: Path) -> None:
    papers = fixture_papers(12)
    source = write_papers(tmp_path / "papers.jsonl", papers)
    cache_dir = tmp_path / "cache"
    out = tmp_path / "killed"
    env = {**os.environ, "EXTRACTOR_CACHE_DIR": str(cache_dir), "PYTHONPATH": str(ROOT)}
    with FakeOpenAI(latency=0.2) as server:
        command = [
            sys.executable, "-m", "extractor", "run", str(source), "--out", str(out),
            "--base-url", server.base_url, "--model", "gpt-4o-mini", "--concurrency", "2", "-q",
        ]
        process = subprocess.Popen(command, env=env, cwd=ROOT)
        deadline = time.monotonic() + 60
        while server.requests < 6:
            assert process.poll() is None and time.monotonic() < deadline, "the run ended before it was killed"
            time.sleep(0.02)
        process.kill()
        assert process.wait() == -9
        assert not (out / "papers.jsonl").exists()
        with diskcache.Cache(str(cache_dir)) as cache:
            cached = len(cache)
        assert 0 < cached < 12
        sent = server.requests
        assert subprocess.run(command, env=env, cwd=ROOT).returncode == 0
        assert server.requests - sent == 12 - cached  # each paper not yet cached is sent once

        reference = tmp_path / "reference"
        run([str(source)], reference, openai_config(server, cache_dir=tmp_path / "reference-cache"))

    assert [p.id for p in read_papers(out)] == [p.id for p in papers]
    assert _comparable(out) == _comparable(reference)
    assert (out / "claims.csv").read_bytes() == (reference / "claims.csv").read_bytes()
    assert {p.status for p in read_papers(out)} == {"ok"}


def test_timeout_retries_and_token_limit_are_cli_options(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    fake_openai.faults.append(Fault("timeout", times=5, match=MATCH, seconds=1.0))
    source = write_papers(tmp_path / "papers.jsonl", PAPERS)
    result = CliRunner().invoke(app, [
        "run", str(source), "--out", str(tmp_path / "run"), "--base-url", fake_openai.base_url, "--model", "m",
        "--timeout", "0.3", "--max-retries", "1", "--max-tokens", "100",
    ])
    assert result.exit_code == 1
    target = {p.id: p for p in read_papers(tmp_path / "run")}[TARGET.id]
    assert target.error == f"BackendError: no answer from {fake_openai.base_url}/ within 0.3 s after 2 attempts"
    assert Run.open(tmp_path / "run").info()["max_tokens"] == 100
