"""The run directory: its files, journal, names table and the reviewers' correction store, and
:class:`~extractor.runs.run.Run`, the object a command opens to read a run.

``Run`` is imported on first use (PEP 562), so a command that only names the run's files
(:mod:`.files`, in ``--help``) loads nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from extractor.runs.run import Run

__all__ = ["Run"]


def __getattr__(name: str) -> object:
    if name == "Run":
        from extractor.runs.run import Run

        return Run
    raise AttributeError(f"module 'extractor.runs' has no attribute {name!r}")
