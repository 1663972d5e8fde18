"""One error hierarchy; each error carries the data a caller needs to report it."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from extractor.schema import Usage


class ExtractorError(Exception):
    """Base of every error the package raises on purpose."""


class InputError(ExtractorError):
    """A record that cannot be read; names the file, line and problem."""

    def __init__(self, file: str, line: int | None, problem: str) -> None:
        self.file, self.line, self.problem = file, line, problem
        where = f"{file}:{line}" if line is not None else file
        super().__init__(f"{where}: {problem}")


class ConfigError(ExtractorError):
    """Options that do not fit together (unknown backend, bad mode, missing model)."""


class BackendError(ExtractorError):
    """A paper the backend could not extract after its retries; the batch goes on. ``usage``
    (a :class:`~extractor.schema.Usage`) is what the failed attempts cost, so it is counted."""

    def __init__(self, message: str, usage: Usage | None = None) -> None:
        self.usage = usage
        super().__init__(message)


class BudgetExceeded(ExtractorError):
    """The --max-cost cap was reached before this paper was sent."""
