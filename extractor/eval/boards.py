"""Cross-paper pairs and wrong merges of a run's leaderboard against board labels: an annotator's
word, for each score row of a run, on which leaderboard it belongs (``docs/merging.md``, "Board
labels"; the files are ``fixtures/gold/<set>-boards.jsonl``).

One JSON object a line: ``{"paper_id": ..., "claim_id": ..., "value": ..., "board": ...}``, where
``board`` is a free label naming one leaderboard (rows with equal labels belong on one) or null
(the row belongs on none). A row is found in the run by its paper and claim id (claim ids come
from the paper, the value and where the number sits, so they hold across backends), else by its
paper and value when exactly one of the paper's ranked rows has it.

- pairs: rows of two different papers with one label; how many share a block of the board;
- wrong merges: rows of two different papers in one block whose labels differ (a block joined
  what the annotator keeps apart); rows the labels put on no board that share a block with
  another paper's row are counted apart.

Reading is the I/O edge (a bad line is named by file and line, the others are read); scoring is
pure over the labels and the board's ranked rows.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from extractor.leaderboard import build_leaderboard, load_runs
from extractor.runs import Run


class BoardLabel(BaseModel):
    """One labelled score row."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    paper_id: str
    claim_id: str
    value: float
    board: str | None


def read_board_labels(path: Path) -> tuple[list[BoardLabel], list[str]]:
    """The labels of a file, and a problem for each line that is not one ('boards.jsonl:3: ...')."""
    labels: list[BoardLabel] = []
    problems: list[str] = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            labels.append(BoardLabel.model_validate(json.loads(line)))
        except json.JSONDecodeError as exc:
            problems.append(f"{path}:{number}: malformed JSON ({exc.msg} at column {exc.colno})")
        except ValidationError as exc:
            fields = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'line'}: {e['msg']}" for e in exc.errors())
            problems.append(f"{path}:{number}: not a board label ({fields})")
    return labels, problems


@dataclass(frozen=True)
class Row:
    """Where a labelled row is on the board: its block (None when it is not ranked or not found)."""

    label: BoardLabel
    block: int | None
    found: bool

    def describe(self) -> str:
        where = f"block {self.block}" if self.block is not None else "not ranked" if self.found else "not in the run"
        return f"{self.label.paper_id} {self.label.value:g} ({self.label.board or 'no board'}; {where})"


@dataclass(frozen=True)
class BoardFigures:
    rows: int  # labelled rows
    found: int  # ... the run has
    ranked: int  # ... the board ranks in a block
    pairs: int  # rows of two papers with one label
    pairs_ranked: int  # ... both ranked
    together: int  # ... in one block
    split: tuple[tuple[Row, Row], ...] = ()  # pairs with one label, both ranked, in two blocks
    wrong: tuple[tuple[Row, Row], ...] = ()  # two papers' rows in one block, labels differ
    unboarded: tuple[tuple[Row, Row], ...] = ()  # two papers' rows in one block, one labelled no board

    def to_dict(self) -> dict:
        def share(part: int, whole: int) -> float | None:
            return part / whole if whole else None

        return {
            "rows": {"labelled": self.rows, "in_run": self.found, "ranked": self.ranked},
            "pairs": {"in_gold": self.pairs, "both_ranked": self.pairs_ranked, "one_block": self.together,
                      "one_block_share": share(self.together, self.pairs),
                      "one_block_share_of_ranked": share(self.together, self.pairs_ranked)},
            "wrong_merges": len(self.wrong),
            "unboarded_in_a_block": len(self.unboarded),
            "split_pairs": [" vs ".join(r.describe() for r in pair) for pair in self.split],
            "wrong_merged_pairs": [" vs ".join(r.describe() for r in pair) for pair in self.wrong],
        }  # fmt: skip


def score_boards(labels: list[BoardLabel], ranked: Iterable[tuple[str, str, float, int]], claims: Iterable[tuple[str, str]]) -> BoardFigures:
    """The figures of these labels, given the board's ranked rows ((paper id, claim id, value,
    block); a paper under several ids is listed under each) and every claim of the run."""
    blocks: dict[tuple[str, str], int] = {}
    values: dict[tuple[str, float], list[int]] = {}
    for paper_id, claim_id, value, block in ranked:
        blocks[(paper_id, claim_id)] = block
        values.setdefault((paper_id, round(value, 6)), []).append(block)
    known = set(claims)
    rows = []
    for label in labels:
        key = (label.paper_id, label.claim_id)
        if key in blocks:
            rows.append(Row(label, blocks[key], True))
        elif len(same := values.get((label.paper_id, round(label.value, 6)), [])) == 1:
            rows.append(Row(label, same[0], True))
        else:
            rows.append(Row(label, None, key in known))
    pairs = ranked_pairs = together = 0
    split, wrong, unboarded = [], [], []
    for a, b in combinations(rows, 2):
        if a.label.paper_id == b.label.paper_id:
            continue
        one_block = a.block is not None and a.block == b.block
        if a.label.board is not None and a.label.board == b.label.board:
            pairs += 1
            if a.block is not None and b.block is not None:
                ranked_pairs += 1
                together += one_block
                if not one_block:
                    split.append((a, b))
        elif one_block:
            (wrong if a.label.board is not None and b.label.board is not None else unboarded).append((a, b))
    return BoardFigures(
        len(rows), sum(r.found for r in rows), sum(r.block is not None for r in rows), pairs, ranked_pairs, together,
        tuple(split), tuple(wrong), tuple(unboarded),
    )


def evaluate_boards(run_dir: Path, path: Path, store: Path | None = None) -> tuple[BoardFigures, list[str]]:
    """:func:`score_boards` of a run's leaderboard (reviewers' corrections applied, as every
    export applies them) against a board-label file; and the file's lines that were not read."""
    labels, problems = read_board_labels(path)
    board = build_leaderboard(*load_runs([Run.open(run_dir, store)]))
    scores = board.scores
    ranked = [
        (paper_id, claim_id, float(value), int(block))
        for papers, claim_id, value, block in zip(scores.get("paper_id", []), scores.get("claim_id", []), scores.get("value", []), scores.get("block", []))
        for paper_id in str(papers).split(" = ")
    ]
    claims = [(p, c) for chunk in board.chunks("claims") for p, c in zip(chunk["paper_id"], chunk["claim_id"])]
    return score_boards(labels, ranked, claims), problems
