"""Cross-paper pairs that split: each pair both ranked but in two blocks is listed with the two
rows' block keys, so what splits it (a metric, a benchmark, a setting) can be read off."""

from __future__ import annotations

from pathlib import Path

from .test_scirex import BOARDS, _boards, _claim


def test_a_pair_in_two_blocks_is_listed_with_both_rows_keys(tmp_path: Path) -> None:
    figures = _boards(tmp_path, BOARDS, {
        0: [_claim(1, 77.3, "F1", "SQuAD", "BiDAF")],
        1: [_claim(3, 79.7, "test F1 on the hidden split", "SQuAD", "R-Net")],  # its own block
    })
    assert len(figures.split) == 1
    pair = figures.split[0]
    assert (pair.first.value, pair.second.value) == (77.3, 79.7)
    assert pair.first_row.key[0] == pair.second_row.key[0] == "SQuAD"  # the benchmark merges
    assert (pair.first_row.key[1], pair.second_row.key[1]) == ("F1", "testf1onthehiddensplit")  # the metric does not
    assert pair.describe().startswith("SQuAD1 1 / F1: ")
    assert "'F1'" in pair.describe() and "'testf1onthehiddensplit'" in pair.describe()
    side = figures.to_dict()["split_pairs"][0]["second"]
    assert (side["metric"], side["block"]) == ("test F1 on the hidden split", pair.second_row.block)


def test_pairs_in_one_block_are_not_listed(tmp_path: Path) -> None:
    figures = _boards(tmp_path, BOARDS, {
        0: [_claim(1, 77.3, "F1", "SQuAD", "BiDAF")],
        1: [_claim(3, 79.7, "F1", "SQuAD 1.1", "R-Net")],
    })
    assert (figures.pairs_one_block, figures.split) == (1, ())
    assert figures.to_dict()["split_pairs"] == []
