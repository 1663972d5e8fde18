"""The list of evaluation conditions (extractor/data/conditions.json) and its one parser: every
example of the list reads as the list says, and made-up settings read as a reader means them."""

from __future__ import annotations

import pytest

from extractor.catalog.conditions import conditions, examples, leftover, read_conditions
from extractor.catalog.normalize import parse_setting

EXAMPLES = [(condition.name, example) for condition, example in examples()]


@pytest.mark.parametrize(("name", "example"), EXAMPLES, ids=[f"{n}: {e['text']}" for n, e in EXAMPLES])
def test_every_example_of_the_list_reads_as_the_list_says(name: str, example: dict) -> None:
    read = read_conditions(example["text"])
    assert read.get(name) == example["value"]
    for other, value in example.get("also", {}).items():
        assert read.get(other) == value


def test_the_list_is_closed_named_and_each_entry_has_examples() -> None:
    names = [c.name for c in conditions()]
    assert names == ["languages", "shots", "bits", "context", "horizon", "resolution", "upscaling", "split", "level", "labels", "protocol", "conditioning", "attempts", "subset", "input", "references"]
    for condition in conditions():
        assert condition.about and condition.examples, condition.name
        assert any(e["value"] for e in condition.examples), condition.name  # at least one that reads
        assert condition.patterns or condition.reader, condition.name


@pytest.mark.parametrize(
    ("setting", "conditions", "rest"),
    [
        ("single model, beam size 4", {}, "single model beam size 4"),
        ("ensemble of five nets trained with extra data", {}, "ensemble of five nets trained with extra data"),
        ("7B model, two public lexicons", {}, "7B model two public lexicons"),
        ("2-shot, held-out split", {"shots": "2-shot", "split": "test"}, ""),
        ("zero-shot, French to English", {"shots": "0-shot", "languages": "fr-en"}, ""),
        ("dev set, char-level", {"split": "dev", "level": "character level"}, ""),
        ("on the difficult subset, with a neural cache", {"subset": "difficult subset"}, "with a neural cache"),
        ("evaluated at 384 px, 3-bit weights", {"resolution": "384x384", "bits": "3-bit"}, "evaluated at weights"),
        ("at 512 resolution", {"resolution": "512x512"}, ""),
        ("64k-token context window", {"context": "64K context"}, "window"),
        ("x4 upscaling, trained on DIV2K", {"upscaling": "x4"}, "trained on DIV2K"),
        ("prediction length 720, look-back window of 336", {"horizon": "horizon 720"}, "look-back window of 336"),
        ("4x fewer FLOPs on 8x A100 GPUs", {}, "4x fewer FLOPs on 8x A100 GPUs"),
        ("unseen categories, track 2", {"subset": "track 2 / unseen"}, "categories"),
    ],
)
def test_made_up_settings_split_only_on_conditions(setting: str, conditions: dict[str, str], rest: str) -> None:
    """A configuration, a training note, a size or a component is the entry's: no condition."""
    read = read_conditions(setting)
    assert dict(read.values) == conditions
    assert leftover(read.rest) == rest


def test_a_reviewers_phrase_is_read_as_a_subset() -> None:
    assert parse_setting("predicate classification, mixed").conditions == ()
    said = parse_setting("predicate classification, mixed", frozenset({"predicate classification"}))
    assert said.get("subset") == "predicate classification" and said.other == "mixed"
    spaced = parse_setting("Predicate-Classification", frozenset({"predicate classification"}))
    assert spaced.get("subset") == "predicate classification"
    assert parse_setting("zero-shot", frozenset({"predicate classification"})).get("subset") is None


def test_a_setting_keeps_the_entrys_words_apart_from_the_blocks() -> None:
    """One method in two configurations: one block (same key), two entries (identities differ)."""
    cache = parse_setting("5-shot, with a neural cache")
    plain = parse_setting("5-shot")
    assert cache.key == plain.key and cache.identity != plain.identity
    assert (cache.label, cache.entry, cache.shown) == ("5-shot", "with a neural cache", "5-shot, with a neural cache")
    fast = parse_setting("dev, 12 ms")
    assert (fast.label, fast.entry) == ("dev", "12 ms")
