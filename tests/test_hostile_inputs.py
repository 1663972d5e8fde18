"""The faults a hostile or unlucky input still found (docs/faults.md lists them)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from extractor.cli.app import app
from tests.runs import read_papers
from extractor.schema import ClaimDraft

OVERFLOW = "We reach a perplexity of 1e999 on WikiText-103 and 20.5 perplexity on PTB."


def _cli(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.mark.parametrize("field", ["value", "value_max"])
@pytest.mark.parametrize("number", [float("inf"), float("-inf"), float("nan")])
def test_the_schema_refuses_a_non_finite_number(field: str, number: float) -> None:
    values = {"value": 1.0, "value_max": 2.0} | {field: number}
    with pytest.raises(ValidationError):
        ClaimDraft(**values, evidence="x")
    with pytest.raises(ValidationError):  # as an LLM writes it
        ClaimDraft.model_validate_json(json.dumps(values | {"evidence": "x"}))


def test_a_number_too_large_for_a_float_is_no_claim_and_the_run_stays_readable(tmp_path: Path) -> None:
    (tmp_path / "in.jsonl").write_text(json.dumps({"id": "p1", "abstract": OVERFLOW}) + "\n")
    run = _cli("run", str(tmp_path / "in.jsonl"), "-o", str(tmp_path / "run"), "--backend", "rules", "-q")
    assert run.exit_code == 0, run.output
    claims = (tmp_path / "run" / "claims.csv").read_text()
    assert "inf" not in claims and "20.5" in claims
    board = _cli("leaderboard", str(tmp_path / "run"), "-o", str(tmp_path / "lb.xlsx"))
    assert board.exit_code == 0, board.output


def test_a_reader_skips_a_bad_line_warns_once_with_file_and_line_and_exits_1(tmp_path: Path) -> None:
    (tmp_path / "in.jsonl").write_text(
        json.dumps({"id": "p1", "abstract": OVERFLOW}) + "\n"
        + json.dumps({"id": "p2", "abstract": "Our model gets 80.1 accuracy on ImageNet."}) + "\n"
    )
    assert _cli("run", str(tmp_path / "in.jsonl"), "-o", str(tmp_path / "run"), "--backend", "rules", "-q").exit_code == 0
    papers = tmp_path / "run" / "papers.jsonl"
    lines = papers.read_text().splitlines()
    first = json.loads(lines[0])
    first["extraction"]["claims"][0]["value"] = None  # what an older run wrote for 1e999
    papers.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    for command in (
        ["leaderboard", str(tmp_path / "run"), "-o", str(tmp_path / "lb.xlsx")],
        ["review", "export", str(tmp_path / "run"), "-o", str(tmp_path / "review.xlsx")],
        ["report", str(tmp_path / "run"), "-o", str(tmp_path / "report.html")],
    ):
        result = _cli(*command)
        assert result.exit_code == 1, (command, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        warnings = [line for line in result.output.splitlines() if line.startswith("warning:")]
        assert warnings == [f"warning: {papers}:1: line skipped: extraction.claims.0.value: Input should be a valid number"]
    assert (tmp_path / "lb.xlsx").exists() and (tmp_path / "review.xlsx").exists() and (tmp_path / "report.html").exists()


def test_dollar_signs_in_a_paper_id_still_give_the_leaderboard(tmp_path: Path) -> None:
    rows = [
        {"id": "m$\\frac{$1", "abstract": "FooNet achieves 80.1% top-1 accuracy on ImageNet."},
        {"id": "p$2", "abstract": "BarNet achieves 79.3% top-1 accuracy on ImageNet."},
    ]
    (tmp_path / "in.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = _cli("run", str(tmp_path / "in.jsonl"), "-o", str(tmp_path / "run"), "--backend", "rules", "-q")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "run" / "leaderboard.xlsx").stat().st_size > 0


@pytest.mark.parametrize("depth", [100_000, 300])
def test_a_deeply_nested_line_fails_by_name_and_the_batch_goes_on(tmp_path: Path, depth: int) -> None:
    good = [json.dumps({"id": f"g{i}", "abstract": "Our model gets 80.1 accuracy on ImageNet."}) for i in (1, 2)]
    deep = '{"id": "deep", "abstract": "x", "m": ' + "[" * depth + "]" * depth + "}"
    (tmp_path / "in.jsonl").write_text("\n".join([good[0], deep, good[1]]) + "\n")
    _cli("run", str(tmp_path / "in.jsonl"), "-o", str(tmp_path / "run"), "--backend", "rules", "-q")
    results = {r.id: r for r in read_papers(tmp_path / "run")}
    assert results["g1"].status == results["g2"].status == "ok"
    (failed,) = [r for r in results.values() if r.status == "failed"]
    assert "in.jsonl:2" in failed.error and "nested deeper" in failed.error


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_a_utf16_or_utf32_text_file_fails_by_name_not_ok_with_no_claims(tmp_path: Path, encoding: str) -> None:
    source = tmp_path / "abstract.txt"
    text = "Our model gets 80.1% accuracy on ImageNet.\n\nFooNet reaches 79.3% accuracy on ImageNet.\n"
    bom = {"utf-16-be": "\ufeff"}.get(encoding, "")  # utf-16 and utf-32 write their own BOM
    source.write_bytes((bom + text).encode(encoding))
    (tmp_path / "good.txt").write_text(text)
    _cli("run", str(source), str(tmp_path / "good.txt"), "-o", str(tmp_path / "run"), "--backend", "rules", "-q")
    result, *good = read_papers(tmp_path / "run")
    assert result.status == "failed" and [g.status for g in good] == ["ok", "ok"]
    assert "abstract.txt" in result.error and "UTF-" in result.error
    alone = _cli("run", str(source), "-o", str(tmp_path / "alone"), "--backend", "rules", "-q")
    assert alone.exit_code == 2 and "abstract.txt" in alone.output and "UTF-" in alone.output, alone.output


@pytest.mark.parametrize("field", ["metric", "benchmark", "method", "model", "baseline", "setting", "unit"])
def test_a_name_longer_than_the_bound_is_refused_so_every_field_fits_a_cell(field: str) -> None:
    from extractor.schema import MAX_NAME, Benchmark, Method

    assert ClaimDraft(value=1.0, evidence="x", **{field: "n" * MAX_NAME}).model_dump()[field] == "n" * MAX_NAME
    with pytest.raises(ValidationError):
        ClaimDraft(value=1.0, evidence="x", **{field: "n" * (MAX_NAME + 1)})
    with pytest.raises(ValidationError):
        Benchmark(name="n" * (MAX_NAME + 1))
    with pytest.raises(ValidationError):
        Method(name="m", aliases=["n" * (MAX_NAME + 1)])


_FULL_DISK_WRITER = """
import resource, signal, sys
from pathlib import Path
from extractor.runs.writer import RunWriter
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))  # files stop growing, as on a full disk
writer = RunWriter(Path(sys.argv[1]))
try:
    for _ in range(1000):
        writer.add("x" * 1000, "")
    writer.finish({})
except OSError as exc:
    print(exc.filename, exc.strerror)
"""


def test_a_full_disk_during_the_final_write_names_the_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    import subprocess
    import sys

    from tests.conftest import ROOT

    out = tmp_path / "run"
    done = subprocess.run([sys.executable, "-c", _FULL_DISK_WRITER, str(out)], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(str(out / "papers.jsonl")), done.stdout
    assert [p.name for p in out.iterdir() if p.name.endswith(".tmp")] == []


def test_an_answer_without_choices_fails_that_paper_with_a_clear_reason(tmp_path: Path, fake_openai) -> None:
    from extractor.pipeline.runner import run
    from tests.conftest_fake import fixture_papers, openai_config, write_papers
    from tests.fake_openai import Fault

    papers = fixture_papers(2)
    fake_openai.faults.append(Fault("no_choices", match="GANQ", times=10))
    source = write_papers(tmp_path / "papers.jsonl", papers)
    summary = run([str(source)], tmp_path / "run", openai_config(fake_openai, cache_dir=tmp_path / "c", max_retries=0))
    failed = [r for r in summary.results if r.status == "failed"]
    assert len(failed) == 1 and "without a choice" in failed[0].error, [r.error for r in summary.results]
    assert "IndexError" not in failed[0].error


def test_an_id_or_title_too_long_for_a_cell_fails_its_record_by_name(tmp_path: Path) -> None:
    """An id or a title from the input is bounded too (500 and 2,000 characters), so
    every cell of a review sheet fits; the record fails by name and the others are extracted."""
    import json

    from extractor.pipeline.ingest import read_inputs

    abstract = "We propose GANQ. It reaches 83.6% accuracy on GSM8K."
    path = tmp_path / "papers.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in [
        {"id": "x" * 501, "abstract": abstract},
        {"id": "long-title", "title": "T" * 2001, "abstract": abstract},
        {"id": "fine", "title": "T" * 2000, "abstract": abstract.replace("83.6", "84.1")},
        {"id": "i" * 300, "title": "T" * 2001, "abstract": abstract.replace("83.6", "85.2")},
    ]) + "\n", encoding="utf-8")
    first, second, third, fourth = read_inputs([str(path)])
    assert "papers.jsonl:1: id is 501 characters, over 500" in first.error
    assert second.id == "long-title" and "papers.jsonl:2: title is 2,001 characters, over 2,000" in second.error
    assert third.error is None
    assert fourth.id == "i" * 300, "an id within its bound names its record whole"
