"""A quality floor for the offline rules: run them on the dev set, both tuning sets and both
held-out sets, and score them with ``extractor eval``'s own scoring (docs/ANNOTATION.md, "How a
run is scored").

The floors sit a little below what the rules reach (README, "Measuring quality"), so a change
that loses tuples, claims or methods fails here. Held-out text is only measured, never tuned on:
a floor there guards the rules' generality, not a target to fit.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from extractor.eval.score import evaluate, read_gold
from extractor.grounding import ground
from extractor.pipeline.ingest import read_inputs
from extractor.rules import extract
from extractor.schema import PaperResult

from .conftest import FIXTURES

# name: (abstracts, gold, {figure: floor}); what rules 2.3 reach is in each comment.
SETS: dict[str, tuple[Path, Path, dict[str, float]]] = {
    # tuples F1 0.671, claims F1 0.997, methods F1 0.974
    "dev": (
        FIXTURES / "abstracts",
        FIXTURES / "gold" / "dev.jsonl",
        {"tuples": 0.64, "claims": 0.97, "methods": 0.94},
    ),
    # tuning set (fixtures/gold/TUNE.md), 60 papers, 161 claims, 40 methods: tuples F1 0.720, claims F1
    # 0.991, methods F1 0.883 (the second 30 papers' methods are harder: 0.810 there, 0.971 on the first)
    "tune-scirex": (
        FIXTURES / "external" / "scirex" / "scirex_train_abstracts.jsonl",
        FIXTURES / "gold" / "tune-scirex.jsonl",
        {"tuples": 0.69, "claims": 0.96, "methods": 0.86},
    ),
    # tuning set (fixtures/tune/README.md), 61 papers, 129 claims, 42 methods: tuples F1 0.627, claims F1
    # 0.932, methods F1 0.940 (widened from 31 papers for issue 9; on the first 31: tuples F1 0.683)
    "tune-new": (
        FIXTURES / "tune" / "abstracts.jsonl",
        FIXTURES / "gold" / "tune-new.jsonl",
        {"tuples": 0.60, "claims": 0.91, "methods": 0.92},
    ),
    # 12 claims, 20 methods: tuples F1 0.417, claims F1 1.000, methods F1 0.743
    "heldout-scirex": (
        FIXTURES / "external" / "scirex" / "scirex_train_abstracts.jsonl",
        FIXTURES / "gold" / "heldout-scirex.jsonl",
        {"tuples": 0.33, "claims": 0.95, "methods": 0.70},
    ),
    # 48 claims, 25 methods: tuples F1 0.484, claims F1 0.947, methods F1 0.885
    "heldout-new": (
        FIXTURES / "heldout" / "abstracts.jsonl",
        FIXTURES / "gold" / "heldout-new.jsonl",
        {"tuples": 0.44, "claims": 0.90, "methods": 0.83},
    ),
}


def rules_run(abstracts: Path, ids: set[str]) -> list[PaperResult]:
    """What ``extractor run --backend rules`` writes to papers.jsonl, for the papers in ``ids``."""
    results = []
    for paper in read_inputs([str(abstracts)]):
        if paper.id not in ids or paper.error:
            continue
        extraction, rejected = ground(extract(paper.abstract, paper.title), paper.abstract, paper.id)
        results.append(PaperResult(id=paper.id, status="ok", extraction=extraction, rejected=rejected))
    return results


@pytest.mark.parametrize("name", SETS)
def test_the_rules_stay_above_their_quality_floor(name: str) -> None:
    abstracts, gold_path, floors = SETS[name]
    gold = read_gold(gold_path)
    report = evaluate(rules_run(abstracts, {g.id for g in gold}), gold)
    attribution = report.attribution
    assert attribution is not None and attribution.attributed > 0
    figures = {
        "tuples": attribution.tuples.f1,
        "claims": report.totals["claims"].f1,
        "methods": report.totals["methods"].f1,
    }
    assert report.ids_with("missing") == [] and report.ids_with("failed") == []
    low = {k: round(v or 0.0, 3) for k, v in figures.items() if (v or 0.0) < floors[k]}
    assert not low, f"{name}: below the floor {floors}: {low}"
