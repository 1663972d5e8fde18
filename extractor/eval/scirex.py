"""Method and dataset gold from SciREX (Jain et al., ACL 2020), for scoring on abstracts the
team never annotated.

The input is ``scirex_train_abstracts.jsonl`` (see ``fixtures/external/scirex/SOURCE.md``):
one record per paper with ``doc_id``, ``title``, ``abstract`` (tokens joined by spaces),
``abstract_mentions`` (the SciREX entity mentions inside the abstract) and ``n_ary_relations``
(the paper's results tuples, with flags telling which entities the abstract mentions). The
same file is the input of the run: ``extractor run`` reads it as JSON Lines (``doc_id`` and the
annotations land in metadata; a backend sees only title and abstract), so each gold line takes
the id that ingest gives the record and the two always agree.

SciREX ``Method`` mentions include generic ones ("CNN", "dropout", "pooling") and baselines,
while ANNOTATION.md gold holds the methods a paper proposes. The closest SciREX has is
salience: the entities of the paper's own results tuples. So the gold is:

- required: each salient method (dataset) the abstract mentions, with its SciREX name
  (underscores as spaces) and the abstract's mentions that match it under the scoring rule as
  aliases; salient entities sharing a mention are one;
- optional: every other ``Method`` (``Material``) mention: naming it is neither rewarded nor
  punished, naming something SciREX does not tag at all is an error.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from extractor.catalog.normalize import normalize_claim
from extractor.eval.names import name_cost
from extractor.eval.score import GoldClaim, value_matches
from extractor.grounding import name_key
from extractor.leaderboard import build_leaderboard
from extractor.pipeline.ingest import Paper, read_inputs
from extractor.pipeline.rundir import read_papers
from extractor.schema import Claim, PaperResult

_TYPES = {"methods": "Method", "benchmarks": "Material"}


def _mentions(metadata: dict, kind: str) -> list[str]:
    """Distinct (under name_key) mention texts of one SciREX type, in text order."""
    seen: set[str] = set()
    out = []
    for mention in metadata.get("abstract_mentions", []):
        key = name_key(mention["text"])
        if mention["type"] == kind and key and key not in seen:
            seen.add(key)
            out.append(mention["text"])
    return out


def _salient(metadata: dict, kind: str) -> list[str]:
    """Names of the results-tuple entities of one type that the abstract mentions."""
    names = {
        " ".join(relation[kind].replace("_", " ").split())
        for relation in metadata.get("n_ary_relations", [])
        if relation.get(f"{kind}_in_abstract") and relation.get(kind)
    }
    return sorted(names)


def gold_names(metadata: dict, kind: str) -> tuple[list[list[str]], list[list[str]]]:
    """(required alias lists, optional alias lists) of one SciREX type for one record."""
    mentions = _mentions(metadata, kind)
    groups: list[list[str]] = []
    for name in _salient(metadata, kind):
        aliases = [name, *(m for m in mentions if name_cost([m], [name]) is not None)]
        keys = {name_key(a) for a in aliases}
        group = next((g for g in groups if keys & {name_key(a) for a in g}), None)
        if group is None:
            group = []
            groups.append(group)
        for alias in aliases:
            if name_key(alias) not in {name_key(a) for a in group}:
                group.append(alias)
    used = {name_key(a) for g in groups for a in g}
    optional = [[m] for m in mentions if name_key(m) not in used]
    return groups, optional


def gold_lines(path: Path) -> list[dict]:
    """One ANNOTATION.md gold line per SciREX record that has an abstract (records without
    one fail in the run and are left out here)."""
    lines = []
    for paper in read_inputs([str(path)]):
        if paper.error:
            continue
        line: dict = {"id": paper.id, "doc_id": paper.metadata.get("doc_id"), "optional": {}}
        for field, kind in _TYPES.items():
            line[field], line["optional"][field] = gold_names(paper.metadata, kind)
        lines.append(line)
    return lines


# --- leaderboard reconstruction and cross-paper pairs ----------------------------------------
#
# Against SciREX's results tuples (``n_ary_relations``): an entry whose score and dataset the
# abstract writes (``score_in_abstract``, ``Material_in_abstract``) is reconstructed when a row
# the run's leaderboard ranks (:func:`extractor.leaderboard.build_leaderboard`, its ``scores``)
# for that paper has its value (as claims are matched: 0.5 %, a percent may be a fraction), its
# dataset under the key the leaderboard forms blocks with (``comparability_key`` of
# :mod:`extractor.catalog.normalize`, so the catalog's matcher serves both), and its method
# where the abstract or the title writes one.

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


def ranked_blocks(results: Sequence[PaperResult], entries: Iterable[Entry]) -> dict[Entry, int]:
    """Each reconstructed entry -> the block of the first ranked row that reconstructs it."""
    claims = {(r.id, c.id): c for r in results if r.extraction for c in r.extraction.claims}
    scores = build_leaderboard(results).scores
    rows: dict[str, list[tuple[Claim, int]]] = {}
    for paper_id, claim_id, block in zip(scores["paper_id"], scores["claim_id"], scores["block"]):
        rows.setdefault(paper_id, []).append((claims[(paper_id, claim_id)], int(block)))
    found: dict[Entry, int] = {}
    for entry in entries:
        block = next((b for claim, b in rows.get(entry.paper_id, []) if _row_matches(entry, claim)), None)
        if block is not None:
            found[entry] = block
    return found


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
        }


def score_leaderboards(entries: Sequence[Entry], found: Mapping[Entry, int]) -> Leaderboards:
    """The figures of these entries, given where the run ranks them (:func:`ranked_blocks`)."""
    pairs = ranked = one_block = 0
    for first, second in combinations(entries, 2):
        if first.leaderboard != second.leaderboard or first.paper_id == second.paper_id:
            continue
        pairs += 1
        if first in found and second in found:
            ranked += 1
            one_block += found[first] == found[second]
    by_board: dict[tuple[str, str], list[Entry]] = {}
    for entry in entries:
        if entry in found:
            by_board.setdefault(entry.leaderboard, []).append(entry)
    shared = [board for board in by_board.values() if len({e.paper_id for e in board}) > 1]
    return Leaderboards(
        len(entries),
        sum(e in found for e in entries),
        pairs,
        ranked,
        one_block,
        len(shared),
        sum(len({found[e] for e in board}) for board in shared),
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
    return leaderboards(list(read_papers(run_dir)), read_inputs([str(scirex_path)]), ids)
