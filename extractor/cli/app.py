"""The ``extractor`` command: one Typer app, each command a thin function over the library,
registered with the one error path of :func:`~extractor.cli.common.reports_errors`, in the order
a user meets them."""

from __future__ import annotations

from typing import Annotated

import click
import typer
from typer.core import TyperGroup

from extractor.cli import (
    eval_cmd,
    leaderboard_cmd,
    report_cmd,
    review_cmd,
    run_cmd,
    schema_cmd,
    serve_cmd,
)
from extractor.cli.common import reports_errors, verbatim
from extractor.version import __version__

#: The commands as a user meets them: extract, compare, correct, look, measure, then the tools.
COMMAND_ORDER = ("run", "leaderboard", "review", "report", "eval", "schema", "serve-local")


class _InOrder(TyperGroup):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(super().list_commands(ctx), key=lambda name: (COMMAND_ORDER + (name,)).index(name))


app = typer.Typer(
    name="extractor",
    cls=_InOrder,
    help="Turn ML paper abstracts into grounded, comparable results tables.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # click's plain help: flags without types, examples as written
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"extractor {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", help="Print the version and exit.", callback=_print_version, is_eager=True)
    ] = False,
) -> None:
    """Turn ML paper abstracts into grounded, comparable results tables."""


app.command("run", epilog=verbatim(run_cmd.RUN_EXAMPLES))(reports_errors(run_cmd.run_command))
app.command("leaderboard", epilog=verbatim(leaderboard_cmd.LEADERBOARD_EXAMPLES))(reports_errors(leaderboard_cmd.leaderboard_command))
app.add_typer(review_cmd.review_app, name="review")
app.command("report", epilog=verbatim("Example:\n\n  extractor report runs/demo"))(reports_errors(report_cmd.report_command))
app.command("eval", epilog=verbatim(eval_cmd.EVAL_EXAMPLES))(reports_errors(eval_cmd.eval_command))
app.command("schema")(reports_errors(schema_cmd.schema_command))
app.command("serve-local", epilog=verbatim(serve_cmd.SERVE_EXAMPLES))(reports_errors(serve_cmd.serve_local))


def main() -> None:
    app()
