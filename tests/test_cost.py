"""``extractor run --dry-run``: requests, tokens and cost counted without sending anything."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from extractor.backends.openai.pricing import cost_usd
from extractor.cli.app import app
from extractor.backends.openai.options import MODES
from extractor.config import RunConfig, make_config
from extractor.errors import ConfigError
from extractor.backends.openai.estimate import prompt_overhead
from extractor.backends.openai.tokens import encoding_for
from extractor.pipeline.dry_run import dry_run
from extractor.pipeline.runner import run
from tests.conftest_fake import fixture_papers, openai_config, write_papers
from tests.fake_openai import FakeOpenAI

runner = CliRunner()


def flat(output: str) -> str:
    """CLI output without rich's line breaks and box lines."""
    return " ".join(re.sub(r"[\u2500-\u257f]", " ", output).split())


def inputs_with_a_duplicate_and_a_bad_line(tmp_path: Path) -> Path:
    papers = fixture_papers(5)
    source = write_papers(tmp_path / "papers.jsonl", papers)
    with source.open("a") as handle:
        handle.write(json.dumps({"id": "again", "abstract": papers[0].abstract}) + "\n")
        handle.write("not json\n")
    return source


def test_a_dry_run_counts_distinct_uncached_abstracts_and_sends_nothing(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    source = inputs_with_a_duplicate_and_a_bad_line(tmp_path)
    config = openai_config(fake_openai)
    before = dry_run([str(source)], config)
    assert fake_openai.requests == 0
    assert (before.papers, before.unreadable, before.distinct, before.cached, before.estimate.requests) == (7, 1, 5, 0, 5)
    assert before.estimate.cost_usd == pytest.approx(cost_usd("gpt-4o-mini", before.estimate.prompt_tokens, before.estimate.completion_tokens))

    run([str(source)], tmp_path / "run", config)
    assert fake_openai.requests == 5 == before.estimate.requests
    after = dry_run([str(source)], config)
    assert (after.cached, after.estimate.requests, after.estimate.prompt_tokens, after.estimate.completion_tokens) == (5, 0, 0, 0)
    assert fake_openai.requests == 5


def test_prompt_tokens_are_the_overhead_plus_each_abstract(tmp_path: Path) -> None:
    papers = fixture_papers(6)
    source = write_papers(tmp_path / "papers.jsonl", papers)
    config = make_config("openai", model="gpt-4o-mini", use_cache=False)
    estimate = dry_run([str(source)], config).estimate
    encoding = encoding_for("gpt-4o-mini")
    abstract_tokens = sum(len(encoding.encode(p.abstract)) for p in papers)
    expected = estimate.requests * estimate.overhead.total + abstract_tokens
    assert estimate.prompt_tokens == pytest.approx(expected, rel=0.01)
    assert 0 < estimate.completion_tokens < abstract_tokens


def test_the_overhead_is_split_into_its_parts_for_every_mode() -> None:
    overheads = {mode: prompt_overhead("gpt-4o-mini", mode) for mode in MODES}
    for overhead in overheads.values():
        assert overhead.instructions + overhead.examples + overhead.schema == overhead.total
        assert overhead.instructions > 100 and overhead.examples > 100 and overhead.schema > 100
    # json and md_json put the schema into the system prompt as indented text
    assert overheads["json"].total > overheads["tools"].total


def test_an_unknown_model_is_estimated_in_tokens_only(tmp_path: Path) -> None:
    source = write_papers(tmp_path / "papers.jsonl", fixture_papers(2))
    estimate = dry_run([str(source)], make_config("openai", model="my-local-model", use_cache=False)).estimate
    assert estimate.cost_usd is None and estimate.prompt_tokens > 0
    assert encoding_for("my-local-model").name == estimate.encoding
    assert "no price for model 'my-local-model'" in dict(estimate.rows())["cost"]


def test_the_rules_backend_has_nothing_to_estimate(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="backend rules sends none"):
        dry_run([str(tmp_path)], RunConfig(backend="rules"))


def test_the_cli_prints_the_estimate_and_writes_no_run(tmp_path: Path) -> None:
    source = inputs_with_a_duplicate_and_a_bad_line(tmp_path)
    out = tmp_path / "run"
    result = runner.invoke(
        app, ["run", str(source), "--out", str(out), "--backend", "openai", "--model", "gpt-4o", "--dry-run"]
    )
    assert result.exit_code == 0, result.output
    for words in ("requests to send", "prompt overhead per request", "gpt-4o at $2.5 in / $10 out"):
        assert words in flat(result.output)
    assert not out.exists()
    refused = runner.invoke(app, ["run", str(source), "--out", str(out), "--dry-run"])
    assert refused.exit_code == 2 and "backend rules sends none" in flat(refused.output)
