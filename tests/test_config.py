"""Run options are checked once, where they are made, with errors that name the option: the
library's by their names, the command line's by their flags."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from extractor.backends.openai.options import OpenAIOptions
from extractor.backends.rules_options import RulesOptions
from extractor.cli.app import app
from extractor.config import RunConfig, make_config
from extractor.errors import ConfigError


def test_make_config_refuses_an_unknown_option_naming_what_the_backend_takes() -> None:
    with pytest.raises(ConfigError, match=r"backend rules has no option concurency \(it takes workers\)"):
        make_config(backend="rules", concurency=4)


def test_an_option_of_another_backend_is_refused_saying_whose_it_is() -> None:
    with pytest.raises(ConfigError, match=r"model is an option of backend openai; this run's is backend rules \(offline"):
        make_config(model="gpt-4o-mini")


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"mode": "xml"}, "mode must be one of 'tools', 'json_schema', 'json' or 'md_json', not 'xml'"),
        ({"concurrency": 0}, "concurrency must be 1 or more, not 0"),
        ({"max_retries": -1}, "max_retries must be 0 or more, not -1"),
        ({"timeout": 0}, "timeout must be more than 0, not 0"),
        ({"temperature": 3}, "temperature must be 2 or less, not 3"),
        ({"base_url": "http://127.0.0.1:99999/v1"}, r"base_url http://127.0.0.1:99999/v1: port 99999 is out of range"),
    ],
)
def test_the_openai_options_refuse_values_no_run_can_use(change: dict, words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        OpenAIOptions.resolve(change)


def test_each_backend_has_its_own_bounded_options() -> None:
    with pytest.raises(ConfigError, match="workers must be 1 or more, not 0"):
        RulesOptions.resolve({"workers": 0})
    with pytest.raises(ConfigError, match="takes OpenAIOptions, not RulesOptions"):
        RunConfig(backend="openai", options=RulesOptions())
    assert isinstance(RunConfig().options, RulesOptions)


def test_make_config_takes_the_environment_after_explicit_values(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("EXTRACTOR_MODEL", "env-model")
    config = make_config(concurrency=3)
    assert config.backend == "openai" and isinstance(config.options, OpenAIOptions)
    assert (config.options.model, config.options.base_url, config.options.concurrency) == ("env-model", "http://127.0.0.1:9/v1", 3)
    assert make_config(model="given").options.model == "given"


def test_the_command_line_speaks_of_flags(tmp_path) -> None:
    source = tmp_path / "p.jsonl"
    source.write_text('{"abstract": "We reach 83.6% on GSM8K."}\n')
    result = CliRunner().invoke(app, ["run", str(source), "--out", str(tmp_path / "r"), "--model", "gpt-4o-mini"])
    assert result.exit_code == 2
    assert "--model is an option of backend openai; this run's is backend rules" in result.output
