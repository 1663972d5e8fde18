"""Guard a run directory before any work: the request is checked, one run writes at a time, and
a run never lands silently on a different one.

- :func:`check_request` (no side effects): every input exists, ``--out`` is not a file nor an
  input directory (its outputs would be read as inputs next time).
- :func:`hold_run_dir`: takes the directory's lock (a second run into it is refused while the
  first runs; the lock goes with the process, even on SIGKILL) and refuses a directory that
  holds a different run (other inputs), unless ``overwrite``. The same command again resumes.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from extractor.errors import InputError, OutputError, RunDirBusy, literal
from extractor.pipeline.ingest import SHEET_SEPARATOR, split_sheet
from extractor.runs.files import (
    NAMES_FILE,
    PAPERS_FILE,
    REPORT_FILE,
    REVIEWED_CLAIMS_FILE,
    REVIEWED_STAMP,
    RUN_LEADERBOARD,
    STORE_FILE,
)
from extractor.runs.run import Run
from extractor.text.safe import path_text

log = logging.getLogger(__name__)

LOCK_FILE = ".extractor.lock"
STDIN = "-"


def input_paths(inputs: list[str]) -> list[str]:
    """The inputs as absolute paths (stdin stays ``-``, a worksheet stays named after ``#``):
    what makes a run the same run."""
    return [name if name == STDIN else _absolute(name) for name in inputs]


def _absolute(name: str) -> str:
    path, sheet = split_sheet(name)
    return str(path.resolve()) + (SHEET_SEPARATOR + sheet if sheet is not None else "")


def check_inputs(inputs: list[str]) -> None:
    """Refuse, before anything is read, an input that does not exist."""
    for name in inputs:
        if name != STDIN and not split_sheet(name)[0].exists():
            raise InputError(path_text(name), None, "no such file or directory")


def check_request(inputs: list[str], out_dir: Path) -> None:
    """Refuse, before anything is read or written, a missing input, a run directory that is a
    file, or one that is an input directory (a directory inside it is fine: a run directory is
    never read as input)."""
    check_inputs(inputs)
    for name in inputs:
        path = split_sheet(name)[0]
        if name != STDIN and path.is_dir() and out_dir.resolve() == path.resolve():
            raise OutputError(
                f"{{out}} {literal(path_text(out_dir))} is the input directory {literal(path_text(name))}: the "
                "run's outputs would mix with its inputs; give one outside it, or a directory inside it",
                ("out",),
            )
    if out_dir.exists() and not out_dir.is_dir():
        raise OutputError(f"{{out}} {literal(path_text(out_dir))} is a file; give a directory for the run", ("out",))


def _other_run(out_dir: Path, inputs: list[str]) -> str | None:
    """What the directory holds when it holds a different run, else None."""
    if not (out_dir / PAPERS_FILE).exists():
        return None
    info = Run.open(out_dir).info()
    if "input_paths" in info:
        recorded, current = info["input_paths"], input_paths(inputs)
    elif "inputs" in info:  # a run written before input_paths was recorded: inputs as given
        recorded, current = info["inputs"], inputs
    else:
        return None  # a first run stopped before run.json: the same command resumes it
    if not isinstance(recorded, list) or not all(isinstance(name, str) for name in recorded):
        return None  # a damaged run.json says nothing: the journal's identity decides what is kept
    if recorded == current:
        return None
    reviewed = (out_dir / STORE_FILE).exists()
    return (
        f"{{out}} {literal(out_dir)} holds a different run (of {literal(', '.join(recorded)) or 'no inputs'})"
        + (f" with reviewers' corrections in {STORE_FILE}" if reviewed else "")
    )


# What a run of other inputs leaves that describes it and that a new run may not write again
# (no leaderboard with --no-leaderboard, no names from the rules, the report only on request).
_DERIVED = (RUN_LEADERBOARD, REVIEWED_CLAIMS_FILE, REVIEWED_STAMP, NAMES_FILE, REPORT_FILE)


def _remove_derived(out_dir: Path) -> list[str]:
    """Remove the replaced run's derived files; the names of those there were."""
    removed = []
    for name in _DERIVED:
        try:
            (out_dir / name).unlink()
        except FileNotFoundError:
            continue
        removed.append(name)
    return removed


@contextmanager
def hold_run_dir(out_dir: Path, inputs: list[str], overwrite: bool = False) -> Iterator[None]:
    """The run directory, created and locked for this run, checked to hold this run or none."""
    out_dir.mkdir(parents=True, exist_ok=True)
    lock = FileLock(out_dir / LOCK_FILE, timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise RunDirBusy(
            f"{{out}} {literal(out_dir)} is in use by another run right now; wait for it to end or choose another {{out}}", ("out",)
        ) from None
    try:
        other = _other_run(out_dir, inputs)
        if other and not overwrite:
            raise OutputError(f"{other}; choose another {{out}}, or give {{overwrite}} to replace it", ("out", "overwrite"))
        if other:
            removed = _remove_derived(out_dir)
            log.warning(
                "warning: %s: replaced (asked to overwrite)%s; corrections stay in %s and apply again to papers "
                "with the same ids; `extractor review status` counts them",
                other.format(out="the run directory"), f", its {', '.join(removed)} removed" if removed else "", STORE_FILE,
            )
        yield
    finally:
        lock.release()
