"""The ``extractor`` command: one Typer app, each command a thin function over the library,
registered with the one error path of :func:`~extractor.cli.common.reports_errors`."""

from __future__ import annotations

import typer

from extractor.cli import (
    eval_cmd,
    leaderboard_cmd,
    report_cmd,
    review_cmd,
    run_cmd,
    schema_cmd,
    serve_cmd,
)
from extractor.cli.common import reports_errors

app = typer.Typer(
    name="extractor",
    help="Turn ML paper abstracts into grounded, comparable results tables.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """Turn ML paper abstracts into grounded, comparable results tables."""


app.command("run", epilog=run_cmd.RUN_EXAMPLES)(reports_errors(run_cmd.run_command))
app.command("leaderboard", epilog=leaderboard_cmd.LEADERBOARD_EXAMPLES)(reports_errors(leaderboard_cmd.leaderboard_command))
app.add_typer(review_cmd.review_app, name="review")
app.command("report", epilog="Example:\n\n  extractor report runs/demo --out runs/demo/report.html")(reports_errors(report_cmd.report_command))
app.command("eval", epilog=eval_cmd.EVAL_EXAMPLES)(reports_errors(eval_cmd.eval_command))
app.command("schema")(reports_errors(schema_cmd.schema_command))
app.command("serve-local", epilog=serve_cmd.SERVE_EXAMPLES)(reports_errors(serve_cmd.serve_local))


def main() -> None:
    app()
