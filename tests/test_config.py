"""Run options are checked once, where they are made, with errors that name the option."""

from __future__ import annotations

import pytest

from extractor.config import RunConfig, make_config
from extractor.errors import ConfigError


def test_make_config_refuses_an_unknown_option() -> None:
    with pytest.raises(ConfigError, match="unknown option concurency"):
        make_config(backend="rules", concurency=4)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"mode": "xml"}, "unknown mode 'xml'"),
        ({"concurrency": 0}, "concurrency must be 1 or more"),
        ({"max_retries": -1}, "max_retries must be 0 or more"),
        ({"timeout": 0}, "timeout must be more than 0"),
        ({"temperature": 3}, "temperature must be between 0 and 2"),
    ],
)
def test_run_config_refuses_values_no_run_can_use(change: dict, words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        RunConfig(**change)


def test_make_config_takes_the_environment_after_explicit_values(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("EXTRACTOR_MODEL", "env-model")
    config = make_config(concurrency=3)
    assert (config.backend, config.model, config.base_url, config.concurrency) == ("openai", "env-model", "http://127.0.0.1:9/v1", 3)
    assert make_config(model="given").model == "given"
