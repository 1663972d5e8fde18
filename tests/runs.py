"""Run directories made in tests: a run's files written from papers, as the runner writes them,
without extracting anything; and a run's papers read back."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from extractor.runs import Run
from extractor.runs.writer import RunWriter, claims_text
from extractor.schema import PaperResult


def write_run(out_dir: Path, results: Iterable[PaperResult], info: dict) -> Path:
    """Write the three files of a run from its papers; the run directory."""
    writer = RunWriter(out_dir)
    try:
        for result in results:
            writer.add(result.model_dump_json(exclude_none=False), claims_text(result))
    except BaseException:
        writer.abandon()
        raise
    writer.finish(info)
    return Path(out_dir)


def read_papers(run_dir: Path) -> list[PaperResult]:
    """The papers of a run directory (or of a papers.jsonl file given directly)."""
    return list(Run.open(run_dir).papers())
