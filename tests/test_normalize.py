"""Normalization: names, sizes, settings, units and the comparability key."""

from __future__ import annotations

import pytest

from extractor.catalog.normalize import (
    NormalizedClaim,
    Setting,
    arxiv_id,
    names_an_entity,
    comparable,
    entity_key,
    normalize_benchmark,
    normalize_claim,
    normalize_metric,
    normalize_unit,
    parse_setting,
    parse_size_b,
)
from extractor.grounding import ground
from extractor.schema import Claim, ClaimDraft, ExtractionDraft, Model
from extractor.text.languages import language_pairs


@pytest.mark.parametrize(
    ("name", "size"),
    [
        ("Llama-3.2-3B", 3.0),
        ("Llama 3.2-3B", 3.0),
        ("Qwen3.8-27B", 27.0),
        ("SmolLM2-135M", 0.135),
        ("OLMoE-1B-7B", 7.0),
        ("Gemma-4-26B-A4B", 26.0),
        ("Mixtral-8x7B", None),
        ("GPT-5.2", None),
        ("Claude Haiku 4.5", None),
        (None, None),
    ],
)
def test_parse_size_b(name: str | None, size: float | None) -> None:
    assert parse_size_b(name) == size


def test_entity_key_ignores_case_punctuation_and_spacing() -> None:
    assert entity_key("Llama 3.2-3B") == entity_key("Llama-3.2-3B") == entity_key("llama3.2 3b")
    assert entity_key("GANQ") != entity_key("GANQ-2")
    assert entity_key(None) == ""


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("5-shot, 4-bit, 32K context, test", "5-shot, 4-bit, 32K context, test"),
        ("zero-shot", "0-shot"),
        ("W4A16", "W4A16"),
        ("NVFP4", "NVFP4"),
        ("128k-token context", "128K context"),
        ("context length of 32768", "32K context"),
        ("validation set", "validation"),
        ("25% pruning", ""),  # a configuration: the entry's, not a condition
    ],
)
def test_parse_setting_labels(text: str, label: str) -> None:
    assert parse_setting(text).label == label


def test_setting_key_makes_spellings_equal_and_conditions_distinct() -> None:
    assert parse_setting("32K context, 5-shot").key == parse_setting("5 shot (32k-token context)").key
    assert parse_setting("INT4").key != parse_setting("NVFP4").key
    assert parse_setting("3-bit").key != parse_setting("4-bit").key
    assert parse_setting(None) == Setting()


def test_units_are_spelled_one_way() -> None:
    assert [normalize_unit(u) for u in ("×", "times", "X", "pp", "percent", " ", None, "GiB")] == [
        "x", "x", "x", "points", "%", None, None, "GiB"
    ]


@pytest.mark.parametrize(
    ("value", "unit", "scale", "expected"),
    [
        (83.0, "%", "percent", (83.0, "%")),
        (0.83, None, "percent", (83.0, "%")),
        (83.6, None, "percent", (83.6, "%")),
        (1.0, None, "percent", None),  # 1% or 100%? not certain: no comparable value
        (1.2, "s", "time", (1200.0, "ms")),
        (512, "MiB", "bytes", (0.5, "GiB")),
        (1500, "MB", "bytes", (1.5, "GB")),
        (2.57, "×", "ratio", (2.57, "x")),
        (5.42, None, "none", (5.42, "")),
        (3.0, "points", "percent", (3.0, "points")),
        (39.0, "ms", "percent", None),  # '39 ms' under mAP: metric and unit disagree
        (17.5, "GiB", "percent", None),
        (2.4, "x", "percent", None),
    ],
)
def test_comparable_only_when_certain(value: float, unit: str | None, scale: str, expected) -> None:
    result = comparable(value, unit, scale)
    if expected is None:
        assert result is None
    else:
        assert result[1] == expected[1] and result[0] == pytest.approx(expected[0])


def test_metric_and_benchmark_normalization() -> None:
    ppl = normalize_metric("PPL")
    assert (ppl.name, ppl.direction, ppl.known) == ("perplexity", "lower", True)
    assert normalize_metric("vibes").name == "vibes" and normalize_metric("vibes").direction is None
    assert normalize_metric(None).name is None
    assert (normalize_benchmark("gsm-8k").name, normalize_benchmark("gsm-8k").known) == ("GSM8K", True)
    assert (normalize_benchmark("Foo-Bench").name, normalize_benchmark("Foo-Bench").known) == ("Foo-Bench", False)
    assert (normalize_benchmark(" ").name, normalize_benchmark(" ").known) == (None, False)


def test_arxiv_id_from_id_or_metadata() -> None:
    assert arxiv_id("2401.01234v2") == "2401.01234"
    assert arxiv_id("p-1", {"url": "https://arxiv.org/abs/2310.12345"}) == "2310.12345"
    assert arxiv_id("p-1", {"title": "no id"}) is None


def test_normalize_claim_keeps_original_and_builds_keys() -> None:
    abstract = "On GSM-8K (8-shot) GANQ reaches 0.836 accuracy with Llama 3-8B."
    draft = ExtractionDraft(
        models=[Model(name="Llama 3-8B", params_b=8)],
        claims=[ClaimDraft(value=0.836, metric="acc", benchmark="GSM-8K", method="GANQ", model="Llama 3-8B",
                           setting="8-shot", evidence="GANQ reaches 0.836 accuracy with Llama 3-8B")],
    )
    extraction, rejected = ground(draft, abstract, "p")
    assert not rejected
    n = normalize_claim(extraction.claims[0], extraction.models)
    assert (n.benchmark, n.benchmark_known, n.metric, n.direction) == ("GSM8K", True, "accuracy", "higher")
    assert n.claim.value == 0.836 and n.unit is None  # as written
    assert n.comparable == pytest.approx(83.6) and n.comparable_unit == "%"  # derived
    assert n.size_b == 8  # a column of the row, never part of the block
    assert n.comparability_key == ("GSM8K", "accuracy", "%", parse_setting("8-shot").key)
    assert n.identity_key[:2] == ("ganq", "llama38b")


# Names that merge across papers: the forms seen in the SciREX train abstracts.
@pytest.mark.parametrize(
    ("written", "canonical", "direction", "split"),
    [
        ("perplexity", "perplexity", "lower", None),
        ("word level perplexities", "perplexity", "lower", None),
        ("word-level perplexities", "perplexity", "lower", None),
        ("Word-level perplexity", "perplexity", "lower", None),
        ("bits-per-character (BPC)", "bits per character", "lower", None),
        ("Bit_per_Character__BPC_", "bits per character", "lower", None),
        ("test F1", "F1", "higher", "test"),
        ("Test F1", "F1", "higher", "test"),
        ("dev F1", "F1", "higher", "dev"),
        ("F1 (dev)", "F1", "higher", "dev"),
        ("Validation_perplexity", "perplexity", "lower", "validation"),
        ("F1 scores", "F1", "higher", None),
        ("accuracies", "accuracy", "higher", None),
        ("BLEU points", "BLEU", "higher", None),
        ("intersection - over - union score", "IoU", "higher", None),
        ("Hits_10", "hits@10", "higher", None),
        ("Percentage_correct", "accuracy", "higher", None),
    ],
)
def test_metric_spellings_merge(written: str, canonical: str, direction: str, split: str | None) -> None:
    info = normalize_metric(written)
    assert (info.name, info.direction, info.known, info.get("split")) == (canonical, direction, True, split)
    assert info.key == canonical


def test_a_metric_inside_a_longer_name_starts_a_word() -> None:
    """Visual Genome's mean recall (mR@50) is its own measure, never recall@50 (the tune-new board
    merged the two when 'R@50' was found inside 'mR@50')."""
    assert normalize_metric("mean recall (mR@50)").name == "mean recall@50"
    assert normalize_metric("mR@50").name == "mean recall@50"
    assert normalize_metric("R@50").name == "recall@50"
    assert normalize_metric("test recall@20").name == "recall@20"


def test_an_at_sign_names_a_cutoff_not_rouge() -> None:
    """'R@1' is recall at 1 (image-text retrieval), never 'R1' (keys used to drop the '@')."""
    assert normalize_metric("R@1").name == "recall@1"
    assert normalize_metric("R@1").scale == "percent"
    assert not normalize_metric("R1").known and not normalize_metric("R-1").known  # ROUGE-1 or rank-1: the benchmark's task says


def test_a_character_level_measure_is_never_word_level_perplexity() -> None:
    """'character-level perplexity' is perplexity at character level: its own block, never the
    word-level one; bits per character is counted at character level whether written or not."""
    char = normalize_metric("character-level perplexity")
    assert (char.name, char.get("level")) == ("perplexity", "character level")
    assert normalize_metric("BPC").name == "bits per character"
    assert normalize_metric("BPC").get("level") == "character level"
    assert normalize_metric("test").name == "test"  # a split alone is no metric without its split
    word = normalize_claim(_claim(metric="perplexity", benchmark="PTB"))
    assert normalize_claim(_claim(metric="character-level perplexity", benchmark="PTB")).comparability_key != word.comparability_key


@pytest.mark.parametrize(
    ("written", "canonical", "conditions"),
    [
        ("PTB", "Penn Treebank", {}),
        ("PTB § 23", "Penn Treebank", {"subset": "section 23"}),
        ("Penn Treebank section 23", "Penn Treebank", {"subset": "section 23"}),
        ("Penn_Treebank__Word_Level_", "Penn Treebank", {"level": "word level"}),
        ("Penn_Treebank__Character_Level_", "Penn Treebank", {"level": "character level"}),
        ("PTB test set", "Penn Treebank", {"split": "test"}),
        ("SQuAD dev set", "SQuAD", {"split": "dev"}),
        ("Hutter Prize", "enwik8", {}),
        ("Hutter Prize Wikipedia", "enwik8", {}),
        ("SemEval 2010 relation classification", "SemEval-2010 Task 8", {}),
        ("SemEval-2010 Task 8", "SemEval-2010 Task 8", {}),
        ("Story Cloze Test", "StoryCloze", {}),  # 'Test' is part of this name
    ],
)
def test_benchmark_spellings_merge(written: str, canonical: str, conditions: dict[str, str]) -> None:
    info = normalize_benchmark(written)
    assert (info.name, info.known, dict(info.conditions)) == (canonical, True, conditions)


def test_a_fuzzy_match_proposes_but_never_merges() -> None:
    info = normalize_benchmark("ImagNet - 1k")
    assert (info.name, info.known, info.proposed) == ("ImagNet - 1k", False, "ImageNet")
    assert normalize_benchmark("Foo-Bench").proposed is None
    assert normalize_benchmark("GSM8K").proposed is None  # a known name needs no proposal


def _claim(**fields) -> Claim:
    base = dict(id="c", value=1.0, evidence="x", span=(0, 1), value_span=(0, 1), method="M")
    return Claim(**{**base, **fields})


def test_split_in_a_name_goes_to_the_setting_and_unstated_counts_as_test() -> None:
    plain = normalize_claim(_claim(metric="F1", benchmark="SQuAD"))
    test = normalize_claim(_claim(metric="Test F1", benchmark="SQuAD"))
    dev = normalize_claim(_claim(metric="dev F1", benchmark="SQuAD"))
    in_setting = normalize_claim(_claim(metric="F1", benchmark="SQuAD", setting="dev set"))
    assert plain.comparability_key == test.comparability_key
    assert dev.comparability_key != plain.comparability_key
    assert dev.comparability_key == in_setting.comparability_key
    section = normalize_claim(_claim(metric="F1", benchmark="PTB § 23"))
    assert section.benchmark == "Penn Treebank" and section.setting.label == "section 23"
    assert section.comparability_key != normalize_claim(_claim(metric="F1", benchmark="PTB")).comparability_key


def test_unknown_names_merge_by_their_folded_spelling() -> None:
    a = normalize_claim(_claim(metric="joint compatibility", benchmark="Foo - 1501"))
    b = normalize_claim(_claim(metric="Joint-Compatibility", benchmark="foo-1501"))
    assert a.comparability_key == b.comparability_key
    assert a.benchmark == "Foo - 1501"  # shown as written


@pytest.mark.parametrize(
    ("text", "pairs"),
    [
        ("On the WMT 2014 English - to - French translation task", ["en-fr"]),
        ("English→Russian", ["en-ru"]),
        ("WMT 2016 English – Romanian", ["en-ro"]),
        ("WMT14 En-De and EN→FR", ["en-de", "en-fr"]),
        ("German-English", ["de-en"]),  # a direction: not English-German
        ("it-is in-domain", []),  # two codes neither of them English: ordinary words
    ],
)
def test_language_pairs_are_read_as_source_and_target(text: str, pairs: list[str]) -> None:
    assert [p.pair for p in language_pairs(text)] == pairs


def test_a_translation_benchmark_is_one_block_per_language_pair() -> None:
    """WMT14 English-German and English-French are two leaderboards, whichever of the
    benchmark name, the setting or the claim's own words says the pair."""
    de = [
        normalize_claim(_claim(metric="BLEU", benchmark="WMT 2014 English - to - German")),
        normalize_claim(_claim(metric="BLEU", benchmark="English-German WMT14")),
        normalize_claim(_claim(metric="BLEU", benchmark="WMT'14", setting="English→German")),
        normalize_claim(_claim(metric="BLEU", benchmark="WMT14", evidence="28.4 BLEU on the WMT 2014 English-to-German task")),
    ]
    fr = normalize_claim(_claim(metric="BLEU", benchmark="WMT14", evidence="41.8 BLEU on WMT 2014 English-to-French"))
    assert {n.benchmark for n in de} == {"WMT14"} and {n.setting.get("languages") for n in de} == {"en-de"}
    assert len({n.comparability_key for n in de}) == 1
    assert fr.setting.get("languages") == "en-fr" and fr.comparability_key != de[0].comparability_key
    assert de[0].setting.label == "en-de"
    both = normalize_claim(_claim(metric="BLEU", benchmark="WMT14", evidence="41.8 on EN-FR and 28.4 on EN-DE"))
    assert both.setting.get("languages") is None  # two pairs in its words: not guessed
    other = normalize_claim(_claim(metric="accuracy", benchmark="GSM8K", evidence="83.6% on GSM8K, English-to-German"))
    assert other.setting.get("languages") is None  # only a translation benchmark reads its words


@pytest.mark.parametrize(
    ("name", "named"),
    [
        ("state - of - the - art ( SoTA )", False),
        ("the state of the art", False),
        ("competing approaches", False),
        ("baseline models", False),
        ("the best models from the literature", False),
        ("previous best", False),
        ("ResNet", True),
        ("CaffeNet", True),
        ("autoregressive models", True),  # a kind of model the paper compares with, by name
        ("Transformer - XL", True),
        ("human performance", True),
    ],
)
def test_a_phrase_for_others_work_names_no_subject(name: str, named: bool) -> None:
    """A leaderboard row needs a named subject: 'from 71.2 % (the state of the art) to 74.4 %'
    gives no row for 'state of the art' (the SciREX board's audit found seven such)."""
    assert names_an_entity(name) is named
    claim = normalize_claim(_claim(method=name, metric="accuracy", benchmark="GSM8K", value=71.2, unit="%"))
    assert bool(claim.method_key) is named


def test_bits_per_char_as_the_papers_write_it_is_bits_per_character() -> None:
    """The SciREX train abstracts (tuning text) write '1.27 bits / char on text8' beside '1.08
    bpc on text8'; one text8 leaderboard of bits per character."""
    for written in ("bits / char", "bits/char", "bits per char", "bits-per-char"):
        assert (normalize_metric(written).name, normalize_metric(written).known) == ("bits per character", True)


def test_a_unit_that_names_the_metric_is_no_unit_of_its_own() -> None:
    """'1.27 BPC' (unit BPC, metric bits per character) and '1.08 bits per character' (no unit)
    are one block; the unit as written stays on the row."""
    as_unit = normalize_claim(_claim(value=1.27, metric="bits per character", unit="BPC", benchmark="text8"))
    spelled = normalize_claim(_claim(value=1.27, metric="bits / char", unit="bits / char", benchmark="text8"))
    bare = normalize_claim(_claim(value=1.08, metric="BPC", benchmark="text8"))
    assert as_unit.comparability_key == spelled.comparability_key == bare.comparability_key
    assert (as_unit.unit, as_unit.comparable, as_unit.comparable_unit) == ("BPC", 1.27, "")
    bleu = normalize_claim(_claim(value=28.4, metric="BLEU", unit="BLEU", benchmark="WMT14"))
    assert bleu.comparability_key == normalize_claim(_claim(value=28.4, metric="BLEU", benchmark="WMT14")).comparability_key
    other = normalize_claim(_claim(value=1.27, metric="perplexity", unit="BPC", benchmark="text8"))
    assert other.comparable_unit == "BPC"  # another metric's name as the unit: kept apart
    percent = normalize_claim(_claim(value=83.0, metric="accuracy", unit="%", benchmark="GSM8K"))
    assert percent.comparable_unit == "%"  # a unit proper is never taken for a metric


def test_a_unit_that_is_only_another_number_is_no_unit() -> None:
    """'4.8/8.2 WER on the clean/other test sets' read as 4.8 with unit '/8.2': the unit is the
    second number, so 4.8 is a plain WER beside another paper's '2.1 % WER' (one block)."""
    pair = normalize_claim(_claim(value=4.8, metric="WER", unit="/8.2", benchmark="LibriSpeech"))
    plain = normalize_claim(_claim(value=2.1, metric="WER", unit="%", benchmark="LibriSpeech"))
    assert (pair.unit, pair.comparable, pair.comparable_unit) == ("/8.2", 4.8, "%")
    assert pair.comparability_key == plain.comparability_key
    assert normalize_claim(_claim(value=4.8, metric="WER", unit="hours", benchmark="LibriSpeech")).comparable_unit == "hours"


@pytest.mark.parametrize(
    ("text", "cost", "condition"),
    [
        ("34ms", "34ms", ""),
        ("at 30 FPS", "30 FPS", ""),
        ("1.2 GFLOPs", "1.2 GFLOPs", ""),
        ("with 12 GB of memory", "12 GB of memory", ""),
        ("0.5 s per image", "0.5 s per image", ""),
        ("10 s clips", "", "10 s clips"),  # an input's length is a condition
        ("640 ms chunks", "", "640 ms chunks"),
        ("a 100 ms latency budget", "", "a 100 ms latency budget"),
    ],
)
def test_the_methods_own_cost_is_no_condition(text: str, cost: str, condition: str) -> None:
    """A budget, a window or an input's length is no cost: it stays on the row, unread (no
    condition of the list names it), so it splits no block by itself either."""
    setting = parse_setting(text)
    assert (setting.cost, setting.other) == (cost, condition)


def test_a_cost_stays_on_the_row_out_of_the_block_and_keeps_configurations_apart() -> None:
    """'34.4 % AP at 34ms' and '41.6 mAP' are one COCO block; the row still shows its 34ms, and
    one method at two speeds is two configurations, not a conflict."""
    fast = normalize_claim(_claim(metric="AP", benchmark="COCO", value=34.4, unit="%", setting="34ms"))
    slow = normalize_claim(_claim(metric="AP", benchmark="COCO", value=36.1, unit="%", setting="at 39 ms"))
    plain = normalize_claim(_claim(metric="mAP", benchmark="MS COCO", value=41.6, unit="%"))
    assert fast.comparability_key == slow.comparability_key == plain.comparability_key
    assert (fast.setting.shown, fast.setting.label) == ("34ms", "")
    assert fast.identity_key != slow.identity_key
    shots = normalize_claim(_claim(metric="AP", benchmark="COCO", value=30.0, unit="%", setting="5-shot, 34ms"))
    assert shots.comparability_key != fast.comparability_key  # an evaluation condition still splits
    assert shots.setting.shown == "5-shot, 34ms"


_BOTH = "we improve the results of bpc / perplexity from 1.13 to 1.08 on text8 , from 20.5 to 18.3 on WikiText - 103"


def test_an_alternation_in_the_evidence_takes_the_measure_the_benchmark_is_scored_in() -> None:
    text8 = normalize_claim(_claim(metric="perplexity", benchmark="text8", value=1.08, evidence=_BOTH))
    wiki = normalize_claim(_claim(metric="perplexity", benchmark="WikiText-103", value=18.3, evidence=_BOTH))
    bpc = normalize_claim(_claim(metric="BPC", benchmark="text8", value=1.27, evidence="1.27 BPC on text8"))
    assert (text8.metric, text8.direction) == ("bits per character", "lower")
    assert text8.comparability_key == bpc.comparability_key
    assert wiki.metric == "perplexity"  # WikiText-103 is scored in perplexity: as written


def test_without_an_alternation_a_measure_stays_as_written() -> None:
    """text8 has word-level perplexities too (End-To-End Memory Networks): no alternation, no change."""
    alone = normalize_claim(_claim(metric="perplexity", benchmark="text8", value=147.0, evidence="147 perplexity on text8"))
    assert alone.metric == "perplexity" and alone.comparable == 147.0
    ptb = normalize_claim(_claim(metric="perplexity", benchmark="Penn Treebank", value=54.5, evidence=_BOTH + " , 54.5 on PTB"))
    assert ptb.metric == "perplexity"  # PTB is scored at both levels: the registry lists no measure


# Names of one thing merge; a condition written inside a name moves to the setting (made-up text).
def test_a_condition_written_in_a_metric_name_moves_to_the_setting() -> None:
    five = normalize_claim(_claim(metric="5-shot accuracy", benchmark="MMLU", value=61.0, unit="%"))
    said = normalize_claim(_claim(metric="accuracy", benchmark="MMLU", value=58.0, unit="%", setting="five-shot"))
    zero = normalize_claim(_claim(metric="zero-shot accuracy", benchmark="MMLU", value=49.0, unit="%"))
    assert (five.metric, five.setting.get("shots")) == ("accuracy", "5-shot")
    assert five.comparability_key == said.comparability_key
    assert zero.metric == "accuracy" and zero.comparability_key != five.comparability_key
    bleu = normalize_claim(_claim(metric="BLEU (En\u2192De)", benchmark="WMT14", value=27.1))
    assert (bleu.metric, bleu.setting.get("languages")) == ("BLEU", "en-de")


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("English MMLU", "MMLU"),
        ("MMLU (English)", "MMLU"),
        ("SQuAD v2.0", "SQuAD 2.0"),
        ("SQuAD2.0", "SQuAD v2"),
        ("Hutter Prize", "enwik8"),  # a corpus named by its source
        ("ImageNet ILSVRC2012", "ImageNet"),  # two names of one benchmark side by side
        ("ImageNet-1k (ILSVRC-2012)", "ILSVRC 2012"),
        ("FooQA v3.0", "FooQA 3.0"),  # unknown to the registry: versions still written one way
    ],
)
def test_qualifiers_and_version_spellings_of_one_benchmark_merge(one: str, other: str) -> None:
    a = normalize_claim(_claim(metric="F1", benchmark=one, value=80.0))
    b = normalize_claim(_claim(metric="F1", benchmark=other, value=81.0))
    assert a.comparability_key == b.comparability_key


def test_a_benchmark_named_with_words_of_its_own_task_is_that_benchmark() -> None:
    """'Cityscapes semantic segmentation', 'COCO Keypoints' and 'ImageNet classification' are the
    registry's benchmarks: the words say which of its tasks, so a generic 'AP' on 'COCO
    Keypoints' is a keypoint AP and on 'COCO instance segmentation' a mask AP, never the box AP
    of a detector's COCO. Words of a task the benchmark is not for keep the name apart
    ('ImageNet localization' is scored otherwise than its classification). Made-up rows."""
    segmentation = normalize_claim(_claim(metric="mIoU", benchmark="Cityscapes semantic segmentation", value=84.0))
    assert segmentation.comparability_key == normalize_claim(_claim(metric="mIoU", benchmark="Cityscapes", value=83.0)).comparability_key
    keypoints = normalize_claim(_claim(metric="AP", benchmark="Microsoft COCO Keypoints", value=70.6))
    written = normalize_claim(_claim(metric="keypoint AP", benchmark="COCO", value=71.0))
    assert keypoints.benchmark == "COCO" and keypoints.comparability_key == written.comparability_key
    masks = normalize_claim(_claim(metric="AP", benchmark="COCO instance segmentation", value=44.0))
    boxes = normalize_claim(_claim(metric="AP", benchmark="COCO object detection", value=52.0))
    assert (masks.metric, boxes.metric) == ("mask AP", "mAP") and boxes.benchmark == "COCO"
    assert normalize_claim(_claim(metric="top-1 accuracy", benchmark="ImageNet classification", value=81.0)).benchmark == "ImageNet"
    assert not normalize_claim(_claim(metric="top-5 error", benchmark="ImageNet localization", value=9.0)).benchmark_known


def test_a_split_written_with_the_benchmarks_name_in_the_evidence_is_read() -> None:
    """'69.7% execution accuracy on the BIRD development set' is a dev score even where the setting
    forgot it; a split written beside another benchmark's name is not this one's, and a training
    split is no split a number is measured on. Made-up rows."""
    def split(evidence: str, benchmark: str, setting: str | None = None) -> str | None:
        n = normalize_claim(_claim(metric="execution accuracy", benchmark=benchmark, value=69.7, unit="%", evidence=evidence, setting=setting))
        return n.setting.get("split")

    assert split("FooSQL achieves 69.7% execution accuracy on the BIRD development set, using a 32B LLM", "BIRD") == "dev"
    assert split("FooSQL reaches 69.7% on BIRD", "BIRD", setting="test set") == "test"  # the setting's word wins
    assert split("obtains 0.64%, 1.29% and 1.63% EER on VoxCeleb1-O, SITW.Dev, and SITW.Eval set", "VoxCeleb1-O") is None
    assert split("trained on the ImageNet training set, FooNet reaches 69.7%", "ImageNet") == "validation"  # its usual one


def test_names_of_parsing_polyp_and_lesion_benchmarks_and_measures() -> None:
    """'unlabeled attachment accuracy' is UAS; 'CVC-612' is CVC-ClinicDB, where an 'IoU' is its
    mIoU; 'ISIC-2018 Challenge' is ISIC 2018. Made-up rows."""
    assert normalize_claim(_claim(metric="unlabeled attachment accuracy", benchmark="PTB", value=94.3)).metric == "UAS"
    assert normalize_claim(_claim(metric="labeled attachment accuracy", benchmark="PTB", value=92.4)).metric == "LAS"
    polyps = normalize_claim(_claim(metric="IOU score", benchmark="CVC-612", value=0.8163))
    written = normalize_claim(_claim(metric="mIoU", benchmark="CVC-ClinicDB", value=88.2, unit="%"))
    assert polyps.comparability_key == written.comparability_key
    assert normalize_claim(_claim(metric="mDice", benchmark="ISIC-2018 Challenge", value=90.1)).benchmark == "ISIC 2018"


def test_a_cross_dataset_test_is_a_zero_shot_score() -> None:
    """A 'generalizability test' or a 'cross-dataset' one trains on another dataset than the one
    scored: a board of its own, never beside the models trained on it. Made-up rows."""
    crossed = normalize_claim(_claim(metric="Dice", benchmark="Kvasir-SEG", setting="generalizability tests", value=0.7575))
    plain = normalize_claim(_claim(metric="Dice", benchmark="Kvasir-SEG", value=0.8818))
    assert crossed.setting.get("shots") == "0-shot" and crossed.comparability_key != plain.comparability_key
    assert normalize_claim(_claim(metric="Dice", benchmark="Kvasir-SEG", setting="cross-dataset evaluation", value=0.7)).setting.get("shots") == "0-shot"


def test_a_setting_that_names_its_own_benchmark_again_says_nothing_more() -> None:
    """'single model, MPII test dataset' on MPII is a test-split score of a single model: the name
    said again (and 'dataset' after it) is dropped from the row's words, so the metric-less score
    takes MPII's one measure. A name that qualifies other words stays. Made-up rows."""
    n = normalize_claim(_claim(benchmark="MPII", setting="single model, MPII test dataset", value=93.0))
    assert (n.metric, n.setting.get("split"), n.setting.other) == ("PCKh", "test", "single model")
    pretrained = normalize_claim(_claim(metric="top-1 accuracy", benchmark="ImageNet", setting="ImageNet-1K pretraining", value=83.0))
    assert pretrained.setting.other == "ImageNet-1K pretraining"


def test_alpacaevals_two_versions_are_two_benchmarks_and_a_winning_rate_is_a_win_rate() -> None:
    """AlpacaEval 2.0 judges against another reference than AlpacaEval 1.0: two leaderboards,
    however the version is written, and the name without one a third. Made-up rows."""
    two = normalize_claim(_claim(metric="length-controlled winning rate", benchmark="Alpaca Eval 2", value=50.5, unit="%"))
    other = normalize_claim(_claim(metric="LC win rate", benchmark="AlpacaEval 2.0", value=42.0, unit="%"))
    assert two.metric == "length-controlled win rate" and two.comparability_key == other.comparability_key
    one = normalize_claim(_claim(metric="LC win rate", benchmark="AlpacaEval 1.0", value=42.0, unit="%"))
    bare = normalize_claim(_claim(metric="LC win rate", benchmark="AlpacaEval", value=42.0, unit="%"))
    assert len({two.benchmark, one.benchmark, bare.benchmark}) == 3
    assert normalize_claim(_claim(metric="winning rate", benchmark="Arena-Hard", value=46.2, unit="%")).metric == "win rate"


def test_a_language_qualifier_other_than_english_keeps_its_own_block() -> None:
    german = normalize_claim(_claim(metric="accuracy", benchmark="MMLU (German)", value=52.0, unit="%"))
    plain = normalize_claim(_claim(metric="accuracy", benchmark="MMLU", value=70.0, unit="%"))
    assert german.benchmark == "MMLU" and german.setting.get("languages") == "de"
    assert german.comparability_key != plain.comparability_key


def test_character_level_cross_entropy_in_bits_is_bits_per_character() -> None:
    entropy = normalize_claim(_claim(metric="character-level cross-entropy", unit="bits/char", benchmark="text8", value=1.21))
    bpc = normalize_claim(_claim(metric="bpc", benchmark="text8", value=1.19))
    assert entropy.metric == "bits per character" and entropy.comparability_key == bpc.comparability_key
    written = normalize_claim(_claim(metric="BPC", benchmark="Penn Treebank (character level)", value=1.3))
    bare = normalize_claim(_claim(metric="BPC", benchmark="PTB", value=1.4))
    assert written.comparability_key == bare.comparability_key  # bits per character is at character level


@pytest.mark.parametrize(
    ("metric", "evidence", "value", "measure", "direction"),
    [
        ("top-1", "the network errs less: top-1 and top-5 error rates of 41.2% and 19.9% on the test images", 41.2, "top-1 error", "lower"),
        ("Top-5", "the network errs less: top-1 and top-5 error rates of 41.2% and 19.9% on the test images", 19.9, "top-5 error", "lower"),
        ("top-1 and top-5 error rates", "top-1 and top-5 error rates of 41.2% and 19.9%", 19.9, "top-5 error", "lower"),
        ("top-1", "it reaches a top-1 accuracy of 79.3% with half the compute", 79.3, "top-1 accuracy", "higher"),
        ("top-1", "our top-1 of 24.0 on the validation images", 24.0, "top-1", None),  # no measure: never accuracy
    ],
)
def test_a_rank_cut_takes_its_measure_from_the_words_around_it(
    metric: str, evidence: str, value: float, measure: str, direction: str | None
) -> None:
    n = normalize_claim(_claim(metric=metric, benchmark="ImageNet", value=value, unit="%", evidence=evidence))
    assert (n.metric, n.direction) == (measure, direction)


def test_an_error_rate_is_never_in_an_accuracy_block() -> None:
    error = normalize_claim(_claim(metric="top-1", benchmark="ImageNet", value=41.2, unit="%",
                                   evidence="top-1 and top-5 error rates of 41.2% and 19.9%"))
    accuracy = normalize_claim(_claim(metric="top-1 accuracy", benchmark="ImageNet", value=79.3, unit="%",
                                      evidence="a top-1 accuracy of 79.3%"))
    assert error.comparability_key != accuracy.comparability_key


def test_a_models_size_is_no_part_of_the_block() -> None:
    small = normalize_claim(_claim(model="Foo-7B", metric="accuracy", benchmark="MMLU", value=61.0, unit="%"))
    large = normalize_claim(_claim(model="Foo-70B", metric="accuracy", benchmark="MMLU", value=78.0, unit="%"))
    assert (small.size_b, large.size_b) == (7.0, 70.0)
    assert small.comparability_key == large.comparability_key and small.identity_key != large.identity_key


def test_a_metric_name_that_writes_its_benchmark_is_the_measure() -> None:
    named = normalize_claim(_claim(metric="zero-shot ImageNet-1k accuracy", benchmark="ImageNet", value=71.0, unit="%"))
    plain = normalize_claim(_claim(metric="accuracy", benchmark="ImageNet", value=69.0, unit="%", setting="0-shot"))
    assert (named.metric, named.setting.get("shots")) == ("top-1 accuracy", "0-shot")  # ImageNet's accuracy is its top-1
    assert named.comparability_key == plain.comparability_key
    other = normalize_claim(_claim(metric="CIFAR-10 accuracy", benchmark="ImageNet", value=90.0, unit="%"))
    assert other.metric == "CIFAR-10 accuracy"  # another benchmark's name stays in the metric


def test_a_benchmark_keeps_its_usual_conditions_and_its_own_measure_names() -> None:
    """The registry knows how a benchmark is usually scored: ImageNet on its validation split (a
    test-server number is apart), its accuracy is top-1; LibriSpeech's unnamed test set is
    test-clean and its noisy set is test-other; GSM8K's pass@1 is its accuracy; COCO's accuracy is its
    AP. Made-up rows."""
    val = normalize_claim(_claim(metric="accuracy", benchmark="ImageNet", value=81.2, unit="%"))
    written = normalize_claim(_claim(metric="top-1 accuracy", benchmark="ImageNet-1k", value=80.4, unit="%", setting="val"))
    test = normalize_claim(_claim(metric="top-1 accuracy", benchmark="ImageNet", value=79.9, unit="%", setting="test set"))
    assert val.metric == "top-1 accuracy" and val.setting.get("split") == "validation"
    assert val.comparability_key == written.comparability_key != test.comparability_key
    plain = normalize_claim(_claim(metric="WER", benchmark="LibriSpeech", value=2.1, unit="%", setting="test, with LM"))
    clean = normalize_claim(_claim(metric="WER", benchmark="LibriSpeech test-clean", value=1.9, unit="%"))
    noisy = normalize_claim(_claim(metric="WER", benchmark="LibriSpeech", value=4.4, unit="%", setting="noisy test set"))
    other = normalize_claim(_claim(metric="WER", benchmark="LibriSpeech", value=4.0, unit="%", setting="testother"))
    assert plain.comparability_key == clean.comparability_key
    assert noisy.comparability_key == other.comparability_key != clean.comparability_key
    detector = normalize_claim(_claim(metric="accuracy", benchmark="MS COCO", value=49.5, unit="%"))  # a detector's 'accuracy' is its AP
    assert detector.comparability_key == normalize_claim(_claim(metric="AP", benchmark="COCO", value=52.8, unit="%")).comparability_key
    few = normalize_claim(_claim(metric="WER", benchmark="LibriSpeech", value=5.2, unit="%", setting="ten minutes of labeled data, clean test set"))
    assert few.setting.get("labels") == "10 min labelled" and few.comparability_key != clean.comparability_key
    solved = normalize_claim(_claim(metric="pass@1", benchmark="GSM8K", value=86.0, unit="%"))
    assert solved.comparability_key == normalize_claim(_claim(metric="accuracy", benchmark="GSM8K", value=80.0, unit="%")).comparability_key


def test_a_resolution_trained_at_is_the_entrys() -> None:
    trained = normalize_claim(_claim(metric="FID", benchmark="FooGen", value=9.1, setting="trained on 256x256 crops"))
    evaluated = normalize_claim(_claim(metric="FID", benchmark="FooGen", value=7.3, setting="sampled at 256x256"))
    plain = normalize_claim(_claim(metric="FID", benchmark="FooGen", value=8.0))
    assert trained.comparability_key == plain.comparability_key != evaluated.comparability_key
    assert "256x256" in trained.setting.other


def test_an_input_size_and_a_test_resolution_named_as_such_are_no_split() -> None:
    """A detector's input size ('300x300 input') is the entry's, and 'test resolution' names a
    resolution, never the test split. Made-up rows."""
    small = normalize_claim(_claim(metric="mAP", benchmark="FooDet", value=72.0, unit="%", setting="300x300 input"))
    large = normalize_claim(_claim(metric="mAP", benchmark="FooDet", value=75.0, unit="%", setting="input size of 512x512"))
    plain = normalize_claim(_claim(metric="mAP", benchmark="FooDet", value=74.0, unit="%"))
    assert small.comparability_key == large.comparability_key == plain.comparability_key
    assert "300x300 input" in small.setting.other
    fixed = normalize_claim(_claim(metric="FID", benchmark="ImageNet", value=3.1, setting="test resolution 256x256"))
    assert fixed.setting.get("split") == "validation" and fixed.setting.get("resolution") == "256x256"


def test_a_classifier_s_test_resolution_is_the_entry_s_and_a_generated_image_s_splits() -> None:
    """ImageNet top-1 at 224x224, at 384 or unstated is one board (each model picks its input
    size; the labels are the same); ImageNet FIDs at 256x256 and 512x512 are two (the reference
    images differ). Made-up rows."""
    def top1(setting: str | None) -> NormalizedClaim:
        return normalize_claim(_claim(metric="top-1 accuracy", benchmark="ImageNet", value=85.0, unit="%", setting=setting))

    assert top1("resolution 224x224").comparability_key == top1(None).comparability_key == top1("at 384 resolution").comparability_key
    assert "384x384" in top1("at 384 resolution").setting.other and top1(None).setting.get("resolution") is None
    miou = normalize_claim(_claim(metric="mIoU", benchmark="ADE20K", value=50.0, unit="%", setting="640x640"))
    assert miou.setting.get("resolution") is None and "640x640" in miou.setting.other

    def fid(setting: str) -> tuple:
        return normalize_claim(_claim(metric="FID", benchmark="ImageNet", value=2.0, setting=setting)).comparability_key

    assert fid("256x256") != fid("512x512")
    # a score with no metric that takes its benchmark's measure still says so when its resolution moves
    assumed = normalize_claim(_claim(benchmark="MMLU", value=69.0, unit="%", setting="384x384"))
    assert "metric" in assumed.setting.assumed


def test_a_split_with_its_year_and_a_datastore_drawn_from_the_training_set() -> None:
    """'val2017' is the validation split; 'neighbours drawn from the training set' names what the
    method retrieves from, not the split scored. Made-up rows."""
    val = normalize_claim(_claim(metric="AP", benchmark="COCO val2017", value=60.0))
    test = normalize_claim(_claim(metric="AP", benchmark="COCO", value=58.0))
    assert val.setting.get("split") == "validation" and val.comparability_key != test.comparability_key
    drawn = normalize_claim(_claim(metric="perplexity", benchmark="FooText", value=16.0, setting="neighbours drawn from the training set"))
    plain = normalize_claim(_claim(metric="perplexity", benchmark="FooText", value=18.0))
    assert drawn.comparability_key == plain.comparability_key


def test_ap_for_instance_segmentation_is_mask_ap() -> None:
    """A generic 'AP' on a setting that names instance segmentation is mask AP; 'box AP' stays
    box AP whatever the setting says. Made-up rows."""
    masks = normalize_claim(_claim(metric="AP", benchmark="FooSeg", value=50.1, setting="instance segmentation"))
    boxes = normalize_claim(_claim(metric="AP", benchmark="FooSeg", value=55.0))
    written = normalize_claim(_claim(metric="box AP", benchmark="FooSeg", value=56.0, setting="instance segmentation"))
    assert masks.metric == "mask AP" and boxes.metric == written.metric == "mAP"
    assert masks.comparability_key != boxes.comparability_key == written.comparability_key


def test_a_generic_ap_takes_the_one_task_its_papers_title_names() -> None:
    """Boards are kept per task: a pose paper's 'AP' is a keypoint AP, an instance segmentation
    paper's a mask AP, and neither is ranked beside a detector's box AP. A title naming a
    detector's task, two tasks or keypoints as a detector's means, and a setting or a name that
    says the measure, keep their reading. Made-up rows and titles."""

    def metric(title: str | None, **fields) -> str | None:
        return normalize_claim(_claim(**{"metric": "AP", "benchmark": "FooDet", "value": 70.0, **fields}), title=title).metric

    assert metric("Simple Baselines for Multi-Person Pose Estimation") == "keypoint AP"
    assert metric("FooPose: Tokenized Pose Regression") == "keypoint AP"
    assert metric("A Foo Network for Keypoint Detection", metric="average precision") == "keypoint AP"
    assert metric("FooMask: Real-time Instance Segmentation") == "mask AP"
    assert metric("Detecting Objects as Paired Keypoints") == metric("Foo R-CNN for Object Detection") == "mAP"
    assert metric("Joint Pose Estimation and Instance Segmentation of People") == "mAP"  # two tasks: unread
    assert metric("Mask Foo: A Unified Detector") == metric(None) == "mAP"  # a method's name is no task
    assert metric("Foo for Human Pose Estimation", setting="object detection") == "mAP"  # the setting says
    assert metric("Foo for Human Pose Estimation", metric="box AP") == "mAP"
    assert metric(None, metric="keypoint average precision") == metric(None, metric="AP^kp") == "keypoint AP"
    posed = normalize_claim(_claim(metric="AP", benchmark="COCO", value=75.0), title="Foo for Human Pose Estimation")
    written = normalize_claim(_claim(metric="keypoint AP", benchmark="COCO test-dev", value=76.0))
    assert posed.comparability_key == written.comparability_key


def test_how_an_entry_was_run_written_before_a_measure_is_the_entrys() -> None:
    """'single-model single-scale AP' is AP, run as a single model at a single scale: the words
    go to the row (the entry's identity), never to the block. Made-up rows."""
    run_as = normalize_claim(_claim(metric="single-model single-scale AP", benchmark="FooDet", value=48.2))
    plain = normalize_claim(_claim(metric="AP", benchmark="FooDet", value=47.0))
    assert run_as.metric == "mAP" and run_as.comparability_key == plain.comparability_key
    assert run_as.setting.other == "single-model single-scale" and run_as.identity_key != plain.identity_key
    said = normalize_claim(_claim(metric="single-model AP", benchmark="FooDet", value=48.2, setting="single model, ResNet-50"))
    assert said.setting.other == parse_setting("single model, ResNet-50").other  # said once, kept once
    assert normalize_metric("multi-scale mIoU").name == "mIoU" and normalize_metric("ensemble BLEU").name == "BLEU"
    assert not normalize_metric("single-model foo score").known  # an unknown measure stays as written
    posed = normalize_claim(_claim(metric="single-model AP", benchmark="FooDet", value=75.0), title="Foo for Human Pose Estimation")
    assert posed.metric == "keypoint AP" and posed.setting.other == "single-model"  # kept whatever reads the measure


def test_a_unit_that_writes_the_measure_as_the_claim_does_is_no_unit() -> None:
    """'75.0 AP' in a pose paper: the unit is the metric as written, though its title reads the
    metric as a keypoint AP; the number is the same as '76.0' with no unit. Made-up rows."""
    title = "FooPose: Human Pose Estimation"
    with_unit = normalize_claim(_claim(metric="AP", unit="AP", benchmark="FooDet", value=75.0), title=title)
    without = normalize_claim(_claim(metric="AP", benchmark="FooDet", value=76.0), title=title)
    assert with_unit.metric == "keypoint AP" and with_unit.comparability_key == without.comparability_key


def test_a_super_resolution_factor_and_a_forecast_horizon_split_a_block() -> None:
    """Set5 at x2 and at x4, ETTh1 at 96 and at 720 steps ahead are boards of their own however
    the factor or the horizon is written (setting or name); the model's own sizes never split.
    Made-up rows."""

    def key(**fields) -> tuple:
        return normalize_claim(_claim(**{"value": 30.0, **fields})).comparability_key

    x4 = key(metric="PSNR", benchmark="Set5", setting="x4")
    assert x4 == key(metric="PSNR", benchmark="Set5 (4x upscaling)") == key(metric="PSNR (×4)", benchmark="Set5")
    assert x4 != key(metric="PSNR", benchmark="Set5", setting="scale factor 2")
    assert key(metric="PSNR", benchmark="Set5", setting="x4, 8x fewer parameters") == x4
    h96 = key(metric="MSE", benchmark="ETTh1", setting="prediction length 96, input length 336")
    assert h96 == key(metric="MSE", benchmark="ETTh1", setting="96-step-ahead") != key(metric="MSE", benchmark="ETTh1", setting="horizon 720")


def test_problems_solved_on_a_code_benchmark_is_its_pass_at_1_and_many_samples_a_best_of() -> None:
    """'solves 28.8% of the problems' on HumanEval is its pass@1, one board with 'pass@1 of
    50.6%'; 'with 100 samples per problem' credits any of 100 (best of 100, a board of its own),
    unless the method picks one of them (a verifier, a vote). Made-up rows."""

    def key(**fields) -> tuple:
        return normalize_claim(_claim(**{"value": 30.0, "unit": "%", "benchmark": "HumanEval", **fields})).comparability_key

    one = key(metric="pass@1")
    assert key(metric="problems solved") == key(metric="% of problems solved") == key(metric="solve rate") == one
    oracle = key(metric="problems solved", setting="repeated sampling, 100 samples per problem")
    assert oracle != one and oracle == key(metric="pass@1", setting="best of 100")
    assert key(metric="problems solved", setting="100 samples per problem ranked by a verifier") == one
    assert key(metric="problems solved", benchmark="FooCode") != key(metric="pass@1", benchmark="FooCode")  # unknown: as written


def test_a_name_two_benchmarks_share_is_the_one_whose_measure_the_result_is_in() -> None:
    """'91.8 F1 on the WSJ benchmark' is a parse of the Penn Treebank's WSJ sections, on the
    board of '92.1 F1 on PTB'; '3.1% WER on WSJ' stays the speech corpus. Made-up rows."""

    def read(**fields) -> tuple:
        n = normalize_claim(_claim(**{"value": 91.8, **fields}))
        return n.benchmark, n.comparability_key

    parse, ptb = read(metric="F1", benchmark="WSJ"), read(metric="F1", benchmark="PTB")
    assert parse[0] == "Penn Treebank" and parse[1] == ptb[1]
    assert read(metric="UAS", benchmark="WSJ")[0] == read(metric="accuracy", benchmark="Wall Street Journal")[0] == "Penn Treebank"
    assert read(metric="WER", benchmark="WSJ", value=3.1)[0] == "WSJ"


def test_editions_of_a_benchmark_are_apart_and_a_stated_subset_replaces_the_usual_one() -> None:
    """PASCAL VOC 2007 and 2012 are two datasets (and 'PASCAL VOC' a third, its edition not
    given); LibriSpeech's test-other is subset other alone (not 'clean / other'). Made-up rows."""
    old = normalize_claim(_claim(metric="mAP", benchmark="VOC2007", value=80.0))
    new = normalize_claim(_claim(metric="mAP", benchmark="the PASCAL VOC 2012 dataset", value=79.0))
    plain = normalize_claim(_claim(metric="mAP", benchmark="Pascal VOC", value=78.0))
    assert (old.benchmark, new.benchmark, plain.benchmark) == ("PASCAL VOC 2007", "PASCAL VOC 2012", "PASCAL VOC")
    other = normalize_claim(_claim(metric="WER", benchmark="LibriSpeech", value=4.0, unit="%", setting="test-other"))
    assert other.setting.get("subset") == "other"


def test_an_edition_written_in_the_setting_is_the_benchmarks() -> None:
    """'PASCAL VOC' with the setting 'VOC 2007' (or '2012') is that edition's dataset; a year
    that names no edition leaves the benchmark as it is. Made-up rows."""
    named = normalize_claim(_claim(metric="mAP", benchmark="PASCAL VOC", value=83.0, setting="VOC 2007"))
    year = normalize_claim(_claim(metric="mIoU", benchmark="PASCAL VOC", value=62.0, setting="2012"))
    other = normalize_claim(_claim(metric="top-1 accuracy", benchmark="ImageNet", value=80.0, setting="2012"))
    assert (named.benchmark, year.benchmark, other.benchmark) == ("PASCAL VOC 2007", "PASCAL VOC 2012", "ImageNet")


def test_a_name_that_is_an_edition_keeps_it_whatever_edition_the_setting_trained_on() -> None:
    """'VoxCeleb1' with 'trained on VoxCeleb2' is measured on VoxCeleb1; 'PASCAL VOC 2012' with
    'trained on VOC 2007+2012' on VOC 2012. Made-up rows."""
    vox = normalize_claim(_claim(metric="EER", benchmark="VoxCeleb1", value=1.66, unit="%",
                                 setting="self-supervised, trained on VoxCeleb2 without any labels"))
    voc = normalize_claim(_claim(metric="mAP", benchmark="PASCAL VOC 2012", value=84.0, setting="trained on VOC 2007"))
    assert (vox.benchmark, voc.benchmark) == ("VoxCeleb1", "PASCAL VOC 2012")


def test_editions_of_one_family_never_merge() -> None:
    """MOT16, MOT17 and MOT20 are three benchmarks, as are Yelp's full and polarity sets and
    ETTh1 and ETTh2; a family's name alone ('MOTChallenge') is none of them. Made-up rows."""
    names = ["MOT17", "MOT16", "MOT20", "MOTChallenge", "MOT-17"]
    found = [normalize_claim(_claim(metric="MOTA", benchmark=name, value=70.0)).benchmark for name in names]
    assert found == ["MOT17", "MOT16", "MOT20", "MOTChallenge", "MOT17"]
    yelp = [normalize_claim(_claim(metric="error", benchmark=name, value=5.0)).benchmark for name in ("Yelp-2", "Yelp-5", "Yelp Polarity")]
    assert yelp == ["Yelp Review Polarity", "Yelp Review Full", "Yelp Review Polarity"]
    assert normalize_claim(_claim(metric="MSE", benchmark="ETTh2", value=0.3)).benchmark == "ETTh2"
    parts = [normalize_claim(_claim(metric="FID", benchmark=name, value=5.0)).benchmark for name in ("LSUN Church", "CelebAHQ", "LSUN")]
    assert parts == ["LSUN Church", "CelebA-HQ", "LSUN"]


def test_a_named_pass_protocol_or_fold_is_a_condition_also_in_a_benchmarks_name() -> None:
    """Sintel's clean and final passes, a linear-probe protocol, S3DIS's Area 5 and its 6-fold
    cross-validation (no validation split) are blocks apart; 'Sintel-final' as a name is the
    final pass, never plain Sintel. Made-up rows."""
    final = normalize_claim(_claim(metric="EPE", benchmark="Sintel", value=2.1, setting="on the final pass"))
    named = normalize_claim(_claim(metric="EPE", benchmark="Sintel Final", value=2.4))
    clean = normalize_claim(_claim(metric="EPE", benchmark="MPI Sintel", value=1.1, setting="clean pass"))
    assert final.comparability_key == named.comparability_key != clean.comparability_key
    probe = normalize_claim(_claim(metric="accuracy", benchmark="FooShapes", value=91.0, setting="frozen features, linear SVM"))
    tuned = normalize_claim(_claim(metric="accuracy", benchmark="FooShapes", value=93.0, setting="fine-tuned"))
    assert probe.setting.get("protocol") == "linear SVM" and probe.comparability_key != tuned.comparability_key
    folds = normalize_claim(_claim(metric="mIoU", benchmark="FooRooms", value=70.0, setting="6-fold cross-validation"))
    area = normalize_claim(_claim(metric="mIoU", benchmark="FooRooms", value=68.0, setting="Area 5"))
    assert (folds.setting.conditions, area.setting.conditions) == ((("subset", "6-fold"),), (("subset", "area 5"),))


def test_a_linear_probe_or_k_nn_protocol_is_a_board_of_its_own_and_fine_tuning_is_the_default() -> None:
    """Self-supervised papers score one benchmark by a linear probe, a k-NN classifier or
    fine-tuning: the first two are boards of their own, written in the setting or the metric's
    name; fine-tuned and unstated are one board, as a supervised model is scored. Made-up rows."""
    def key(metric: str, setting: str | None = None) -> tuple:
        return normalize_claim(_claim(metric=metric, benchmark="ImageNet", value=80.0, unit="%", setting=setting)).comparability_key

    assert key("linear probing accuracy") == key("top-1 accuracy", "linear evaluation with a ViT-S") == key("top-1 accuracy", "under the linear classification protocol")
    assert key("k-NN accuracy") == key("top-1 accuracy", "k-NN classifier") != key("linear probing accuracy")
    assert key("fine-tuning accuracy") == key("top-1 fine-tuning accuracy") == key("top-1 accuracy", "end-to-end fine-tuning") == key("top-1 accuracy")
    assert key("top-1 accuracy") != key("linear probing accuracy")
    assert key("top-1 accuracy", "fine-tuned on ImageNet-22K first") == key("top-1 accuracy")  # how it was pre-trained
    assert normalize_claim(_claim(metric="perplexity", benchmark="WikiText-103", setting="kNN-LM")).setting.get("protocol") is None


def test_class_conditional_and_unconditional_generation_are_boards_apart_with_each_benchmarks_usual_one() -> None:
    """ImageNet generation is class-conditional unless a paper says otherwise, CIFAR-10's
    unconditional; the usual one is assumed only for a generation measure, so an ImageNet
    classifier's accuracy carries none. Made-up rows."""
    def key(benchmark: str, setting: str | None = None, metric: str = "FID") -> tuple:
        return normalize_claim(_claim(metric=metric, benchmark=benchmark, value=2.5, setting=setting)).comparability_key

    assert key("ImageNet", "256x256") == key("ImageNet", "256x256, class-conditional") != key("ImageNet", "256x256, unconditional")
    assert key("CIFAR-10") == key("CIFAR-10", "unconditional image generation") != key("CIFAR-10", "in a class-conditional setting")
    accuracy = normalize_claim(_claim(metric="top-1 accuracy", benchmark="ImageNet", value=80.0, unit="%"))
    assert accuracy.setting.get("conditioning") is None
    assert parse_setting("skipping unconditional passes").get("conditioning") is None


def test_an_oracle_best_of_n_is_a_board_of_its_own_and_a_method_s_own_choice_of_one_answer_is_not() -> None:
    """'The best response from 256 generations' credits a problem any of 256 samples solves: never
    ranked beside first answers. A majority vote or a reward model picks one answer: the entry's
    configuration, one board with plain accuracy. Made-up rows."""
    def key(setting: str | None = None, metric: str = "accuracy") -> tuple:
        return normalize_claim(_claim(metric=metric, benchmark="GSM8K", value=90.0, unit="%", setting=setting)).comparability_key

    plain = key()
    assert key("when selecting the best response from 256 random generations") == key("best-of-256") != plain
    assert key("best of 8 samples") != key("best of 256 samples")
    assert key(metric="accuracy for the first answer") == key("single attempt") == plain
    assert key("majority voting over 64 samples") == key("best-of-64 with a process reward model") == plain


def test_a_score_in_points_is_in_its_measure_s_own_scale_and_a_change_in_points_stays_one() -> None:
    """'from 18.3 to 16.4 perplexity points' is perplexity 16.4, one block with a bare 18.3; a
    score of '80.5 points' of accuracy is 80.5 %; a gain of 2.1 points keeps its unit. Made-up rows."""
    points = normalize_claim(_claim(metric="perplexity", benchmark="WikiText-103", value=16.4, unit="points"))
    assert points.comparability_key == normalize_claim(_claim(metric="perplexity", benchmark="WikiText-103", value=18.3)).comparability_key
    assert normalize_claim(_claim(metric="accuracy", benchmark="GSM8K", value=80.5, unit="pts")).comparable_unit == "%"
    gain = normalize_claim(_claim(metric="accuracy", benchmark="GSM8K", value=2.1, unit="points", kind="change"))
    assert gain.comparable_unit == "points"


def test_a_labels_budget_per_class_is_counted_in_all_where_the_registry_counts_the_classes() -> None:
    """'four labels per class' on CIFAR-10 is '40 labels'; on a benchmark whose classes the
    registry does not count it stays per class; 'examples per class' is a few-shot count. Made-up rows."""
    def labels(benchmark: str, setting: str) -> str | None:
        return normalize_claim(_claim(metric="accuracy", benchmark=benchmark, value=88.0, unit="%", setting=setting)).setting.get("labels")

    assert labels("CIFAR10", "four labels per class") == labels("CIFAR-10", "40 labels (4 labels per class)") == "40 labels"
    assert labels("CIFAR-100", "25 labels per class") == "2500 labels"
    assert labels("FooSet", "4 labels per class") == "4 labels per class"
    assert parse_setting("10 examples per class").get("shots") == "10-shot"
    remix = normalize_claim(_claim(metric="median accuracy", benchmark="CIFAR10", value=84.9, unit="%", setting="four labels per class"))
    fix = normalize_claim(_claim(metric="accuracy", benchmark="CIFAR-10", value=88.6, unit="%", setting="40 labels"))
    assert remix.comparability_key == fix.comparability_key  # a median over runs is the measure


def test_unsupervised_and_domain_adaptation_protocols_are_boards_apart_from_the_supervised_one() -> None:
    """Person re-identification and translation are scored under a fully unsupervised protocol
    and under unsupervised domain adaptation, each its own board; a method's unsupervised
    pre-training is the entry's. Made-up rows."""
    def key(setting: str | None) -> tuple:
        return normalize_claim(_claim(metric="mAP", benchmark="Market-1501", value=85.0, unit="%", setting=setting)).comparability_key

    assert key(None) == key("supervised ReID") == key("unsupervised pre-training on unlabelled person images")
    assert len({key(None), key("USL ReID"), key("UDA ReID")}) == 3
    assert key("fully unsupervised setting") == key("under the unsupervised setting") == key("USL ReID")


def test_a_segmenter_s_iou_is_its_miou_and_ade20k_is_scored_on_validation() -> None:
    """'an intersection-over-union score of 83.4 on PASCAL VOC 2012' is its mIoU; ADE20K's
    scores are its validation split's unless a paper says otherwise; UCF101, like HMDB51, is
    scored in accuracy alone, so its 'top-1 accuracy' is its accuracy. Made-up rows."""
    def key(benchmark: str, metric: str, setting: str | None = None) -> tuple:
        return normalize_claim(_claim(metric=metric, benchmark=benchmark, value=80.0, unit="%", setting=setting)).comparability_key

    assert key("PASCAL VOC 2012", "intersection-over-union") == key("PASCAL VOC 2012", "mean IoU")
    assert key("Cityscapes", "IoU") == key("Cityscapes", "mIoU")
    assert key("ADE20K", "mIoU") == key("ADE20K", "mIoU", "validation set") != key("ADE20K", "mIoU", "test set")
    assert key("UCF101", "top1 acc") == key("UCF-101", "accuracy")


def test_a_small_classification_benchmark_s_top_1_error_is_its_error_rate() -> None:
    """CIFAR-10 reports no top-5, so its 'top-1 error rate', 'testing error' and 'error rate' are
    one measure; ImageNet's plain 'error' (top-5 in its challenge's papers) stays apart from its
    top-1 error. Made-up rows."""
    def key(benchmark: str, metric: str) -> tuple:
        return normalize_claim(_claim(metric=metric, benchmark=benchmark, value=3.5, unit="%")).comparability_key

    assert key("CIFAR-10", "top-1 error rate") == key("CIFAR-10", "testing error") == key("CIFAR10", "error rate")
    assert key("ImageNet", "top-1 error") != key("ImageNet", "error rate")


def test_captioning_s_karpathy_split_is_its_test_split_and_a_read_subset_that_names_a_part_is_that_part() -> None:
    """'the Karpathy split' and 'COCO Karpathy test split' are COCO captioning's offline test
    split, apart from the online server; MultiNLI's 'in-domain test set' and 'matched evaluation
    track' are its matched part (RepEval 2017 was scored on it); VOT's editions are boards of
    their own however written. Made-up rows."""
    def key(benchmark: str, metric: str, setting: str | None, value: float = 120.0) -> tuple:
        return normalize_claim(_claim(metric=metric, benchmark=benchmark, value=value, setting=setting)).comparability_key

    assert key("MS-COCO", "CIDEr-D", "Karpathy split") == key("COCO", "CIDEr-D", "COCO Karpathy test split") == key("COCO", "CIDEr", None)
    assert key("COCO", "CIDEr", "official test server") != key("COCO", "CIDEr", "Karpathy split")
    matched = key("RepEval 2017", "accuracy", "in-domain test set", 74.9)
    assert matched == key("RepEval", "accuracy", "matched evaluation track", 72.1) == key("MultiNLI", "accuracy", "MNLI-m", 80.0)
    assert matched != key("MultiNLI", "accuracy", "cross-domain", 74.9)
    assert key("VOT-16", "EAO", None, 0.43) == key("VOT 2016", "EAO", None, 0.46) != key("VOT2018", "EAO", None, 0.41)


def test_synapse_s_hausdorff_distance_is_its_95th_percentile_one() -> None:
    """Synapse multi-organ segmentation papers write 'Hausdorff distance' for the HD95 every
    paper reports there; elsewhere a Hausdorff distance stays its own measure, lower being
    better. Made-up rows."""
    def key(benchmark: str, metric: str) -> tuple:
        return normalize_claim(_claim(metric=metric, benchmark=benchmark, value=13.0, unit="mm")).comparability_key

    assert key("Synapse Multi-Organ Segmentation dataset", "Hausdorff Distance") == key("Synapse", "95% Hausdorff Distance") == key("Synapse", "HD95")
    assert key("FooSet", "Hausdorff distance")[1] == "Hausdorff distance" != key("FooSet", "HD95")[1]
    assert normalize_claim(_claim(metric="Hausdorff distance", benchmark="FooSet", value=3.0, unit="mm")).direction == "lower"


def test_an_unknown_name_ending_in_a_proportion_compares_in_percent() -> None:
    """'execution accuracy' is unknown to the registry but ends with accuracy: a bare 85.3 and
    another paper's 86.6 % are one block; a name ending in no registry measure has no scale.
    Made-up rows."""
    bare = normalize_claim(_claim(metric="execution accuracy", benchmark="FooSQL", value=85.3))
    percent = normalize_claim(_claim(metric="execution accuracy", benchmark="FooSQL", value=86.6, unit="%"))
    assert bare.comparability_key == percent.comparability_key and bare.comparable == 85.3
    assert normalize_metric("foo widget count").scale == "none"


def test_a_benchmarks_own_wordings_of_its_measure_are_that_measure() -> None:
    """On SWE-bench (and its Lite and Verified sets) pass@1, 'issues solved' and 'resolution
    rate' are the share of issues resolved (elsewhere pass@1 stays pass@1); BIRD's 'accuracy' is
    its execution accuracy. Made-up rows."""
    found = {
        normalize_claim(_claim(metric=metric, benchmark="SWE-bench Lite", value=25.0, unit="%")).metric
        for metric in ("pass@1", "issues solved", "resolution rate", "% resolved")
    }
    assert found == {"success rate"}
    assert normalize_claim(_claim(metric="pass@1", benchmark="FooCode", value=25.0, unit="%")).metric == "pass@1"
    bird = normalize_claim(_claim(metric="accuracy", benchmark="BIRD", value=46.4, unit="%"))
    executed = normalize_claim(_claim(metric="execution accuracy", benchmark="BIRD-SQL", value=55.9, unit="%"))
    assert bird.comparability_key == executed.comparability_key


def test_a_bare_number_is_in_its_measures_unit_when_that_unit_has_no_prefix() -> None:
    """A bare end-point error is in pixels, as another paper's '2.3 pixels' is; a bare latency is
    no millisecond count (it may be seconds). Made-up rows."""
    bare = normalize_claim(_claim(metric="AEPE", benchmark="FooFlow", value=2.1))
    pixels = normalize_claim(_claim(metric="end-point error", benchmark="FooFlow", value=2.3, unit="pixels"))
    assert bare.comparability_key == pixels.comparability_key and bare.comparable_unit == "px"
    latency = normalize_claim(_claim(metric="latency", benchmark="FooFlow", value=34.0))
    assert latency.comparable_unit == ""


def test_a_baseline_that_is_only_a_condition_is_the_claims_condition() -> None:
    """'FooMath from 10.4% to 40.7%' over the baseline 'zero-shot' is a zero-shot number; a
    baseline naming a method says nothing of the claim's conditions. Made-up rows."""
    after = normalize_claim(_claim(metric="accuracy", benchmark="FooMath", value=40.7, unit="%", baseline="zero-shot"))
    before = normalize_claim(_claim(metric="accuracy", benchmark="FooMath", value=10.4, unit="%", setting="zero-shot"))
    plain = normalize_claim(_claim(metric="accuracy", benchmark="FooMath", value=55.0, unit="%"))
    named = normalize_claim(_claim(metric="accuracy", benchmark="FooMath", value=50.0, unit="%", baseline="few-shot BarLM"))
    assert after.comparability_key == before.comparability_key != plain.comparability_key
    assert named.comparability_key == plain.comparability_key
    speedup = normalize_claim(_claim(metric="speedup", value=2.6, unit="x", baseline="FP16", kind="change", direction="increase"))
    assert speedup.setting.get("bits") is None  # a change compares with its baseline's precision


def test_a_proportion_called_an_accuracy_is_its_own_measure() -> None:
    """'mIoU accuracy' is mIoU and 'exact match accuracy' exact match; a name that is no
    proportion before 'accuracy' ('WER accuracy', 'word accuracy') stays as written."""
    assert normalize_metric("mIoU accuracy").name == normalize_metric("mean IoU").name == "mIoU"
    assert normalize_metric("exact match accuracy").name == normalize_metric("EM").name
    assert not normalize_metric("WER accuracy").known and not normalize_metric("word accuracy").known


@pytest.mark.parametrize("written", ["the FooQA dataset", "FooQA benchmark", "The FooQA Data Set", "FooQA"])
def test_words_that_wrap_an_unknown_name_are_not_part_of_it(written: str) -> None:
    assert normalize_benchmark(written).key == normalize_benchmark("FooQA").key
    assert normalize_benchmark("FooQA Challenge").key != normalize_benchmark("FooQA").key


def test_a_part_of_a_benchmark_named_in_the_setting_is_no_edition() -> None:
    """Only a year or a version more is an edition: 'GPQA' with a setting naming 'GPQA Diamond'
    keeps its benchmark (a part is the setting's to say, not a silent rename). Made-up rows."""
    part = normalize_claim(_claim(metric="accuracy", benchmark="GPQA", value=40.0, setting="as on GPQA Diamond"))
    assert part.benchmark == "GPQA"


def test_a_ratio_to_a_reference_as_a_fraction_or_a_percentage_is_one_block() -> None:
    """A human-normalized score of 1.046 is 104.6 %, as a paper writing '194.3%' means it; it is
    no raw return. Made-up rows."""
    fraction = normalize_claim(_claim(metric="mean human normalized score", benchmark="Atari 100k", value=1.046))
    percent = normalize_claim(_claim(metric="mean human performance", benchmark="Atari 100k", value=194.3, unit="%"))
    median = normalize_claim(_claim(metric="median HNS", benchmark="Atari 100k", value=0.415))
    assert fraction.comparability_key == percent.comparability_key != median.comparability_key
    assert (round(fraction.comparable, 6), fraction.comparable_unit) == (104.6, "%")
    assert normalize_metric("HNS").name != normalize_metric("episode return").name == "return"


def test_a_percent_sign_beside_a_score_on_a_0_to_100_scale_adds_nothing() -> None:
    """'132.0 %' CIDEr is the 132.0 another paper writes bare. Made-up rows."""
    bare = normalize_claim(_claim(metric="CIDEr", benchmark="COCO", value=129.8, setting="Karpathy test split"))
    sign = normalize_claim(_claim(metric="CIDEr-D", benchmark="MS COCO", value=132.0, unit="%", setting="Karpathy test split"))
    assert bare.comparability_key == sign.comparability_key
    assert sign.comparable == 132.0


def test_overall_says_the_whole_benchmarks_figure() -> None:
    assert normalize_metric("overall accuracy").name == "accuracy"
    assert normalize_metric("Overall F1 score").name == "F1"


def test_an_online_test_server_is_apart_from_the_offline_test_split() -> None:
    """Made-up captioning rows: the Karpathy test split and the online test server are two
    boards; 'test-std' is not 'test-dev'."""
    offline = normalize_claim(_claim(metric="CIDEr", benchmark="COCO", value=120.1, setting="image captioning, Karpathy test split"))
    plain = normalize_claim(_claim(metric="CIDEr", benchmark="COCO", value=121.0, setting="image captioning"))
    server = normalize_claim(_claim(metric="CIDEr", benchmark="COCO", value=117.0, setting="official online testing server"))
    assert offline.comparability_key == plain.comparability_key != server.comparability_key
    std = normalize_claim(_claim(metric="accuracy", benchmark="VQA v2", value=72.1, setting="test-std"))
    dev = normalize_claim(_claim(metric="accuracy", benchmark="VQA v2", value=71.9, setting="test-dev set"))
    assert std.comparability_key != dev.comparability_key


def test_a_model_never_trained_on_the_benchmark_scores_zero_shot() -> None:
    """'without training on COCO' is a zero-shot COCO number, apart from a fine-tuned one;
    'without training on extra data' says nothing of the kind. Made-up rows."""
    unseen = normalize_claim(_claim(metric="FID", benchmark="COCO", value=7.3, setting="without training on COCO"))
    zero = normalize_claim(_claim(metric="FID", benchmark="MS-COCO", value=7.2, setting="zero-shot"))
    tuned = normalize_claim(_claim(metric="FID", benchmark="COCO", value=3.2, setting="finetuned"))
    plain = normalize_claim(_claim(metric="FID", benchmark="COCO", value=10.5, setting="text-to-image generation"))
    extra = normalize_claim(_claim(metric="FID", benchmark="COCO", value=9.0, setting="without training on extra data"))
    assert unseen.comparability_key == zero.comparability_key != tuned.comparability_key
    assert tuned.comparability_key == plain.comparability_key == extra.comparability_key


def test_a_benchmarks_official_names_and_measures() -> None:
    """AudioSet-2M is the whole AudioSet; DROP's adjusted F1 is its F1; AMOTA a proportion."""
    assert normalize_benchmark("AudioSet-2M").key == normalize_benchmark("AudioSet").key
    adjusted = normalize_claim(_claim(metric="adjusted F1", benchmark="DROP", value=72.4))
    f1 = normalize_claim(_claim(metric="F1", benchmark="DROP", value=47.0, unit="%"))
    assert adjusted.comparability_key == f1.comparability_key
    bare = normalize_claim(_claim(metric="AMOTA", benchmark="nuScenes", value=63.8))
    sign = normalize_claim(_claim(metric="AMOTA", benchmark="nuScenes", value=65.3, unit="%"))
    assert bare.comparability_key == sign.comparability_key


def test_the_number_of_references_written_in_a_metric_name_splits() -> None:
    """A server's c40 CIDEr is scored against 40 references per image, its c5 against 5: two
    boards. Made-up rows."""
    c40 = normalize_claim(_claim(metric="CIDEr-D (C40)", benchmark="MS COCO", value=129.6, setting="official online testing server"))
    plain = normalize_claim(_claim(metric="CIDEr", benchmark="MSCOCO", value=117.9, setting="MSCOCO test server"))
    assert c40.metric == plain.metric == "CIDEr"
    assert c40.comparability_key != plain.comparability_key
    assert c40.setting.get("references") == "40 references"


def test_an_abbreviation_two_measures_share_takes_its_benchmarks_task() -> None:
    """'R1' is ROUGE-1 on a summarization benchmark, rank-1 accuracy on a re-identification one,
    and unknown elsewhere (never the wrong one). Made-up rows."""
    summary = normalize_claim(_claim(metric="R1", benchmark="CNN/DailyMail", value=44.1))
    reid = normalize_claim(_claim(metric="R1", benchmark="Market-1501", value=95.3, unit="%"))
    other = normalize_claim(_claim(metric="R1", benchmark="FooBench", value=12.0))
    assert (summary.metric, reid.metric) == ("ROUGE-1", "rank-1 accuracy")
    assert reid.comparability_key == normalize_claim(_claim(metric="rank-1", benchmark="Market1501", value=94.0, unit="%")).comparability_key
    assert not other.metric_known


def test_a_family_name_is_the_benchmark_its_setting_names() -> None:
    """'Stanford Sentiment Treebank' is SST-2 unless the setting says fine-grained (SST-5);
    Kim's 'SST1' is SST-5; a name that writes its number keeps it whatever the setting says.
    Root sentences are SST's usual part, all phrases another board. Made-up rows."""
    key = lambda **f: normalize_claim(_claim(**{"value": 50.0, "unit": "%", "metric": "accuracy", **f})).comparability_key  # noqa: E731
    assert key(benchmark="Stanford Sentiment Treebank", setting="fine-grained labels") == key(benchmark="SST-5") == key(benchmark="SST1")
    assert key(benchmark="Stanford Sentiment Treebank", setting="binary labels") == key(benchmark="SST-2") == key(benchmark="Stanford Sentiment Treebank")
    assert normalize_claim(_claim(value=90.0, unit="%", metric="accuracy", benchmark="SST-2", setting="a fine-grained analysis")).benchmark == "SST-2"
    assert key(benchmark="SST-5", setting="root level") == key(benchmark="SST-5")
    assert key(benchmark="SST-5", setting="all phrases") != key(benchmark="SST-5")
    assert normalize_claim(_claim(value=60.0, unit="%", metric="accuracy", benchmark="Yelp", setting="five-class")).benchmark == "Yelp Review Full"
    assert normalize_claim(_claim(value=95.0, unit="%", metric="accuracy", benchmark="Yelp reviews", setting="polarity")).benchmark == "Yelp Review Polarity"


def test_a_challenge_split_its_own_name_and_a_benchmarks_unit() -> None:
    """OGB-LSC's test-challenge split is neither its test-dev nor a part called '-challenge'; 'the
    PCQM4Mv2 split' names no part of PCQM4Mv2 (a benchmark's 'X subset' does); a bare MAE on
    PCQM4Mv2 is in eV, its registry unit. Made-up rows."""
    key = lambda **f: normalize_claim(_claim(**{"benchmark": "PCQM4Mv2", "metric": "MAE", "value": 0.072, "unit": None, **f})).comparability_key  # noqa: E731
    assert key(setting="independent test-challenge PCQM4Mv2 split") == key(metric="test-challenge MAE") == key(unit="eV", setting="test-challenge set")
    assert key(setting="test-challenge") != key(setting="test-dev")
    assert key(benchmark="PCQM4M-LSC") != key()  # the 2021 edition is another benchmark
    ego = normalize_claim(_claim(benchmark="EgoSchema", metric="accuracy", value=60.0, unit="%", setting="EgoSchema subset"))
    assert ego.setting.get("subset") is not None


def test_long_tailed_fine_grained_and_lesion_benchmarks() -> None:
    """iNaturalist's yearly editions are datasets of their own; a long-tailed CIFAR's imbalance
    factor is its part, read before a score naming no measure takes its one measure ('56.3% on
    CIFAR100-LT, IF100'); a binary lesion benchmark's mIoU is its IoU (Jaccard). Made-up rows."""
    claim = lambda **f: normalize_claim(_claim(**{"value": 56.3, "unit": "%", **f}))  # noqa: E731
    assert claim(metric="top-1 accuracy", benchmark="iNat18").comparability_key != claim(metric="top-1 accuracy", benchmark="iNaturalist 2017").comparability_key
    lt = claim(metric=None, benchmark="CIFAR100-LT", setting="IF100")
    assert lt.metric == "top-1 accuracy" and lt.setting.get("subset") == "imbalance factor 100"
    assert lt.comparability_key != claim(metric="accuracy", benchmark="CIFAR-100-LT", setting="imbalance ratio of 50").comparability_key
    assert claim(metric="mIoU", benchmark="ISIC-2017").comparability_key == claim(metric="Jaccard index", benchmark="International Skin Imaging Collaboration (ISIC) 2017").comparability_key


def test_an_unstated_coco_or_cityscapes_split_is_marked_as_taken() -> None:
    """A COCO or Cityscapes score that names no split is on the test split, the list's default,
    and says so (``assumed``), so a block's note counts the rows that took it: annotators read
    this convention both ways. Its row shows only what its paper wrote. Made-up rows."""
    plain = normalize_claim(_claim(metric="AP", benchmark="COCO", value=50.1, unit="%"))
    dev = normalize_claim(_claim(metric="AP", benchmark="COCO", value=50.3, unit="%", setting="test-dev"))
    assert plain.setting.assumed == ("split",) and plain.setting.shown == "" and dev.setting.assumed == ()
    assert plain.comparability_key == dev.comparability_key
    assert normalize_claim(_claim(metric="mIoU", benchmark="Cityscapes", value=82.0, unit="%")).setting.assumed == ("split",)


def test_a_name_written_out_with_its_acronym_is_the_acronym() -> None:
    """'The Foo Bar Baz (FBB) dataset' meets another paper's 'FBB' (unknown to the registry) and
    'International Skin Imaging Collaboration (ISIC) 2017' the registry's ISIC 2017; brackets that
    hold no acronym of the words before them change nothing. Made-up names."""
    assert normalize_benchmark("the Foo Bar Baz (FBB) dataset").key == normalize_benchmark("FBB").key
    assert normalize_benchmark("International Skin Imaging Collaboration (ISIC) 2017").name == "ISIC 2017"
    assert normalize_benchmark("Quux Corpus (QX-7)").key == normalize_benchmark("Quux Corpus (QX-7)").key != normalize_benchmark("QX-7").key
    assert normalize_benchmark("KITTI (moderate)").conditions == (("subset", "moderate"),)


def test_a_text_detectors_hmean_is_its_f_measure_and_only_there() -> None:
    """Scene text detection reports the harmonic mean of precision and recall as 'Hmean' or
    'F-measure': one measure on one board ('SCUT-CTW1500' is CTW1500), while a zero-shot
    benchmark's harmonic mean of seen and unseen accuracies stays unknown. Made-up rows."""
    hmean = normalize_claim(_claim(metric="Hmean", benchmark="SCUT-CTW1500", value=81.0, unit="%"))
    f_measure = normalize_claim(_claim(metric="F-measure", benchmark="CTW1500", value=0.799, unit=None))
    assert hmean.metric == "F1" and hmean.comparability_key == f_measure.comparability_key
    assert normalize_claim(_claim(metric="H-mean", benchmark="Total Text", value=85.0, unit="%")).benchmark == "Total-Text"
    assert not normalize_claim(_claim(metric="Hmean", benchmark="CUB", value=60.0, unit="%")).metric_known


@pytest.mark.parametrize(
    ("written", "plain"),
    [("R1", "R@1"), ("R-5", "recall@5"), ("R10", "Recall@10"), ("top-1 recall accuracy", "R@1"), ("recall at 10", "R@10")],
)
def test_a_retrieval_benchmarks_recall_is_one_measure_however_written(written: str, plain: str) -> None:
    """On a retrieval benchmark 'R1' is recall@1, as 'top-1 recall accuracy' and 'recall at 1'
    are: text-to-video scores written these ways are one board's. Made-up rows."""
    named = normalize_claim(_claim(metric=written, benchmark="MSR-VTT", value=49.6, unit="%"))
    bare = normalize_claim(_claim(metric=plain, benchmark="MSR-VTT", value=44.5, unit="%"))
    assert named.comparability_key == bare.comparability_key and named.direction == "higher"
    assert not normalize_claim(_claim(metric="R5", benchmark="FooBench", value=12.0)).metric_known


@pytest.mark.parametrize(
    ("benchmark", "plain"),
    [("TIMIT", "phone error rate"), ("LibriSpeech", "WER"), ("Switchboard", "word error rate"), ("AISHELL-1", "CER")],
)
def test_a_speech_benchmarks_error_rate_is_counted_in_its_tasks_units(benchmark: str, plain: str) -> None:
    """'17.7% error rate on TIMIT' is a phone error rate, as '20.5% PER' is; on a word-level
    recognition benchmark it is the word error rate, on a Mandarin one the character error rate.
    Made-up rows."""
    error = normalize_claim(_claim(metric="error rate", benchmark=benchmark, value=17.7, unit="%"))
    named = normalize_claim(_claim(metric=plain, benchmark=benchmark, value=20.5, unit="%"))
    assert error.comparability_key == named.comparability_key and error.direction == "lower"
    assert normalize_claim(_claim(metric="error rate", benchmark="CIFAR-10", value=3.1, unit="%")).metric == "error rate"


def test_a_bare_average_is_the_benchmarks_one_measure() -> None:
    """'an average of 87.4' and 'average performance 86.1' on a benchmark scored in one measure
    (Long Range Arena: accuracy) are that measure's board; where the registry knows no one
    measure, 'average' is the benchmark's score, and an average named by what it averages
    ('5-task average') stays a name of its own. Made-up rows."""
    keys = {
        normalize_claim(_claim(metric=written, benchmark="LRA", value=87.4)).comparability_key
        for written in ("average", "average performance", "average accuracy", "accuracy")
    }
    assert len(keys) == 1
    assert normalize_claim(_claim(metric="average", benchmark="FooBench", value=70.2)).metric == "score"
    assert normalize_claim(_claim(metric="5-task average", benchmark="FooBench", value=70.2)).metric == "5-task average"


@pytest.mark.parametrize(
    ("benchmark", "setting"),
    [("Hub5 2000", "Switchboard subset"), ("Hub5'00 (Switchboard subset)", None), ("NIST 2000 Switchboard", None), ("SWBD", "Hub5 2000 evaluation")],
)
def test_a_subset_that_is_a_registry_benchmark_is_that_benchmark(benchmark: str, setting: str | None) -> None:
    """'5.5% WER on Hub5 2000, Switchboard subset' is a Switchboard score, as '5.1% on NIST 2000
    Switchboard' is: a part named as a subset is the benchmark the registry knows by that name.
    Made-up rows."""
    part = normalize_claim(_claim(metric="WER", benchmark=benchmark, setting=setting, value=5.5, unit="%"))
    whole = normalize_claim(_claim(metric="word error rate", benchmark="Switchboard", value=5.1, unit="%"))
    assert part.comparability_key == whole.comparability_key and part.setting.get("subset") is None
    other = normalize_claim(_claim(metric="WER", benchmark="Hub5 2000", setting="CallHome subset", value=9.8, unit="%"))
    assert other.benchmark == "CallHome" != whole.benchmark


def test_a_relabelled_test_set_is_a_block_of_its_own() -> None:
    """A score on a benchmark's relabelled test data ('on the relabeled test set') is not one on
    the original labels: another block, while 'original test set' is the benchmark's test split.
    Made-up rows."""
    original = normalize_claim(_claim(metric="F1", benchmark="TACRED", setting="original test set", value=62.1))
    relabelled = normalize_claim(_claim(metric="F1", benchmark="TACRED", setting="relabeled test set", value=70.1))
    plain = normalize_claim(_claim(metric="F1", benchmark="TACRED", value=71.5))
    assert original.comparability_key == plain.comparability_key != relabelled.comparability_key


@pytest.mark.parametrize(
    ("setting", "measured"),
    [
        ("trained for 3T tokens", True),
        ("vanilla ViT backbone, without extra data", True),
        ("instruction-tuned variant, 5-shot", True),
        ("majority voting over 16 samples", True),
        ("7B", True),  # a model's size is the entry's
        ("1.5B, after fine-tuning", True),
        ("multiple-choice question answering", True),  # the task the benchmark is for
        ("increasing image resolutions", True),  # how the entry was run
        ("mathematical questions", False),  # may be a part of the benchmark
        ("bag-carrying walkers, single model", False),  # one phrase says nothing of the entry
        ("questions written by chemists", False),
    ],
)
def test_a_score_naming_no_metric_takes_the_measure_when_its_unread_words_describe_the_entry(setting: str, measured: bool) -> None:
    """A setting whose every unread phrase says how the entry was built or run, or names the task,
    cannot name a part of the benchmark: the score takes the benchmark's one measure. Made-up rows."""
    n = normalize_claim(_claim(benchmark="MMLU", setting=setting, value=61.0, unit="%"))
    assert (n.metric == "accuracy") is measured


def test_well_known_benchmarks_of_one_measure_give_it_to_a_score_naming_none() -> None:
    """'0.8672 on DocVQA' is an ANLS, '50.0% on AIME 2024' an accuracy (its 'pass@1' too); a
    family's name without its year ('AIME') is no dataset, so its bare scores wait. Made-up rows."""
    assert normalize_claim(_claim(benchmark="DocVQA", value=0.8672)).metric == "ANLS"
    aime = normalize_claim(_claim(benchmark="AIME 2024", value=50.0, unit="%"))
    assert aime.metric == "accuracy" and aime.comparability_key == normalize_claim(_claim(benchmark="AIME24", metric="pass@1", value=55.0, unit="%")).comparability_key
    assert normalize_claim(_claim(benchmark="AIME", value=77.5, unit="%")).metric is None


def test_a_score_naming_no_metric_takes_its_benchmarks_one_measure() -> None:
    """'phi-3-mini achieves 69% on MMLU' is MMLU's accuracy, '8.38 on MT-Bench' its score and
    '45% on HumanEval' its pass@1: the one measure the registry says the benchmark is scored in,
    shown as assumed. A benchmark reported in a measure and its complement (CIFAR-10: accuracy or
    error rate), a number in another unit, and a change decide nothing. Made-up rows."""
    bare = normalize_claim(_claim(benchmark="MMLU", value=69.0, unit="%"))
    named = normalize_claim(_claim(benchmark="MMLU", metric="5-shot accuracy", value=71.3, unit="%"))
    assert bare.comparability_key == named.comparability_key and bare.direction == "higher"
    assert "metric" in bare.setting.assumed and "metric" not in named.setting.assumed
    assert normalize_claim(_claim(benchmark="MT-Bench", value=8.38)).metric == "score"
    assert normalize_claim(_claim(benchmark="HumanEval", value=45.0, unit="%")).metric == "pass@1"
    assert normalize_claim(_claim(benchmark="CIFAR-10", value=6.3, unit="%")).metric is None
    assert normalize_claim(_claim(benchmark="MMLU", value=120.0, unit="ms")).metric is None
    assert normalize_claim(_claim(benchmark="MMLU", value=2.0, unit="%", kind="change")).metric is None
    # 'mathematical MMLU' may be a part of the benchmark: words no condition reads leave it to a reviewer
    assert normalize_claim(_claim(benchmark="MMLU", setting="mathematical MMLU", value=41.3, unit="%")).metric is None
    # one of numbers written 'a/b' ('2.1%/4.3% on test/testother'): which part it is rests on their order
    evidence = "WER of 2.1%/4.3% on test/testother"
    at = evidence.index("4.3")
    slashed = _claim(benchmark="LibriSpeech", value=4.3, unit="%", evidence=evidence, span=(0, len(evidence)), value_span=(at, at + 3))
    assert normalize_claim(slashed).metric is None


@pytest.mark.parametrize(
    ("benchmark", "one", "other"),
    [
        ("LaSOT", dict(metric="AUC", value=59.8, unit="%"), dict(metric="SUC score", value=0.713)),  # a tracker's success AUC
        ("TrackingNet", dict(metric="Success", value=75.8, unit="%"), dict(metric="AUC score", value=75.4)),
        ("DAVIS 2017", dict(metric="J &F", value=81.9, unit="%"), dict(metric="J&F measure", value=71.5, unit="%", setting="validation set")),
        ("YouTube-VOS", dict(metric="overall score", value=79.4, setting="val set"), dict(metric="J&F", value=84.1, unit="%")),
        ("ActivityNet 1.3", dict(metric="average mAP", value=36.6, unit="%"), dict(metric="mAP", value=40.01, unit="%")),
        ("FEVER", dict(metric="FEVER score", value=67.1, unit="%", setting="test"), dict(metric="FEVER score", value=0.5736)),
        ("VoxCeleb1", dict(metric="equal error rate", value=0.89, unit="%"), dict(metric="EER", value=0.83, benchmark="VoxCeleb1-O")),
        ("WSJ0-2mix", dict(metric="SI-SNRi", value=22.3, unit="dB"), dict(metric="SI-SDR improvement", value=23.5, unit="dB")),
        ("WSJ", dict(metric="WER", value=2.43, unit="%", benchmark="nov92"), dict(metric="error rate", value=6.7, unit="%", benchmark="Wall Street Journal")),
        ("AVA", dict(metric="average AP", value=21.9, unit="%"), dict(metric="mAP", value=22.8, unit="%")),  # a mean over classes
        ("GOT-10k", dict(metric="AO", value=65.2, unit="%"), dict(metric="average overlap", value=74.6, unit="%")),
        ("WebArena", dict(metric="end-to-end task success rate", value=14.4, unit="%"), dict(metric="success rate", value=19.2, unit="%")),
        ("EgoSchema", dict(metric="zero-shot accuracy", value=54.1, unit="%"), dict(metric="accuracy", value=50.3, unit="%")),  # its usual: 0-shot
        (
            "Google speech command datasets v1",
            dict(metric="top-1 accuracy", value=98.0, unit="%"),  # a benchmark scored in accuracy alone has no top-5
            dict(metric="accuracy", value=98.55, unit="%", setting="10+2-class classification", benchmark="Google Speech Commands dataset V1"),
        ),
    ],
)
def test_a_benchmarks_own_names_of_its_measure_are_one_block(benchmark: str, one: dict, other: dict) -> None:
    """A tracker's 'AUC', 'Success' and 'SUC' are its success AUC; video object segmentation's
    'J&F measure' and YouTube-VOS's 'overall score' are J&F, on the validation split papers report
    unless they say otherwise; ActivityNet's 'mAP' is its average mAP over tIoU thresholds; a bare
    FEVER score of .5736 is 57.36 %; an EER of 0.83 is 0.83 %, and VoxCeleb1-O is VoxCeleb1's test
    list; SI-SNRi is the SI-SDR improvement; WSJ's nov92 (eval92) is WSJ's test set; a tracker's
    'average overlap' is its AO; 'end-to-end task success rate' is a success rate; EgoSchema is
    answered zero-shot; Speech Commands V1's 12 commands are its '10+2' classes and its usual task.
    Made-up rows."""
    first = normalize_claim(_claim(**{"benchmark": benchmark, **one}))
    second = normalize_claim(_claim(**{"benchmark": benchmark, **other}))
    assert first.comparability_key == second.comparability_key and first.metric_known


def test_a_temporal_localizers_plain_map_is_its_average_and_a_threshold_its_own_measure() -> None:
    """On THUMOS14 and ActivityNet-1.3 a plain 'mAP' is the average over tIoU thresholds the
    boards rank; 'mAP' with 'at tIoU=0.5' or 'IoU@0.5' in its setting is AP50 (a range such as
    'IoU 0.5:0.95' is no threshold). Made-up rows."""
    key = lambda **f: normalize_claim(_claim(**{"benchmark": "THUMOS14", "value": 55.0, "unit": "%", **f})).comparability_key  # noqa: E731
    assert key(metric="mAP") == key(metric="average mAP")
    assert key(metric="mAP", benchmark="ActivityNet-1.3") == key(metric="avg mAP", benchmark="ActivityNet v1.3")
    assert key(metric="mAP", setting="IoU@0.5") == key(metric="mAP@0.5") != key(metric="mAP")
    assert key(metric="mAP", setting="at tIoU=0.5") == key(metric="AP50")
    assert key(metric="mAP", setting="IoU threshold of 0.75") == key(metric="AP75")
    assert normalize_claim(_claim(benchmark="COCO", metric="AP", setting="IoU 0.5:0.95", value=40.0, unit="%")).metric == "mAP"


@pytest.mark.parametrize(
    ("benchmark", "one", "other"),
    [
        ("THUMOS14", "average mAP", "mAP@0.5"),  # an average over tIoU thresholds is not mAP at one
        ("AlpacaEval", "length-controlled win rate", "win rate"),
        ("COCO", "average mAP", "AP"),
    ],
)
def test_measures_that_only_look_alike_stay_apart(benchmark: str, one: str, other: str) -> None:
    """'average mAP' (over thresholds) is no 'mAP' at one threshold, and AlpacaEval's
    length-controlled win rate is no raw win rate. Made-up rows."""
    first = normalize_claim(_claim(benchmark=benchmark, metric=one, value=40.1, unit="%"))
    second = normalize_claim(_claim(benchmark=benchmark, metric=other, value=41.2, unit="%"))
    assert first.comparability_key != second.comparability_key


def test_a_difficulty_or_an_utterance_length_written_alone_is_a_subset() -> None:
    """WIDER FACE's 'hard' set and an 'easy' one are two boards, a keyword spotter's 20-command
    task is not its 12-command one, and a speaker verification EER on '3s-duration' trials is
    not one on full utterances. Made-up rows."""
    hard = normalize_claim(_claim(benchmark="WIDER FACE", metric="AP", setting="hard test set", value=91.4, unit="%"))
    also_hard = normalize_claim(_claim(benchmark="WIDER FACE", metric="AP", setting="hard", value=90.4, unit="%"))
    easy = normalize_claim(_claim(benchmark="WIDER FACE", metric="AP", setting="easy", value=96.6, unit="%"))
    assert hard.comparability_key == also_hard.comparability_key != easy.comparability_key
    twenty = normalize_claim(_claim(benchmark="Speech Commands V1", metric="accuracy", setting="20-commands task", value=94.1, unit="%"))
    twelve = normalize_claim(_claim(benchmark="Speech Commands V1", metric="accuracy", setting="12-command task", value=98.6, unit="%"))
    assert twenty.comparability_key != twelve.comparability_key
    short = normalize_claim(_claim(benchmark="VoxCeleb1", metric="EER", setting="3s-duration trial", value=0.98, unit="%"))
    full = normalize_claim(_claim(benchmark="VoxCeleb1", metric="EER", setting="full-duration trial", value=0.61, unit="%"))
    assert short.comparability_key != full.comparability_key


def test_atari_performance_is_human_normalized() -> None:
    """On Atari a 'median performance' of 109.0% is the median human-normalized score that
    another paper writes as 0.415. Made-up rows."""
    percent = normalize_claim(_claim(metric="median performance", benchmark="Atari 100k", value=109.0, unit="%"))
    fraction = normalize_claim(_claim(metric="median human-normalized score", benchmark="Atari", value=0.415))
    assert percent.comparability_key == fraction.comparability_key
    assert not normalize_claim(_claim(metric="median performance", benchmark="FooBench", value=109.0, unit="%")).metric_known


def test_an_unknown_name_of_a_proportion_is_one_block_bare_and_in_percent() -> None:
    """'3D tracking accuracy', unknown to the registry, ends with a proportion: 63.8 and 65.3%
    are one board's; an unknown name ending with no proportion keeps its unit. Made-up rows."""
    bare = normalize_claim(_claim(metric="3D tracking accuracy", benchmark="FooScenes", value=63.8))
    sign = normalize_claim(_claim(metric="3D tracking accuracy", benchmark="FooScenes", value=65.3, unit="%"))
    assert bare.comparability_key == sign.comparability_key and bare.direction == "higher"
    other = normalize_claim(_claim(metric="tracking quality", benchmark="FooScenes", value=63.8))
    assert other.comparable_unit == "" != normalize_claim(_claim(metric="tracking quality", benchmark="FooScenes", value=65.3, unit="%")).comparable_unit


@pytest.mark.parametrize(
    ("written", "benchmark", "pair"),
    [("WMT English-French newstest2014", "WMT14", "en-fr"), ("WMT newstest2014", "WMT14", None), ("CIFAR CIFAR-10", "CIFAR-10", None)],
)
def test_a_registry_name_after_its_familys_name_is_that_entry(written: str, benchmark: str, pair: str | None) -> None:
    """The start of an entry's own name before it ('WMT' of WMT14) adds nothing; another
    benchmark's name or another word beside it is no such start."""
    found = normalize_benchmark(written)
    assert (found.name, found.known, found.get("languages")) == (benchmark, True, pair)
    assert not normalize_benchmark("Foo newstest2014").known and not normalize_benchmark("COCO ImageNet").known


@pytest.mark.parametrize(
    ("benchmark", "written", "plain", "together"),
    [
        ("LFW", "face verification accuracy", "accuracy", True),  # LFW's task: face verification
        ("CIFAR-10", "classification error rate", "error rate", True),  # image classification
        ("SVHN", "classification error rate", "error rate", True),  # digit classification
        ("LFW", "identification accuracy", "accuracy", False),  # another task's word: another measure
        ("LFW", "pair-wise verification accuracy", "accuracy", True),  # words that name no other quantity
        ("LFW", "recognition accuracy", "accuracy", True),
        ("SQuAD", "average F1", "F1", True),
        ("SQuAD", "final F1 score", "F1", True),
        ("COCO", "average precision", "precision", False),  # a measure of its own, as written
        ("COCO", "average recall", "recall", False),
    ],
)
def test_a_metric_name_that_writes_only_its_benchmarks_task_is_the_measure(benchmark: str, written: str, plain: str, together: bool) -> None:
    """'face verification accuracy' on a face verification benchmark is its accuracy: the words
    name the benchmark's task, not another quantity; nor do 'average', 'final' or a task's word
    such as 'recognition' before a measure, unless the whole name is a measure of its own."""
    named = normalize_claim(_claim(value=99.5, unit="%", metric=written, benchmark=benchmark))
    bare = normalize_claim(_claim(value=99.1, unit="%", metric=plain, benchmark=benchmark))
    assert (named.comparability_key == bare.comparability_key) is together


def test_an_image_classification_benchmarks_accuracy_is_top1() -> None:
    """'84.1% accuracy on CUB' and '92.3% top-1 accuracy on CUB' are one block, as on ImageNet;
    top-5 stays apart, and a sentiment benchmark's accuracy is no top-1."""
    plain = normalize_claim(_claim(value=84.1, unit="%", metric="accuracy", benchmark="CUB-200-2011"))
    top1 = normalize_claim(_claim(value=92.3, unit="%", metric="top-1 accuracy", benchmark="CUB-200-2011"))
    top5 = normalize_claim(_claim(value=97.0, unit="%", metric="top-5 accuracy", benchmark="CUB-200-2011"))
    assert plain.comparability_key == top1.comparability_key != top5.comparability_key
    assert normalize_claim(_claim(value=95.0, unit="%", metric="accuracy", benchmark="SST-2")).metric == "accuracy"


@pytest.mark.parametrize(
    ("setting", "metric", "evidence", "input_", "unstated"),
    [
        ("audio-only speech recognition", "WER", "x", "audio", ()),
        (None, "lip-reading WER", "x", "visual", ()),  # the input written in the measure's name
        ("AVSR", "WER", "x", "audio-visual", ()),
        (None, "WER", "Foo reaches 21.0% WER for visual speech recognition on LRS3", "visual", ()),  # read from the evidence
        (None, "WER", "Foo reaches 21.0% WER on LRS3", None, ("input",)),
        # the evidence names two inputs: which one is this number's rests on their order
        (None, "WER", "Foo reaches 21.0% and 1.5% WER on LRS3 in lip reading and audio-visual recognition", None, ("input",)),
        ("unlabelled audio-visual data only", "WER", "x", None, ("input",)),  # data it is trained on, no input
    ],
)
def test_a_benchmark_reported_on_several_inputs_ranks_a_score_only_when_its_input_is_stated(
    setting: str | None, metric: str, evidence: str, input_: str | None, unstated: tuple[str, ...]
) -> None:
    n = normalize_claim(_claim(value=21.0, unit="%", metric=metric, benchmark="TED LRS3", setting=setting, evidence=evidence))
    assert (n.benchmark, n.metric, n.setting.get("input"), n.unstated) == ("LRS3", "WER", input_, unstated)


def test_inputs_are_blocks_of_their_own_and_a_benchmark_without_the_requirement_ranks_unstated_ones() -> None:
    keys = {
        written: normalize_claim(_claim(metric="WER", benchmark="LRS3", setting=written)).comparability_key
        for written in ("lip reading", "VSR", "audio-only", "audio-visual")
    }
    assert keys["lip reading"] == keys["VSR"]
    assert len({keys["lip reading"], keys["audio-only"], keys["audio-visual"]}) == 3
    # a benchmark the registry does not say is reported on several inputs: an unstated one is ranked
    assert normalize_claim(_claim(metric="WER", benchmark="Foo-AV", setting=None)).unstated == ()


def test_a_benchmark_reported_on_two_splits_ranks_a_score_only_when_its_split_is_stated() -> None:
    stated = normalize_claim(_claim(value=67.1, unit="%", metric="Pass@1", benchmark="GAIA", setting="test set"))
    evidence = normalize_claim(_claim(value=75.2, unit="%", metric="pass@1", benchmark="GAIA", evidence="75.2% on the GAIA validation set"))
    bare = normalize_claim(_claim(value=79.4, unit="%", benchmark="GAIA", evidence="79.40% on GAIA"))
    assert (stated.setting.get("split"), stated.unstated, stated.metric) == ("test", (), "accuracy")  # GAIA's pass@1 is its accuracy
    assert (evidence.setting.get("split"), evidence.unstated) == ("validation", ())
    assert bare.unstated == ("split",)


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("Voice Bank+DEMAND", "VoiceBank+DEMAND"),
        ("VoiceBank-DEMAND", "VoiceBank+DEMAND"),
        ("VCTK+DEMAND", "VoiceBank+DEMAND"),
        ("DOTA", "DOTA-v1.0"),
        ("DOTA-V1.0", "DOTA-v1.0"),
        ("DOTA v1.5", "DOTA-v1.5"),
        ("the SIDD benchmark", "SIDD"),
    ],
)
def test_names_of_one_corpus_are_one_benchmark_and_its_editions_are_not(written: str, canonical: str) -> None:
    assert normalize_benchmark(written).name == canonical


def test_a_plus_that_joins_two_words_of_an_unknown_name_is_a_hyphen_and_one_that_ends_it_is_not() -> None:
    key = lambda name: normalize_claim(_claim(metric="PSNR", benchmark=name)).benchmark_key  # noqa: E731
    assert key("Noisy Bank+CHiME") == key("NoisyBank-CHiME") == key("Noisy Bank + CHiME")
    assert key("FooEval+") != key("FooEval")


def test_a_part_the_registry_names_is_a_subset_and_a_benchmark_of_parts_ranks_only_a_named_one() -> None:
    """CASIA-B is reported per walking condition (normal, with a bag, in a coat): the registry's
    words for each part ('parts') make it a subset, read from the setting, else the evidence."""
    def read(setting: str | None, evidence: str = "x", metric: str = "accuracy") -> tuple:
        n = normalize_claim(_claim(value=90.0, unit="%", metric=metric, benchmark="CASIA-B", setting=setting, evidence=evidence))
        return n.metric, n.setting.get("subset"), n.setting.other, n.unstated

    assert read("bag-carrying walking condition") == ("rank-1 accuracy", "BG", "walking condition", ())
    assert read("normal walking conditions, single model")[1:3] == ("NM", "conditions single model")
    assert read(None, "a rank-1 accuracy of 98.0% (normal)", "Rank-1 accuracy")[1] == "NM"
    assert read("under different conditions")[1:] == (None, "under different conditions", ("subset",))
    assert read(None, "90.0% under bag-carrying and coat-wearing conditions")[3] == ("subset",)  # two parts: which is this?
    assert read("abnormal gait")[1] is None  # a part's name is a whole word


def test_parts_split_a_benchmark_that_does_not_require_one() -> None:
    key = lambda setting: normalize_claim(_claim(metric="Dice", benchmark="BraTS2021", setting=setting)).comparability_key  # noqa: E731
    assert key("testing dataset, whole tumor") != key("testing dataset, enhancing tumor")
    assert key("WT") == key("whole tumour")
    assert normalize_claim(_claim(metric="Dice", benchmark="BraTS 2021")).unstated == ()  # an average over parts is ranked


def test_a_part_written_into_the_benchmark_name_is_its_subset() -> None:
    """'KITTI moderate' is KITTI's moderate difficulty, as 'KITTI' with 'moderate' in the setting;
    the name keeps its edition and the conditions it writes. A word of no part keeps the name."""
    def read(benchmark: str, setting: str | None = None) -> tuple:
        n = normalize_claim(_claim(value=80.0, unit="%", metric="AP", benchmark=benchmark, setting=setting))
        return n.benchmark, n.setting.get("split"), n.setting.get("subset")

    assert read("KITTI moderate") == read("KITTI", "moderate") == ("KITTI", None, "moderate")
    assert read("CASIA-B coat-wearing")[::2] == ("CASIA-B", "CL")
    assert read("BraTS 2021 validation whole tumour") == ("BraTS 2021", "validation", "whole tumor")
    assert read("KITTI tracking moderate")[0] == "KITTI tracking moderate"  # 'tracking' is no part: the name stays whole
    assert read("CASIA-B NM BG")[0] == "CASIA-B NM BG"  # two parts: which one?


def test_a_small_test_split_is_a_split_of_its_own() -> None:
    """MathVista's and MMAU's 'testmini' is not their full test set."""
    key = lambda benchmark, setting=None: normalize_claim(_claim(metric="accuracy", benchmark=benchmark, setting=setting)).comparability_key  # noqa: E731
    assert key("MMAU Test-mini") == key("MMAU", "testmini") == key("MMAU", "the test-mini split")
    assert key("MMAU Test-mini") != key("MMAU") == key("MMAU", "test set")


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("CALVIN ABC-D", "CALVIN ABC-D"), ("CALVIN ABC→D", "CALVIN ABC-D"), ("CALVIN ABC", "CALVIN ABC-D"),
        ("CALVIN ABCD->D", "CALVIN ABCD-D"), ("CALVIN D-D", "CALVIN D-D"), ("CALVIN", "CALVIN"),
        ("LIBERO-10", "LIBERO-Long"), ("LIBERO-90", "LIBERO-90"), ("LIBERO", "LIBERO"),
        ("Navsim", "NAVSIM"), ("UCF Crime", "UCF-Crime"), ("XD Violence", "XD-Violence"),
    ],
)
def test_editions_of_robot_and_driving_benchmarks_are_boards_of_their_own(written: str, canonical: str) -> None:
    """CALVIN's train-to-test environment splits and LIBERO's task suites are datasets of their own."""
    assert normalize_claim(_claim(metric="success rate", benchmark=written)).benchmark == canonical


def _part_of(benchmark: str, metric: str, setting: str | None, evidence: str = "x") -> tuple:
    n = normalize_claim(_claim(value=60.0, unit="%", metric=metric, benchmark=benchmark, setting=setting, evidence=evidence))
    return n.benchmark, n.setting.get("subset"), n.unstated


@pytest.mark.parametrize(
    ("benchmark", "metric", "setting", "part"),
    [
        ("KITTI", "AP3D", "Car class, moderate", "moderate"),
        ("Sintel", "EPE", "clean", "clean pass"),
        ("MPI Sintel", "AEPE", "test, final", "final pass"),
        ("KITTI", "AP3D", "under the hard setting", "hard"),
        ("KITTI", "AP3D", "with hard example mining", None),  # a method's words name no difficulty
        ("S3DIS", "mIoU", "evaluated on Area5", "area 5"),
        ("S3DIS", "mIoU", "cross-validated over all six areas", "6-fold"),
        ("MOT17", "MOTA", "using the public detections", "public detections"),
        ("MOT20", "IDF1", "private detector protocol", "private detections"),
        ("Market-1501", "rank-1", "multiple query setting", "multi-query"),
        ("Market-1501", "mAP", "single query, after k-reciprocal re-ranking", None),  # re-ranking is the method's
        ("CUHK03", "rank-1", "manually labeled bounding boxes", "labeled"),
        ("CUHK03", "rank-1", "unsupervised, no labeled data", None),  # the training data is the method's
        ("CUHK03", "mAP", "detected setting", "detected"),
        ("UCF101", "accuracy", "the first split", "split 1"),
        ("HMDB51", "accuracy", "mean over 3 splits", "three splits"),
        ("Omniglot", "accuracy", "twenty-way one-shot", "20-way"),
        ("ScanObjectNN", "OA", "objects with background (OBJ-BG)", "OBJ_BG"),
        ("ScanObjectNN", "OA", "PB_T50_RS", None),  # the variant a single reported number is on
        ("Human3.6M", "PA-MPJPE", "Protocol II", "protocol 2"),
        ("NTU RGB+D", "top-1 accuracy", "X-Sub benchmark", "cross-subject"),
        ("NTU-120", "top-1 accuracy", "cross-setup evaluation", "cross-setup"),
        ("RefCOCO", "accuracy", "on testB", "testB"),
        ("MUSDB18", "SDR", "drums stem", "drums"),
        ("WSJ", "WER", "dev93", "dev93"),
        ("Waymo Open Dataset", "mAPH", "LEVEL_2 difficulty", "level 2"),
    ],
)
def test_a_mainstream_benchmarks_named_parts_are_its_subsets(benchmark: str, metric: str, setting: str, part: str | None) -> None:
    """The parts a field reports a benchmark on, in the field's own words (KITTI's difficulties,
    S3DIS's Area 5 and 6-fold protocol, MOTChallenge's public and private detections, NTU RGB+D's
    cross-subject and cross-view protocols, ...) are a score's subset. Made-up settings."""
    assert _part_of(benchmark, metric, setting)[1] == part


def test_benchmarks_reported_under_several_parts_rank_only_a_score_that_names_one() -> None:
    """S3DIS (Area 5 or 6-fold), CUHK03 (labeled or detected), NTU RGB+D (cross-subject or
    cross-view) and miniImageNet (1-shot or 5-shot) have no usual part: a score naming none is
    unranked; one named in the evidence is read from it. Made-up rows."""
    assert _part_of("S3DIS", "mIoU", None)[2] == ("subset",)
    assert _part_of("S3DIS", "mIoU", None, "reaching 71.2% mIoU on S3DIS Area 5")[1:] == ("area 5", ())
    assert _part_of("CUHK03", "rank-1", None)[2] == ("subset",)
    assert _part_of("CUHK03", "rank-1", None, "80.1% rank-1 on CUHK03 (detected)")[1:] == ("detected", ())
    assert _part_of("NTU RGB+D", "accuracy", None)[2] == ("subset",)
    assert _part_of("miniImageNet", "accuracy", None)[2] == ("shots",)
    assert _part_of("miniImageNet", "accuracy", "5-way 5-shot")[2] == ()
    assert _part_of("KITTI", "AP3D", None)[2] == ()  # KITTI is also a depth and flow benchmark: no part required
    assert _part_of("Sintel", "EPE", None, "an EPE of 2.1 on the Sintel benchmark")[2] == ("subset",)  # clean or final?


def test_a_mainstream_benchmarks_usual_condition_editions_and_measures() -> None:
    """ESC-50 is scored by 5-fold cross-validation (stated or not, one block); LVIS on its
    validation split, its v0.5 and v1.0 editions apart; VoxCeleb1's O, E and H trial lists
    apart; RefCOCO+ and RefCOCOg are no RefCOCO; ShapeNetPart's plain mIoU is its instance
    mIoU; ModelNet40's OA and mAcc are two measures; IEMOCAP's usual part is its four emotions.
    Made-up rows."""
    key = lambda **f: normalize_claim(_claim(**{"value": 90.0, "unit": "%", **f})).comparability_key  # noqa: E731
    assert key(metric="accuracy", benchmark="ESC-50") == key(metric="accuracy", benchmark="ESC-50", setting="five-fold cross validation")
    # A cross-validated benchmark has no test split: its 'validation accuracy' is its accuracy.
    for name in ("ESC-50", "ESC10", "US8K"):
        assert key(metric="accuracy", benchmark=name) == key(metric="validation accuracy", benchmark=name), name
    assert normalize_benchmark("Google Speech Command Dataset").name == "Speech Commands"
    # A captioning measure on COCO is COCO Captions, scored against 5 references unless c40 is said.
    captions = key(metric="CIDEr", benchmark="COCO Captions", setting="Karpathy test split")
    assert key(metric="CIDErD", benchmark="MS COCO 2014", setting="offline test split") == captions
    assert key(metric="CIDEr", benchmark="MSCOCO", setting="c5, official online test server") == key(
        metric="CIDEr", benchmark="COCO-caption", setting="online testing")
    assert key(metric="CIDEr", benchmark="COCO", setting="c40, online test server") != key(
        metric="CIDEr", benchmark="COCO", setting="online test server")
    assert key(metric="mAP", benchmark="MS COCO 2014")[0] == "COCO"
    assert [normalize_benchmark(n).name for n in ("VQA-CP", "VQA-CPv2", "VQA-CP v1")] == ["VQA-CP", "VQA-CP v2", "VQA-CP v1"]
    assert key(metric="mask AP", benchmark="LVIS") == key(metric="mask AP", benchmark="LVIS", setting="val set")
    assert key(metric="mask AP", benchmark="LVIS") != key(metric="mask AP", benchmark="LVIS", setting="test-dev")
    assert normalize_benchmark("LVIS v1").name == "LVIS v1.0" and normalize_benchmark("LVIS v0.5").name == "LVIS v0.5"
    assert [normalize_benchmark(n).name for n in ("VoxCeleb1-O", "Vox1-E", "VoxCeleb1-H")] == ["VoxCeleb1", "VoxCeleb1-E", "VoxCeleb1-H"]
    assert [normalize_benchmark(n).name for n in ("RefCOCO", "RefCOCO+", "RefCOCOg")] == ["RefCOCO", "RefCOCO+", "RefCOCOg"]
    assert key(metric="mIoU", benchmark="ShapeNet Part") == key(metric="Ins. mIoU", benchmark="ShapeNetPart")
    assert key(metric="mIoU", benchmark="ShapeNet Part") != key(metric="class mIoU", benchmark="ShapeNetPart")
    assert key(metric="OA", benchmark="ModelNet40") == key(metric="overall accuracy", benchmark="ModelNet-40")
    assert key(metric="OA", benchmark="ModelNet40") != key(metric="mAcc", benchmark="ModelNet40")
    assert key(metric="EX", benchmark="Spider") != key(metric="exact set match", benchmark="Spider")
    assert key(metric="MPJPE", benchmark="H36M", unit="mm") != key(metric="P-MPJPE", benchmark="Human3.6M", unit="mm")
    # IEMOCAP is scored on its four emotions unless a paper names another count.
    assert key(metric="weighted accuracy", benchmark="IEMOCAP") == key(metric="weighted accuracy", benchmark="IEMOCAP", setting="four emotion categories")
    assert key(metric="weighted accuracy", benchmark="IEMOCAP") != key(metric="weighted accuracy", benchmark="IEMOCAP", setting="five emotion classes")


@pytest.mark.parametrize(("written", "canonical"), [("WAR", "weighted accuracy"), ("UAR", "unweighted accuracy")])
def test_emotion_recognitions_recall_averages_are_its_accuracies(written: str, canonical: str) -> None:
    assert normalize_metric(written).name == canonical
