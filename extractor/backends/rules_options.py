"""The rules backend's options (apart from the backend, so that resolving a run's options does
not load the rules' tables)."""

from __future__ import annotations

import os

from pydantic import Field

from extractor.backends.options import BackendOptions


def default_workers() -> int:
    """The cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


class RulesOptions(BackendOptions):
    """The offline rules need no endpoint: only how many processes to run in."""

    backend = "rules"
    workers: int = Field(default_factory=default_workers, ge=1, description="processes (default: this machine's cores)")
