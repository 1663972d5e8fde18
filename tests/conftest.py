"""Shared fixtures: every test gets its own cache directory and no inherited API settings."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["tests.conftest_fake"]  # the loopback OpenAI server fixture

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


@pytest.fixture(autouse=True)
def _isolated_environment(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EXTRACTOR_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "EXTRACTOR_MODEL"):
        monkeypatch.delenv(name, raising=False)
