"""The review faults: the correction store on a disk it cannot write, a sheet from
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
from pydantic import ValidationError
from typer.testing import CliRunner

from extractor.runs import Run
from extractor.cli.app import app
from extractor.errors import ReviewError
from tests.runs import read_papers, write_run
from extractor.review import apply_review, export_review, load_reviewed
from extractor.runs.files import STORE_FILE
from extractor.review.corrected import MAX_NOTE
from extractor.schema import CELL_CHARS, MAX_EVIDENCE, MAX_NAME, ClaimDraft, ExtractionDraft
from extractor.text.hashing import canonical_json
from tests.conftest import ROOT
from tests.test_review import cell, claim_id, edit, letter, make_run, paper

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
    export_review(Run.open(run), book)
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
        apply_review(tmp_path / "deleted.xlsx", Run.open(run), "alice")
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
    report = apply_review(tmp_path / "older.xlsx", Run.open(run), "alice")
    assert report.counts["applied"] == 1 and report.refused == []


OTHER = "We present ZetaNet, which reaches 64.2% accuracy on ARC-Easy with 7B parameters."


def test_a_sheet_from_another_run_is_not_applied_to_a_paper_with_another_abstract(tmp_path: Path) -> None:
    x = make_run(tmp_path / "x")
    y = tmp_path / "y"
    other = paper("p1", ExtractionDraft(claims=[ClaimDraft(value=64.2, unit="%", evidence="reaches 64.2% accuracy")]), OTHER)
    write_run(y, [other, *[p for p in read_papers(x) if p.id == "p2"]], {"backend": "test"})
    book = tmp_path / "x.xlsx"
    export_review(Run.open(x), book)
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
    papers, _ = load_reviewed(Run.open(y))
    assert [p.id for p in papers] == ["p1", "p2"] and papers[0].abstract == OTHER
    assert {c.metric for c in papers[1].extraction.claims} >= {"MMLU accuracy"}


CELL = CELL_CHARS


def _long(word: str, size: int) -> str:
    """Text of exactly ``size`` characters, a third of them a quote or a backslash (each written
    as two in the hidden base's JSON), ending in a letter."""
    text = (f'{word} "\\" ' * size)[: size - 1]
    return text + "z"


def test_the_longest_claim_the_schema_allows_is_exported_and_applied_back(tmp_path: Path) -> None:
    names = {f: _long(f.capitalize(), MAX_NAME) for f in ("metric", "benchmark", "method", "model", "baseline", "setting")}
    evidence = "FooNet reaches 83.6% on it. " + _long("Evidence", MAX_EVIDENCE - 28)
    abstract = evidence + " " + " and ".join(names.values()) + "."
    draft = ExtractionDraft(claims=[ClaimDraft(value=83.6, unit="%", evidence=evidence, **names)])
    run = tmp_path / "run"
    write_run(run, [paper("p1", draft, abstract)], {"backend": "test"})
    (claim,) = read_papers(run)[0].extraction.claims
    assert claim.evidence == evidence and claim.metric == names["metric"]
    book = tmp_path / "review.xlsx"
    export_review(Run.open(run), book)
    wb = load_workbook(book)
    longest = max(len(str(c.value)) for ws in wb for row in ws.iter_rows() for c in row if c.value is not None)
    assert longest <= CELL, longest
    note = _long("Note", MAX_NOTE)
    edit(book, book, "Claims", claim.id, unit="points", note=note, benchmark_same_as=_long("Same", MAX_NAME))
    report = apply_review(book, Run.open(run), "alice")
    assert report.refused == [] and report.counts["applied"] == 1, report.refused
    export_review(Run.open(run), tmp_path / "again.xlsx")  # the base now holds the longest note and alias too
    again = load_workbook(tmp_path / "again.xlsx")
    assert max(len(str(c.value)) for ws in again for row in ws.iter_rows() for c in row if c.value is not None) <= CELL
    assert cell(tmp_path / "again.xlsx", "Claims", claim.id, "note") == note
    assert apply_review(tmp_path / "again.xlsx", Run.open(run), "alice").counts["applied"] == 0


def test_a_field_longer_than_its_bound_is_refused_by_the_schema_and_by_the_sheet(tmp_path: Path, edited: tuple[Path, Path]) -> None:
    with pytest.raises(ValidationError):
        ClaimDraft(value=1.0, evidence="1 " + "e" * MAX_EVIDENCE)
    run, book = edited
    row = edit(book, book, "Claims", claim_id(run, "p1", 83.6), note="n" * (MAX_NOTE + 1), metric_same_as="m" * (MAX_NAME + 1))
    report = apply_review(book, Run.open(run), "alice")
    assert report.counts["refused"] == 1 and report.counts["applied"] == 0
    assert [m.split(":")[0] for m in report.refused] == [
        f"sheet Claims, row {row}, column {c} ({letter('Claims', c)})" for c in ("note", "metric_same_as")
    ]
    assert report.refused[0].endswith(f"the text is {MAX_NOTE + 1} characters; at most {MAX_NOTE} fit (shorten it)")


def test_a_run_on_sentence_longer_than_the_evidence_bound_still_gives_its_claims() -> None:
    from extractor.rules import extract

    abstract = "Our model reaches 83.6% accuracy on ImageNet " + "and it is good " * 300 + "with a 2.5x speedup."
    claims = extract(abstract).claims
    assert [c.value for c in claims] == [83.6, 2.5]
    assert all(len(c.evidence) <= MAX_EVIDENCE and str(c.value) in c.evidence for c in claims)


def test_an_abstract_bound_longer_than_a_cell_is_refused_before_any_work() -> None:
    from extractor.config import RunConfig
    from extractor.errors import ConfigError

    assert RunConfig(max_chars=CELL_CHARS).max_chars == CELL_CHARS
    with pytest.raises(ConfigError, match=r"max_chars must be 32767 or less \(what a spreadsheet cell holds\), not 40000"):
        RunConfig(max_chars=40_000)
