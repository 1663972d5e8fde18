"""The command line: thin commands over the library. Each module adds its commands to ``app``."""

from __future__ import annotations

import typer

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


from . import run_cmd, schema_cmd, serve_cmd  # noqa: E402,F401  (registers commands)
from . import eval_cmd  # noqa: E402,F401
from . import report_cmd, review_cmd  # noqa: E402,F401
from . import leaderboard_cmd  # noqa: E402,F401


def main() -> None:
    app()
