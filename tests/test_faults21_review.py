"""Issue 21, the review cases: the correction store on a disk it cannot write, a sheet from
another run, a renamed column and the longest fields a claim may hold (docs/faults.md)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter
from typer.testing import CliRunner

from extractor.cli.app import app
from extractor.errors import ReviewError
from extractor.pipeline.rundir import read_papers, write_run
from extractor.review import apply_review, export_review, load_reviewed
from extractor.review.store import STORE_FILE
from extractor.schema import ClaimDraft, ExtractionDraft
from extractor.text.hashing import canonical_json
from tests.conftest import ROOT
from tests.test_review import claim_id, edit, make_run, paper

_APPLY = [sys.executable, "-m", "extractor", "review", "apply"]


def _store_fault(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", script, *args], cwd=ROOT, capture_output=True, text=True)


_FULL_DISK_APPLY = """
import resource, signal, sys
from extractor.cli.app import app
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))  # no file may grow, as on a full disk
app(["review", "apply", sys.argv[1], sys.argv[2], "--reviewer", "alice"])
"""


@pytest.fixture
def edited(tmp_path: Path) -> tuple[Path, Path]:
    """A run and its review sheet with one metric edited."""
    run = make_run(tmp_path / "run")
    book = tmp_path / "review.xlsx"
    export_review(run, book)
    edit(book, book, "Claims", claim_id(run, "p1", 83.6), metric="EM accuracy")
    return run, book


def test_a_full_disk_under_the_correction_store_is_one_line_and_leaves_no_empty_store(edited: tuple[Path, Path]) -> None:
    run, book = edited
    done = _store_fault(_FULL_DISK_APPLY, str(book), str(run))
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    (message,) = done.stderr.strip().splitlines()
    assert message.startswith(f"error: {run / STORE_FILE}: cannot write the correction store"), message
    assert not (run / STORE_FILE).exists()


def _read_only(run: Path, *command: str) -> subprocess.CompletedProcess[str]:
    """``command`` with ``run`` mounted read-only, in a user and mount namespace of its own: even
    root cannot write there (chmod would not stop root)."""
    if shutil.which("unshare") is None:
        pytest.skip("needs unshare to mount the run read-only")
    script = 'mount --bind -o ro "$1" "$1" || exit 99; shift; exec "$@"'
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script, "sh", str(run), *command], cwd=ROOT, capture_output=True, text=True)
    if done.returncode == 99:
        pytest.skip(f"cannot mount read-only here: {done.stderr.strip()}")
    return done


def test_a_read_only_correction_store_is_one_line_and_can_still_be_read(edited: tuple[Path, Path]) -> None:
    run, book = edited
    apply = subprocess.run([*_APPLY, str(book), str(run), "--reviewer", "alice"], cwd=ROOT, capture_output=True, text=True)
    assert apply.returncode == 0, apply.stderr
    edit(book, book, "Claims", claim_id(run, "p1", 2.57), metric="throughput")
    before = (run / STORE_FILE).read_bytes()
    done = _read_only(run, *_APPLY, str(book), str(run), "--reviewer", "bob")
    assert done.returncode == 1, done.stderr
    (message,) = done.stderr.strip().splitlines()
    assert message == (
        f"error: {run / STORE_FILE}: cannot write the correction store "
        "(attempt to write a readonly database); nothing was recorded"
    ), message
    assert (run / STORE_FILE).read_bytes() == before
    status = _read_only(run, sys.executable, "-m", "extractor", "review", "status", str(run))
    assert status.returncode == 0 and "2 corrections in 1 batch by alice" in status.stdout, status.stderr


def _header(book: Path, sheet: str) -> dict[str, int]:
    return {c.value: c.column for c in load_workbook(book)[sheet][1]}


def test_a_renamed_column_is_an_error_naming_it_and_nothing_is_applied(edited: tuple[Path, Path]) -> None:
    run, book = edited
    wb = load_workbook(book)
    ws = wb["Claims"]
    column = _header(book, "Claims")["metric"]
    ws.cell(1, column).value = "Metric (fixed)"
    ws.cell(3, column).value = "top-1 accuracy"
    wb.save(book)
    letter = get_column_letter(column)
    result = CliRunner().invoke(app, ["review", "apply", str(book), str(run), "--reviewer", "alice"], env={"COLUMNS": "400"})
    assert result.exit_code == 2, result.output
    assert (
        f"{book}: sheet Claims: unknown column 'Metric (fixed)' ({letter}); missing column 'metric', which the sheet "
        "was exported with: name each column as exported, or the edits in it are lost; nothing was applied"
    ) in " ".join(result.output.split()), result.output
    assert not (run / STORE_FILE).exists()


def test_a_deleted_column_is_missing_but_one_the_sheet_was_exported_without_is_not(edited: tuple[Path, Path], tmp_path: Path) -> None:
    run, book = edited
    wb = load_workbook(book)
    ws = wb["Items"]
    ws.delete_cols(_header(book, "Items")["note"])
    wb.save(tmp_path / "deleted.xlsx")
    with pytest.raises(ReviewError, match=r"sheet Items: missing column 'note', which the sheet was exported with"):
        apply_review(tmp_path / "deleted.xlsx", run, "alice")
    # An older export, from before claims had a bound: no such column, and no bound in its bases.
    wb = load_workbook(book)
    ws = wb["Claims"]
    header = _header(book, "Claims")
    for row in range(2, ws.max_row + 1):
        base = ws.cell(row, header["base"]).value
        if base:
            data = json.loads(base)
            data["values"].pop("bound")
            ws.cell(row, header["base"]).value = canonical_json(data)
    ws.delete_cols(header["bound"])
    wb.save(tmp_path / "older.xlsx")
    report = apply_review(tmp_path / "older.xlsx", run, "alice")
    assert report.counts["applied"] == 1 and report.refused == []


OTHER = "We present ZetaNet, which reaches 64.2% accuracy on ARC-Easy with 7B parameters."


def test_a_sheet_from_another_run_is_not_applied_to_a_paper_with_another_abstract(tmp_path: Path) -> None:
    x = make_run(tmp_path / "x")
    y = tmp_path / "y"
    other = paper("p1", ExtractionDraft(claims=[ClaimDraft(value=64.2, unit="%", evidence="reaches 64.2% accuracy")]), OTHER)
    write_run(y, [other, *[p for p in read_papers(x) if p.id == "p2"]], {"backend": "test"})
    book = tmp_path / "x.xlsx"
    export_review(x, book)
    rejected = edit(book, book, "Papers", "p1", decision="reject")
    edit(book, book, "Claims", claim_id(x, "p2", 71.2), metric="MMLU accuracy")
    result = CliRunner().invoke(app, ["review", "apply", str(book), str(y), "--reviewer", "alice"], env={"COLUMNS": "400"})
    assert result.exit_code == 1, result.output
    output = " ".join(result.output.split())
    assert (
        f"refused sheet Papers, row {rejected}, column id (A): paper 'p1' of this run has another abstract than "
        "the one this row was exported with (a sheet of another run?); export this run's sheet to review it"
    ) in output, output
    assert "applied 1 (decisions: 1 edit)" in output, output
    papers, _ = load_reviewed(y)
    assert [p.id for p in papers] == ["p1", "p2"] and papers[0].abstract == OTHER
    assert {c.metric for c in papers[1].extraction.claims} >= {"MMLU accuracy"}
