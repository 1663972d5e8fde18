"""What the leaderboard ranks (docs/ANNOTATION.md version 2): only complete scores (metric,
benchmark and subject), the rest listed as unranked with what they lack; the proposed method
shown as such; changes apart, with a verdict from both directions; one-paper blocks said so."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pandas as pd
import pytest
from openpyxl import load_workbook

from extractor.catalog.normalize import normalize_claim, normalize_metric
from extractor.leaderboard import build_leaderboard, export
from extractor.leaderboard.build import board_measures, standing
from extractor.schema import Method, PaperResult

from .test_leaderboard import paper

TEXT = (
    "We propose GANQ. GANQ reaches 83.6% accuracy on GSM8K and 61.0% on CIFAR-10, while QuIP reaches "
    "80.1% accuracy on GSM8K. It scores 55.2 overall; accuracy is 12-15% on ARC. With Llama-3-8B "
    "it gets 0.5 accuracy on MMLU."
)


def board_of(*results: PaperResult):
    return build_leaderboard(list(results))


@pytest.fixture
def mixed() -> PaperResult:
    result = paper("2401.00001", TEXT, [
        dict(value=83.6, unit="%", metric="accuracy", benchmark="GSM8K", method="GANQ",
             evidence="GANQ reaches 83.6% accuracy on GSM8K"),
        dict(value=80.1, unit="%", metric="accuracy", benchmark="GSM8K", method="QuIP",
             evidence="QuIP reaches 80.1% accuracy on GSM8K"),
        dict(value=61.0, unit="%", benchmark="CIFAR-10", method="GANQ", evidence="61.0% on CIFAR-10"),  # no metric (accuracy or error?)
        dict(value=55.2, evidence="It scores 55.2 overall"),  # no metric, benchmark or subject
        dict(value=12, value_max=15, unit="%", metric="accuracy", benchmark="ARC", method="GANQ",
             evidence="accuracy is 12-15% on ARC"),  # a range
        dict(value=0.5, metric="accuracy", benchmark="MMLU", model="Llama-3-8B",
             evidence="it gets 0.5 accuracy on MMLU"),  # 0.5 of a percent metric: 50 %, comparable
    ])
    methods = [Method(name="GANQ"), Method(name="QuIP", proposed=False)]
    return result.model_copy(update={"extraction": result.extraction.model_copy(update={"methods": methods})})


def test_only_complete_scores_are_ranked_and_the_rest_say_what_they_lack(mixed: PaperResult) -> None:
    board = board_of(mixed)
    assert sorted(board.scores["value"]) == [0.5, 80.1, 83.6]
    for column in ("metric", "benchmark"):
        assert board.scores[column].notna().all()
    assert ((board.scores["method_key"] != "") | (board.scores["model_key"] != "")).all()
    reasons = dict(zip(board.unranked["value"], board.unranked["unranked"]))
    assert reasons == {
        61.0: "missing metric",
        55.2: "missing metric, benchmark, subject",
        12.0: "a range",
    }
    assert set(board.unranked["claim_id"]).isdisjoint(board.scores["claim_id"])


def test_a_bound_is_listed_as_unranked_not_ranked_as_a_measured_value() -> None:
    """'o1 achieves less than 10% overall accuracy' says where the value lies, not what it is."""
    text = "On IneqMath, o1 achieves less than 10% overall accuracy and GPT-4o reaches 12.5% overall accuracy."
    result = paper("2401.00003", text, [
        dict(value=10, bound="upper", unit="%", metric="overall accuracy", benchmark="IneqMath", model="o1",
             evidence="o1 achieves less than 10% overall accuracy"),
        dict(value=12.5, unit="%", metric="overall accuracy", benchmark="IneqMath", model="GPT-4o",
             evidence="GPT-4o reaches 12.5% overall accuracy"),
    ])
    board = board_of(result)
    assert board.scores["value"].tolist() == [12.5]
    (row,) = board.unranked.to_dict("records")
    assert (row["value"], row["bound"], row["unranked"]) == (10, "upper", "an upper bound, not a measured value")
    out = io.StringIO()
    board.unranked.to_csv(out)
    assert "an upper bound" in out.getvalue()


def test_the_proposed_method_is_shown_as_such(mixed: PaperResult) -> None:
    board = board_of(mixed)
    gsm8k = board.scores[board.scores["benchmark"] == "GSM8K"]
    assert gsm8k["method_label"].tolist() == ["GANQ (proposed)", "QuIP"]
    assert gsm8k["method_name"].tolist() == ["GANQ", "QuIP"]  # the name itself is unchanged
    assert board.unranked.set_index("value").loc[61.0, "method_label"] == "GANQ (proposed)"
    proposed = board.claims.set_index("value")["proposed"]
    assert proposed[83.6] and not proposed[80.1]  # QuIP is named, but as a baseline


def test_changes_are_never_ranked_among_scores() -> None:
    text = "GANQ improves accuracy by 2.1 points over QuIP on GSM8K, reaching 83.6% accuracy on GSM8K."
    result = paper("p-1", text, [
        dict(value=2.1, unit="points", metric="accuracy", benchmark="GSM8K", method="GANQ", baseline="QuIP",
             kind="change", direction="increase", evidence="GANQ improves accuracy by 2.1 points over QuIP on GSM8K"),
        dict(value=83.6, unit="%", metric="accuracy", benchmark="GSM8K", method="GANQ",
             evidence="reaching 83.6% accuracy on GSM8K"),
    ])
    board = board_of(result)
    assert board.scores["value"].tolist() == [83.6]
    assert board.changes["value"].tolist() == [2.1] and board.unranked.empty
    assert pd.isna(board.claims.set_index("value").loc[2.1, "unranked"])  # a change is not a score


@pytest.mark.parametrize(
    "metric, direction, verdict",
    [
        ("KV cache memory", "decrease", "improvement"),  # "reduces KV cache memory by 75%"
        ("activation memory", "decrease", "improvement"),  # not in the registry, but a memory
        ("peak memory", "decrease", "improvement"),
        ("latency", "increase", "regression"),
        ("speedup", "increase", "improvement"),
        ("throughput", "decrease", "regression"),
        ("attack success rate", "decrease", "unknown"),  # the registry gives no direction
        ("novelty", "increase", "unknown"),  # an unknown metric
        ("latency", None, "unknown"),  # a change without a direction
    ],
)
def test_the_verdict_combines_both_directions(metric: str, direction: str | None, verdict: str) -> None:
    text = f"GANQ changes {metric} by 75% against FP16."
    result = paper("p-1", text, [dict(value=75, unit="%", metric=metric, method="GANQ", baseline="FP16",
                                       kind="change", direction=direction, evidence=text)])
    assert board_of(result).changes["verdict"].tolist() == [verdict]


def test_a_block_from_one_paper_says_so(mixed: PaperResult) -> None:
    other = paper("2401.00002", "SqueezeLLM reaches 81.0% accuracy on GSM8K.", [
        dict(value=81.0, unit="%", metric="accuracy", benchmark="GSM8K", method="SqueezeLLM",
             evidence="SqueezeLLM reaches 81.0% accuracy on GSM8K"),
    ])
    alone = board_of(mixed)
    gsm8k = alone.scores[alone.scores["benchmark"] == "GSM8K"]
    assert set(gsm8k["block_papers"]) == {"one paper"}
    assert gsm8k["block_title"].iloc[0].endswith("all from one paper")
    mmlu = alone.scores[alone.scores["benchmark"] == "MMLU"]
    assert mmlu["block_papers"].tolist() == ["one paper"] and "all from" not in mmlu["block_title"].iloc[0]
    together = board_of(mixed, other)
    gsm8k = together.scores[together.scores["benchmark"] == "GSM8K"]
    assert set(gsm8k["block_papers"]) == {"2 papers"} and "one paper" not in gsm8k["block_title"].iloc[0]
    assert together.blocks.set_index("title").loc[gsm8k["block_title"].iloc[0], "papers"] == 2


def test_blocks_are_normalize_s_comparability_key(mixed: PaperResult) -> None:
    board = board_of(mixed)
    claims = {c.id: c for c in mixed.extraction.claims}
    keys = {normalize_claim(claims[i]).comparability_key for i in board.scores["claim_id"]}
    assert board.scores["block"].nunique() == len(keys) == 2


def test_unranked_sheet_and_csv_column(mixed: PaperResult, tmp_path: Path) -> None:
    out = tmp_path / "board.xlsx"
    export(board_of(mixed), out, charts=False)
    book = load_workbook(out)
    sheet = book["Unranked"]
    header = [c.value for c in sheet[1]]
    assert header[:4] == ["Unranked because", "Benchmark", "Metric", "Method"]
    assert sorted(row[0].value for row in sheet.iter_rows(min_row=2)) == [
        "a range", "missing metric", "missing metric, benchmark, subject",
    ]
    board = {c.value: i for i, c in enumerate(book["Leaderboard"][2])}
    methods = [row[board["Method"]].value for row in book["Leaderboard"].iter_rows(min_row=3)]
    assert "GANQ (proposed)" in methods
    csv_out = tmp_path / "claims.csv"
    export(board_of(mixed), csv_out, charts=False)
    rows = list(csv.DictReader(io.StringIO(csv_out.read_text())))
    assert {r["value"]: r["unranked"] for r in rows}["61.0"] == "missing metric"
    assert {r["value"]: r["unranked"] for r in rows}["83.6"] == ""


def test_an_unregistered_metric_takes_the_direction_of_the_metric_it_ends_with() -> None:
    assert normalize_metric("activation memory").direction == "lower"
    assert normalize_metric("activation memory").name == "activation memory"  # not renamed
    assert normalize_metric("cache hit rate").direction == "higher"
    assert normalize_metric("5-task average").direction is None


def test_the_papers_own_unnamed_method_is_ranked_under_its_title_and_a_context_benchmark_is_marked() -> None:
    """Contract v3: a `proposed` claim has a subject even when the paper never names its method;
    its row is shown under the paper's short label, and a benchmark its evidence does not write
    says 'from context'."""
    text = "We evaluate on SQuAD. Our model reaches 81.1 F1, and BiDAF reaches 77.3 F1 on SQuAD. Training takes 5 days."
    result = paper("1611.00001", text, [
        dict(value=81.1, metric="F1", benchmark="SQuAD", proposed=True, evidence="Our model reaches 81.1 F1"),
        dict(value=77.3, metric="F1", benchmark="SQuAD", method="BiDAF", evidence="BiDAF reaches 77.3 F1 on SQuAD"),
        dict(value=5.0, metric="training time", evidence="Training takes 5 days"),  # no subject: unranked as before
    ])
    result = result.model_copy(update={"title": "Gated Self-Matching Networks for Reading Comprehension"})
    board = board_of(result)
    rows = board.scores.set_index("value")
    assert sorted(rows.index) == [77.3, 81.1]
    assert rows.loc[81.1, "method_label"] == "Gated Self-Matching Networks for Reading\u2026 (proposed)"
    assert bool(rows.loc[81.1, "proposed"]) and not bool(rows.loc[77.3, "proposed"])
    assert rows.loc[81.1, "benchmark_source"] == "from context" and pd.isna(rows.loc[77.3, "benchmark_source"])
    assert rows.loc[81.1, "title"] == "Gated Self-Matching Networks for Reading Comprehension"
    assert board.unranked.set_index("value").loc[5.0, "unranked"] == "missing benchmark, subject"
    # Without a title, the paper id names the row.
    untitled = board_of(result.model_copy(update={"title": None})).scores.set_index("value")
    assert untitled.loc[81.1, "method_label"] == "1611.00001 (proposed)"


def test_the_workbook_shows_title_and_benchmark_source_beside_the_paper(tmp_path: Path) -> None:
    text = "We evaluate on SQuAD. Our model reaches 81.1 F1."
    result = paper("1611.00001", text, [
        dict(value=81.1, metric="F1", benchmark="SQuAD", proposed=True, evidence="Our model reaches 81.1 F1")])
    out = tmp_path / "board.xlsx"
    export(board_of(result.model_copy(update={"title": "R-Net: Machine Reading"})), out)
    sheet = load_workbook(out)["Leaderboard"]
    header = [c.value for c in sheet[2]]
    row = dict(zip(header, [c.value for c in sheet[3]]))
    assert (row["Method"], row["Benchmark source"], row["Title"]) == ("R-Net (proposed)", "from context", "R-Net: Machine Reading")
    assert header.index("Title") == header.index("Paper") + 1


def test_one_abstract_under_two_ids_is_one_paper_in_a_block() -> None:
    text = "GANQ reaches 83.6% accuracy on GSM8K."
    claim = [dict(value=83.6, unit="%", metric="accuracy", benchmark="GSM8K", method="GANQ", evidence=text)]
    other = "QuIP reaches 80.1% accuracy on GSM8K."
    board = board_of(
        paper("2401.00001", text, claim),
        paper("p-copy", text.replace(" ", "  ", 1), claim),  # the same abstract, wrapped otherwise
        paper("2401.00002", other, [dict(claim[0], value=80.1, method="QuIP", evidence=other)]),
    )
    assert board.blocks["papers"].tolist() == [2]
    assert sorted(board.scores["paper_id"]) == ["2401.00001 = p-copy", "2401.00002"]
    assert board.scores["value"].tolist() == [83.6, 80.1]
    alone = board_of(paper("2401.00001", text, claim), paper("p-copy", text, claim))
    assert alone.blocks["papers"].tolist() == [1]  # never two papers agreeing with each other
    assert "all from one paper" not in alone.scores["block_title"].iloc[0]


def test_names_written_differently_by_two_papers_share_one_block() -> None:
    a = "On PTB AWD reaches a word-level perplexity of 55.3."
    b = "QRNN obtains 57.1 perplexity on the Penn Treebank test set."
    board = board_of(
        paper("2401.00001", a, [dict(value=55.3, metric="word-level perplexity", benchmark="PTB", method="AWD", evidence=a)]),
        paper("2401.00002", b, [dict(value=57.1, metric="perplexity", benchmark="Penn Treebank test set", method="QRNN", evidence=b)]),
    )
    assert board.blocks["papers"].tolist() == [2]
    assert board.scores["rank"].tolist() == [1.0, 2.0]


def test_a_score_on_a_benchmark_of_several_inputs_that_states_none_is_listed_with_what_it_lacks() -> None:
    """LRS3 is reported by lip reading, audio alone and audio-visual: a WER that says none of
    them is no entry of any of those leaderboards until a reviewer says which."""
    text = "Foo reaches a WER of 21.0% on LRS3. In lip reading, Bar gets 30.5% WER on LRS3."
    result = paper("2401.00004", text, [
        dict(value=21.0, unit="%", metric="WER", benchmark="LRS3", method="Foo", evidence="Foo reaches a WER of 21.0% on LRS3"),
        dict(value=30.5, unit="%", metric="WER", benchmark="LRS3", method="Bar", setting="lip reading",
             evidence="In lip reading, Bar gets 30.5% WER on LRS3"),
    ])
    board = board_of(result)
    assert board.scores["value"].tolist() == [30.5]
    (row,) = board.unranked.to_dict("records")
    assert (row["value"], row["unranked"]) == (21.0, "input not stated (LRS3 is reported under several)")


def _receipts(value: float, written: str, metric: str | None, setting: str | None = None, method: str = "Ours") -> tuple[str, list[dict]]:
    """A made-up abstract on the made-up Receipt-KIE benchmark, with its one score."""
    text = f"{method} reaches {written} on Receipt-KIE."
    claim = dict(value=value, metric=metric, benchmark="Receipt-KIE", method=method, setting=setting,
                 evidence=f"{method} reaches {written} on Receipt-KIE")
    return text, [claim]


def _receipts_board(*scores: tuple[float, str, str | None, str | None]):
    papers = []
    for number, (value, written, metric, setting) in enumerate(scores, start=1):
        papers.append(paper(f"2402.0000{number}", *_receipts(value, written, metric, setting, method=f"M{number}")))
    return build_leaderboard(papers)


def test_a_score_naming_no_measure_takes_the_one_the_board_reports_its_benchmark_in() -> None:
    board = _receipts_board((91.2, "91.2 F1", "F1", None), (89.5, "89.5 F1", "F1", None), (0.9524, "0.9524", None, None))
    block = board.scores[board.scores["benchmark"] == "Receipt-KIE"]
    assert block["method_name"].tolist() == ["M3", "M1", "M2"] and block["block"].nunique() == 1
    assert block["comparable"].tolist() == pytest.approx([95.24, 91.2, 89.5])
    assert block["setting_assumed"].tolist()[0] == ("metric",)
    assert board.blocks["note"].tolist() == ["metric not stated by 1 of 3 rows: the benchmark's usual one"]
    claims = board.claims.set_index("value")
    assert claims.loc[0.9524, "metric"] == "F1" and claims.loc[0.9524, "unranked"] == ""
    assert board.unranked.empty and board.length("unranked") == 0


@pytest.mark.parametrize("scores", [
    [(91.2, "91.2 F1", "F1", None), (89.5, "89.5% accuracy", "accuracy", None)],  # two measures
    [(9.1, "9.1 WER", "WER", None), (8.5, "8.5 WER", "WER", None)],  # lower is better: seldom written bare
    [(91.2, "91.2 F1", "F1", "RE"), (89.5, "89.5 F1", "F1", None)],  # 'RE' may name a part of it
], ids=["two measures", "lower is better", "a part"])
def test_a_benchmark_the_board_reports_in_no_one_score_measure_leaves_a_bare_number_unranked(scores: list) -> None:
    board = _receipts_board(*scores, (0.9524, "0.9524", None, None))
    assert 0.9524 not in board.scores["value"].tolist()
    assert board.unranked["unranked"].tolist() == ["missing metric"] and board.length("unranked") == 1


def test_a_cost_on_the_benchmark_says_nothing_of_what_a_bare_number_there_is() -> None:
    """'11% parameters' on Receipt-KIE is what an entry spends, not a second measure the benchmark is
    scored in: the bare 0.9524 is still the board's F1."""
    board = _receipts_board((91.2, "91.2 F1", "F1", None), (89.5, "89.5 F1", "F1", None), (11.0, "11% parameters", "parameters", None),
                            (0.9524, "0.9524", None, None))
    assert 0.9524 in board.scores["value"].tolist()


def test_a_task_named_beside_the_other_rows_is_no_part_and_the_bare_numbers_own_words_are_read() -> None:
    board = _receipts_board((91.2, "91.2 F1", "F1", "entity relation extraction"), (89.5, "89.5 F1", "F1", "incorporated into LMH"),
                            (0.9524, "0.9524", None, None), (0.93, "0.93", None, "handwritten receipts"))
    assert 0.9524 in board.scores["value"].tolist()
    assert board.unranked["value"].tolist() == [0.93]  # may name a part: a reviewer says which


TRIALS = ("FooNet, our best system, achieves 0.537%, 0.569% and 1.180% EER on the three official trials of "
          "FooCeleb, and 0.61% EER on FooCeleb with the small model.")


def _trials() -> PaperResult:
    """One entry given three numbers in one block (what tells them apart, the trials' order, is
    lost in the claims), and one entry given one. Made-up abstract."""
    claims = [dict(value=v, unit="%", metric="EER", benchmark="FooCeleb", method="FooNet", setting="best system",
                   evidence=e) for v, e in ((0.537, "achieves 0.537%"), (0.569, "0.569%"),
                                            (1.18, "1.180% EER on the three official trials of FooCeleb"))]
    claims.append(dict(value=0.61, unit="%", metric="EER", benchmark="FooCeleb", method="FooNet", setting="small model",
                       evidence="0.61% EER on FooCeleb with the small model"))
    return paper("2403.00001", TRIALS, claims)


def test_an_entry_given_several_numbers_in_one_block_by_its_paper_is_not_ranked() -> None:
    board = board_of(_trials())
    assert board.scores["value"].tolist() == [0.61]
    untold = "one of 3 numbers for one entry that no condition tells apart"
    assert board.unranked["unranked"].tolist() == [untold] * 3 and board.length("unranked") == 3
    claims = board.claims.set_index("value")
    assert claims.loc[[0.537, 0.569, 1.18], "unranked"].tolist() == [untold] * 3 and claims.loc[0.61, "unranked"] == ""


def test_the_review_page_reads_a_claim_beside_its_papers_claims() -> None:
    result = _trials()
    claims = result.extraction.claims
    assert standing(claims[0])[0] == ""  # alone, nothing tells it is one of three
    assert standing(claims[0], paper=claims)[0] == "one of 3 numbers for one entry that no condition tells apart"
    assert standing(claims[3], paper=claims)[0] == ""


def test_board_measures_read_again_only_the_claims_that_are_new_objects() -> None:
    """The review page asks again after each correction: what each unchanged claim told is kept
    (its claim object is the same), and a corrected claim, a new object, is read again."""
    papers = [paper(f"2402.0000{n}", *_receipts(v, w, "F1")) for n, (v, w) in enumerate(((91.2, "91.2 F1"), (89.5, "89.5 F1")), 1)]
    memo: dict = {}
    assert board_measures(papers, memo=memo) == {"receiptkie": "F1"} and len(memo) == 2  # by its folded name
    first = papers[0].extraction.claims[0]
    corrected = first.model_copy(update={"metric": "accuracy"})
    papers[0] = papers[0].model_copy(update={"extraction": papers[0].extraction.model_copy(update={"claims": [corrected]})})
    assert board_measures(papers, memo=memo) == {}  # two measures now: none is taken
    assert memo[id(corrected)][1].measure == "accuracy" and memo[id(papers[1].extraction.claims[0])][1].measure == "F1"
