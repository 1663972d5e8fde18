"""Finishing one paper: its backend's answer grounded into the paper's result (the grounding
step), then the journal line that records it.

Grounding is the step between a backend and the run's files: every item of the answer is checked
against the abstract (:mod:`extractor.grounding`), and what does not hold goes to ``rejected``
with its reason. The openai backend grounds its answer already while validating it (to re-ask
the model once); that check travels with the answer (``BackendResult.checked``) and is taken
here instead of grounding the same answer twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from extractor.backends.base import BackendResult
from extractor.grounding import ground
from extractor.pipeline.ingest import Paper
from extractor.runs.journal import Entry, journal_line
from extractor.schema import ExtractionDraft, PaperResult, Usage
from extractor.text.hashing import short_hash


@dataclass(frozen=True)
class Failure:
    """Why the backend gave no answer for an abstract, and what the attempts cost."""

    message: str
    usage: Usage


#: What became of a paper: the backend's answer, why there is none, or None for an input error.
Outcome = BackendResult | Failure | None


def fingerprint(paper: Paper) -> int:
    """Everything of an input record that shapes its output (64 bits): a changed record is redone."""
    fields = [paper.id, paper.abstract, paper.title, paper.source.model_dump(), paper.metadata, paper.error]
    return int(short_hash(fields, 16), 16) or 1  # 0 marks "nothing done here"


def _result(paper: Paper, **fields: object) -> PaperResult:
    return PaperResult(
        id=paper.id,
        title=paper.title,
        source=paper.source,
        abstract=paper.abstract or None,
        metadata=paper.metadata,
        **fields,
    )


def grounded(paper: Paper, outcome: Outcome) -> PaperResult:
    """The grounding step: the paper's result from what its backend answered."""
    if outcome is None:
        return _result(paper, status="failed", error=paper.error)
    if isinstance(outcome, Failure):
        return _result(paper, status="failed", error=outcome.message, usage=outcome.usage)
    checked = outcome.checked and outcome.checked.for_paper(paper.id, paper.abstract, paper.title)
    extraction, rejected = checked or ground(outcome.draft, paper.abstract, paper.id, paper.title)
    return _result(paper, status="ok", extraction=extraction, rejected=rejected, usage=outcome.usage)


def finish(position: int, paper: Paper, outcome: Outcome) -> str:
    """The journal line of a finished paper: its outcome grounded, then recorded. A backend's
    failure is tried again by a rerun; an input error is not (the input must change)."""
    result = grounded(paper, outcome)
    draft = outcome.draft.model_dump_json() if isinstance(outcome, BackendResult) else None
    retry = outcome is not None and result.status == "failed"
    return journal_line(position, fingerprint(paper), result, draft, retry)


def reused(entry: Entry) -> BackendResult | Failure:
    """A journaled paper's answer, for another paper with the same abstract (its usage is not
    counted again), or why there was none."""
    if entry.draft == "null":
        return Failure(entry.header["error"], Usage())
    return BackendResult(ExtractionDraft.model_validate_json(entry.draft), Usage(cached=True))
