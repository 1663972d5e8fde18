"""Leaderboard reconstruction and cross-paper pairs against SciREX's results tuples
(``n_ary_relations`` of ``scirex_train_abstracts.jsonl``; contract v3's leaderboard figures).

An entry whose score and dataset the abstract writes (``score_in_abstract``,
``Material_in_abstract``) is reconstructed when a row the run's leaderboard ranks
(:func:`extractor.leaderboard.build_leaderboard`, its ``scores``) for that paper has its value
(as claims are matched: 0.5 %, a percent may be a fraction), its dataset under the key the
leaderboard forms blocks with (``comparability_key`` of :mod:`extractor.catalog.normalize`, so
the catalog's matcher serves both), and its method where the abstract or the title writes one.
Pairs of entries of two papers on one SciREX leaderboard (same dataset and metric) that are
both reconstructed should land in one block of the run's board; those that do not are listed
with the two rows' block keys (:class:`SplitPair`), so what splits them can be read off. Pairs
of two papers' entries on two different SciREX leaderboards (after the registry's normalization
of SciREX's own names: 'PTB' and 'Penn Treebank' are one) that land in one block are wrong
merges, listed the same way: a block must never join what the gold keeps apart.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from extractor.catalog.blocks import block_of_claim
from extractor.catalog.normalize import key_label, normalize_claim
from extractor.eval.matching import name_cost
from extractor.eval.score import GoldClaim, value_matches
from extractor.leaderboard import build_leaderboard
from extractor.leaderboard.build import board_measures
from extractor.pipeline.ingest import Paper, read_inputs
from extractor.runs.run import Run
from extractor.schema import Claim, PaperResult

_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?")


@dataclass(frozen=True)
class Entry:
    """One SciREX result whose score and dataset the abstract writes."""

    paper_id: str
    material: str  # underscores as spaces
    metric: str
    method: str
    value: float
    unit: str | None
    method_written: bool  # the abstract (SciREX's flag) or the title writes the method

    @property
    def leaderboard(self) -> tuple[str, str]:
        """SciREX's leaderboard of the entry: same dataset and metric."""
        return self.material, self.metric

    @property
    def normalized(self) -> tuple:
        """The leaderboard with SciREX's names as the registry reads them ('Penn_Treebank__Character_Level_'
        is Penn Treebank at character level): two entries on two of these are never one block."""
        return block_of_claim(self.material, self.metric, None)


def _spaced(name: str) -> str:
    return " ".join(str(name).replace("_", " ").split())


def _score(text: str | float) -> tuple[float, str | None] | None:
    found = _NUMBER.search(str(text))
    if found is None:
        return None
    return float(found.group()), "%" if "%" in str(text) else None


def scirex_entries(papers: Iterable[Paper]) -> list[Entry]:
    """The entries of these SciREX records, each distinct one once."""
    out: dict[tuple, Entry] = {}
    for paper in papers:
        for relation in paper.metadata.get("n_ary_relations", []):
            score = _score(relation.get("score", ""))
            if not (relation.get("score_in_abstract") and relation.get("Material_in_abstract") and score):
                continue
            method = _spaced(relation.get("Method") or "")
            in_title = bool(method) and name_cost([method], [paper.title or ""]) is not None
            entry = Entry(
                paper.id,
                _spaced(relation["Material"]),
                _spaced(relation.get("Metric") or ""),
                method,
                *score,
                method_written=bool(method) and (bool(relation.get("Method_in_abstract")) or in_title),
            )
            out.setdefault((entry.paper_id, entry.material, entry.metric, entry.method, entry.value), entry)
    return list(out.values())


def _benchmark_key(claim: Claim, name: str | None) -> object:
    """The leaderboard's block key of a benchmark name (the catalog's, for this claim)."""
    return normalize_claim(claim.model_copy(update={"benchmark": name})).comparability_key[0]


def _row_matches(entry: Entry, claim: Claim) -> bool:
    gold = GoldClaim(value=entry.value, unit=entry.unit)
    if value_matches(claim.value, claim.value_max, claim.unit, gold) is None:
        return False
    if _benchmark_key(claim, claim.benchmark) != _benchmark_key(claim, entry.material):
        return False
    names = [n for n in (claim.method, claim.model) if n]
    return not entry.method_written or name_cost(names, [entry.method]) is not None


@dataclass(frozen=True)
class Placed:
    """The ranked row that reconstructs an entry: its block and the key that formed the block."""

    block: int
    claim: Claim
    key: tuple  # comparability_key: benchmark key, metric key, unit, the conditions' values


def ranked_blocks(results: Sequence[PaperResult], entries: Iterable[Entry]) -> dict[Entry, Placed]:
    """Each reconstructed entry -> the first ranked row that reconstructs it."""
    claims = {(r.id, c.id): (c, r.extraction.models, r.title) for r in results if r.extraction for c in r.extraction.claims}
    scores = build_leaderboard(results).scores
    reported = board_measures(results)
    rows: dict[str, list[Placed]] = {}
    for paper_id, claim_id, block in zip(scores["paper_id"], scores["claim_id"], scores["block"]):
        claim, models, title = claims[(paper_id, claim_id)]
        key = normalize_claim(claim, models, title=title, reported_in=reported).comparability_key
        rows.setdefault(paper_id, []).append(Placed(int(block), claim, key))
    found: dict[Entry, Placed] = {}
    for entry in entries:
        placed = next((row for row in rows.get(entry.paper_id, []) if _row_matches(entry, row.claim)), None)
        if placed is not None:
            found[entry] = placed
    return found


def _key_text(key: tuple) -> str:
    benchmark, metric, unit, conditions = key
    return f"({benchmark!r}, {metric!r}, {unit!r}, {key_label(key) or 'no condition'!r})"


@dataclass(frozen=True)
class SplitPair:
    """Two papers' entries, both ranked: on one SciREX leaderboard in two blocks of the run
    (a split pair), or on two leaderboards in one block (a wrong merge)."""

    first: Entry
    first_row: Placed
    second: Entry
    second_row: Placed

    def to_dict(self) -> dict:
        def side(entry: Entry, row: Placed) -> dict:
            claim = row.claim
            return {
                "paper_id": entry.paper_id, "value": entry.value, "claim_id": claim.id,
                "benchmark": claim.benchmark, "metric": claim.metric, "setting": claim.setting,
                "block": row.block, "key": list(row.key),
            }  # fmt: skip

        return {
            "description": self.describe(),
            "leaderboard": list(self.first.leaderboard),
            "second_leaderboard": list(self.second.leaderboard),
            "first": side(self.first, self.first_row),
            "second": side(self.second, self.second_row),
        }

    def describe(self) -> str:
        """One line: the gold leaderboard (both when they differ), then each side's paper, value
        and block key."""
        boards = dict.fromkeys(" / ".join(e.leaderboard) for e in (self.first, self.second))
        sides = [
            f"{e.paper_id} {e.value:g} {_key_text(row.key)}"
            for e, row in ((self.first, self.first_row), (self.second, self.second_row))
        ]
        return " vs ".join(boards) + ": " + " vs ".join(sides)


@dataclass(frozen=True)
class Leaderboards:
    """Reconstruction and cross-paper pairs of one set of SciREX entries."""

    entries: int
    reconstructed: int
    pairs: int  # entries of two different papers on one SciREX leaderboard
    pairs_ranked: int  # ... both reconstructed
    pairs_one_block: int  # ... in one block of the run's board
    boards: int  # SciREX leaderboards with reconstructed entries of two or more papers
    blocks: int  # the run's blocks those entries fall in, summed over those leaderboards
    split: tuple[SplitPair, ...] = ()  # the pairs both ranked but in two blocks
    wrong: tuple[SplitPair, ...] = ()  # entries of two papers on two (normalized) leaderboards, in one block

    def to_dict(self) -> dict:
        def share(part: int, whole: int) -> float | None:
            return part / whole if whole else None  # 0 of 0 is no success

        return {
            "reconstruction": {"share": share(self.reconstructed, self.entries), "right": self.reconstructed, "of": self.entries},
            "pairs": {
                "in_gold": self.pairs,
                "both_ranked": self.pairs_ranked,
                "one_block": self.pairs_one_block,
                "one_block_share": share(self.pairs_one_block, self.pairs_ranked),
            },
            "blocks_per_leaderboard": {"mean": share(self.blocks, self.boards), "leaderboards": self.boards},
            "wrong_merges": len(self.wrong),
            "split_pairs": [pair.to_dict() for pair in self.split],
            "wrong_merged_pairs": [pair.to_dict() for pair in self.wrong],
        }


def _cross_pairs(entries: Sequence[Entry]) -> Iterator[tuple[Entry, Entry]]:
    """Pairs of entries of two different papers on one SciREX leaderboard."""
    for first, second in combinations(entries, 2):
        if first.leaderboard == second.leaderboard and first.paper_id != second.paper_id:
            yield first, second


def score_leaderboards(entries: Sequence[Entry], found: Mapping[Entry, Placed]) -> Leaderboards:
    """The figures of these entries, given where the run ranks them (:func:`ranked_blocks`)."""
    pairs = ranked = one_block = 0
    split: list[SplitPair] = []
    for first, second in _cross_pairs(entries):
        pairs += 1
        if first in found and second in found:
            ranked += 1
            if found[first].block == found[second].block:
                one_block += 1
            else:
                split.append(SplitPair(first, found[first], second, found[second]))
    by_board: dict[tuple[str, str], list[Entry]] = {}
    for entry in entries:
        if entry in found:
            by_board.setdefault(entry.leaderboard, []).append(entry)
    shared = [board for board in by_board.values() if len({e.paper_id for e in board}) > 1]
    wrong = [
        SplitPair(first, found[first], second, found[second])
        for first, second in combinations([e for e in entries if e in found], 2)
        if first.paper_id != second.paper_id and found[first].block == found[second].block and first.normalized != second.normalized
    ]
    return Leaderboards(
        len(entries),
        sum(e in found for e in entries),
        pairs,
        ranked,
        one_block,
        len(shared),
        sum(len({found[e].block for e in board}) for board in shared),
        tuple(split),
        tuple(wrong),
    )


def leaderboards(
    results: Sequence[PaperResult], scirex: Iterable[Paper], ids: Iterable[str] | None = None
) -> Leaderboards:
    """The run's leaderboard (all of ``results``) against the entries of the SciREX records
    (only the papers in ``ids`` when given)."""
    wanted = None if ids is None else set(ids)
    found = [
        e for e in scirex_entries(p for p in scirex if not p.error) if wanted is None or e.paper_id in wanted
    ]
    return score_leaderboards(found, ranked_blocks(results, found))


def evaluate_leaderboards(run_dir: Path, scirex_path: Path, ids: Iterable[str] | None = None) -> Leaderboards:
    """:func:`leaderboards` of a run directory against a SciREX file."""
    return leaderboards(list(Run.open(run_dir).papers()), read_inputs([str(scirex_path)]), ids)
