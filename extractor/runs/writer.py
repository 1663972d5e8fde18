"""The run directory: ``papers.jsonl``, ``claims.csv`` and ``run.json``, written atomically.

Every file is written to a temporary name beside its target and moved into place, so a run
killed at any moment leaves either the old file or the new one, never half of one.
"""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
import warnings
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from pydantic import ValidationError

from extractor.errors import NotARunError, SkippedLineWarning
from extractor.runs.files import (  # noqa: F401  (the run's file names, imported from here too)
    CLAIMS_FILE,
    PAPERS_FILE,
    REVIEWED_CLAIMS_FILE,
    RUN_FILE,
    STORE_FILE,
)
from extractor.schema import Claim, PaperResult
from extractor.text.safe import CSV_LINE_END, csv_cell


CLAIM_COLUMNS = ["paper_id", "claim_id", *[f for f in Claim.model_fields if f not in ("id",)]]


def _umask() -> int:
    """The process umask. Linux shows it in /proc; elsewhere reading it means setting it and
    setting it straight back (a moment in which another thread's new file gets 022)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except OSError:
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextmanager
def atomic_file(path: Path, binary: bool = False) -> Iterator[IO]:
    """A file written beside ``path`` and renamed into place only when the block ends without an
    error (else removed): readers see the old file or the new one, never half of one. It gets the
    mode a plain ``open(path, "w")`` would give (0666 less the umask), not mkstemp's 0600, so a
    teammate or a web server can read a shared run."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp, handle = _temporary(path.parent, path.name, binary)
    try:
        with handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (:func:`atomic_file`)."""
    with atomic_file(path, binary=True) as handle:
        handle.write(data)


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def claim_rows(results: Iterable[PaperResult]) -> list[dict]:
    """One flat row per grounded claim, in paper order."""
    rows = []
    for result in results:
        if result.extraction is None:
            continue
        for claim in result.extraction.claims:
            data = claim.model_dump()
            row = {"paper_id": result.id, "claim_id": data.pop("id")}
            row.update(data)
            row["span"] = f"{claim.span[0]}-{claim.span[1]}"
            row["value_span"] = f"{claim.value_span[0]}-{claim.value_span[1]}"
            rows.append(row)
    return rows


def claims_text(result: PaperResult) -> str:
    """The paper's ``claims.csv`` rows (no header), every text cell made safe (:func:`~extractor.text.safe.csv_cell`)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CLAIM_COLUMNS, lineterminator=CSV_LINE_END)
    for row in claim_rows([result]):
        writer.writerow({k: csv_cell(v) for k, v in row.items()})
    return buffer.getvalue()


def _csv_header() -> str:
    buffer = io.StringIO()
    csv.DictWriter(buffer, fieldnames=CLAIM_COLUMNS, lineterminator=CSV_LINE_END).writeheader()
    return buffer.getvalue()


def _temporary(directory: Path, name: str, binary: bool = False) -> tuple[str, IO]:
    """A new temporary file beside ``directory / name`` (text unless ``binary``), to be moved into
    place whole, readable like any new file."""
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{name}.", suffix=".tmp")
    os.fchmod(fd, 0o666 & ~_umask())
    return tmp, (os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8", newline=""))


def write_claims(path: Path, results: Iterable[PaperResult]) -> int:
    """Write a ``claims.csv``-shaped file of these papers, one paper at a time, atomically;
    the number of claims written."""
    count = 0
    with atomic_file(path) as handle:
        handle.write(_csv_header())
        for result in results:
            handle.write(claims_text(result))
            count += len(result.extraction.claims) if result.extraction else 0
    return count


class RunWriter:
    """Writes ``papers.jsonl`` and ``claims.csv`` one paper at a time (bounded memory) to
    temporary files, and moves them into place with ``run.json`` only when all is written."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = Path(out_dir)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        for name in (PAPERS_FILE, CLAIMS_FILE):  # left by a run killed while writing them
            for stale in self.out_dir.glob(f".{name}.*.tmp"):
                stale.unlink()
        self._files = {name: _temporary(self.out_dir, name) for name in (PAPERS_FILE, CLAIMS_FILE)}
        self._files[CLAIMS_FILE][1].write(_csv_header())

    def add(self, paper_line: str, claims: str) -> None:
        """One paper: its ``papers.jsonl`` line (without the newline) and its claims rows."""
        for name, text in ((PAPERS_FILE, paper_line + "\n"), (CLAIMS_FILE, claims)):
            try:
                self._files[name][1].write(text)
            except OSError as exc:
                raise self._failed(name, exc) from exc

    def finish(self, info: dict) -> None:
        for name, (tmp, handle) in self._files.items():
            try:
                handle.flush()
                os.fsync(handle.fileno())
                handle.close()
            except OSError as exc:
                raise self._failed(name, exc) from exc
            os.replace(tmp, self.out_dir / name)
        atomic_write_text(self.out_dir / RUN_FILE, json.dumps(info, indent=2, sort_keys=True) + "\n")

    def _failed(self, name: str, error: OSError) -> OSError:
        """The error naming the file it was writing (a full disk says only 'No space left on
        device'), once the temporary files are gone."""
        self.abandon()
        return OSError(error.errno, error.strerror or str(error), str(self.out_dir / name))

    def abandon(self) -> None:
        for tmp, handle in self._files.values():
            try:
                handle.close()
            except OSError:  # the buffer could not be flushed (a full disk): it is discarded
                pass
            Path(tmp).unlink(missing_ok=True)


def write_run(out_dir: Path, results: Iterable[PaperResult], info: dict) -> None:
    """Write the three files of a run from its papers."""
    writer = RunWriter(out_dir)
    try:
        for result in results:
            writer.add(result.model_dump_json(exclude_none=False), claims_text(result))
    except BaseException:
        writer.abandon()
        raise
    writer.finish(info)


def iter_papers(run_dir: Path) -> Iterator[PaperResult]:
    """The papers of a run directory (or of a papers.jsonl file given directly), read one at a
    time as they are iterated; a path that is not a run is refused at once."""
    path = Path(run_dir)
    if path.is_dir():
        path = path / PAPERS_FILE
    if not path.is_file():
        raise NotARunError(f"{run_dir}: not a run directory (no {PAPERS_FILE}); give the --out of an `extractor run`")
    return _papers_in(path)


def _papers_in(path: Path) -> Iterator[PaperResult]:
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                yield PaperResult.model_validate_json(line)
            except ValidationError as exc:
                first = exc.errors()[0]
                problem = f"{'.'.join(map(str, first['loc'])) or 'line'}: {first['msg']}"
                warnings.warn(f"{path}:{number}: line skipped: {problem}", SkippedLineWarning, stacklevel=2)


def read_papers(run_dir: Path) -> list[PaperResult]:
    """The papers of a run directory (or of a papers.jsonl file given directly)."""
    return list(iter_papers(run_dir))


def read_run_info(run_dir: Path) -> dict:
    path = Path(run_dir) / RUN_FILE
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
