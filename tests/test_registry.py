"""The benchmark and metric registries: data integrity, lookups and free-text matching."""

from __future__ import annotations

from collections import defaultdict

import pytest

from extractor.catalog.registry import (
    BenchmarkMention,
    _ambiguous,
    _key,
    benchmark_entry,
    edition_of,
    exact_benchmark,
    fold_key,
    propose_benchmark,
    canonical_benchmark,
    find_benchmarks,
    load_registry,
    metric_entry,
)


def canonical_metric(name: str) -> tuple[str, str | None]:
    """The registry's name and direction of a metric name; an unknown one as written, stripped."""
    found = metric_entry(name)
    return (found[1], found[0].direction) if found else (name.strip(), None)


def test_registry_is_large_and_keys_are_unambiguous() -> None:
    registry = load_registry()
    assert len(registry.benchmarks) >= 300
    assert len(registry.metrics) >= 60
    for entries in (registry.benchmarks, registry.metrics):
        owners: dict[str, set[str]] = defaultdict(set)
        for entry in entries:
            for surface in (entry.name, *entry.aliases):
                owners[_key(surface)].add(entry.name)
        clashes = {k: v for k, v in owners.items() if len(v) > 1}
        assert clashes == {}


def test_every_metric_has_a_known_direction_or_says_it_depends() -> None:
    for metric in load_registry().metrics:
        assert metric.direction in ("higher", "lower", None)
        assert metric.scale in ("percent", "fraction", "points", "none", "time", "ratio", "bytes")


@pytest.mark.parametrize(
    ("name", "canonical"),
    [
        ("GSM8K", "GSM8K"),
        ("GSM-8K", "GSM8K"),
        ("gsm8k", "GSM8K"),
        ("the GSM8K benchmark", "GSM8K"),
        ("GSM8K test set", "GSM8K"),
        ("mmlu pro", "MMLU-Pro"),
        ("HumanEval+", "HumanEval+"),
        ("HumanEval", "HumanEval"),
        ("CIFAR10", "CIFAR-10"),
        ("ImageNet-1k", "ImageNet"),
        ("AIME'24", "AIME 2024"),
        ("SQuAD v2.0", "SQuAD 2.0"),
        ("τ-bench", "tau-bench"),
        ("Penn Tree Bank", "Penn Treebank"),
        ("swe-bench verified", "SWE-bench Verified"),
    ],
)
def test_canonical_benchmark_known(name: str, canonical: str) -> None:
    assert canonical_benchmark(name) == (canonical, True)


def test_unknown_benchmark_passes_through_flagged() -> None:
    assert canonical_benchmark("  Foo-Bench 3 ") == ("Foo-Bench 3", False)
    assert benchmark_entry("Foo-Bench 3") is None


def test_benchmark_entry_carries_task_and_area() -> None:
    entry = benchmark_entry("WikiText103")
    assert entry is not None and entry.name == "WikiText-103" and entry.area == "language modeling"


def test_find_benchmarks_longest_alias_and_spans() -> None:
    text = "Results on GSM-8K, MMLU-Pro and MMLU, HumanEval+ and CIFAR-100 (not CIFAR-10)."
    found = find_benchmarks(text)
    assert [m.canonical for m in found] == ["GSM8K", "MMLU-Pro", "MMLU", "HumanEval+", "CIFAR-100", "CIFAR-10"]
    for mention in found:
        assert isinstance(mention, BenchmarkMention)
        assert text[mention.span[0] : mention.span[1]] == mention.surface
    assert found[0].surface == "GSM-8K"


def test_find_benchmarks_respects_case_of_word_names() -> None:
    assert [m.canonical for m in find_benchmarks("MATH and DROP and RACE")] == ["MATH", "DROP", "RACE"]
    assert find_benchmarks("a drop in math accuracy during the race") == []


def test_find_benchmarks_needs_word_boundaries() -> None:
    assert find_benchmarks("MATH401 and XMMLU and HumanEval +") == [
        BenchmarkMention("HumanEval", "HumanEval", (22, 31))
    ]
    assert find_benchmarks("GSM. 8K") == []


def test_find_benchmarks_multiword_and_versions() -> None:
    found = find_benchmarks("trained on The Pile, tested on SWE-bench Verified and AIME 2025 and SQuAD 2.0")
    assert [m.canonical for m in found] == ["The Pile", "SWE-bench Verified", "AIME 2025", "SQuAD 2.0"]


def test_find_benchmarks_reads_a_long_text_once_left_to_right() -> None:
    """Every mention of a long text, in order (its speed is measured by benchmarks/rules_speed.py)."""
    sentence = ("We evaluate on GSM8K, MATH-500, MMLU-Pro and LiveCodeBench; perplexity on WikiText-2 "
                "and C4 drops while accuracy on ARC-Challenge and HellaSwag holds. ")
    names = ["GSM8K", "MATH-500", "MMLU-Pro", "LiveCodeBench", "WikiText-2", "C4", "ARC-Challenge", "HellaSwag"]
    found = find_benchmarks(sentence * 10)
    assert [m.surface for m in found] == names * 10
    assert [m.span[0] for m in found] == sorted(m.span[0] for m in found)


@pytest.mark.parametrize(
    ("name", "canonical", "direction"),
    [
        ("Accuracy", "accuracy", "higher"),
        ("acc", "accuracy", "higher"),
        ("PPL", "perplexity", "lower"),
        ("Pass@1", "pass@1", "higher"),
        ("pass @ 10", "pass@10", "higher"),
        ("top-1 acc", "top-1 accuracy", "higher"),
        ("Top-5", "top-5 accuracy", "higher"),
        ("word error rate", "WER", "lower"),
        ("speed-up", "speedup", "higher"),
        ("p90 TTFT", "p90 TTFT", "lower"),
        ("latency (p99)", "p99 latency", "lower"),
        ("mean IoU", "mIoU", "higher"),
        ("box AP", "mAP", "higher"),
        ("box mAP", "mAP", "higher"),  # a backbone paper's COCO detection measure
        ("AP_box", "mAP", "higher"),
        ("SacreBLEU", "BLEU", "higher"),
        ("ROUGE-L", "ROUGE-L", "higher"),
        ("peak memory", "memory", "lower"),
        ("tokens/s", "throughput", "higher"),
        ("FID", "FID", "lower"),
        ("attack success rate", "attack success rate", None),
    ],
)
def test_canonical_metric(name: str, canonical: str, direction: str | None) -> None:
    assert canonical_metric(name) == (canonical, direction)


def test_parametric_metric_inside_a_phrase() -> None:
    """The patterns' search finds a parametric metric in a longer phrase; the one search that
    gates them all lets it through and turns away a phrase with none."""
    assert canonical_metric("the pass@1 rate") == ("pass@1", "higher")
    assert canonical_metric("Recall @ 5 on X") == ("recall@5", "higher")
    assert canonical_metric("the passing rate") == ("the passing rate", None)


def test_unknown_metric_passes_through() -> None:
    assert canonical_metric(" vibes ") == ("vibes", None)


def test_exact_benchmark_takes_no_words_off() -> None:
    assert exact_benchmark("Story Cloze Test").name == "StoryCloze"
    assert exact_benchmark("hutter prize") is not None and exact_benchmark("hutter prize").name == "enwik8"
    assert exact_benchmark("the GSM8K benchmark") is None  # benchmark_entry takes 'the ... benchmark' off
    assert benchmark_entry("the GSM8K benchmark").name == "GSM8K"


def test_a_proposal_needs_a_close_registry_name() -> None:
    assert propose_benchmark("ImagNet") == "ImageNet"
    assert propose_benchmark("Markett-1501") == "Market-1501"
    assert propose_benchmark("CIFAR-11") is None  # one digit apart is another dataset, not a typo
    assert propose_benchmark("Foo") is None  # too short to resemble anything safely


def test_fold_key_is_the_spelling_unknown_names_share() -> None:
    assert fold_key("Market - 1501") == fold_key("market-1501") == fold_key("Market 1501")
    assert fold_key("HumanEval+") != fold_key("HumanEval")


def test_the_measures_a_benchmark_is_scored_in_are_registry_metrics() -> None:
    """Each measure a benchmark is scored in is a registry metric's canonical name, a parametric
    one with its parameter ('pass@1')."""
    registry = load_registry()
    scored = {b.name: b.scored_in for b in registry.benchmarks if b.scored_in}
    assert scored["text8"] == ("bits per character",) and scored["WikiText-103"] == ("perplexity",)
    assert scored["HumanEval"] == ("pass@1",)
    named = {m: metric_entry(m) for measures in scored.values() for m in measures}
    assert all(found is not None and found[1] == m for m, found in named.items()), named


def test_every_benchmark_a_name_stands_for_is_in_the_registry() -> None:
    """What ``named_for`` and ``by_words`` point to is a registry benchmark or an edition of one,
    never a name that would make a block of its own."""
    registry = load_registry()
    targets = {other for b in registry.benchmarks for other, _ in (*b.named_for, *b.by_words)}
    assert {"Penn Treebank", "SST-5", "Yelp Review Full"} <= targets
    assert all(canonical_benchmark(other) == (other, True) or edition_of(other) == other for other in targets), targets


def test_every_reading_of_an_abbreviation_is_a_registry_metric() -> None:
    """What 'R1', 'Hmean' or 'Rank@1' stands for on a task is a metric the registry knows."""
    meant = {m for readings in _ambiguous().values() for _, m in readings}
    assert {"ROUGE-1", "rank-1 accuracy", "recall@1", "F1"} <= meant
    assert all((found := metric_entry(m)) is not None and found[1] == m for m in meant), meant


def test_newstest2014_is_wmt14s_test_set() -> None:
    assert canonical_benchmark("newstest2014") == ("WMT14", True)


@pytest.mark.parametrize(
    ("name", "canonical", "direction"),
    [
        ("mean per-joint position error", "MPJPE", "lower"),
        ("Procrustes-aligned MPJPE", "PA-MPJPE", "lower"),
        ("AP_r", "APr", "higher"),
        ("APH", "mAPH", "higher"),
        ("Inst. mIoU", "instance mIoU", "higher"),
        ("Cls. mIoU", "class mIoU", "higher"),
        ("EX", "execution accuracy", "higher"),
        ("exact set match", "exact match", "higher"),
        ("OA", "accuracy", "higher"),
        ("mAcc", "mean class accuracy", "higher"),
        ("PDM score", "PDMS", "higher"),
        ("F1-all", "Fl-all", "lower"),  # optical flow's outlier rate, as papers often print its 'l'
        ("Fl-all error", "Fl-all", "lower"),
        ("extended PDM score", "EPDMS", "higher"),
    ],
)
def test_the_measures_mainstream_benchmarks_are_reported_in(name: str, canonical: str, direction: str) -> None:
    """Human3.6M's two errors, LVIS's per-frequency APs, Waymo's heading-weighted AP, part
    segmentation's two mIoUs, text-to-SQL's execution accuracy, point-cloud classification's OA
    and mAcc, NAVSIM's driving scores: measures of their own, each with its direction."""
    assert canonical_metric(name) == (canonical, direction)
