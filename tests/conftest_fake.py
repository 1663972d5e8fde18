"""The ``fake_openai`` fixture and helpers for runs of the openai backend against it.

tests/conftest.py registers the fixture for every test; a test module imports the helpers it
needs (``from tests.conftest_fake import openai_config, ...``) and scripts the server in the test: ``fake_openai.faults.append(Fault("rate_limit"))``,
``fake_openai.refuse.add("json_schema")``, ``fake_openai.latency = 0.05``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from extractor.config import RunConfig, make_config
from extractor.pipeline.ingest import Paper, read_inputs
from tests.conftest import FIXTURES
from tests.fake_openai import FakeOpenAI

DIGEST = FIXTURES / "abstracts" / "daily-papers.txt"


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


def fixture_papers(count: int) -> list[Paper]:
    """The first ``count`` abstracts of the Daily Papers fixture (the first is GANQ's)."""
    papers = [p for p in read_inputs([str(DIGEST)]) if not p.error]
    return papers[:count]


def write_papers(path: Path, papers: list[Paper]) -> Path:
    path.write_text("".join(json.dumps({"id": p.id, "abstract": p.abstract}) + "\n" for p in papers))
    return path


def openai_config(server: FakeOpenAI, **options: object) -> RunConfig:
    """A config for the openai backend against ``server``, cached in the test's cache dir."""
    settings: dict = {
        "backend": "openai",
        "model": "gpt-4o-mini",
        "base_url": server.base_url,
        "api_key": "test-key",
        "timeout": 5.0,
        "cache_dir": Path(os.environ["EXTRACTOR_CACHE_DIR"]),
    }
    settings.update(options)
    return make_config(**settings)
