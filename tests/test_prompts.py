"""Prompt templates: loading, rendering, the content hash and the few-shot examples."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from extractor.backends.openai import prompts
from extractor.backends.openai.prompts import (
    PROMPT_FILES,
    available_versions,
    load_prompt,
)
from extractor.backends.openai.options import DEFAULT_PROMPT_VERSION, OpenAIOptions
from extractor.errors import ConfigError
from extractor.eval.score import Counts, read_gold, score_attribution
from extractor.grounding import ground, problems

GOLD = Path(__file__).resolve().parent.parent / "fixtures" / "gold" / "dev.jsonl"


@pytest.mark.parametrize("version", ["v1", "v2", "v3"])
def test_the_examples_are_grounded_dev_gold_papers_and_at_most_two(version: str) -> None:
    prompt = load_prompt(version)
    gold_ids = {json.loads(line)["id"] for line in GOLD.read_text().splitlines() if line.strip()}
    assert 1 <= len(prompt.examples) <= 2
    for example in prompt.examples:
        assert example.id in gold_ids
        assert problems(example.output, example.abstract) == []
        assert example.output.claims, "an example without claims teaches little"
        assert example.output.model_dump_json(exclude_defaults=True) in prompt.system


def test_v3_is_the_default_and_v1_and_v2_still_read() -> None:
    assert DEFAULT_PROMPT_VERSION == OpenAIOptions().prompt_version == load_prompt().version == "v3"
    assert {"v1", "v2", "v3"} <= set(available_versions())


@pytest.mark.parametrize("version", ["v3"])  # the dev gold is version 3; v2's examples carry no proposed
def test_the_examples_are_attributed_as_the_dev_gold_is(version: str) -> None:
    """Annotated by hand per docs/ANNOTATION.md; scored with eval's rules, every claim is a
    correct tuple with the right kind against the (independently annotated) dev gold."""
    gold = {paper.id: paper for paper in read_gold(GOLD)}
    for example in load_prompt(version).examples:
        extraction, _ = ground(example.output, example.abstract, example.id)
        score = score_attribution(extraction.claims, gold[example.id].claims)
        assert score.tuples == Counts(tp=len(gold[example.id].claims)), score.wrong
        assert score.wrong == []


def test_the_v3_examples_say_which_numbers_are_the_proposed_methods() -> None:
    """Contract v3: a claim of the paper's own method says proposed; a baseline's does not.
    The method names below are the ones each example abstract says it proposes."""
    proposed_names = {"GANQ", "ODS"}
    examples = load_prompt("v3").examples
    claims = [claim for example in examples for claim in example.output.claims]
    assert {claim.proposed for claim in claims} == {True, False}
    for claim in claims:
        assert claim.proposed == (claim.method in proposed_names), claim
    assert '"proposed":true' in load_prompt("v3").system


def test_v3_asks_for_title_names_proposed_and_the_two_context_cases() -> None:
    instructions = load_prompt("v3").instructions
    assert "title" in instructions and "Leave out names that occur only in the title" not in instructions
    assert "proposed: true" in instructions
    assert "exactly two cases" in instructions and "exactly one named benchmark" in instructions


def test_messages_carry_the_abstract_verbatim_between_tags() -> None:
    abstract = "Braces {{ x }} {% y %} and $dollars$ and $title stay as written: 83.6%."
    system, user = load_prompt("v1").messages(abstract, title="A $1 title")
    assert system["role"] == "system" and "$examples" not in system["content"]
    assert user["role"] == "user"
    assert f"<abstract>\n{abstract}\n</abstract>" in user["content"]
    assert "A $1 title" in user["content"]
    assert "Title: (none)" in load_prompt("v1").user(abstract, None)


def _copy_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(prompts.PROMPTS_DIR / "v1", tmp_path / "v1")
    monkeypatch.setattr(prompts, "PROMPTS_DIR", tmp_path)
    load_prompt.cache_clear()
    return tmp_path / "v1"


def test_the_hash_follows_the_content_of_every_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    original = load_prompt("v1").hash
    copy = _copy_version(tmp_path, monkeypatch)
    try:
        assert load_prompt("v1").hash == original
        hashes = {original}
        for name in PROMPT_FILES:
            path = copy / name
            path.write_text(path.read_text() + "\n")
            load_prompt.cache_clear()
            hashes.add(load_prompt("v1").hash)
        assert len(hashes) == len(PROMPT_FILES) + 1
    finally:
        load_prompt.cache_clear()


def test_a_missing_version_names_the_ones_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = _copy_version(tmp_path, monkeypatch)
    try:
        (copy / "user.md").unlink()
        with pytest.raises(ConfigError, match=r"'v9' is incomplete or missing.*versions found: v1"):
            load_prompt("v9")
        with pytest.raises(ConfigError, match=r"missing user\.md"):
            load_prompt("v1")
    finally:
        load_prompt.cache_clear()


def test_every_file_of_prompts_reaches_the_package() -> None:
    """The wheel's build backend (flit_core) ships what lies inside extractor/ but does not enter a
    linked directory, so extractor/data/prompts links each file of prompts/: a file added to
    prompts/ without its link would be missing from an installed package."""
    source = Path(__file__).resolve().parent.parent / "prompts"
    in_repo = sorted(p.relative_to(source).as_posix() for p in source.rglob("*") if p.is_file())
    in_package = sorted(p.relative_to(prompts.PROMPTS_DIR).as_posix()
                        for p in prompts.PROMPTS_DIR.rglob("*") if p.is_file())
    assert in_package == in_repo
    assert all(not (prompts.PROMPTS_DIR / name).parent.is_symlink() for name in in_package)
    assert all((prompts.PROMPTS_DIR / name).read_bytes() == (source / name).read_bytes() for name in in_repo)
