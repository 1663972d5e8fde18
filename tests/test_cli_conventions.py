"""The CLI behaves as CLIs do: --version, switches shown as flags, defaults shown one way,
commands in the order a user meets them, counts in the singular and the plural, a progress
total."""

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from extractor import __version__
from extractor.cli.app import COMMAND_ORDER, app
from extractor.pipeline.ingest import count_records
from extractor.text.counting import counted

from .conftest import FIXTURES

COMMANDS = [["run"], ["leaderboard"], ["review", "export"], ["review", "apply"], ["review", "status"],
            ["review", "export-gold"], ["report"], ["eval"], ["schema"], ["serve-local"]]


def test_version() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert (result.exit_code, result.output) == (0, f"extractor {__version__}\n")


def test_commands_are_listed_in_the_order_a_user_meets_them() -> None:
    listed = re.findall(r"^  (\S+)\s", CliRunner().invoke(app, ["--help"]).output.split("Commands:")[1], re.M)
    assert listed == list(COMMAND_ORDER)


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_switches_are_flags_and_defaults_are_shown_one_way(command: list[str]) -> None:
    help_text = CliRunner().invoke(app, [*command, "--help"], terminal_width=200).output
    assert "<bool>" not in help_text
    assert "[default:" not in help_text  # every default is written "(default: X)" in its help
    assert not re.search(r"\(default [^:]", help_text)


def test_negative_switches_have_their_positive_form() -> None:
    run_help = CliRunner().invoke(app, ["run", "--help"], terminal_width=200).output
    assert "--cache / --no-cache" in run_help and "--leaderboard / --no-leaderboard" in run_help
    assert "--charts / --no-charts" in CliRunner().invoke(app, ["leaderboard", "--help"], terminal_width=200).output


def test_examples_are_shown_as_written() -> None:
    run_help = CliRunner().invoke(app, ["run", "--help"], terminal_width=100).output
    assert "\n    extractor run fixtures/abstracts --out runs/demo            # offline rules backend\n" in run_help


def test_counts_take_the_right_number() -> None:
    assert [counted(n, "block") for n in (0, 1, 2, 1200)] == ["0 blocks", "1 block", "2 blocks", "1,200 blocks"]
    assert counted(1, "batch", "batches") == "1 batch" and counted(3, "batch", "batches") == "3 batches"


def test_one_block_is_one_block(tmp_path: Path) -> None:
    source = tmp_path / "one.jsonl"
    source.write_text('{"id": "a", "abstract": "GANQ reaches 83.6% accuracy on GSM8K and 71.2% accuracy on MATH."}\n')
    result = CliRunner().invoke(app, ["run", str(source), "--out", str(tmp_path / "run"), "-q", "--backend", "rules"])
    assert "1 claims" not in result.output and "1 blocks" not in result.output


def test_the_progress_total_is_counted_ahead(tmp_path: Path) -> None:
    assert count_records([str(FIXTURES / "abstracts")]) == 90  # 88 papers and 2 repeats the run drops
    lines = tmp_path / "p.jsonl"
    lines.write_text('{"abstract": "a"}\n\n{"abstract": "b"}\nnot json\n')
    assert count_records([str(lines)]) == 3
    assert count_records([str(lines), "-"]) is None
