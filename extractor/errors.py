"""One error hierarchy; each error carries the data a caller needs to report it.

``exit_code`` is the command's exit status when an error reaches the command line
(:func:`extractor.cli.common.reports_errors`): 2 when the request itself is wrong (options that
do not fit, inputs that are missing), 1 when the work failed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from extractor.schema import Usage

EXIT_FAILED = 1
EXIT_USAGE = 2


def literal(text: object) -> str:
    """A value to write into a message that names options: its braces are not placeholders."""
    return str(text).replace("{", "{{").replace("}", "}}")


class ExtractorError(Exception):
    """Base of every error the package raises on purpose.

    A message may name options as ``{name}``, with the names in ``options``: the library prints
    the option's own name (``max_cost``), the command line its flag (``--max-cost``,
    :meth:`naming`), so neither speaks the other's language."""

    exit_code = EXIT_FAILED

    def __init__(self, message: str = "", options: tuple[str, ...] = ()) -> None:
        self.message, self.options = message, options
        super().__init__(self.naming({}))

    def naming(self, names: dict[str, str]) -> str:
        """The message with each option called by ``names`` (by its own name when absent)."""
        if not self.options:
            return self.message
        return self.message.format(**{option: names.get(option, option) for option in self.options})


class UsageError(ExtractorError):
    """What was asked cannot be done as asked: fix the command, not the machine."""

    exit_code = EXIT_USAGE


class ConfigError(UsageError):
    """Options that do not fit together (unknown backend, bad mode, missing model)."""


class InputError(UsageError):
    """An input that cannot be read; names the file, line and problem. Inside a batch it
    becomes that record's failure and the batch goes on."""

    def __init__(self, file: str, line: int | None, problem: str) -> None:
        self.file, self.line, self.problem = file, line, problem
        where = f"{file}:{line}" if line is not None else file
        super().__init__(f"{where}: {problem}")


class NotARunError(UsageError):
    """A path given as a run directory that holds no run."""


class OutputError(UsageError):
    """A run directory that cannot take this run: a file, or a directory holding a different run."""


class NoInputError(UsageError):
    """The inputs hold no record at all: nothing to extract, and no run directory is written."""


class RunDirBusy(ExtractorError):
    """Another run is writing into the same run directory right now."""


class BackendError(ExtractorError):
    """A paper the backend could not extract after its retries; the batch goes on. ``usage``
    (a :class:`~extractor.schema.Usage`) is what the failed attempts cost, so it is counted."""

    def __init__(self, message: str, usage: Usage | None = None) -> None:
        self.usage = usage
        super().__init__(message)


class BudgetExceeded(ExtractorError):
    """The ``max_cost`` cap was reached before this paper was sent."""


class ReviewError(UsageError):
    """A review command given what it cannot use (no reviewer name, a sheet that is not xlsx)."""


class StoreError(ExtractorError):
    """The correction store cannot be opened, read or written (a read-only mount, a full disk,
    a file that is not a store); names the store. Nothing of the apply was recorded."""


class LocalServerError(ExtractorError):
    """The local model server could not be started (extra missing, port taken, crash)."""


class SkippedLineWarning(UserWarning):
    """A line of a run's papers.jsonl that does not parse: the reader skips it and goes on;
    the command warns (file and line) and exits 1 (:func:`extractor.cli.common.reports_errors`)."""
