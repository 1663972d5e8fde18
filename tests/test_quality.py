"""A quality floor for the offline rules: run them on every gold set of
``fixtures/gold/sets.json`` (dev, two tuning sets, three held-out sets), and score them with ``extractor eval``'s own scoring (docs/ANNOTATION.md, "How a
run is scored").

The floors sit a little below what the rules reach (README, "Measuring quality"), so a change
that loses tuples, claims or methods fails here. Held-out text is only measured, never tuned on:
a floor there guards the rules' generality, not a target to fit.

The leaderboard figures of contract v3 have floors too (docs/quality.md): leaderboard-ready
recall and named-benchmark accuracy per set, and SciREX leaderboard reconstruction and
cross-paper pairs, measured with gold of version 2 and rules 2.5 (the "before" figures; the
floors move up when the v3 gold and rules land).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extractor.eval.reconstruction import leaderboards
from extractor.eval.score import evaluate, read_gold
from extractor.grounding import ground
from extractor.pipeline.ingest import read_inputs
from extractor.rules import extract
from extractor.schema import PaperResult

from .conftest import FIXTURES, ROOT

# The sets (abstracts, gold, role) are fixtures/gold/sets.json, which benchmarks/quality.py also
# reads to print the README's table. Floors per set; what rules 2.4 reach is in each comment.
SETS = {s["name"]: s for s in json.loads((FIXTURES / "gold" / "sets.json").read_text(encoding="utf-8"))}
FLOORS: dict[str, dict[str, float]] = {
    # 88 papers, 151 claims: tuples F1 0.857, claims F1 0.997, methods F1 0.974
    "dev": {"tuples": 0.83, "claims": 0.97, "methods": 0.94},
    # 97 papers, 210 claims (fixtures/tune/README.md): tuples F1 0.720, claims F1 0.957, methods F1 0.947
    "tune-new": {"tuples": 0.69, "claims": 0.93, "methods": 0.92},
    # 60 papers, 161 claims (fixtures/gold/TUNE.md): tuples F1 0.726, claims F1 0.991, methods F1 0.974
    "tune-scirex": {"tuples": 0.69, "claims": 0.96, "methods": 0.94},
    # 30 papers, 12 claims: tuples F1 0.417, claims F1 1.000, methods F1 0.765
    "heldout-scirex": {"tuples": 0.33, "claims": 0.95, "methods": 0.72},
    # 32 papers, 48 claims: tuples F1 0.505, claims F1 0.947, methods F1 0.885
    "heldout-new": {"tuples": 0.46, "claims": 0.91, "methods": 0.83},
    # 30 papers, 77 claims, annotated blind (fixtures/gold/HELDOUT2.md): tuples F1 0.362, claims F1 0.825,
    # methods F1 0.915
    "heldout2-new": {"tuples": 0.32, "claims": 0.79, "methods": 0.87},
    # 30 papers, 72 claims, annotated blind (fixtures/gold/HELDOUT3.md): tuples F1 0.517, claims F1 0.965,
    # methods F1 0.884
    "heldout3-new": {"tuples": 0.47, "claims": 0.93, "methods": 0.84},
    # 40 papers, 84 claims, annotated blind (fixtures/gold/HELDOUT4.md): tuples F1 0.527, claims F1 0.862,
    # methods F1 0.958
    "heldout4-new": {"tuples": 0.48, "claims": 0.83, "methods": 0.92},
}


# Leaderboard-ready recall and named-benchmark accuracy per set (measured: right of total).
BOARD_FLOORS: dict[str, dict[str, float]] = {
    "dev": {"ready": 0.82, "named_benchmark": 0.95},  # 12 of 14 (0.857), 25 of 25
    "tune-new": {"ready": 0.68, "named_benchmark": 0.66},  # 18 of 25 (0.720), 34 of 48 (0.708)
    "tune-scirex": {"ready": 0.72, "named_benchmark": 0.80},  # 52 of 68 (0.765), 98 of 117 (0.838)
    "heldout-scirex": {"ready": 0.15, "named_benchmark": 0.20},  # 1 of 6 (0.167), 2 of 8 (0.250)
    "heldout-new": {"ready": 0.10, "named_benchmark": 0.45},  # 2 of 16 (0.125), 12 of 24 (0.500)
    "heldout2-new": {"ready": 0.50, "named_benchmark": 0.70},  # 6 of 11 (0.545), 15 of 20 (0.750)
    "heldout3-new": {"ready": 0.43, "named_benchmark": 0.70},  # 9 of 19 (0.474), 18 of 24 (0.750)
    "heldout4-new": {"ready": 0.48, "named_benchmark": 0.75},  # 10 of 19 (0.526), 20 of 25 (0.800)
}
SCIREX = "fixtures/external/scirex/scirex_train_abstracts.jsonl"


def test_every_gold_set_has_a_floor() -> None:
    assert set(FLOORS) == set(SETS) == set(BOARD_FLOORS)


def rules_run(abstracts: Path, ids: set[str]) -> list[PaperResult]:
    """What ``extractor run --backend rules`` writes to papers.jsonl, for the papers in ``ids``."""
    results = []
    for paper in read_inputs([str(abstracts)]):
        if paper.id not in ids or paper.error:
            continue
        extraction, rejected = ground(extract(paper.abstract, paper.title), paper.abstract, paper.id)
        results.append(PaperResult(id=paper.id, status="ok", extraction=extraction, rejected=rejected))
    return results


@pytest.mark.parametrize("name", FLOORS)
def test_the_rules_stay_above_their_quality_floor(name: str) -> None:
    floors = FLOORS[name]
    gold = read_gold(ROOT / SETS[name]["gold"])
    report = evaluate(rules_run(ROOT / SETS[name]["abstracts"], {g.id for g in gold}), gold)
    attribution = report.attribution
    assert attribution is not None and attribution.attributed > 0
    figures = {
        "tuples": attribution.tuples.f1,
        "claims": report.totals["claims"].f1,
        "methods": report.totals["methods"].f1,
    }
    floors = {**floors, **BOARD_FLOORS[name]}
    figures |= {"ready": attribution.ready.value, "named_benchmark": attribution.named_benchmark.value}
    assert report.ids_with("missing") == [] and report.ids_with("failed") == []
    low = {k: round(v or 0.0, 3) for k, v in figures.items() if (v or 0.0) < floors[k]}
    assert not low, f"{name}: below the floor {floors}: {low}"


def test_the_rules_reconstruct_scirex_leaderboards_above_their_floor() -> None:
    """All SciREX train abstracts (tuning text): 12 of 33 entries reconstructed (0.364), 29 of
    them in tune-scirex (12, 0.414), none in heldout-scirex (0 of 0: no floor); of 3
    cross-paper pairs, 2 both ranked, 1 of them in one block."""
    scirex = list(read_inputs([str(ROOT / SCIREX)]))
    results = rules_run(ROOT / SCIREX, {p.id for p in scirex})
    everything = leaderboards(results, scirex)
    assert everything.entries == 33  # the entries are SciREX's: a change here is a change of rule
    assert everything.reconstructed / everything.entries >= 0.33
    assert everything.pairs == 3 and everything.pairs_ranked >= 2 and everything.pairs_one_block >= 1
    tuned = leaderboards(results, scirex, {g.id for g in read_gold(ROOT / SETS["tune-scirex"]["gold"])})
    assert tuned.reconstructed / tuned.entries >= 0.37
