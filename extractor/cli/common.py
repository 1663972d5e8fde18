"""What the commands share: options declared once, and the one error path.

Every command is registered through :func:`reports_errors`, so a user mistake or a failure
prints one line (``error: ...``) and exits 1 (the work failed) or 2 (the request was wrong),
never a traceback. Every command prints through :func:`console` and :func:`line`: ids, cells,
paths and reviewer names are data, printed as plain text (no rich markup, control characters
made visible).
"""

from __future__ import annotations

import functools
import logging
import sys
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional, TypeVar

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

from extractor.errors import EXIT_FAILED, ExtractorError, SkippedLineWarning
from extractor.runs.files import STORE_FILE
from extractor.progress import Step
from extractor.text.safe import printable

if TYPE_CHECKING:
    from extractor.runs.run import Run

F = TypeVar("F", bound=Callable[..., object])

RunDir = Annotated[Path, typer.Argument(help="Run directory (the --out of `extractor run`).", exists=True, file_okay=False)]
StoreOption = Annotated[
    Optional[Path],
    typer.Option("--store", help=f"Correction store (default: RUN_DIR/{STORE_FILE}); one store may serve several runs."),
]
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars (the summary and errors are still printed).")]


def open_run(run_dir: Path, store: Path | None = None) -> Run:
    """The run a command reads (:class:`extractor.runs.Run`), opened when the command runs: its
    modules are not the ``--help``'s to load."""
    from extractor.runs.run import Run

    return Run.open(run_dir, store)


@contextmanager
def progress_bars(quiet: bool = False) -> Iterator[Step]:
    """A :data:`~extractor.progress.Step` drawing one rich bar per stage on stderr (none with
    ``quiet``); the bars vanish when the work is done, leaving the command's summary."""
    console = Console(stderr=True)
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=quiet or not console.is_terminal,  # a log file gets the summary only
    )
    tasks: dict[str, object] = {}

    def step(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            tasks[stage] = progress.add_task(stage, total=total)
        progress.update(tasks[stage], completed=done, total=total)  # type: ignore[arg-type]

    with progress:
        yield step


def verbatim(epilog: str) -> str:
    """An epilog for click's help: its indented paragraphs (examples) kept as written, not
    rewrapped (click's ``\\b`` marker)."""
    paragraphs = epilog.strip("\n").split("\n\n")
    return "\n\n".join("\b\n" + p if p.startswith("  ") else p for p in paragraphs)


def console(stderr: bool = True, quiet: bool = False) -> Console:
    """A console that prints text as it is: no markup, no highlighting (data may hold ``[/]``),
    and long lines left for the terminal to wrap."""
    return Console(stderr=stderr, quiet=quiet, markup=False, highlight=False, soft_wrap=True)


def line(*parts: str | tuple[str, str]) -> Text:
    """One line of output, every part shown with its control characters made visible: a plain
    string as it is, a ``(text, style)`` pair in a colour."""
    return Text.assemble(*((printable(p[0]), p[1]) if isinstance(p, tuple) else printable(p) for p in parts))


def fail(message: str, exit_code: int = EXIT_FAILED) -> typer.Exit:
    """Print ``error: message`` on stderr; the caller raises what this returns."""
    typer.echo(f"error: {printable(message)}", err=True)
    return typer.Exit(exit_code)


def os_error_text(error: OSError) -> str:
    """'runs/x/claims.csv: No space left on device' rather than '[Errno 28] ...'."""
    where = error.filename if error.filename is not None else None
    reason = error.strerror or str(error)
    return f"{where}: {reason}" if where else reason


#: An option whose flag is not its name with dashes (``max_cost``: ``--max-cost``).
FLAGS = {"use_cache": "--cache", "fleet": "--base-url"}


def flag(option: str) -> str:
    """The command-line flag of a run option: the library names options, the command flags."""
    return FLAGS.get(option, "--" + option.replace("_", "-"))


def error_text(error: ExtractorError) -> str:
    """An error as the command line says it: options called by their flags."""
    return error.naming({option: flag(option) for option in error.options})


class _PrintedWarnings(logging.Handler):
    """The library's log warnings on stderr as plain text (:func:`printable`): they name paths,
    ids and what servers answered."""

    def emit(self, record: logging.LogRecord) -> None:
        print(printable(record.getMessage()), file=sys.stderr)  # through a progress bar's redirection


def _print_warnings() -> None:
    logger = logging.getLogger("extractor")
    if not any(isinstance(h, _PrintedWarnings) for h in logger.handlers):
        logger.addHandler(_PrintedWarnings(logging.WARNING))


def reports_errors(command: F) -> F:
    """The command, with the package's errors and OS errors turned into one line and an exit
    status, and its log warnings printed as plain text."""

    @functools.wraps(command)
    def wrapper(*args: object, **kwargs: object) -> object:
        _print_warnings()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", SkippedLineWarning)
            try:
                result = command(*args, **kwargs)
            except ExtractorError as exc:
                raise fail(error_text(exc), exc.exit_code) from exc
            except OSError as exc:
                raise fail(os_error_text(exc)) from exc
        skipped = dict.fromkeys(str(w.message) for w in caught if issubclass(w.category, SkippedLineWarning))
        for message in skipped:  # once each, though a command may read a run twice
            typer.echo(f"warning: {printable(message)}", err=True)
        if skipped:
            raise typer.Exit(EXIT_FAILED)
        return result

    return wrapper  # type: ignore[return-value]
