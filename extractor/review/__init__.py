"""Reviewer corrections that are never lost: export a run to a sheet, apply the returned sheet,
report the state, and grow the gold set from what reviewers checked.

:func:`load_reviewed` is what every export calls (leaderboard, report, gold): the run's papers
with the corrections applied, and the review marks to show beside corrected cells.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from zipfile import BadZipFile

from extractor.errors import ReviewError
from extractor.runs.writer import (
    atomic_write_bytes,
    atomic_write_text,
    iter_papers,
    read_papers,
)
from extractor.runs.names import read_names
from extractor.progress import Step, silent
from extractor.review.corrected import (
    Conflict,
    ReviewMark,
    ReviewState,
    StaleTarget,
    Stamp,
    item_id,
    review_state,
)
from extractor.runs.corrections import (
    STORE_FILE,
    Batch,
    Correction,
    CorrectionStore,
    store_path,
    utc_now,
)
from extractor.schema import PaperResult

if TYPE_CHECKING:
    from extractor.eval.score import GoldPaper

__all__ = [
    "STORE_FILE",
    "ApplyReport",
    "Conflict",
    "Correction",
    "CorrectionStore",
    "ReviewMark",
    "ReviewState",
    "StaleTarget",
    "Stamp",
    "StatusReport",
    "apply_review",
    "export_gold",
    "export_review",
    "load_reviewed",
    "load_state",
    "reviewed_papers",
    "review_status",
]


def load_state(run_dir: Path, store: Path | None = None) -> ReviewState:
    """The run with its corrections; reading never creates a store."""
    papers = read_papers(run_dir)
    path = store_path(run_dir, store)
    if not path.exists():
        return review_state(papers, [])
    with CorrectionStore(path) as db:
        return review_state(papers, db.history({p.id for p in papers}))


def reviewed_papers(run_dir: Path, store: Path | None = None) -> Iterator[tuple[PaperResult, dict[str, ReviewMark]]]:
    """The run's papers one at a time, corrections applied, each with its review marks: what an
    export reads when it must not hold a whole run in memory. Only the corrections (a reviewer's
    work, small) are loaded at once."""
    papers = iter_papers(run_dir)
    path = store_path(run_dir, store)
    history: dict[str, list[Correction]] = {}
    if path.exists():
        with CorrectionStore(path) as db:
            for correction in db.history():
                history.setdefault(correction.paper_id, []).append(correction)
    for paper in papers:
        corrections = history.get(paper.id)
        if not corrections:
            yield paper, {}
            continue
        state = review_state([paper], corrections)
        yield state.papers[0], state.marks


def load_reviewed(run_dir: Path, store: Path | None = None) -> tuple[list[PaperResult], dict[str, ReviewMark]]:
    """The corrected papers of a run and the review marks by item id (claim id, ``paper/kind/name``
    for methods, models and benchmarks, the paper id for the paper itself)."""
    state = load_state(run_dir, store)
    return state.papers, state.marks


def export_review(run_dir: Path, out: Path, store: Path | None = None, step: Step = silent) -> dict[str, int]:
    """Write the review workbook; returns how many items of each kind it holds."""
    if Path(out).suffix.lower() != ".xlsx":
        raise ReviewError(f"{out}: the review workbook is an .xlsx file; give --out a name ending in .xlsx")
    from extractor.review.sheet import build_workbook  # openpyxl: only a review sheet needs it

    state = load_state(run_dir, store)
    atomic_write_bytes(Path(out), build_workbook(state, step, read_names(run_dir)))
    counts: dict[str, int] = {}
    for target_state in state.targets.values():
        counts[target_state.target.kind] = counts.get(target_state.target.kind, 0) + 1
    return counts


@dataclass
class ApplyReport:
    """What an apply did: counts by row status, the decisions recorded, why rows were refused,
    notes, the conflicts."""

    store: Path
    batch_id: str | None
    counts: dict[str, int]
    decisions: dict[str, int]
    refused: list[str]
    notes: list[str]
    conflicts: list[str]
    written: list[Correction] = field(default_factory=list)


def _conflict_message(reviewer: str, new, old: Correction) -> str:
    return (
        f"conflict on {new.target_id} {new.field} ({new.source}): {old.reviewer} set {old.new_value!r} "
        f"at {old.at}; {reviewer} now sets {new.new_value!r}. The later one wins; both are in the history."
    )


def apply_review(
    sheet: Path,
    run_dir: Path,
    reviewer: str,
    store: Path | None = None,
) -> ApplyReport:
    """Validate a returned sheet row by row and record its changes as one batch.

    Reading the current state and appending happen in one write transaction, so two reviewers
    applying at once to a shared store are serialized and each sees the other's corrections.
    """
    reviewer = reviewer.strip()
    if not reviewer:
        raise ReviewError("--reviewer needs a name")
    from openpyxl.utils.exceptions import InvalidFileException  # openpyxl: only a sheet needs it

    from extractor.review.apply import plan
    from extractor.review.sheet import read_workbook

    sheet = Path(sheet)
    try:
        rows = read_workbook(sheet)
    except (OSError, ValueError, KeyError, BadZipFile, InvalidFileException) as exc:
        raise ReviewError(f"{sheet}: cannot read the review sheet ({exc}); save it as .xlsx") from exc
    papers = read_papers(run_dir)
    path = store_path(run_dir, store)
    with CorrectionStore(path) as db, db.transaction():
        state = review_state(papers, db.history({p.id for p in papers}))
        result = plan(rows, state)
        counts = result.counts()
        batch_id, written = None, []
        if result.corrections:
            batch = Batch(
                id="b-" + uuid.uuid4().hex[:12],
                reviewer=reviewer,
                at=utc_now(),
                sheet=str(sheet),
                sheet_sha256=hashlib.sha256(sheet.read_bytes()).hexdigest(),
                run_dir=str(run_dir),
                summary=counts,
            )
            written = db.append(batch, result.corrections)
            batch_id = batch.id
    refused = [m for o in result.outcomes if o.status == "refused" for m in o.messages]
    notes = [m for o in result.outcomes if o.status != "refused" for m in o.messages]
    conflicts = [_conflict_message(reviewer, new, old) for new, old in result.conflicts]
    return ApplyReport(path, batch_id, counts, result.decisions(), refused, notes, conflicts, written)


@dataclass
class StatusReport:
    store: Path
    corrections: int
    batches: list[Batch]
    reviewed: dict[str, int]  # items with a correction, by kind
    decisions: dict[str, int]  # current decisions: accept / reject / edit
    stale: list[StaleTarget]
    conflicts: list[Conflict]
    other_papers: int = 0  # corrections in the store for papers this run does not hold


def review_status(run_dir: Path, store: Path | None = None) -> StatusReport:
    path = store_path(run_dir, store)
    state = load_state(run_dir, store)
    batches: list[Batch] = []
    other_papers = 0
    if path.exists():
        with CorrectionStore(path) as db:
            batches = [b for b in db.batches() if b.id in {c.batch_id for c in state.history}]
            other_papers = len(db.history()) - len(state.history)
    reviewed: dict[str, int] = {}
    decisions: dict[str, int] = {}
    for mark in state.marks.values():
        reviewed[mark.kind] = reviewed.get(mark.kind, 0) + 1
        if mark.decision:
            decisions[mark.decision] = decisions.get(mark.decision, 0) + 1
    return StatusReport(path, len(state.history), batches, reviewed, decisions, state.stale, state.conflicts, other_papers)


def _gold_paper(paper: PaperResult, marks: dict[str, ReviewMark]) -> GoldPaper | None:
    """Reviewed items become gold; the paper's unreviewed items become optional, so a run is
    neither rewarded nor punished for them. A paper accepted as a whole is gold entirely; a
    paper rejected as a whole is left out."""
    # The gold schema's models take a while to build: only an export to gold needs them, not
    # the board every run writes (it reads the run's papers through this module).
    from extractor.eval.score import GoldClaim, GoldOptional, GoldPaper

    own = {k: m for k, m in marks.items() if m.paper_id == paper.id and not m.stale}
    paper_mark = own.get(paper.id)
    if not own or paper.extraction is None or (paper_mark and paper_mark.decision == "reject"):
        return None
    complete = paper_mark is not None and paper_mark.decision == "accept"
    extraction = paper.extraction

    def checked(target_id: str) -> bool:
        return complete or target_id in own

    claims, values = [], set()
    for claim in extraction.claims:
        if checked(claim.id):
            claims.append(GoldClaim.from_claim(claim))
        else:
            values.update(v for v in (claim.value, claim.value_max) if v is not None)
    methods, optional_methods = [], []
    for method in extraction.methods:
        gold = checked(item_id(paper.id, "method", method.name)) and method.proposed
        (methods if gold else optional_methods).append([method.name, *method.aliases])
    benchmarks, optional_benchmarks = [], []
    for benchmark in extraction.benchmarks:
        gold = checked(item_id(paper.id, "benchmark", benchmark.name))
        (benchmarks if gold else optional_benchmarks).append([benchmark.name])
    sizes, optional_sizes = set(), set()
    for model in extraction.models:
        found = {size for size in (model.params_b, model.active_params_b) if size is not None}
        (sizes if checked(item_id(paper.id, "model", model.name)) else optional_sizes).update(found)
    reviewers = ", ".join(sorted({m.reviewer for m in own.values()}))
    return GoldPaper(
        id=paper.id,
        version=3,
        methods=methods,
        benchmarks=benchmarks,
        params_b=sorted(sizes),
        claims=claims,
        optional=GoldOptional(
            methods=optional_methods, benchmarks=optional_benchmarks, values=sorted(values),
            params_b=sorted(optional_sizes - sizes),
        ),
        notes=f"from review by {reviewers}; "
        + ("whole paper checked" if complete else "unreviewed extracted items are optional"),
    )


def export_gold(run_dir: Path, out: Path, store: Path | None = None) -> int:
    """Write reviewed papers in the gold format of ANNOTATION.md; returns how many."""
    papers, marks = load_reviewed(run_dir, store)
    golds = [g for g in (_gold_paper(p, marks) for p in papers) if g is not None]
    atomic_write_text(Path(out), "".join(g.model_dump_json() + "\n" for g in golds))
    return len(golds)

