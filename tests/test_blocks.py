"""Blocks that merge across papers: one block per benchmark, metric and evaluation condition; a
paper's configuration, size and cost are shown on its row, never a block of their own; the block
says what its rows do not share. Every abstract here is made up."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from extractor.catalog.blocks import Joined, join_keys
from extractor.catalog.normalize import parse_setting
from extractor.cli.app import app
from extractor.grounding import ground
from extractor.leaderboard import build_leaderboard, export
from tests.runs import write_run
from extractor.schema import ClaimDraft, ExtractionDraft, Model, PaperResult


def paper(paper_id: str, abstract: str, claims: list[dict], models: list[Model] | None = None) -> PaperResult:
    draft = ExtractionDraft(models=models or [], claims=[ClaimDraft(**c) for c in claims])
    extraction, rejected = ground(draft, abstract, paper_id)
    assert not rejected, rejected
    return PaperResult(id=paper_id, title=f"Paper {paper_id}", status="ok", abstract=abstract, extraction=extraction)


LUMEN = "Lumen reaches 71.4% accuracy on MMLU with Lumen-7B and 78.9% with Lumen-70B, using a neural cache."
QUARK = "Our single model Quark achieves 74.2% 5-shot accuracy on MMLU."
SPINDLE = "Spindle, trained on extra data, scores 69.0% on MMLU."
ZEPHYR = "Zephyrus reaches 52.5% zero-shot accuracy on MMLU."


def mmlu_papers() -> list[PaperResult]:
    return [
        paper("p-lumen", LUMEN, [
            dict(value=71.4, unit="%", metric="accuracy", benchmark="MMLU", method="Lumen", model="Lumen-7B",
                 setting="using a neural cache", evidence="Lumen reaches 71.4% accuracy on MMLU with Lumen-7B"),
            dict(value=78.9, unit="%", metric="accuracy", benchmark="MMLU", method="Lumen", model="Lumen-70B",
                 evidence="78.9% with Lumen-70B"),
        ], models=[Model(name="Lumen-7B", params_b=7), Model(name="Lumen-70B", params_b=70)]),
        paper("p-quark", QUARK, [
            dict(value=74.2, unit="%", metric="5-shot accuracy", benchmark="MMLU", method="Quark", setting="single model",
                 evidence=QUARK),
        ]),
        paper("p-spindle", SPINDLE, [
            dict(value=69.0, unit="%", metric="accuracy", benchmark="MMLU", method="Spindle", setting="trained on extra data",
                 evidence="Spindle, trained on extra data, scores 69.0% on MMLU"),
        ]),
    ]


def test_configuration_size_and_a_usual_count_left_unstated_never_split_a_block() -> None:
    board = build_leaderboard(mmlu_papers())
    mmlu = board.scores[board.scores["benchmark"] == "MMLU"]
    assert mmlu["block"].nunique() == 1 and mmlu["paper"].nunique() == 3
    assert mmlu["comparable"].tolist() == [78.9, 74.2, 71.4, 69.0] and mmlu["rank"].tolist() == [1, 2, 3, 4]
    assert sorted(mmlu["size_b"].dropna()) == [7.0, 70.0]  # a column of the row
    assert mmlu["configuration"].fillna("").tolist() == ["", "single model", "using a neural cache", "trained on extra data"]
    assert set(mmlu["conflict"].dropna()) == set()  # one method in two configurations is no conflict
    title = mmlu["block_title"].iloc[0]
    assert title == "MMLU \u00b7 accuracy \u2191 (%) \u00b7 5-shot \u00b7 configurations differ"
    note = mmlu["block_note"].iloc[0]
    assert "shots not stated by 3 of 4 rows: the benchmark's usual one" in note
    assert "'single model'" in note and "'trained on extra data'" in note


def test_a_count_left_unstated_is_the_benchmarks_usual_one_and_a_zero_shot_score_stays_apart() -> None:
    """MMLU's usual count is 5 shots (the registry's word): the scores that state none are in its
    5-shot block; a zero-shot score is its own."""
    zephyr = paper("p-zephyr", ZEPHYR, [
        dict(value=52.5, unit="%", metric="accuracy", benchmark="MMLU", method="Zephyrus", setting="zero-shot", evidence=ZEPHYR),
    ])
    board = build_leaderboard([*mmlu_papers(), zephyr])
    conditions = board.scores.groupby("block_conditions")["comparable"].apply(sorted).to_dict()
    assert conditions == {"0-shot": [52.5], "5-shot": [69.0, 71.4, 74.2, 78.9]}


def test_evaluation_conditions_split_blocks() -> None:
    text = (
        "Brill gets 81.5 F1 on the SQuAD dev set and 82.0 F1 on the test set. Its translation reaches 27.9 BLEU "
        "on WMT14 English-German and 31.2 BLEU German-English. On PTB it reaches 1.31 bpc at character level."
    )
    other = "Crane reaches 80.2 F1 on SQuAD, 26.1 BLEU on WMT14 English-German and 1.36 bpc on the Penn Treebank."
    board = build_leaderboard([
        paper("p-brill", text, [
            dict(value=81.5, metric="F1", benchmark="SQuAD", method="Brill", setting="dev set", evidence="81.5 F1 on the SQuAD dev set"),
            dict(value=82.0, metric="F1", benchmark="SQuAD", method="Brill", setting="test set", evidence="82.0 F1 on the test set"),
            dict(value=27.9, metric="BLEU", benchmark="WMT14 English-German", method="Brill", evidence="27.9 BLEU on WMT14 English-German"),
            dict(value=31.2, metric="BLEU", benchmark="WMT14", setting="German-English", method="Brill", evidence="31.2 BLEU German-English"),
            dict(value=1.31, metric="bpc", benchmark="PTB", setting="character level", method="Brill", evidence="1.31 bpc at character level"),
        ]),
        paper("p-crane", other, [
            dict(value=80.2, metric="F1", benchmark="SQuAD", method="Crane", evidence="Crane reaches 80.2 F1 on SQuAD"),
            dict(value=26.1, metric="BLEU", benchmark="WMT14", method="Crane", evidence="26.1 BLEU on WMT14 English-German"),
            dict(value=1.36, metric="bpc", benchmark="Penn Treebank", method="Crane", evidence="1.36 bpc on the Penn Treebank"),
        ]),
    ])
    blocks = board.scores.groupby("block_title")["comparable"].apply(sorted).to_dict()
    assert blocks == {
        "SQuAD \u00b7 F1 \u2191 (%)": [80.2, 82.0],  # a split left unstated is the test split
        "SQuAD \u00b7 F1 \u2191 (%) \u00b7 dev": [81.5],
        "WMT14 \u00b7 BLEU \u2191 \u00b7 en-de": [26.1, 27.9],
        "WMT14 \u00b7 BLEU \u2191 \u00b7 de-en": [31.2],
        "Penn Treebank \u00b7 bits per character \u2193": [1.31, 1.36],  # bits per character is at character level
    }


def test_an_error_rate_is_never_ranked_in_an_accuracy_block() -> None:
    errs = "Our net, Heron, has top-1 and top-5 error rates of 41.2% and 19.9% on ImageNet."
    accurate = "Fenix reaches a top-1 accuracy of 79.3% on ImageNet."
    board = build_leaderboard([
        paper("p-heron", errs, [
            dict(value=41.2, unit="%", metric="top-1", benchmark="ImageNet", method="Heron", evidence=errs),
            dict(value=19.9, unit="%", metric="top-5 error rates", benchmark="ImageNet", method="Heron", evidence=errs),
        ]),
        paper("p-fenix", accurate, [
            dict(value=79.3, unit="%", metric="top-1", benchmark="ImageNet", method="Fenix", evidence=accurate),
        ]),
    ])
    by_metric = board.scores.set_index("comparable")["metric"].to_dict()
    assert by_metric == {41.2: "top-1 error", 19.9: "top-5 error", 79.3: "top-1 accuracy"}
    assert board.scores["block"].nunique() == 3 and set(board.scores["better"]) == {"lower", "higher"}


def test_blocks_whose_rows_differ_in_unread_words_are_listed(tmp_path: Path) -> None:
    board = build_leaderboard(mmlu_papers())
    assert board.unread["unread"].tolist() == [["", "single model", "trained on extra data", "using a neural cache"]]
    assert board.unread_note().startswith("1 block holds rows whose settings differ in words no condition reads (MMLU")
    write_run(tmp_path / "run", mmlu_papers(), {"backend": "test"})
    out = CliRunner().invoke(app, ["leaderboard", str(tmp_path / "run"), "--out", str(tmp_path / "board.csv")])
    assert out.exit_code == 0, out.output
    assert "setting_condition" in out.output and "MMLU" in out.output


def test_the_sheet_shows_conditions_the_block_and_the_rows_configuration(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    export(build_leaderboard(mmlu_papers()), tmp_path / "board.xlsx", charts=False)
    sheet = load_workbook(tmp_path / "board.xlsx")["Leaderboard"]
    header = [c.value for c in sheet[2]]
    rows = [dict(zip(header, (c.value for c in row))) for row in sheet.iter_rows(min_row=3)]
    assert {r["Conditions"] for r in rows} == {"5-shot"}
    assert rows[0]["Block"].startswith("3 papers; shots not stated by 3 of 4 rows")
    assert [r["Configuration"] for r in rows] == [None, "single model", "using a neural cache", "trained on extra data"]
    assert [r["Size (B)"] for r in rows] == [70, None, 7, None]


def test_a_chain_of_merges_is_followed_and_a_cycle_ends() -> None:
    test, dev, val = (parse_setting(split).key for split in ("test", "dev", "validation"))
    keys = [("SQuAD", "F1", "%", dev), ("SQuAD", "F1", "%", val), ("SQuAD", "F1", "%", test)]
    merges = {("SQuAD", "F1", dev): val, ("SQuAD", "F1", val): test, ("SQuAD", "F1", test): dev}
    joined = join_keys(keys, merges)
    assert joined[keys[0]] == Joined(("SQuAD", "F1", "%", test), merged=("split",))
    assert joined[keys[2]].key == ("SQuAD", "F1", "%", val)  # test -> dev -> validation, then back to test: stops


def test_a_score_that_states_no_count_joins_no_stated_count_of_its_own_accord() -> None:
    """A count is assumed only where the registry knows the benchmark's usual one: beside one
    zero-shot score, on a benchmark it does not know, a score that states no count is apart."""
    text = "Owl reaches 61.0% on FooMath zero-shot. Lynx reaches 74.5% on FooMath."
    board = build_leaderboard([
        paper("p-owl", text, [dict(value=61.0, unit="%", metric="accuracy", benchmark="FooMath", method="Owl", setting="zero-shot",
                                   evidence="Owl reaches 61.0% on FooMath zero-shot")]),
        paper("p-lynx", text, [dict(value=74.5, unit="%", metric="accuracy", benchmark="FooMath", method="Lynx",
                                    evidence="Lynx reaches 74.5% on FooMath")]),
    ])
    assert board.scores["block"].nunique() == 2


def test_a_block_of_one_row_says_nothing_of_what_its_rows_do_not_share() -> None:
    spindle = mmlu_papers()[2]
    board = build_leaderboard([spindle])
    assert board.scores["block_conditions"].tolist() == ["5-shot"] and board.scores["block_note"].isna().all()
