"""The gold validators (``fixtures/gold/build_dev.py``, ``fixtures/gold/check_heldout_new.py``)
check contract-version-3 lines: every claim says ``proposed``, and names may be written in the
title (fixtures/gold/V3.md). Version-2 lines keep the version-2 rules."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

GOLD = Path(__file__).resolve().parents[1] / "fixtures" / "gold"
TITLE = "SympFormer: Inertial Attention Blocks"
ABSTRACT = "We propose a new attention block. Our model reaches 81.1 F1 on SQuAD."


def _module(name: str):
    spec = importlib.util.spec_from_file_location(name, GOLD / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build_dev = _module("build_dev")
check_heldout_new = _module("check_heldout_new")


def _line(version: int | None, proposed: object = True, subject=(("SympFormer",),)) -> dict:
    claim = {
        "value": 81.1, "value_max": None, "unit": None, "metric": ["f1"], "benchmark": ["SQuAD"],
        "subject": [list(s) for s in subject] if subject else None, "proposed": proposed,
        "kind": "score", "direction": None, "baseline": None, "setting": None,
        "evidence": "Our model reaches 81.1 F1 on SQuAD",
    }
    if proposed is None:
        del claim["proposed"]
    line = {
        "id": "p-1", "methods": [["SympFormer"]], "benchmarks": [["SQuAD"]], "params_b": [],
        "claims": [claim], "optional": {"methods": [], "benchmarks": [], "values": []},
        "notes": "", "source": "test",
    }
    if version is not None:
        line["version"] = version
    return line


def _build_dev(line: dict) -> list[str]:
    return build_dev._problems(line, ABSTRACT, TITLE)[0]


def _check_heldout_new(line: dict) -> list[str]:
    problems: list[str] = []
    check_heldout_new.check_paper(line, ABSTRACT, problems, TITLE)
    return problems


@pytest.mark.parametrize("validate", [_build_dev, _check_heldout_new])
def test_v3_names_may_be_written_in_the_title(validate):
    assert validate(_line(3)) == []


@pytest.mark.parametrize("validate", [_build_dev, _check_heldout_new])
def test_v2_names_must_be_written_in_the_abstract(validate):
    problems = validate(_line(None, proposed=None))
    assert problems and all("SympFormer" in p for p in problems)


@pytest.mark.parametrize("validate", [_build_dev, _check_heldout_new])
def test_v3_claim_without_proposed_is_a_problem(validate):
    problems = validate(_line(3, proposed=None))
    assert len(problems) == 1 and "proposed" in problems[0]


@pytest.mark.parametrize("validate", [_build_dev, _check_heldout_new])
def test_v3_proposed_must_be_a_boolean(validate):
    problems = validate(_line(3, proposed="yes"))
    assert len(problems) == 1 and "proposed" in problems[0]


@pytest.mark.parametrize("validate", [_build_dev, _check_heldout_new])
def test_unknown_version_is_a_problem(validate):
    problems = validate(_line(4))
    assert len(problems) == 1 and "version" in problems[0]


def test_v3_proposed_claim_may_have_no_subject():
    """A paper that never names its method: the claim is the paper's, with no subject."""
    line = _line(3, subject=None)
    assert _build_dev(line) == [] and _check_heldout_new(line) == []


@pytest.mark.parametrize("name", ["dev.jsonl", "tune-new.jsonl", "tune-scirex.jsonl"])
def test_migrated_sets_are_version_3_with_proposed_on_every_claim(name):
    lines = [json.loads(t) for t in (GOLD / name).read_text(encoding="utf-8").splitlines() if t.strip()]
    assert lines and all(line["version"] == 3 for line in lines)
    assert all(isinstance(c["proposed"], bool) for line in lines for c in line["claims"])


def test_dev_build_merges_only_the_dev_parts():
    """Held-out part files live in ``parts/`` too; the dev build must neither read nor fail on them."""
    assert [p.name for p in build_dev.PARTS] == ["a.jsonl", "b.jsonl", "c.jsonl"]
    lines, problems, _ = build_dev.build()
    assert problems == [] and len(lines) == 88
