"""The run's final files, ``papers.jsonl``, ``claims.csv`` and ``run.json``, each written whole
(:mod:`extractor.atomic`): a run killed at any moment leaves the old file or the new one."""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Iterable
from pathlib import Path

from extractor.atomic import atomic_file, atomic_write_text, naming, temporary
from extractor.runs.files import CLAIMS_FILE, PAPERS_FILE, RUN_FILE
from extractor.schema import Claim, PaperResult
from extractor.text.safe import CSV_LINE_END, csv_cell


CLAIM_COLUMNS = ["paper_id", "claim_id", *[f for f in Claim.model_fields if f not in ("id",)]]


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
        self._files = {name: temporary(self.out_dir, name) for name in (PAPERS_FILE, CLAIMS_FILE)}
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
        return naming(error, self.out_dir / name)

    def abandon(self) -> None:
        for tmp, handle in self._files.values():
            try:
                handle.close()
            except OSError:  # the buffer could not be flushed (a full disk): it is discarded
                pass
            Path(tmp).unlink(missing_ok=True)
