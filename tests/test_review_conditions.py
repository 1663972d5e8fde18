"""A reviewer decides what splits a block and what is one block: a setting phrase is an evaluation
condition (setting_condition), or two blocks that differ only in a condition are one
(block_same_as). Kept in the correction store like the name aliases, validated by the same
library function whatever page a reviewer writes on, applied on every export. Made-up abstracts."""

from __future__ import annotations

from pathlib import Path

from extractor.leaderboard import build_leaderboard, load_runs
from extractor.review import apply_review, export_review
from extractor.review.aliases import alias_corrections
from extractor.review.corrected import Target
from extractor.runs import Run
from extractor.runs.corrections import CorrectionStore
from extractor.runs.files import STORE_FILE
from tests.runs import write_run

from .test_review import cell, claim_id, edit
from .test_review_aliases import result

GLOW = "Glow reaches 40.1 recall on SceneSet under predicate classification and 22.3 recall under scene detection."
MOTH = "Moth reaches 38.7 recall on SceneSet under predicate classification."
DEV = "Kite reaches 77.0 F1 on the SQuAD dev set."
TEST = "Lark reaches 79.5 F1 on SQuAD."


def scene_runs(tmp_path: Path) -> tuple[Path, Path]:
    a, b = tmp_path / "a", tmp_path / "b"
    write_run(a, [result("glow", GLOW, [
        dict(value=40.1, metric="recall", benchmark="SceneSet", method="Glow", setting="predicate classification",
             evidence="Glow reaches 40.1 recall on SceneSet under predicate classification"),
        dict(value=22.3, metric="recall", benchmark="SceneSet", method="Glow", setting="scene detection",
             evidence="22.3 recall under scene detection"),
    ])], {"backend": "test"})
    write_run(b, [result("moth", MOTH, [
        dict(value=38.7, metric="recall", benchmark="SceneSet", method="Moth", setting="predicate classification", evidence=MOTH),
    ])], {"backend": "test"})
    return a, b


def titles(*run_dirs: Path) -> dict[str, list[float]]:
    board = build_leaderboard(*load_runs([Run.open(d) for d in run_dirs]))
    return board.scores.groupby("block_title")["comparable"].apply(sorted).to_dict()


def test_a_phrase_a_reviewer_marks_as_a_condition_splits_on_every_paper(tmp_path: Path) -> None:
    a, b = scene_runs(tmp_path)
    assert list(titles(a, b).values()) == [[22.3, 38.7, 40.1]]  # unread words never split
    book = tmp_path / "review.xlsx"
    export_review(Run.open(a), book)
    row = claim_id(a, "glow", 40.1)
    assert cell(book, "Claims", row, "setting_read") == "not read: predicate classification"
    edit(book, book, "Claims", row, setting_condition="predicate classification")
    assert not apply_review(book, Run.open(a), "alice").refused
    with CorrectionStore(a / STORE_FILE) as db:
        said = [(c.field, c.old_value, c.new_value) for c in db.history() if c.field == "setting_condition"]
    assert said == [("setting_condition", None, "predicate classification")]
    # Moth is another run, never edited: its setting writes the phrase, so it splits there too.
    assert titles(a, b) == {
        "SceneSet \u00b7 recall \u2191 (%) \u00b7 predicate classification": [38.7, 40.1],
        "SceneSet \u00b7 recall \u2191 (%)": [22.3],
    }
    again = tmp_path / "again.xlsx"
    export_review(Run.open(a), again)
    assert cell(again, "Claims", row, "setting_read") == "conditions: predicate classification"
    edit(again, again, "Claims", row, setting_condition=None)  # cleared: taken back
    apply_review(again, Run.open(a), "bob")
    assert list(titles(a, b).values()) == [[22.3, 38.7, 40.1]]


def test_a_phrase_not_in_the_setting_or_already_read_is_refused(tmp_path: Path) -> None:
    a, _ = scene_runs(tmp_path)
    book = tmp_path / "review.xlsx"
    export_review(Run.open(a), book)
    edit(book, book, "Claims", claim_id(a, "glow", 40.1), setting_condition="object detection")
    report = apply_review(book, Run.open(a), "alice")
    assert len(report.refused) == 1 and "column setting_condition" in report.refused[0]
    assert "'object detection' is not written in this claim's setting ('predicate classification')" in report.refused[0]
    claim = {"benchmark": "SQuAD", "metric": "F1", "setting": "dev set"}
    target = Target("c1", "claim", "p", None)
    _, problems = alias_corrections({"setting_condition": "dev set"}, {}, target, claim, {}, set(), "page")
    assert problems[0].message == "'dev set' is already read as a condition (dev): nothing to add"


def squad_runs(tmp_path: Path) -> Path:
    run = tmp_path / "run"
    write_run(run, [
        result("kite", DEV, [dict(value=77.0, metric="F1", benchmark="SQuAD", method="Kite", setting="dev set", evidence=DEV)]),
        result("lark", TEST, [dict(value=79.5, metric="F1", benchmark="SQuAD", method="Lark", evidence=TEST)]),
    ], {"backend": "test"})
    return run


def test_a_reviewer_says_two_blocks_that_differ_in_a_condition_are_one(tmp_path: Path) -> None:
    run = squad_runs(tmp_path)
    assert len(titles(run)) == 2
    book = tmp_path / "review.xlsx"
    export_review(Run.open(run), book)
    row = claim_id(run, "kite", 77.0)
    edit(book, book, "Claims", row, block_same_as="test")
    assert not apply_review(book, Run.open(run), "alice").refused
    board = build_leaderboard(*load_runs([Run.open(run)]))
    assert board.scores["block"].nunique() == 1 and board.scores["block_conditions"].tolist() == ["", ""]
    assert "1 of 2 rows merged in by a reviewer" in board.scores["block_note"].iloc[0]
    assert board.scores["conditions"].fillna("").tolist() == ["", "dev"]  # the row still says what it was measured on
    again = tmp_path / "again.xlsx"
    export_review(Run.open(run), again)
    assert cell(again, "Claims", row, "block_same_as") == "test"
    edit(again, again, "Claims", row, block_same_as=None)
    apply_review(again, Run.open(run), "bob")
    assert len(titles(run)) == 2


def test_a_block_same_as_that_names_no_condition_is_refused(tmp_path: Path) -> None:
    run = squad_runs(tmp_path)
    book = tmp_path / "review.xlsx"
    export_review(Run.open(run), book)
    edit(book, book, "Claims", claim_id(run, "kite", 77.0), block_same_as="the other one")
    edit(book, book, "Claims", claim_id(run, "lark", 79.5), block_same_as="test set")
    refused = apply_review(book, Run.open(run), "alice").refused
    assert len(refused) == 2
    assert any("'the other one' names no evaluation condition" in r for r in refused)
    assert any("'test set' are this claim's own conditions" in r for r in refused)
    none = alias_corrections({"block_same_as": "none"}, {}, Target("c", "claim", "p", None), {"benchmark": "SQuAD", "metric": "F1", "setting": "dev"}, {}, set(), "page")
    assert none[1] == [] and none[0][0].old_value == {"benchmark": "SQuAD", "metric": "F1", "setting": "dev"}


POSE = "FooPose reaches 75.0 AP on COCO val2017."
KEYPOINTS = "BarPose reaches 74.0 keypoint AP on COCO test-dev."
DETECTOR = "BazDet reaches 45.0 AP on COCO test-dev."


def test_a_block_read_with_its_papers_title_is_merged_by_a_reviewer_with_that_title(tmp_path: Path) -> None:
    """A pose paper's 'AP' is a keypoint AP (its title says the task), never ranked beside a
    detector's; a reviewer's merge of its block keeps the title, which says what the block is."""
    run = tmp_path / "run"
    write_run(run, [
        result("pose", POSE, [dict(value=75.0, metric="AP", benchmark="COCO", method="FooPose", setting="val2017", evidence=POSE)])
        .model_copy(update={"title": "FooPose: Multi-Person Pose Estimation"}),
        result("keypoints", KEYPOINTS, [dict(value=74.0, metric="keypoint AP", benchmark="COCO test-dev", method="BarPose", evidence=KEYPOINTS)]),
        result("detector", DETECTOR, [dict(value=45.0, metric="AP", benchmark="COCO test-dev", method="BazDet", evidence=DETECTOR)]),
    ], {"backend": "test"})
    assert titles(run) == {
        "COCO \u00b7 keypoint AP \u2191 (%) \u00b7 validation": [75.0],
        "COCO \u00b7 keypoint AP \u2191 (%)": [74.0],
        "COCO \u00b7 mAP \u2191 (%)": [45.0],
    }
    book = tmp_path / "review.xlsx"
    export_review(Run.open(run), book)
    edit(book, book, "Claims", claim_id(run, "pose", 75.0), block_same_as="test")
    assert not apply_review(book, Run.open(run), "alice").refused
    with CorrectionStore(run / STORE_FILE) as db:
        (said,) = [c.old_value for c in db.history() if c.field == "block_same_as"]
    assert said == {"benchmark": "COCO", "metric": "AP", "setting": "val2017", "title": "FooPose: Multi-Person Pose Estimation"}
    assert titles(run) == {"COCO \u00b7 keypoint AP \u2191 (%)": [74.0, 75.0], "COCO \u00b7 mAP \u2191 (%)": [45.0]}
