"""``--batch-export`` and ``--batch-import``: the requests written for any batch engine and its
output files read back, nothing sent by the tool. The engine is the loopback server's
``run_batch_file`` (what ``vllm run-batch`` does), and its Batch API for "an engine accepts it".
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
from openai import AsyncOpenAI
from typer.testing import CliRunner

from extractor.backends.openai.batch_files import BATCH_DIR, STATE_FILE, TWIN_SUFFIX
from extractor.cli.app import app
from extractor.config import RunConfig, make_config
from extractor.errors import ConfigError
from extractor.pipeline.runner import export_batch, run
from extractor.runs.writer import CLAIMS_FILE, PAPERS_FILE
from tests.conftest_fake import fixture_papers, openai_config, write_papers
from tests.fake_openai import FakeOpenAI, Fault

ENDPOINT = "/v1/chat/completions"


def offline_config(cache_dir: Path, *files: Path, **options: object) -> RunConfig:
    """The openai backend with no key and no base URL: an export, or an import of ``files``."""
    settings: dict = {"model": "gpt-4o-mini", "cache_dir": cache_dir}
    settings["batch_import" if files else "batch_export"] = files if files else True
    return make_config("openai", **{**settings, **options})


def source(tmp_path: Path, count: int) -> str:
    return str(write_papers(tmp_path / "papers.jsonl", fixture_papers(count)))


def exported(out: Path) -> list[Path]:
    return sorted(p for p in (out / BATCH_DIR).glob("input-*.jsonl") if not p.name.endswith(TWIN_SUFFIX))


def answer(server: FakeOpenAI, files: list[Path], out: Path, name: str) -> Path:
    """Every request of ``files`` answered into one output file, as an engine run outside the tool."""
    output = out / name
    lines = []
    for number, file in enumerate(files):
        part = out / f".{name}.{number}"
        server.run_batch_file(file, part)
        lines.append(part.read_text())
    output.write_text("".join(lines))
    return output


def test_an_export_sends_nothing_and_writes_lines_the_batch_api_accepts(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    out = tmp_path / "run"
    summary = export_batch([source(tmp_path, 6)], out, offline_config(tmp_path / "c"))
    assert fake_openai.requests == 0 and not (out / PAPERS_FILE).exists()
    assert summary.identity["mode"] == "json_schema" and summary.requests == 6
    [file] = [f.path for f in summary.files]
    lines = [json.loads(line) for line in file.read_text().splitlines()]
    for line in lines:
        assert set(line) == {"custom_id", "method", "url", "body"} and (line["method"], line["url"]) == ("POST", ENDPOINT)
        assert len(line["custom_id"]) <= 64  # Together's limit
        assert line["body"]["model"] == "gpt-4o-mini" and line["body"]["response_format"]["type"] == "json_schema"
    twins = [json.loads(line) for line in summary.files[0].twin.read_text().splitlines()]
    assert twins == [{"custom_id": line["custom_id"], "body": line["body"]} for line in lines]

    async def submit() -> dict:  # an engine takes it: the Batch API of the loopback server runs every line
        client = AsyncOpenAI(base_url=fake_openai.base_url, api_key="k")
        uploaded = await client.files.create(file=file, purpose="batch")
        batch = await client.batches.create(input_file_id=uploaded.id, endpoint=ENDPOINT, completion_window="24h")
        while batch.status not in ("completed", "failed"):
            await asyncio.sleep(0.02)
            batch = await client.batches.retrieve(batch.id)
        await client.close()
        return batch.model_dump()

    batch = asyncio.run(submit())
    assert batch["status"] == "completed" and batch["request_counts"]["completed"] == 6

    again = export_batch([source(tmp_path, 6)], out, offline_config(tmp_path / "c"))
    assert [f.path for f in again.files] == [file]  # waiting requests are not written twice


def test_answers_imported_with_truncated_ones_end_ok_after_the_follow_up_and_invent_nothing(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    papers = source(tmp_path, 20)
    online = run([papers], tmp_path / "online", openai_config(fake_openai, cache_dir=tmp_path / "c0", mode="json_schema"))
    assert online.failed == 0
    fake_openai.log.clear()
    out = tmp_path / "run"
    export_batch([papers], out, offline_config(tmp_path / "c"))
    truncated = [p.abstract for p in fixture_papers(20)][::10]  # 2 of 20: their JSON cut in half
    fake_openai.faults.extend(Fault("malformed", match=abstract[:60]) for abstract in truncated)
    first = answer(fake_openai, exported(out), tmp_path, "out-1.jsonl")

    summary = run([papers], out, offline_config(tmp_path / "c", first))
    said = summary.info["batch_import"]
    assert (said["taken"], said["reasked"], said["failed"], said["pending"]) == (18, 2, 0, 2)
    assert summary.info["counts"]["ok"] == 18
    [follow] = said["waiting"]
    assert "round2" in follow
    pending = [r for r in summary.results if r.status == "failed"]
    assert all(r.error.startswith("BackendError: pending: no answer imported yet") for r in pending)

    second = answer(fake_openai, [out / BATCH_DIR / follow], tmp_path, "out-2.jsonl")
    done = run([papers], out, offline_config(tmp_path / "c", second))
    assert done.failed == 0 and done.info["batch_import"]["waiting"] == []
    assert (out / CLAIMS_FILE).read_text() == (tmp_path / "online" / CLAIMS_FILE).read_text()  # none invented
    reasked = [r for r in done.results if r.abstract in truncated]
    assert [(r.usage.requests, r.usage.reasks) for r in reasked] == [(2, 1), (2, 1)]
    # tokens from the lines' usage: what the engine reported for the 22 answers
    reported = sum(r.usage["prompt_tokens"] for r in fake_openai.log if r.usage)
    assert done.info["usage"]["prompt_tokens"] == reported


def test_importing_the_same_file_twice_changes_nothing(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    papers = source(tmp_path, 5)
    out = tmp_path / "run"
    export_batch([papers], out, offline_config(tmp_path / "c"))
    fake_openai.faults.append(Fault("invented_number", match="GANQ"))  # one follow-up
    output = answer(fake_openai, exported(out), tmp_path, "out.jsonl")
    run([papers], out, offline_config(tmp_path / "c", output))
    before = [(out / name).read_text() for name in (PAPERS_FILE, CLAIMS_FILE, f"{BATCH_DIR}/{STATE_FILE}")]
    files = sorted((out / BATCH_DIR).iterdir())
    again = run([papers], out, offline_config(tmp_path / "c", output, output))
    assert [(out / name).read_text() for name in (PAPERS_FILE, CLAIMS_FILE, f"{BATCH_DIR}/{STATE_FILE}")] == before
    assert sorted((out / BATCH_DIR).iterdir()) == files
    assert again.info["batch_import"]["taken"] == 0 and again.info["batch_import"]["pending"] == 1


def test_error_lines_fail_their_papers_by_name_and_unreadable_lines_are_named(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    papers = source(tmp_path, 4)
    out = tmp_path / "run"
    export_batch([papers], out, offline_config(tmp_path / "c"))
    fake_openai.faults.append(Fault("server_error", match="GANQ"))
    output = answer(fake_openai, exported(out), tmp_path, "out.jsonl")
    text = output.read_text()
    output.write_text(f"<html>502</html>\n{json.dumps({'custom_id': ['x']})}\n{json.dumps({'custom_id': 'r1-nothing'})}\n{text}")
    summary = run([papers], out, offline_config(tmp_path / "c", output))
    [failed] = [r for r in summary.results if r.status == "failed"]
    assert "GANQ" in failed.abstract and "HTTP 500 in out.jsonl:" in failed.error and "--batch-export" in failed.error
    problems = summary.info["batch_import"]["problems"]
    assert problems[:3] == [
        "out.jsonl:1 is not JSON",
        "out.jsonl:2 has a custom_id that is not a string (list)",
        "out.jsonl:3: custom_id 'r1-nothing' is no request of this run's exported files",
    ]
    assert summary.info["counts"]["ok"] == 3 and summary.info["batch_import"]["pending"] == 0
    # exported again, the failed paper's request is written anew, and its answer is taken
    [file] = [f.path for f in export_batch([papers], out, offline_config(tmp_path / "c")).files]
    again = run([papers], out, offline_config(tmp_path / "c", answer(fake_openai, [file], tmp_path, "again.jsonl")))
    assert again.failed == 0


def test_files_imported_one_at_a_time_leave_the_rest_pending(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    papers = source(tmp_path, 6)
    out = tmp_path / "run"
    export_batch([papers], out, offline_config(tmp_path / "c"))
    lines = answer(fake_openai, exported(out), tmp_path, "all.jsonl").read_text().splitlines(keepends=True)
    (tmp_path / "a.jsonl").write_text("".join(lines[:2]))
    (tmp_path / "b.jsonl").write_text("".join(lines[2:]))
    part = run([papers], out, offline_config(tmp_path / "c", tmp_path / "a.jsonl"))
    assert part.info["counts"]["ok"] == 2 and part.info["batch_import"]["pending"] == 4
    rest = run([papers], out, offline_config(tmp_path / "c", tmp_path / "b.jsonl"))
    assert rest.failed == 0 and rest.info["counts"]["resumed"] == 2


def test_the_together_and_mistral_lines_come_back_the_same(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    papers = source(tmp_path, 3)
    out = tmp_path / "run"
    [file] = export_batch([papers], out, offline_config(tmp_path / "c")).files
    summary = run([papers], out, offline_config(tmp_path / "c", answer(fake_openai, [file.twin], tmp_path, "t.jsonl")))
    assert summary.failed == 0


@pytest.mark.parametrize(
    ("backend", "options", "message"),
    [
        ("rules", {"batch_export": True}, "batch_export is an option of backend openai"),
        ("openai", {"batch_export": True, "batch": True}, "choose one"),
        ("openai", {"batch_export": True, "batch_import": ("x",)}, "in a run of their own"),
    ],
)
def test_options_an_export_or_import_cannot_take_are_refused(backend: str, options: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        make_config(backend, **options)


def test_the_cli_exports_without_a_key_and_says_how_to_run_the_files(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    papers = source(tmp_path, 3)
    out = tmp_path / "run"
    env = {"EXTRACTOR_CACHE_DIR": str(tmp_path / "c"), "OPENAI_API_KEY": "", "OPENAI_BASE_URL": ""}
    result = CliRunner().invoke(app, ["run", papers, "--out", str(out), "--backend", "openai", "--model", "m", "--batch-export"], env=env)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "3 requests in 1 file" in text and "vllm run-batch -i" in text and "--model m" in text
    assert "--batch-import" in text and TWIN_SUFFIX in text
    output = answer(fake_openai, exported(out), tmp_path, "out.jsonl")
    lines = output.read_text().splitlines(keepends=True)
    (tmp_path / "part.jsonl").write_text(lines[0])
    result = CliRunner().invoke(app, [
        "run", papers, "--out", str(out), "--backend", "openai", "--model", "m", "--batch-import", str(tmp_path / "part.jsonl"), "-q",
    ], env=env)
    assert result.exit_code == 0, result.output  # pending is not failed: the next file is imported later
    assert "1 ok, 0 failed, 2 pending" in result.output and "failed " not in result.output.replace("0 failed,", "")
    missing = CliRunner().invoke(app, [
        "run", papers, "--out", str(out), "--backend", "openai", "--model", "m", "--batch-import", str(tmp_path / "nothing.jsonl"),
    ], env=env)
    assert missing.exit_code == 2 and "--batch-import" in missing.output and "no such file" in missing.output
    started = time.monotonic()
    result = CliRunner().invoke(app, [
        "run", papers, "--out", str(out), "--backend", "openai", "--model", "m", "--batch-import", str(output), "-q",
    ], env=env)
    assert result.exit_code == 0, result.output
    assert "3 ok, 0 failed" in result.output and time.monotonic() - started < 60
