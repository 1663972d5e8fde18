"""Cross-paper pairs that split: each pair both ranked but in two blocks is listed with the two
rows' block keys, so what splits it (a metric, a benchmark, a setting) can be read off."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from .conftest import FIXTURES, ROOT
from .test_scirex import BOARDS, _boards, _claim

RECORDED = FIXTURES / "recorded"


def test_a_pair_in_two_blocks_is_listed_with_both_rows_keys(tmp_path: Path) -> None:
    figures = _boards(tmp_path, BOARDS, {
        0: [_claim(1, 77.3, "F1", "SQuAD", "BiDAF")],
        1: [_claim(3, 79.7, "test F1 on the hidden split", "SQuAD", "R-Net")],  # its own block
    })
    assert len(figures.split) == 1
    pair = figures.split[0]
    assert (pair.first.value, pair.second.value) == (77.3, 79.7)
    assert pair.first_row.key[0] == pair.second_row.key[0] == "SQuAD"  # the benchmark merges
    assert (pair.first_row.key[1], pair.second_row.key[1]) == ("F1", "f1onthehiddensplit")  # the metric does not
    assert pair.describe().startswith("SQuAD1 1 / F1: ")
    assert "'F1'" in pair.describe() and "'f1onthehiddensplit'" in pair.describe()
    side = figures.to_dict()["split_pairs"][0]["second"]
    assert (side["metric"], side["block"]) == ("test F1 on the hidden split", pair.second_row.block)


def test_pairs_in_one_block_are_not_listed(tmp_path: Path) -> None:
    figures = _boards(tmp_path, BOARDS, {
        0: [_claim(1, 77.3, "F1", "SQuAD", "BiDAF")],
        1: [_claim(3, 79.7, "F1", "SQuAD 1.1", "R-Net")],
    })
    assert (figures.pairs_one_block, figures.split) == (1, ())
    assert figures.to_dict()["split_pairs"] == []


def _quality():
    """benchmarks/quality.py, loaded as a module (the benchmarks are scripts, not a package)."""
    spec = importlib.util.spec_from_file_location("quality", ROOT / "benchmarks" / "quality.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _recording(path: Path, source: Path, ids: set[str] | None = None, first: int = 0) -> None:
    """The header of a recording and its answers for ``ids`` (or its ``first`` answers)."""
    lines = source.read_text(encoding="utf-8").splitlines()
    answers = [line for line in lines[1:] if line.strip()]
    kept = [line for line in answers if json.loads(line)["id"] in ids] if ids else answers[:first]
    path.write_text("\n".join([lines[0], *kept]) + "\n", encoding="utf-8")


def test_replay_measures_the_scirex_sets_as_the_rules_rows_and_pooled(tmp_path: Path) -> None:
    """The two text8 papers of tune-scirex (tuning text), replayed: their pair is ranked by both
    backends, and both rank it in one block: the recorded model writes bits per character, the
    rules perplexity ('bpc / perplexity from 1.13 to 1.08'), which the catalog reads as the
    measure text8 is scored in (extractor/catalog/measures.py)."""
    recorded = tmp_path / "recorded"
    recorded.mkdir()
    _recording(recorded / "tune-scirex.jsonl", RECORDED / "tune-scirex.jsonl", {"p-03d350ec0c04", "p-e7301bab9e95"})
    _recording(recorded / "heldout-scirex.jsonl", RECORDED / "heldout-scirex.jsonl", first=1)
    rows, pooled = _quality().replay_rows(None, tmp_path / "scratch", recorded)
    boards = {r["set"]: r["leaderboards"] for r in rows}
    for backend in ("rules", "replay"):
        assert boards[f"tune-scirex {backend}"]["pairs"] == {"in_gold": 1, "both_ranked": 1, "one_block": 1, "one_block_share": 1.0}
        assert boards[f"tune-scirex {backend}"]["split_pairs"] == []
    assert boards["heldout-scirex replay"]["reconstruction"]["of"] == 0  # 0 of 0, shown as such
    assert [name for name, _ in pooled] == [
        "all recorded SciREX papers rules (tune-scirex + heldout-scirex, one run)",
        "all recorded SciREX papers replay (tune-scirex + heldout-scirex, one run)",
    ]
    entries = boards["tune-scirex rules"]["reconstruction"]["of"]  # heldout-scirex adds none
    assert [(b.entries, b.pairs_ranked, b.pairs_one_block) for _, b in pooled] == [(entries, 1, 1), (entries, 1, 1)]


def test_replay_scores_each_set_of_board_labels_on_its_recordings_run(tmp_path: Path) -> None:
    """Two tune papers of the cross-paper set, replayed once for two label files of one
    recording; the role picks which are measured."""
    quality = _quality()
    recording = tmp_path / "crosspaper.jsonl"
    _recording(recording, RECORDED / "crosspaper.jsonl", {"cp-008", "cp-015"})
    labels = [json.loads(line) for line in (FIXTURES / "gold" / "crosspaper-tune-boards.jsonl").read_text().splitlines()]
    mine = tmp_path / "boards.jsonl"
    mine.write_text("".join(json.dumps(label) + "\n" for label in labels if label["paper_id"] in {"cp-008", "cp-015"}))
    sets = tmp_path / "board-sets.json"
    sets.write_text(json.dumps([
        {"name": "a", "role": "tuning", "abstracts": "fixtures/crosspaper/abstracts.jsonl", "recording": str(recording), "boards": str(mine)},
        {"name": "b", "role": "held-out", "abstracts": "fixtures/crosspaper/abstracts.jsonl", "recording": str(recording), "boards": str(mine)},
    ]))
    quality.BOARD_SETS = sets
    found = quality.board_rows(["tuning"], tmp_path / "scratch")
    assert [name for name, _ in found] == ["a replay (tuning)"]
    figures = found[0][1]
    assert figures.rows == figures.found == len(mine.read_text().splitlines())
    assert (figures.pairs, figures.together, len(figures.wrong)) == (1, 1, 0)  # EfficientNet-B7 and another ImageNet top-1
    assert "| a replay (tuning) | 1.000 (1 of 1) | 1.000 (1 of 1) | 0 | 0 |" in quality.board_labels_markdown(found)
