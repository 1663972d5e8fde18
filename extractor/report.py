"""``extractor report``: one self-contained HTML page to read a run.

Each paper shows its abstract with the evidence of every claim highlighted in place (``<mark>``
at the grounded spans, the number itself in bold), the extracted fields beside it, reviewed
items marked with who and when, rejected items with their reasons, and failures. Each claim
shows its id as review.xlsx does (the paper id in the heading, ``#`` and the claim's part in the
row). A search box and checkboxes (failures, rejected items, reviewed, unreviewed, with claims;
each one checked narrows the list) pick papers. The layout holds from a phone (390 px: one
column, claim rows as cards) to a desktop without sideways scrolling. The page needs no
network: CSS and script are inline and a Content-Security-Policy forbids loading anything.
The page is the Jinja2 template ``templates/report.html`` (with ``report.css`` and
``report.js``), on the environment of :mod:`extractor.html`: abstracts are untrusted, and every
text taken from a run is escaped by its autoescape, control characters made visible.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby
from pathlib import Path

from markupsafe import Markup

from extractor.atomic import atomic_write_text
from extractor.html import escaped, render as render_template
from extractor.progress import Step, silent, tracked
from extractor.review import ReviewState, load_state
from extractor.review.corrected import ReviewMark, item_id
from extractor.runs.run import Run
from extractor.schema import Claim, PaperResult, Rejection

CLAIM_FIELDS = ("value", "bound", "unit", "metric", "benchmark", "method", "model", "baseline", "setting", "kind")
ALWAYS = ("value", "unit", "metric", "kind")
CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'"


def highlight(abstract: str, claims: list[Claim], refs: dict[str, int]) -> Markup:
    """The abstract as HTML with each claim's evidence in ``<mark>`` and its number in bold.

    Evidence spans may overlap (two numbers of one sentence), so the text is cut at every span
    boundary and each piece is marked with the claims that cover it; a reference number follows
    the end of each claim's evidence. Made of escaped pieces only.
    """
    cuts = {0, len(abstract)}
    for claim in claims:
        cuts.update((*claim.span, *claim.value_span))
    points = sorted(c for c in cuts if 0 <= c <= len(abstract))

    def covering(start: int, end: int) -> tuple[str, ...]:
        return tuple(c.id for c in claims if c.span[0] <= start and end <= c.span[1])

    pieces = [(start, end, covering(start, end)) for start, end in zip(points, points[1:])]
    out = []
    for ids, group in groupby(pieces, key=lambda piece: piece[2]):
        inner = []
        for start, end, _ in group:
            text = escaped(abstract[start:end])
            if any(c.value_span[0] <= start and end <= c.value_span[1] for c in claims if c.id in ids):
                text = Markup('<b class="num">{}</b>').format(text)
            inner.append(text)
            ending = [refs[c.id] for c in claims if c.span[1] == end and c.id in ids]
            if ending and ids:
                inner.append(Markup('<sup class="ref">{}</sup>').format(",".join(map(str, ending))))
        if ids:
            label = "claim " + ", ".join(str(refs[i]) for i in ids)
            out.append(Markup('<mark data-claims="{}" title="{}">{}</mark>').format(" ".join(ids), label, Markup("").join(inner)))
        else:
            out.append(Markup("").join(inner))
    return Markup("").join(out)


def _claims(claims: list[Claim], refs: dict[str, int], marks: dict[str, ReviewMark]) -> tuple[tuple[str, ...], list[dict]]:
    # Only the columns this paper's claims fill, so the table fits beside the abstract.
    fields = tuple(f for f in CLAIM_FIELDS if f in ALWAYS or any(getattr(c, f) for c in claims))
    rows = []
    for claim in claims:
        mark = marks.get(claim.id)
        corrected = mark.fields if mark else {}
        cells = []
        for name in fields:
            value = getattr(claim, name)
            if name == "value":
                value = f"{claim.value:g}" + (f"\u2013{claim.value_max:g}" if claim.value_max is not None else "")
            elif name == "kind" and claim.direction:
                value = f"{claim.kind} ({claim.direction})"
            stamp = corrected.get(name) or (corrected.get("value_max") if name == "value" else None)
            cells.append({"name": name, "value": value, "stamp": stamp})
        # The id as review.xlsx shows it: the paper id (in the heading), '#', the claim's part.
        rows.append({"id": claim.id, "ref": refs[claim.id], "own": "#" + claim.id.rpartition("#")[2], "cells": cells, "mark": mark})
    return fields, rows


def _items(paper: PaperResult, marks: dict[str, ReviewMark]) -> list[tuple[str, list[dict]]] | None:
    extraction = paper.extraction
    if extraction is None:
        return None
    lists = []
    for kind, items in (("method", extraction.methods), ("model", extraction.models), ("benchmark", extraction.benchmarks)):
        shown = []
        for item in items:
            size = None
            if kind == "model" and item.params_b is not None:
                size = f"{item.params_b:g}B" + (f", {item.active_params_b:g}B active" if item.active_params_b else "")
            shown.append({
                "name": item.name,
                "aliases": item.aliases if kind == "method" else [],
                "baseline": kind == "method" and not item.proposed,
                "size": size,
                "mark": marks.get(item_id(paper.id, kind, item.name)),
            })
        lists.append((kind, shown))
    return lists


def _rejection(rejection: Rejection) -> dict:
    item = rejection.item
    what = item.get("name")
    if what is None:
        value = item.get("value")
        what = f"{value:g}" if isinstance(value, (int, float)) else str(value)
        if item.get("evidence"):
            what += f" \u201c{item['evidence']}\u201d"
    return {"field": rejection.field, "what": what, "reason": rejection.reason}


def _paper(paper: PaperResult, marks: dict[str, ReviewMark]) -> dict:
    claims = paper.extraction.claims if paper.extraction else []
    refs = {c.id: n for n, c in enumerate(claims, start=1)}
    failed = paper.status == "failed"
    reviewed = any(m.paper_id == paper.id for m in marks.values())
    fields, rows = _claims(claims, refs, marks)
    return {
        "id": paper.id,
        "title": paper.title,
        "failed": failed,
        "error": paper.error,
        "flags": (("failed", failed), ("rejected", paper.rejected), ("reviewed", reviewed),
                  ("unreviewed", not reviewed), ("claims", claims)),
        "mark": marks.get(paper.id),
        "abstract": highlight(paper.abstract, claims, refs) if paper.abstract else None,
        "fields": fields,
        "claims": rows,
        "lists": _items(paper, marks),
        "rejected": [_rejection(r) for r in paper.rejected],
    }


@dataclass(frozen=True)
class Counts:
    papers: int
    failed: int
    claims: int
    rejected: int
    reviewed: int
    stale: int

    @classmethod
    def of(cls, state: ReviewState) -> Counts:
        return cls(
            papers=len(state.papers),
            failed=sum(p.status == "failed" for p in state.papers),
            claims=sum(len(p.extraction.claims) for p in state.papers if p.extraction),
            rejected=sum(len(p.rejected) for p in state.papers),
            reviewed=len(state.marks),
            stale=len(state.stale),
        )


FILTERS = (
    ("failed", "failures"),
    ("rejected", "rejected items"),
    ("claims", "has claims"),
    ("reviewed", "reviewed"),
    ("unreviewed", "unreviewed"),
)
_COUNT_LABELS = {"reviewed": "reviewed items", "rejected": "rejected items"}


def render(state: ReviewState, title: str, run_info: dict, step: Step = silent) -> str:
    """The whole page as one string."""
    about = ", ".join(f"{k} {run_info[k]}" for k in ("backend", "model", "finished") if run_info.get(k))
    counts = Counts.of(state)
    return render_template(
        "report.html",
        csp=CSP,
        title=title,
        about=about,
        counts=[(name, getattr(counts, name), _COUNT_LABELS.get(name, name))
                for name in ("papers", "failed", "claims", "rejected", "reviewed", "stale")],
        filters=FILTERS,
        papers=(_paper(p, state.marks) for p in tracked(state.papers, "rendering papers", step)),
    )


def write_report(run: Run, out: Path, step: Step = silent) -> Counts:
    """Write the report of a run (with its corrections) to ``out``; returns its counts."""
    state = load_state(run)
    title = f"extractor report: {run.path.resolve().name}"
    atomic_write_text(Path(out), render(state, title, run.info(), step))
    return Counts.of(state)
