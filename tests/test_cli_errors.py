"""Every command explains itself (--help) and answers a user mistake with one line and an exit
status, never a traceback: 2 when the request is wrong, 1 when the work failed."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from extractor.cli.app import app
from tests.conftest import ROOT

runner = CliRunner()


def command_paths(group: Any, prefix: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every command and subcommand (typer ships its own click, so groups are found by shape)."""
    for name, command in group.commands.items():
        yield (*prefix, name), command
        if hasattr(command, "commands"):
            yield from command_paths(command, (*prefix, name))


COMMANDS = list(command_paths(typer.main.get_command(app)))


def test_the_command_tree_has_every_command() -> None:
    names = {" ".join(path) for path, _ in COMMANDS}
    assert names >= {
        "run", "leaderboard", "report", "eval", "schema", "serve-local",
        "review", "review export", "review apply", "review status", "review export-gold",
    }  # fmt: skip


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS], ids=lambda p: " ".join(p))
def test_every_command_and_subcommand_has_help(path: tuple[str, ...]) -> None:
    command = dict(COMMANDS)[path]
    assert command.help, f"{' '.join(path)} has no help text"
    result = runner.invoke(app, [*path, "--help"])
    assert result.exit_code == 0 and "Usage:" in result.output, result.output


def one_line_error(result: object, exit_code: int, words: str) -> None:
    """The run ended through typer.Exit with ``exit_code`` and said ``words`` on one line."""
    assert isinstance(result.exception, SystemExit), result.exception  # type: ignore[attr-defined]
    assert result.exit_code == exit_code, result.output  # type: ignore[attr-defined]
    assert "Traceback" not in result.output  # type: ignore[attr-defined]
    errors = [line for line in result.output.splitlines() if line.startswith("error: ")]  # type: ignore[attr-defined]
    assert len(errors) == 1 and words in errors[0], result.output  # type: ignore[attr-defined]


@pytest.fixture
def not_a_run(tmp_path: Path) -> Path:
    empty = tmp_path / "empty"
    empty.mkdir()
    return empty


@pytest.mark.parametrize(
    "args",
    [
        ["leaderboard", "{dir}", "--out", "{tmp}/board.xlsx"],
        ["report", "{dir}", "--out", "{tmp}/report.html"],
        ["eval", "{dir}", "--gold", "fixtures/gold/dev.jsonl"],
        ["review", "export", "{dir}", "--out", "{tmp}/review.xlsx"],
        ["review", "status", "{dir}"],
        ["review", "export-gold", "{dir}", "--out", "{tmp}/gold.jsonl"],
    ],
    ids=lambda a: " ".join(a[:2]),
)
def test_a_directory_that_holds_no_run_is_named(args: list[str], not_a_run: Path, tmp_path: Path) -> None:
    argv = [a.format(dir=not_a_run, tmp=tmp_path) for a in args]
    one_line_error(runner.invoke(app, argv), 2, "not a run directory")


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "demo"
    result = runner.invoke(app, ["run", "fixtures/abstracts/arxiv-listing-a.txt", "--out", str(out), "--backend", "rules", "-q"])
    assert result.exit_code == 0, result.output
    return out


def test_run_with_an_unknown_backend(tmp_path: Path) -> None:
    result = runner.invoke(app, ["run", "fixtures/abstracts", "--out", str(tmp_path / "r"), "--backend", "nope"])
    one_line_error(result, 2, "unknown backend 'nope'")


def test_run_openai_without_a_key_or_url(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["run", "fixtures/abstracts", "--out", str(tmp_path / "r"), "--backend", "openai"],
        env={"OPENAI_API_KEY": "", "OPENAI_BASE_URL": ""},
    )  # fmt: skip
    one_line_error(result, 2, "needs a key (OPENAI_API_KEY) or a --base-url (or OPENAI_BASE_URL)")


def test_leaderboard_to_an_unknown_format(demo_run: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["leaderboard", str(demo_run), "--out", str(tmp_path / "board.txt")])
    one_line_error(result, 2, "must end in .xlsx or .csv")


def test_review_apply_without_a_reviewer_name(demo_run: Path, tmp_path: Path) -> None:
    sheet = tmp_path / "review.xlsx"
    assert runner.invoke(app, ["review", "export", str(demo_run), "--out", str(sheet)]).exit_code == 0
    one_line_error(runner.invoke(app, ["review", "apply", str(sheet), str(demo_run), "-r", " "]), 2, "--reviewer needs a name")


def test_schema_into_a_place_that_cannot_be_written(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    one_line_error(runner.invoke(app, ["schema", "--out", str(blocker / "schemas")]), 1, "error:")


def test_serve_local_that_cannot_start_is_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runner.invoke(app, ["serve-local", "--port", str(port)])
    one_line_error(result, 1, "error:")


def test_run_with_an_unknown_mode(tmp_path: Path) -> None:
    result = runner.invoke(app, ["run", "fixtures/abstracts", "--out", str(tmp_path / "r"), "--backend", "openai", "--mode", "xml"])
    one_line_error(result, 2, "--mode must be one of 'tools', 'json_schema', 'json' or 'md_json', not 'xml'")


def test_run_with_a_prompt_version_that_does_not_exist(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["run", "fixtures/abstracts", "--out", str(tmp_path / "r"), "--prompt-version", "nope",
              "--backend", "openai", "--base-url", "http://127.0.0.1:1/v1", "--model", "m"],
    )  # fmt: skip
    one_line_error(result, 2, "prompt version 'nope' is incomplete or missing")


def test_eval_with_a_gold_file_that_is_not_utf8_names_its_line(demo_run: Path, tmp_path: Path) -> None:
    gold = tmp_path / "gold.jsonl"
    lines = (ROOT / "fixtures" / "gold" / "dev.jsonl").read_bytes().splitlines(keepends=True)
    gold.write_bytes(lines[0] + b'{"id": "caf\xe9"}\n')  # Latin-1, as a spreadsheet may save it
    result = runner.invoke(app, ["eval", str(demo_run), "--gold", str(gold)])
    one_line_error(result, 2, f"{gold}:2: not UTF-8 (byte 0xe9 at column 12); save the gold file as UTF-8")

