"""The offline rules extractor: its number grammar, its claim/non-claim decisions, names, models
and benchmarks, on phrases written the way abstracts write them; and on every fixture abstract,
nothing it returns is refused by grounding."""

from __future__ import annotations

import json
import random
import re
import string

import pytest

from extractor.backends.rules import RulesBackend
from extractor.grounding import ground
from extractor.pipeline.ingest import read_inputs
from extractor.rules import RULES_VERSION, extract
from extractor.rules.acronyms import abbreviations
from extractor.rules.constructions import TABLES
from extractor.rules.table import Example
from extractor.rules.quantities import parse_quantities
from extractor.rules.document import Document, sentence_spans

from .conftest import FIXTURES


def quantities(text: str) -> list[tuple]:
    return [(q.value, q.value_max, q.unit) for q in parse_quantities(Document(text))]


def claim_values(text: str) -> list[tuple[float, float | None]]:
    return [(c.value, c.value_max) for c in extract(text).claims]


def sizes(text: str) -> set[float]:
    """The paper's model sizes as a run keeps them: its named models' and its unnamed ones."""
    extraction, _ = ground(extract(text), text, "p")
    named = [s for m in extraction.models for s in (m.params_b, m.active_params_b) if s is not None]
    return {round(s, 6) for s in named + extraction.unnamed_sizes_b}


# --- the number grammar ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a gap of 9--34 accuracy points", [(9.0, 34.0, "points")]),
        ("coverage ranges from 0.03 to 0.57", [(0.03, 0.57, None)]),
        ("between 3 and 5 points", [(3.0, 5.0, "points")]),
        ("fastest-prefill (+14-19%)", [(14.0, 19.0, "%")]),
        ("up to 2.57times speedup", [(2.57, None, "x")]),
        ("achieve up to 2.3x speedup", [(2.3, None, "x")]),
        ("110-300 times faster", [(110.0, 300.0, "x")]),
        ("compress ~11% GEMM error", [(11.0, None, "%")]),
        ("~24% to ~27%", [(24.0, 27.0, "%")]),
        ("retains 86--90\\% of teacher accuracy", [(86.0, 90.0, "%")]),
        ("to within 0.2\\,pp under log-likelihood scoring", [(0.2, None, "pp")]),
        ("by more than 20 absolute points", [(20.0, None, "points")]),
        ("scoring 1,552 questions", [(1552.0, None, None)]),
        ("networks with up to 3times 10^5 vertices", [(300000.0, None, None)]),
        ("the smallest (17.5 GiB) recipe", [(17.5, None, "GiB")]),
        ("approximately 33 minutes of training", [(33.0, None, "minutes")]),
        ("we reach 1.27 bits / char on text8", [(1.27, None, "BPC")]),
        ("a 3.1-point accuracy drop", [(3.1, None, "points")]),
        ("the fastest system with 23 frames / sec", [(23.0, None, "FPS")]),
        ("it runs at 45 frames per second", [(45.0, None, "FPS")]),
        ("+ 4 - point mAP over the previous best", [(4.0, None, "points")]),
        ("cos stays in [0.12, 0.20]", [(0.12, 0.2, None)]),
        ("leaving an approx1.1--1.2 perplexity gap", [(1.1, 1.2, None)]),
        ("gains of up to 2.8times nats", [(2.8, None, "x")]),
        ("a 1.5$\\times$ speedup and 2.3\\times lower memory", [(1.5, None, "x"), (2.3, None, "x")]),
        ("a 10-fold reduction and 4.2 percentage points", [(10.0, None, "x"), (4.2, None, "pp")]),
    ],
)
def test_grammar_reads_values_ranges_and_units(text: str, expected: list[tuple]) -> None:
    assert quantities(text) == expected


def test_grammar_keeps_the_uncertainty_apart() -> None:
    (q,) = parse_quantities(Document("This gives 11.0 pm 1.3 points of improvement"))
    assert (q.value, q.unit, q.uncertainty) == (11.0, "points", 1.3)


def test_grammar_reads_fractions_and_scales() -> None:
    of, slash = parse_quantities(Document("solving 15 of 18 problems and 12/18 tasks"))
    assert (of.form, of.value, of.denominator) == ("of", 15.0, 18.0)
    assert (slash.form, slash.value, slash.denominator) == ("fraction", 12.0, 18.0)
    (sized,) = parse_quantities(Document("four open models of 8 to 27 billion parameters"))
    assert (sized.value, sized.value_max, sized.scale) == (8.0, 27.0, "B")


def test_grammar_reads_qualifiers_and_modifiers() -> None:
    up_to, less, bits = parse_quantities(Document("up to 31.4%, less than 2% and 3-bit weights"))
    assert up_to.qualifier == "up to" and less.qualifier == "less than"
    assert bits.modifier == "bit"


def test_a_ceiling_or_a_floor_is_a_bound_and_up_to_or_about_is_a_measured_value() -> None:
    text = (
        "We propose FooNet. On IneqMath, o1 achieves less than 10% overall accuracy. FooNet reaches "
        "more than 90% accuracy on MNIST, at least 1.5 points over BarNet, with under 4 GB of "
        "memory, and is up to 2.5x faster with about 85.1% accuracy on CIFAR-10."
    )
    bounds = {c.value: c.bound for c in extract(text).claims}
    assert bounds == {10.0: "upper", 90.0: "lower", 1.5: "lower", 4.0: "upper", 2.5: None, 85.1: None}


def test_from_to_after_a_change_verb_is_two_values_not_a_range() -> None:
    before, after = parse_quantities(Document("we reduce generative perplexity from 25.7 to 21.9"))
    assert (before.form, before.value, after.form, after.value) == ("before", 25.7, "after", 21.9)
    before, after = parse_quantities(Document("it transforms a base model from 19.8% to 70.9% accuracy"))
    assert (before.form, after.form) == ("before", "after")


def test_from_to_set_off_by_a_dash_after_a_far_change_verb_is_two_values() -> None:
    text = "we improve the performance of the baseline model on the VQA v2.0 dataset \u2013 from 65.67 % to 70.24 %"
    before, after = (q for q in parse_quantities(Document(text)) if q.value > 10)
    assert (before.form, before.value, after.form, after.value) == ("before", 65.67, "after", 70.24)


def test_a_version_inside_a_name_is_not_a_range_start() -> None:
    assert [(q.value, q.value_max) for q in parse_quantities(Document("Llama-3.1-8B and Qwen2-7B"))] == [
        (3.1, None),
        (8.0, None),
        (7.0, None),
    ]


def test_sentences_do_not_end_at_abbreviations_or_list_markers() -> None:
    text = "Results (e.g. on MMLU) hold. Two techniques: 1. A greedy step, and 2. A scaling vector. Done."
    assert [text[s:e] for s, e in sentence_spans(text)] == [
        "Results (e.g. on MMLU) hold.",
        "Two techniques: 1. A greedy step, and 2. A scaling vector.",
        "Done.",
    ]


# --- claims and non-claims ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # results
        ("GANQ's quantized models achieve up to 2.57times speedup over the baseline.", [(2.57, None)]),
        ("the MDM-autoregressive perplexity gap shrinks by up to 32% on in-domain data.", [(32.0, None)]),
        ("Moreover, 13-38% of correct answers rejected a distractor.", [(13.0, 38.0)]),
        ("DUEL achieves 36.47 vs. 52.11 perplexity on AG News.", [(36.47, None), (52.11, None)]),
        ("we reduce generative perplexity from 25.7 to 21.9.", [(25.7, None), (21.9, None)]),
        ("We find reasoning gaps from 58.35% to 80.31% among models.", [(58.35, 80.31)]),
        ("Encoder-only models perform worst (perplexity approximately 59).", [(59.0, None)]),
        ("the best majority-vote score (42/50) is low.", [(42.0, None)]),
        ("the detector reaches AUC = 1.000 from layer 5.", [(1.0, None)]),
        ("Minima matches BF16 within seed noise (5-task average -0.52).", [(-0.52, None)]),
        ("o1-mini (-16.49%) drops.", [(-16.49, None)]),
        ("removing 67.1M trainable input parameters.", [(67.1, None)]),
        ("consuming about 1 GB more memory.", [(1.0, None)]),
        ("Latency drops from 120 ms to 45 ms per token.", [(120.0, None), (45.0, None)]),
        ("ViT-B/16 trained with our recipe reaches 83.1% top-1 accuracy.", [(83.1, None)]),
        ("Using only 26% of the fine-tuning budget, it trains on 10% of the data.", []),
        (
            "speedups by a factor of 2x, while keeping the accuracy within 1% of the original model.",
            [(2.0, None), (1.0, None)],
        ),
        ("It can be solved with a trust region method, taking less than $15$ seconds.", [(15.0, None)]),
        ("our method achieves 1.169 bits-per-character on the character dataset.", [(1.169, None)]),
        # settings: bits, sparsity, ranks, context lengths, ratios used as a condition
        ("Experiments on 3-bit and 4-bit quantization of LLaMA models.", []),
        ("With rank equating to 8.3% of embedding dimension, training is stable.", []),
        ("for LLaMA2-7B at 40% sparsity the model runs.", []),
        ("improving time-to-first-token at 128K-token contexts (length 32k, batch size 16).", []),
        ("Mistral 7B with QLoRA rank 8 and r=8 runs, and increasing the rank to 16 too.", []),
        ("It enables 128K-context inference for a 70B model on a single 64GB consumer Mac.", []),
        ("Under polynomial decay with $d=5$ and $\\tau=10$ it holds.", []),
        # sizes of datasets and counts of models, tasks, languages
        ("scoring 1,552 questions from eight editions.", []),
        ("averaged across 16 recurrent LMs and the 6 ICL tasks.", []),
        ("We release the corpus (319k docs, 1.11B chars) and a dataset of 3.11 GB.", []),
        ("trained on approximately 17B tokens with 48 GDN layers.", []),
        ("MYTE produces shorter encodings for all 99 analyzed languages.", []),
        # versions inside names, years, citations, list markers
        ("models like Qwen 2.5 and GPT-5.2 achieve gains.", []),
        ("agents run on Terminal-Bench 2.0 with Python 3.10.", []),
        ("GPT-4 scores MT-Bench 8.2 with learning rate 3e-4 and a dropout rate of 0.1.", [(8.2, None)]),
        ("Contrastive decoding (CD) (Li et al., 2023) improves text [12].", []),
        ("Towards that end, we propose: (1) JRT-Prompt, and (2) JRT-RNN.", []),
        ("It was presented at CSR 2017, Kazan, Russia, June 8 -- 12, 2017.", []),
        # symbols of theory, confidence bounds, p-values, hypotheticals
        ("the deterministic complexity is at least 2^{Omega(n / log n)} and at most O(n^2/log n).", []),
        ("with bootstrap 95% intervals excluding zero.", []),
        ("a jump ratio (p = 8.9e-11, n = 92 per group).", []),
        ("An R^2 of 0.6 may only reflect what the input gives away.", []),
    ],
)
def test_claims_and_non_claims(text: str, expected: list[tuple]) -> None:
    assert claim_values(text) == expected


def test_a_confidence_bound_is_not_its_own_claim() -> None:
    text = "Kronecker reaching 2.5 +- 0.2% lower validation loss (gap 0.083 +- 0.007 nats)."
    assert claim_values(text) == [(2.5, None), (0.083, None)]
    assert [c.unit for c in extract(text).claims] == ["%", "nats"]


def test_a_claim_carries_unit_metric_benchmark_kind_and_direction() -> None:
    (claim,) = extract("DeepSeek-R1 achieves 82.4% accuracy on SimpleQA.").claims
    assert (claim.unit, claim.metric, claim.benchmark, claim.kind) == ("%", "accuracy", "SimpleQA", "score")
    assert claim.model == "DeepSeek-R1"
    (change,) = extract("KV-sharing reduces p90 time-to-first-token by up to 83.6%.").claims
    assert (change.kind, change.direction, change.metric) == ("change", "decrease", "p90 time-to-first-token")


def test_a_change_carries_its_baseline_and_setting() -> None:
    text = "Specifically, for LLaMA2-7B at 40% sparsity, LaRoSA surpasses TEAL by 1.77% on average."
    (claim,) = extract(text).claims
    assert (claim.value, claim.kind, claim.direction, claim.baseline) == (1.77, "change", "increase", "TEAL")
    assert claim.setting == "40% sparsity" and claim.model == "LLaMA2-7B"
    (speedup,) = extract("our models achieve up to 2.3x speedup compared to the FP16 baseline.").claims
    assert (speedup.baseline, speedup.metric) == ("FP16 baseline", "speedup")


def test_an_amount_removed_as_a_condition_is_a_setting_and_its_cost_a_change() -> None:
    (claim,) = extract("We find that removing 25% of experts costs only 0.8 points on MMLU.").claims
    assert (claim.value, claim.unit, claim.kind, claim.benchmark) == (0.8, "points", "change", "MMLU")
    assert claim.setting == "25% of experts"


def test_evidence_is_the_clause_that_states_the_number() -> None:
    text = "LaRoSA achieves a mere 0.17 perplexity gap, while surpassing TEAL by 1.77% and CATS by 17.14%."
    evidence = [c.evidence for c in extract(text).claims]
    assert evidence[0] == "LaRoSA achieves a mere 0.17 perplexity gap"
    assert evidence[1] == evidence[2] == "while surpassing TEAL by 1.77% and CATS by 17.14%."


def test_two_equal_values_in_one_clause_stay_two_grounded_claims() -> None:
    text = "SFT+AXPO outperforms SFT+GRPO (+1.8pp Pass@1 and +1.8pp Pass@4 at 8B on average)."
    extraction, rejected = ground(extract(text), text, "p")
    assert [c.value for c in extraction.claims] == [1.8, 1.8] and not rejected


# --- attribution: what a number measures, on what, for whom (ANNOTATION.md) ---------------------

PROPOSE = "We propose FooNet, a sparse decoder. "

EXAMPLES = [
    pytest.param(example, id=f"{table.field}:{construction.name}:{index}")
    for table in TABLES
    for construction in table.entries
    for index, example in enumerate(construction.examples)
]


def observed(example: Example) -> object:
    """What the whole extractor reads from an example: the attribute of the claim it names, or
    the values of all its claims (``values``)."""
    claims = extract(example.text, title=example.title).claims
    if example.attribute == "values":
        return [c.value for c in claims]
    return getattr(claims[example.claim], example.attribute)


@pytest.mark.parametrize("example", EXAMPLES)
def test_each_construction_reads_its_examples(example: Example) -> None:
    """The sentences each construction of the tables (extractor/rules/constructions.py) was
    written for, through the whole extractor: the attribute of the claim named."""
    assert observed(example) == example.expected


def attributed(text: str) -> list[tuple]:
    """(value, metric, benchmark, method, model, kind, direction, baseline) of each claim."""
    return [
        (c.value, c.metric, c.benchmark, c.method, c.model, c.kind, c.direction, c.baseline)
        for c in extract(text).claims
    ]


# What each metric construction binds, and what metric_of makes of a multiplier, a bare
# comparative and a unit, is in the tables (METRIC and METRIC_FALLBACK in
# extractor/rules/attribution/metric.py, test_each_construction_reads_its_examples); here what
# binds none, or binds through more than one construction.
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("FooNet beats the best published results by more than 10 F1 points .", "F1"),
        # a name and its verb are no metric ('F1 scores up to 10 %' is)
        ("Even frontier models like DeepSeek R1 score only around 69% on it.", None),
        # a verb of beating's object is the rival's name, not a metric
        ("FooNet outperforms the baseline by 3 % .", None),
        # a name a change verb acts on or that changes is not a metric
        ("Fine-tuning on our data improves Llama-3-8B by 12.1% on MMLU.", None),
        ("On HumanEval, FooNet scores 85.4.", None),
        ("Human raters prefer FooNet answers 68% of the time.", None),
        # generic words are not a metric
        ("It reaches state-of-the-art performance of 88.3%.", None),
        ("It gives an average performance improvement of 1.24%.", None),
    ],
)
def test_the_metric_is_the_phrase_bound_to_the_number(text: str, expected: str | None) -> None:
    (claim,) = extract(PROPOSE + text).claims
    assert claim.metric == expected


def test_a_metric_is_never_borrowed_from_another_clause() -> None:
    text = PROPOSE + "It reaches 81.2% accuracy on MMLU; it is also 35% cheaper to serve."
    assert [c.metric for c in extract(text).claims] == ["accuracy", None]


def test_numbers_in_a_list_share_its_metric() -> None:
    text = "Two judges reach contrast-group accuracies of 70.1% and 44.2%. They show 73% and 60% refusal."
    assert [c.metric for c in extract(text).claims] == [
        "contrast-group accuracies",
        "contrast-group accuracies",
        "refusal",
        "refusal",
    ]


def test_a_comparing_participle_states_a_change_of_its_clause_s_measure() -> None:
    text = PROPOSE + "FooNet reaches 85.3% accuracy at 50% sparsity, surpassing TEAL by 1.77% and CATS by 17.14%."
    assert [(c.value, c.metric, c.kind, c.baseline) for c in extract(text).claims] == [
        (85.3, "accuracy", "score", None),
        (1.77, "accuracy", "change", "TEAL"),
        (17.14, "accuracy", "change", "CATS"),
    ]
    # another clause's metric is never borrowed: 'and X beats Y' is a clause of its own
    text = PROPOSE + "GPT-4o reaches 60.1% accuracy, and FooNet beats BarNet by 2.0%."
    assert [c.metric for c in extract(text).claims] == ["accuracy", None]


def test_a_compared_number_belongs_to_the_model_named_after_it() -> None:
    text = PROPOSE + "FooNet reaches 79.8%, compared to 77.2% for LLaVA-1.5-13B."
    (ours, theirs) = attributed(text)
    assert (ours[0], ours[3], ours[7]) == (79.8, "FooNet", "LLaVA-1.5-13B")
    assert (theirs[0], theirs[3], theirs[4]) == (77.2, None, "LLaVA-1.5-13B")


def test_an_exponent_is_the_metric_of_its_list_and_the_compared_number_is_not_ours() -> None:
    text = PROPOSE + (
        "FooNet scales better, with power-law exponents of -0.15 vs. -0.12 in loss and -0.65 vs. -0.49 in perplexity."
    )
    assert [(c.value, c.metric, c.method) for c in extract(text).claims] == [
        (-0.15, "power-law exponent in loss", "FooNet"),
        (-0.12, "power-law exponent in loss", None),
        (-0.65, "power-law exponent in perplexity", "FooNet"),
        (-0.49, "power-law exponent in perplexity", None),
    ]


def test_a_number_about_an_ablation_is_not_the_proposed_method_s() -> None:
    text = PROPOSE + "We reach 81.0% accuracy. Our ablation without the gate reaches 74.2% accuracy."
    assert [(c.value, c.method) for c in extract(text).claims] == [(81.0, "FooNet"), (74.2, None)]


def test_a_difference_written_with_its_metric_is_a_change_over_the_baseline() -> None:
    text = PROPOSE + "FooNet obtains a BLEU of 29.3 on WMT14, 1.2 BLEU higher than the Transformer."
    assert [(c.value, c.metric, c.kind, c.direction, c.baseline) for c in extract(text).claims] == [
        (29.3, "BLEU", "score", None, None),
        (1.2, "BLEU", "change", "increase", "Transformer"),
    ]


def test_a_plural_acronym_opening_a_sentence_is_an_unnamed_subject() -> None:
    (claim,) = extract(PROPOSE + "State-of-the-art LLMs achieve less than 30% accuracy on MMLU.").claims
    assert (claim.method, claim.model) == (None, None)


@pytest.mark.parametrize(
    "text",
    [
        "We define the Drift Gap (DG) metric. Seven judges exhibit DG exceeding 0.50 with text scores of 6--8.",
        # a metric's name before a noun that is also a verb ('scores', 'boost') is not its subject
        "The results include strong F1 scores on rare classes such as Fear (0.73) and Anger (0.78).",
        "The results indicate a 2.3% mAP boost on VOC07 and a 2.6% mAP boost on VOC2012.",
    ],
)
def test_a_measure_is_never_a_subject(text: str) -> None:
    assert {(c.method, c.model) for c in extract(text).claims} == {(None, None)}


def test_the_resulting_model_is_the_proposed_method() -> None:
    (claim,) = extract(PROPOSE + "The resulting model attains 83.2% accuracy on ImageNet.").claims
    assert (claim.method, claim.benchmark) == ("FooNet", "ImageNet")


def test_points_over_a_model_are_a_change_over_that_baseline() -> None:
    (claim,) = attributed(PROPOSE + "FooNet achieves 2.1 points over LLaMA-2.")
    assert claim == (2.1, None, None, "FooNet", None, "change", "increase", "LLaMA-2")
    # 'above' and 'below' place a number against a baseline too
    (claim,) = attributed(PROPOSE + "FooNet lands 2.1 points above LLaMA-2.")
    assert claim == (2.1, None, None, "FooNet", None, "change", "increase", "LLaMA-2")
    (claim,) = attributed(PROPOSE + "FooNet lands 2.1 points below LLaMA-2.")
    assert claim == (2.1, None, None, "FooNet", None, "change", "decrease", "LLaMA-2")


def test_from_a_to_b_is_two_scores_the_second_the_subject_s() -> None:
    before, after = attributed(PROPOSE + "It improves accuracy from 82.1% to 91.4%.")
    assert before[:2] == (82.1, "accuracy") and before[3] is None
    assert after == (91.4, "accuracy", None, "FooNet", None, "score", None, None)
    assert before[5] == "score"


@pytest.mark.parametrize(
    ("text", "before"),
    [
        # the system both numbers are measured for
        ("On Market-1501, rank-1 accuracy is improved from 55.3% to 80.5% for CaffeNet.", "CaffeNet"),
        # the model whose measure the verb changes
        ("Our method improves the accuracy of Qwen-2.5-Math on MATH, increasing it from 19.0% to 35.5%.",
         "Qwen-2.5-Math"),
        # what the sentence compares its result with, or the example it names
        ("FooNet improves over the state of the art, increasing accuracy from 71.2% to 74.4% on VQA.",
         "state of the art"),
        ("Compared to approaches like MosaicFusion, our approach reduces invalid data from 50% to 7%.", "MosaicFusion"),
        # nothing named: A stays nobody's, and a plain phrase after 'for' is no name
        ("It improves accuracy from 82.1% to 91.4%.", None),
        ("It raises accuracy from 34.7% to 39.1% for the more challenging scenes.", None),
    ],
)
def test_the_a_of_from_a_to_b_belongs_to_the_starting_point_the_sentence_names(text: str, before: str | None) -> None:
    a, b = extract(PROPOSE + text).claims
    assert (a.method or a.model, b.method) == (before, "FooNet")


def test_a_parallel_list_gives_each_number_its_own_benchmark() -> None:
    text = PROPOSE + "It reaches 72.6% on HumanEval and 58.1% on MBPP."
    assert [(c[0], c[2], c[3]) for c in attributed(text)] == [(72.6, "HumanEval", "FooNet"), (58.1, "MBPP", "FooNet")]
    text = PROPOSE + "It reaches a pass@1 of 72.6% on HumanEval, 58.1% on MBPP and 40.2% on APPS."
    assert [(c.metric, c.benchmark) for c in extract(text).claims] == [
        ("pass@1", "HumanEval"),
        ("pass@1", "MBPP"),
        ("pass@1", "APPS"),
    ]


def test_a_number_after_by_is_no_part_of_a_benchmark_name() -> None:
    text = PROPOSE + "FooNet outperforms GPT-4o on MMLU and GSM8K by 3.1 and 4.2 points, respectively."
    assert [c.benchmark for c in extract(text).claims] == ["MMLU", "GSM8K"]


def test_respectively_aligns_numbers_and_benchmarks_in_order() -> None:
    text = PROPOSE + "FooNet outperforms BarNet by 26.3 and 11.9 points on HumanEval and MBPP, respectively."
    assert attributed(text) == [
        (26.3, None, "HumanEval", "FooNet", None, "change", "increase", "BarNet"),
        (11.9, None, "MBPP", "FooNet", None, "change", "increase", "BarNet"),
    ]


def test_a_versus_pair_in_parentheses_states_both_sides_scores() -> None:
    text = PROPOSE + "FooNet improves over GPT-4o on MMLU (61.2% vs. 58.1%)."
    assert [(c.value, c.method, c.model, c.kind, c.baseline) for c in extract(text).claims] == [
        (61.2, "FooNet", None, "score", "GPT-4o"),
        (58.1, None, "GPT-4o", "score", None),
    ]


def test_numbers_each_followed_by_for_a_name_are_that_name_s() -> None:
    text = PROPOSE + "Results on MMLU show an accuracy of 61.2% for FooNet and 58.1% for GPT-4o."
    assert [(c.value, c.method, c.model) for c in extract(text).claims] == [
        (61.2, "FooNet", None),
        (58.1, None, "GPT-4o"),
    ]


def test_one_number_over_a_list_of_benchmarks_is_tied_to_none_of_them() -> None:
    text = PROPOSE + "FooNet improves accuracy by 3.1% on average across GSM8K, MATH and MMLU."
    assert [c.benchmark for c in extract(text).claims] == [None]
    text = PROPOSE + "On GSM8K and MATH, FooNet achieves 85.3% and 52.1%, respectively."
    assert [c.benchmark for c in extract(text).claims] == ["GSM8K", "MATH"]


def test_respectively_aligns_numbers_and_the_coordinated_names_of_their_subject() -> None:
    text = PROPOSE + "Frontier models like GPT-4o and Gemini-2.5-Pro reach only around 69% and 57%, respectively."
    assert [(c.value, c.method, c.model) for c in extract(text).claims] == [
        (69.0, None, "GPT-4o"),
        (57.0, None, "Gemini-2.5-Pro"),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("FooNet reduces KV cache memory by 75%.", ("KV cache memory", "change", "decrease")),
        # a noun that is also a verb heads the changed quantity before its 'by'
        ("FooNet reduces API costs by 84.46% compared with GPT-4o.", ("API costs", "change", "decrease")),
        ("It achieves a 1.30x speed-up.", ("speed-up", "change", "increase")),
        ("FooNet is 3.2x faster than vLLM.", ("speedup", "change", "increase")),
        ("It cuts latency by 40%.", ("latency", "change", "decrease")),
        ("It reaches 85.3% accuracy.", ("accuracy", "score", None)),
        # the verb whose 'by' takes the number gives the direction, not the nearest cue word
        ("It keeps accuracy while reducing KV cache memory by up to 75% and improving speed.",
         ("KV cache memory", "change", "decrease")),
        ("It raises throughput by 30%, cutting cost.", ("throughput", "change", "increase")),
        # a value written right after a metric's name is that metric's score
        ("A larger rank yields a small improvement for FooNet (perplexity 5.03, p > 0.05).",
         ("perplexity", "score", None)),
        # a gap in a metric is a change; a gap or ratio named by a property is the measured score
        ("It cuts the accuracy gap in zero-shot tasks compared to the dense model to 0.54%.",
         ("accuracy gap", "change", None)),
        ("FooNet shows a perplexity jump ratio of 2.39x on noisy inputs.", ("perplexity jump ratio", "score", None)),
        ("FooNet narrows the reasoning gap by 16.3%.", ("reasoning gap", "change", "decrease")),
        # the level a change reaches is a change
        ("This improvement rises to 4.00% on public data.", (None, "change", "increase")),
        # a change noun heading the phrase after the number
        ("FooNet runs with 0.2% step-time overhead.", ("step-time overhead", "change", "increase")),
        ("FooNet outperforms the previous best record by absolute 6.37 % on CTW1500 .", (None, "change", "increase")),
        ("FooNet learns dependencies 80 % longer than RNNs .", (None, "change", "increase")),
        # tokenized text writes a gain's sign apart from its number
        ("FooNet does better ( + 0.4 dB on noisy images ) than prior networks .", (None, "change", "increase")),
    ],
)
def test_kind_and_direction_of_a_change(text: str, expected: tuple) -> None:
    (claim,) = extract(PROPOSE + text).claims
    assert (claim.metric, claim.kind, claim.direction) == expected


@pytest.mark.parametrize(
    "text",
    ["FooNet keeps quality while removing 67.1M trainable parameters.", "It eliminates 91% of the KV cache."],
)
def test_removing_an_amount_is_a_decrease(text: str) -> None:
    (claim,) = extract(PROPOSE + text).claims
    assert (claim.kind, claim.direction) == ("change", "decrease")


@pytest.mark.parametrize(
    "text",
    [
        # a value in parentheses right after its metric's name
        "The gap between its best single-run score (42/50) and BarNet's is small.",
        # a change verb's 'to' gives the level reached
        "FooNet further reduces the error rate to 17.6% on TIMIT.",
    ],
)
def test_a_value_a_measure_reaches_or_labels_is_a_score(text: str) -> None:
    (claim,) = extract(PROPOSE + text).claims
    assert (claim.kind, claim.direction) == ("score", None)


@pytest.mark.parametrize(
    "text",
    [
        "FooNet attains 2.5 F1 absolute higher than BarNet.",
        "FooNet matches it at a cost of as little as 2.0 BLEU points relative to the Transformer.",
    ],
)
def test_a_difference_written_around_its_metric_is_a_change(text: str) -> None:
    (claim,) = extract(PROPOSE + text).claims
    assert claim.kind == "change"


def test_with_no_named_method_the_model_the_paper_used_achieved_the_number() -> None:
    text = "We study depth . We report improved results using a 1001 - layer ResNet on CIFAR - 10 ( 4.62 % error ) ."
    assert [(c.method, c.model) for c in extract(text).claims] == [(None, "ResNet")]
    # a model named for where an earlier number holds is not the subject of a later one
    text = "We study depth . It gains 4 % on Qwen2.5-72B and around 2 % on five closed models ."
    assert [(c.method, c.model) for c in extract(text).claims][1] == (None, None)


@pytest.mark.parametrize(
    ("text", "method", "model"),
    [
        # 'we', 'it', 'our method', 'the proposed X' are the paper's proposed method
        ("We reach 85.3% accuracy on MMLU.", "FooNet", None),
        ("Our quantized models achieve up to 2.3x speedup.", "FooNet", None),
        ("Experiments show that the proposed decoder reaches 61.2% on MMLU.", "FooNet", None),
        # a named subject acts: a model, or a name written in the sentence
        ("GPT-4o reaches 61.2% on MMLU.", None, "GPT-4o"),
        ("By contrast, DeepSeek-R1 that achieves 82.4% on SimpleQA lags behind.", None, "DeepSeek-R1"),
        # the subject of the verb of a participle clause is the sentence's
        ("FooNet keeps quality while reducing memory by 75%.", "FooNet", None),
        # the model a method ran on
        ("On LLaMA2-7B, FooNet surpasses TEAL by 1.77%.", "FooNet", "LLaMA2-7B"),
        # an unnamed subject is nobody's
        ("A margin rule exits 17% earlier.", None, None),
        # a compared system is a baseline, not the subject
        ("GPT-4o is outperformed: FooNet beats GPT-4o by 9.7% in accuracy.", "FooNet", None),
        # the contribution's own sentence: 'we introduce X, ..., removing 91%'
        ("We introduce BazNet, a lookup-free design, removing 91% of embedding parameters.", "FooNet", None),
        # a relative clause's subject is its antecedent, across conjoined predicates
        ("We add BarNet, which uses a prefix cache and provides 99% of teacher quality.", "BarNet", None),
        # a passive's agent, and the items of a colon list after it
        ("The best trade-off is achieved by GPT-4o: perplexity 5.1 at 8 bits.", None, "GPT-4o"),
        # an aside between dashes does not hold the main clause's subject
        ("FooNet works with any model -- such as DeepSeek-R1, which is open -- to reach 88.3% on SimpleQA.", "FooNet", None),
        # a sentence with no subject of its own goes on from the one before
        ("GPT-4o reaches a new high. This gives 11.0 points of improvement.", None, "GPT-4o"),
        # a plural noun phrase opening the sentence is an unnamed subject
        ("Encoder-only models perform worst (perplexity approximately 59).", None, None),
        # a participle clause goes on from its main clause, whatever that clause's verb
        ("GPT-4o has no gate. Empirical tests affirm its value, demonstrating a mean gain of 2.4%.", "FooNet", None),
        ("GPT-4o has no gate. We validate on ImageNet (a, b, c), showing gains of up to 2.8x in throughput.",
         "FooNet", None),
        ("In a final study, GPT-4o transfers to MMLU, reaching 61.2%.", None, "GPT-4o"),
        # a sentence the paper's study opens is the proposed method's
        ("GPT-4o has no gate. Experimental validations on three MLLMs demonstrate gains up to 9.5%.", "FooNet", None),
        # a modal between the subject and its verb ('can far surpass', 'can be made')
        ("GPT-4o can far surpass BarNet, reaching 61.2% on MMLU.", None, "GPT-4o"),
        ("We find that GPT-4o can be made 12% more efficient with distillation.", None, "GPT-4o"),
        # a name opening the sentence is the subject of whatever verb it governs, through
        # coordinated predicates, when the verb lists hold none of them
        ("GPT-4o has no gate. For instance, FooNet processes the dataset in just 5 seconds.", "FooNet", None),
        ("GPT-4o has no gate. FooNet enables INT4 and shows a speed-up of up to 3.9 times over FP.", "FooNet", None),
        ("We test it. GPT-4o also out - performs the state of the art by nearly 1.0 F1 on news.", None, "GPT-4o"),
        ("FooNet enables INT4, and GPT-4o reaches 61.2% on MMLU.", None, "GPT-4o"),
        # names set off by commas after a description are the subject it announces
        ("Even the strongest baselines, Google Gemini-2.5-Pro and OpenAI GPT-4o, reach just 30% accuracy.",
         None, "Gemini-2.5-Pro"),
        # with no subject at all, a model ending a fronted phrase is the one measured
        ("GPT-4o has no gate. When pruning the weights in Llama-3-8B, the accuracy drop is 46.5%.", None,
         "Llama-3-8B"),
        # a plural noun opening a contrasting clause is an unnamed subject
        ("GPT-4o has no gate. FooNet is fast, while humans reach 92.0% on MMLU.", None, None),
        # a model named as a comparison point is not the one the method ran on
        ("Compared with GPT-4o, FooNet improves accuracy by 4.2% on MMLU.", "FooNet", None),
        # 'cuts' is a verb, as 'reduces' is
        ("In contrast, the GPT-4o model cuts token usage by 50%.", None, "GPT-4o"),
        # 'score' is the verb when a number follows it
        ("FooNet is new. Frontier models like GPT-4o score only around 69% on MMLU.", None, "GPT-4o"),
        # a verb stem 'of' follows is a noun ('scores of', 'an increase of')
        ("GPT-4o has no gate. FooNet achieves R1@IoU0.5 scores of 27.82.", "FooNet", None),
        # a fronted phrase may hold commas of its own
        ("GPT-4o has no gate. On a large, unseen, private test set, FooNet demonstrates an accuracy of 0.987.",
         "FooNet", None),
        # a pretrained model named right after the number as where it is measured
        ("GPT-4o has no gate. It surpasses random selection by 4% on Qwen2.5-72B and Llama3-70B.", "FooNet",
         "Qwen2.5-72B"),
        ("GPT-4o reaches 61.2% accuracy on MMLU.", None, "GPT-4o"),
        # a LaTeX macro the authors define for the paper's name is the proposed method
        ("Furthermore, \\name outperforms GRPO by 2.9\\% in accuracy.", "FooNet", None),
        ("Results show that our \\name algorithm improves accuracy by 3.5\\%.", "FooNet", None),
        ("As noted in \\cite{x}, GPT-4o reaches 61.2% on MMLU.", None, "GPT-4o"),
        # a verb stem glued to a hyphen is a compound noun, not the clause's verb
        ("GPT-4o has no gate. Evaluated on MMLU using vLLM, FooNet achieves an average speed-up of 21% in latency.",
         "FooNet", None),
        # a name written before the common noun of its kind ('the X algorithm') is the subject
        ("GPT-4o has no gate. Results show that the FooNet algorithm reaches 61.2% on MMLU.", "FooNet", None),
        ("In contrast, the GPT-4o model reaches 61.2% on MMLU.", None, "GPT-4o"),
        # 'we apply ... to achieve': the paper's own result
        ("GPT-4o has no gate. We also apply a byte - level model on WikiText - 2 to achieve 1.26 bpc .",
         "FooNet", None),
        # a participle right after the main clause's object: the main clause's subject did it
        ("GPT-4o has no gate. Moreover , our method sets new results outperforming BarNet by up to 0.9 dB .",
         "FooNet", None),
        # the paper's own models named in parentheses after them
        ("GPT-4o has no gate. Trained on ImageNet , our models ( BarGANs ) reach an IS of 166.5 .", "BarGANs", None),
        # a possessive before the subject's head, tokenized apart
        ("GPT-4o has no gate. FooNet 's representations can provide gains up to 10 % over BarNet .", "FooNet", None),
        # a name opening the sentence is the subject of a predicate after its copula
        ("We build on BarNet. BarNet 2.0 is only marginally slower than BarNet but cuts the error by 50 % .",
         "BarNet 2.0", None),
        # the paper's own name with its abbreviation in parentheses
        ("With little overhead , our Fast Sparse Decoder ( FooNet ) method reaches 55.6 perplexity on PTB .",
         "FooNet", None),
        # a verb's form after an article, a possessive or a preposition is a noun or an adjective
        ("In experiments, the proposed method improved the more recently developed BarNet by 3.6 pp.", "FooNet", None),
        ("Our framework gives an increase in task processing speed and 98.7% consistency in writing.",
         "FooNet", None),
        # after a comma, 'with' opens a clause of its own whose subject is the name it introduces
        ("Baselines differ widely, with GPT-4o reaching 45.0% accuracy.", None, "GPT-4o"),
        # a name with a word of its own before the noun of its kind
        ("The FooNet kernel agent achieves an average speedup of 1.46x over PyTorch.", "FooNet", None),
        # variants of the proposed method are its own; an ablation's variant is not
        ("The two variants of the proposed approach obtain strong results, outperforming BarNet by 6.9%.",
         "FooNet", None),
        ("A variant without the gate reaches 70.1%.", None, None),
    ],
)
def test_the_subject_is_who_achieved_the_number(text: str, method: str | None, model: str | None) -> None:
    (claim,) = extract(PROPOSE + text).claims
    assert (claim.method, claim.model) == (method, model)


def test_a_benchmark_named_elsewhere_is_not_the_number_s() -> None:
    text = PROPOSE + "We evaluate on MMLU and GSM8K. Training is 35% cheaper."
    (claim,) = extract(text).claims
    assert claim.benchmark is None
    (fronted,) = extract(PROPOSE + "On GSM8K, FooNet gains 4.1 points over GRPO.").claims
    assert fronted.benchmark == "GSM8K"
    # a fronted phrase places its own clause
    text = PROPOSE + "On MMLU, FooNet reaches 61.2%; on GSM8K, it reaches 85.3%."
    assert [c.benchmark for c in extract(text).claims] == ["MMLU", "GSM8K"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("FooNet reaches 85.3% MMLU accuracy.", ("MMLU accuracy", "MMLU")),
        # the benchmark in the number's own metric phrase wins over one named after it for another
        ("FooNet improves GSM8K accuracy by 3.1 points and MATH accuracy slightly.", ("GSM8K accuracy", "GSM8K")),
        ("FooNet performs best on GSM8K (85.3%).", (None, "GSM8K")),
        ("Per benchmark: GSM8K: 85.3.", (None, "GSM8K")),
        ("FooNet reaches 85.3% accuracy on the GSM8K test set.", ("accuracy", "GSM8K")),
        ("It reaches a 18.7 % phoneme error rate ( PER ) on the TIMIT task .", ("phoneme error rate", "TIMIT")),
        ("Overall , it gets 72.27 % on the test - std split of the VQA v2.0 dataset .", (None, "VQA v2.0")),
        ("It gets 22.5 BLEU points in English - to - German WMT 2014 .", ("BLEU", "WMT 2014")),
        # a parenthesis between a name and its dataset noun
        ("It gets an f - measure of 75.0 % on the ICDAR 2015 Incidental ( Challenge 4 ) benchmark .",
         ("f - measure", "ICDAR 2015 Incidental")),
        # tokenized text: 'f - measure', and 'top - 1' is part of a name, not a number
        ("It achieves an f - measure of 75.0 % on the standard ICDAR benchmark .", ("f - measure", "ICDAR")),
        ("It reaches 79.4 % top - 1 accuracy on ImageNet .", ("top - 1 accuracy", "ImageNet")),
    ],
)
def test_benchmark_bindings_beyond_on(text: str, expected: tuple) -> None:
    (claim,) = extract(PROPOSE + text).claims
    assert (claim.metric, claim.benchmark) == expected


def test_items_that_name_their_metrics_share_the_benchmark_named_once() -> None:
    text = PROPOSE + "It gets 88.1 % joint goal accuracy and 97.1 % request accuracy on WoZ ."
    assert [(c.metric, c.benchmark) for c in extract(text).claims] == [
        ("joint goal accuracy", "WoZ"),
        ("request accuracy", "WoZ"),
    ]


def test_a_benchmark_list_after_i_e() -> None:
    text = "We validate our techniques on standard SR benchmarks ( i.e. Set5 , Set14 , B100 ) ."
    assert [b.name for b in extract(text).benchmarks] == ["Set5", "Set14", "B100"]


def test_a_benchmark_name_with_digits_does_not_break_the_number_s_phrase() -> None:
    (claim,) = extract(PROPOSE + "FooNet reaches 85.3 on SST-2 in accuracy.").claims
    assert (claim.metric, claim.benchmark) == ("accuracy", "SST-2")
    text = PROPOSE + "FooNet has an error rate of 3.1% on CIFAR-10 and 17.2% on CIFAR - 100 ."
    assert [(c.metric, c.benchmark) for c in extract(text).claims] == [
        ("error rate", "CIFAR-10"),
        ("error rate", "CIFAR - 100"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "FooNet obtains 4.4%, 1.6% and an average of 2.5% improvement in F1 over BarNet.",
        "FooNet obtains 4.4%, 1.6% and 2.5% improvement in F1 over BarNet.",
        "FooNet obtains + 4.4 % , + 1.6 % and + 2.5 % improvement in F1 over BarNet .",
    ],
)
def test_a_list_that_names_its_measure_last_shares_it_with_every_item(text: str) -> None:
    assert [(c.metric, c.kind, c.baseline) for c in extract(PROPOSE + text).claims] == [
        ("F1", "change", "BarNet")
    ] * 3


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("FooNet improves top-1 accuracy on ImageNet from 82.1% to 91.4%.", ("top-1 accuracy", "ImageNet")),
        ("We improve the state-of-the-art results of perplexity from 25.1 to 23.4 on WikiText-103.",
         ("perplexity", "WikiText-103")),
    ],
)
def test_before_and_after_values_share_their_metric_and_benchmark(text: str, expected: tuple) -> None:
    before, after = extract(PROPOSE + text).claims
    assert (before.metric, before.benchmark) == (after.metric, after.benchmark) == expected


def test_parentheses_after_a_number_label_it_or_restate_it() -> None:
    text = PROPOSE + "FooNet reaches 62.42 (BLEU) on WMT14 and 85.3 (SST-2)."
    assert [(c.metric, c.benchmark) for c in extract(text).claims] == [("BLEU", "WMT14"), (None, "SST-2")]
    # a number in parentheses right after another is measured like it: its gain, its relative value
    text = PROPOSE + "FooNet pushes the GLUE benchmark to 82.2% (1.8% absolute improvement)."
    assert [(c.value, c.benchmark, c.kind) for c in extract(text).claims] == [
        (82.2, "GLUE", "score"),
        (1.8, "GLUE", "change"),
    ]
    text = PROPOSE + "FooNet reaches 85.3% accuracy on MMLU (+2.1% over BarNet)."
    assert [(c.metric, c.benchmark) for c in extract(text).claims] == [("accuracy", "MMLU")] * 2
    text = PROPOSE + "We find accuracy climbs to 61% (from a 48% pre-RL baseline) with FooNet."
    assert [c.metric for c in extract(text).claims] == ["accuracy", "accuracy"]


def test_an_acronym_in_capitals_is_a_name_not_a_function_word() -> None:
    text = PROPOSE + "FooNet achieves 18.1 % PER on TIMIT and further reduces PER to 17.6 % level ."
    assert [c.metric for c in extract(text).claims] == ["PER", "PER"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("FooNet sets a new state-of-the-art accuracy of 85.3% on SST-2.", "accuracy"),
        ("FooNet sets a new single - model state - of - the - art BLEU score of 41.8 .", "BLEU score"),
        ("FooNet improves over the previous best IS of 52.5.", "IS"),
        ("FooNet sets a new state of the art of 85.3% on SST-2.", None),
        ("FooNet shows significant performance improvements up to 9.5% on MMLU.", None),
    ],
)
def test_praise_before_a_metric_is_not_part_of_its_name(text: str, expected: str | None) -> None:
    (claim,) = extract(PROPOSE + text).claims
    assert claim.metric == expected


def test_a_name_ending_in_bench_is_a_benchmark_outside_a_url() -> None:
    text = "We test image editing on Aurora-Bench and LongVideoBench (https://github.com/Foo-Benchmark/x)."
    assert [b.name for b in extract(text).benchmarks] == ["Aurora-Bench", "LongVideoBench"]


def test_a_tokenized_hyphenated_name_before_a_dataset_noun_is_a_benchmark() -> None:
    text = PROPOSE + "On the Market - 1501 dataset , for instance , FooNet reaches 80.5 % accuracy ."
    (claim,) = extract(text).claims
    assert claim.benchmark == "Market - 1501"
    # a count before the dataset noun's modifiers is not part of the name
    text = PROPOSE + "FooNet reaches 75.7 on the CoNLL - 2014 10 annotation dataset ."
    assert [b.name for b in extract(text).benchmarks] == ["CoNLL - 2014"]


def test_a_second_from_to_pair_coordinated_with_the_first_is_before_and_after_too() -> None:
    text = PROPOSE + (
        "FooNet improves one-shot accuracy on ImageNet from 87.6% to 93.2% and from 88.0% to 93.8% on Omniglot. "
        "FooNet increases accuracy from 71.2% to 74.4%, and from 34.7% to 39.1% for the harder scenes."
    )
    assert [(c.value, c.value_max, c.metric) for c in extract(text).claims] == [
        (87.6, None, "one-shot accuracy"),
        (93.2, None, "one-shot accuracy"),
        (88.0, None, "one-shot accuracy"),
        (93.8, None, "one-shot accuracy"),
        (71.2, None, "accuracy"),
        (74.4, None, "accuracy"),
        (34.7, None, "accuracy"),
        (39.1, None, "accuracy"),
    ]
    assert [c.benchmark for c in extract(text).claims[:4]] == ["ImageNet", "ImageNet", "Omniglot", "Omniglot"]


def test_a_changing_subject_s_measure_comes_before_the_place_it_is_taken() -> None:
    text = PROPOSE + "With FooNet, accuracy on GSM8K rises from 60.1% to 75.3%."
    assert [(c.metric, c.benchmark) for c in extract(text).claims] == [("accuracy", "GSM8K")] * 2


def test_the_subject_of_a_passive_change_is_its_metric() -> None:
    text = PROPOSE + "With FooNet, rank - 1 accuracy is improved from 55.3 % to 80.5 % on Market - 1501 ."
    assert [c.metric for c in extract(text).claims] == ["rank - 1 accuracy", "rank - 1 accuracy"]
    (claim,) = extract(PROPOSE + "With FooNet, the error rate was reduced by 30% on CIFAR-10.").claims
    assert (claim.metric, claim.kind, claim.direction) == ("error rate", "change", "decrease")


def test_a_number_in_inline_math_binds_its_words_past_the_math() -> None:
    (claim,) = extract(PROPOSE + r"FooNet achieves $80.3\%$ zero-shot ImageNet-1k accuracy.").claims
    assert (claim.metric, claim.benchmark) == ("zero-shot ImageNet-1k accuracy", "ImageNet-1k")
    (claim,) = extract(PROPOSE + r"A trainable proportion of approximately $4.1\%$ captures most of it.").claims
    assert claim.metric == "trainable proportion"
    (claim,) = extract(PROPOSE + r"FooNet gives a $1.71\times$ speedup in matrix multiplication.").claims
    assert (claim.value, claim.unit, claim.metric) == (1.71, "x", "speedup")
    assert extract(PROPOSE + r"The bound is $O(2\times n)$ with $3 \times 10^4$ terms.").claims == []
    (claim,) = extract(PROPOSE + r"On $4096 \times 4096$ matrices it cuts weight storage by $4\times$.").claims
    assert (claim.value, claim.unit) == (4.0, "x")  # the matrix's product is no result


def test_what_a_change_noun_with_its_amount_after_it_changes_is_the_measure() -> None:
    (claim,) = extract(PROPOSE + r"It achieves a reduction of up to $4\times$ in weight storage.").claims
    assert (claim.metric, claim.kind, claim.direction) == ("weight storage", "change", "decrease")
    (claim,) = extract(PROPOSE + "It gives an improvement of 2% in recall on MS MARCO.").claims
    assert (claim.metric, claim.kind, claim.direction) == ("recall", "change", "increase")


def test_a_coefficient_in_a_sentence_about_correlation_is_a_result() -> None:
    (claim,) = extract("We find a strong positive correlation between alignment and model size (r = 0.95).").claims
    assert (claim.value, claim.metric) == (0.95, "correlation")
    (claim,) = extract("Scores correlate with human judgments (Spearman rho = 0.81).").claims
    assert (claim.value, claim.metric) == (0.81, "Spearman rho")
    assert extract("We set r = 0.5 for all runs.").claims == []


def test_a_factor_of_n_is_a_multiplier() -> None:
    (claim,) = extract(PROPOSE + "It reduces the computation needed by roughly a factor of 20.").claims
    assert (claim.value, claim.unit, claim.metric, claim.kind, claim.direction) == (
        20.0, "x", "computation", "change", "decrease",
    )


def test_a_number_in_a_type_macro_is_read_as_plain_text() -> None:
    (claim,) = extract(PROPOSE + r"FooNet reaches a real-time throughput of \textbf{32 FPS} on one GPU.").claims
    assert (claim.value, claim.unit) == (32.0, "FPS")
    (claim,) = extract(PROPOSE + r"FooNet achieves \textbf{85.3\%} accuracy on MMLU.").claims
    assert (claim.metric, claim.benchmark) == ("accuracy", "MMLU")
    assert extract(PROPOSE + r"The loss is $x_{12}$ and $y^{3}$.").claims == []


def test_a_list_of_by_phrases_measures_what_its_first_does() -> None:
    text = PROPOSE + "Accuracy drops by 3.3% without vision, by 4.1% without text, and by 8.0% without either."
    claims = extract(text).claims
    assert [(c.metric, c.kind, c.direction) for c in claims] == [("Accuracy", "change", "decrease")] * 3


def test_objects_of_one_change_verb_each_measure_their_own_and_change_its_way() -> None:
    text = PROPOSE + "It reduces latency by 30%, training time by 9.9%, and inference time by 8.0%."
    claims = extract(text).claims
    assert [(c.metric, c.direction) for c in claims] == [
        ("latency", "decrease"), ("training time", "decrease"), ("inference time", "decrease"),
    ]


@pytest.mark.parametrize(
    ("text", "metric"),
    [
        ("It speeds up decoding by 2.4x.", "speedup"),
        ("It is 2.4x faster than BarNet.", "speedup"),
        # the text names what got faster
        ("Our framework delivers a 3x increase in task processing speed over BarNet.", "task processing speed"),
        ("Inference speeds improve by 2.5x compared to FP16.", "Inference speeds"),
    ],
)
def test_a_multiplier_of_speed_is_a_speedup_unless_the_text_names_the_speed(text: str, metric: str) -> None:
    (claim,) = extract(PROPOSE + text).claims
    assert claim.metric == metric


def test_a_latex_dash_joins_a_compound_and_sets_off_a_comparing_participle() -> None:
    text = PROPOSE + "Our method achieves up to 99.6% safety rate--exceeding full fine-tuning by 7.4 points."
    claims = extract(text).claims
    assert [(c.metric, c.kind, c.baseline) for c in claims] == [
        ("safety rate", "score", None), ("safety rate", "change", "full fine-tuning"),
    ]
    (claim,) = extract(PROPOSE + r"It retains only about 52\% of the original teacher--student discrepancy.").claims
    assert claim.metric == "original teacher--student discrepancy"  # a compound, not a clause


def test_a_pair_in_parentheses_after_a_change_is_measured_as_the_change_is() -> None:
    text = PROPOSE + "FooNet shows a 40 percentage point accuracy advantage over BarNet on hard tasks (100% vs. 60%)."
    claims = extract(text).claims
    assert [(c.value, c.metric, c.kind) for c in claims] == [
        (40.0, "accuracy", "change"), (100.0, "accuracy", "score"), (60.0, "accuracy", "score"),
    ]
    assert [(c.method, c.baseline) for c in claims[1:]] == [("FooNet", "BarNet"), ("BarNet", None)]


def test_what_a_noun_of_quantity_counts_is_part_of_the_metric() -> None:
    (claim,) = extract(PROPOSE + "It reduces the number of parameters by up to 19%.").claims
    assert claim.metric == "number of parameters"
    (claim,) = extract(PROPOSE + "It cuts the amount of memory by 40%.").claims
    assert claim.metric == "amount of memory"


def test_modifiers_coordinated_before_a_shared_metric_name_are_its_phrase() -> None:
    text = PROPOSE + "FooNet obtains gains of +22% and +76% in the Ego2Exo and Exo2Ego IoU over GPT-4o."
    assert [c.metric for c in extract(text).claims] == ["Ego2Exo and Exo2Ego IoU"] * 2


@pytest.mark.parametrize(
    ("text", "metric"),
    [
        ("FooNet reaches around 30% accuracy on space-level tasks and around 40% on part-level tasks.", "accuracy"),
        ("FooNet achieves 7% improvement in Spearman correlation for OMQ and 14% for TA.", "Spearman correlation"),
        ("FooNet achieves 18 % PER in single utterances and 20 % in longer utterances .", "PER"),
    ],
)
def test_items_that_each_say_where_they_hold_share_the_first_item_s_metric(text: str, metric: str) -> None:
    assert [c.metric for c in extract(PROPOSE + text).claims] == [metric, metric]


def test_testsets_written_as_one_word_head_a_list_of_benchmarks() -> None:
    text = PROPOSE + "FooNet achieves 34.0 on Callhome and 64.7 on Fisher testsets respectively."
    assert [c.benchmark for c in extract(text).claims] == ["Callhome", "Fisher"]


def test_a_difference_apposed_to_a_number_is_measured_like_it() -> None:
    text = PROPOSE + "FooNet gets 22.5 BLEU points on WMT 2014 , 5.5 points more than the best unsupervised system ."
    assert [(c.value, c.metric, c.benchmark, c.kind) for c in extract(text).claims] == [
        (22.5, "BLEU", "WMT 2014", "score"),
        (5.5, "BLEU", "WMT 2014", "change"),
    ]


def test_a_list_of_numbers_on_a_list_of_as_many_benchmarks_pairs_them_in_order() -> None:
    text = PROPOSE + "FooNet achieves 85.3%, 72.1% and 60.2% accuracy on the SST-2, MNLI and QNLI benchmarks."
    assert [(c.metric, c.benchmark) for c in extract(text).claims] == [
        ("accuracy", "SST-2"),
        ("accuracy", "MNLI"),
        ("accuracy", "QNLI"),
    ]
    text = PROPOSE + "FooNet brings 13 % and 35 % MAP gains over BM25 on the Robust and the ClueWeb collections ."
    assert [c.benchmark for c in extract(text).claims] == ["Robust", "ClueWeb"]
    # one benchmark for the whole list: each number is on it
    text = PROPOSE + "FooNet achieves 85.3% and 72.1% accuracy on SST-2."
    assert [c.benchmark for c in extract(text).claims] == ["SST-2", "SST-2"]


@pytest.mark.parametrize(
    ("text", "metrics"),
    [
        ("FooNet reduces latency by 30% and memory by 40%.", ["latency", "memory"]),
        ("FooNet improves the efficiency of BarNet by 6.0x and the AP by 1.0% on COCO.", ["efficiency", "AP"]),
        ("FooNet increases throughput by 2.1x and reduces latency by 30%.", ["throughput", "latency"]),
    ],
)
def test_a_change_verb_left_out_before_its_second_object_still_names_it(text: str, metrics: list[str]) -> None:
    assert [c.metric for c in extract(PROPOSE + text).claims] == metrics


@pytest.mark.parametrize(
    ("text", "benchmark"),
    [
        ("On ConLL - 2012 English SRL we also show an improvement of more than 2.5 F1 .", "ConLL - 2012 English SRL"),
        ("On DSTC2 , our model obtains 74.5 % joint goal accuracy .", "DSTC2"),
        # a fronted phrase that names no coined thing is no benchmark
        ("On average , our model obtains 74.5 % joint goal accuracy .", None),
    ],
)
def test_a_coined_name_a_sentence_opens_with_after_on_is_where_its_results_hold(
    text: str, benchmark: str | None
) -> None:
    (claim,) = extract(PROPOSE + text).claims
    assert claim.benchmark == benchmark


# --- methods ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "We propose GANQ (GPU-Adaptive Non-Uniform Quantization), a layer-wise framework.",
            [("GANQ", ["GPU-Adaptive Non-Uniform Quantization"])],
        ),
        (
            "In this paper, we propose Sparse Spectral Training (SST), an advanced training methodology.",
            [("SST", ["Sparse Spectral Training"])],
        ),
        (
            "we propose a new method called SKIM: Scaled K-means clustering wIth Mixed precision.",
            [("SKIM", [])],
        ),
        ("We present a new method, self-ask, that further improves on chain of thought.", [("self-ask", [])]),
        # a name after hyphenated modifiers, before its method noun; not a word of the field, not
        # when the sentence names it another way
        ("We propose a many-to-many Token Mixing framework for speed.", [("Token Mixing", [])]),
        ("We propose a novel structure - aware seq2seq architecture for tables .", []),
        ("We propose a style - controllable Multi - source Summary model , called Masq .", [("Masq", [])]),
        # the variants a contribution lists after a colon
        (
            (
                "We introduce BoxNet - Lite . BoxNet - Lite combines two variants of BoxNet : BoxNet - Saccade , "
                "which uses attention , and BoxNet - Squeeze , which is compact ."
            ),
            [("BoxNet - Lite", []), ("BoxNet - Saccade", []), ("BoxNet - Squeeze", [])],
        ),
        # a lower-case name apposed to what it varies
        ("We propose shake - drop , a variant of dropout for deep nets .", [("shake - drop", [])]),
        (
            "In response, we propose inference-time dynamic prompting (IDP), a mechanism.",
            [("IDP", ["inference-time dynamic prompting"])],
        ),
        ("we propose a unified attack framework, named OP-Print.", [("OP-Print", [])]),
        (
            "We bridge this gap with GenCLS++, a framework that jointly optimizes SFT and RL.",
            [("GenCLS++", [])],
        ),
        ("We resolve this within our DUEL framework, which unifies strategies.", [("DUEL", [])]),
        (
            "we propose Diffusion in Diffusion, a 'draft-then-refine' framework.",
            [("Diffusion in Diffusion", [])],
        ),
        ("The approach, Diverse Prompt Mixer, is tested on a competition.", [("Diverse Prompt Mixer", [])]),
        (
            "We measure a quantity that, to our knowledge, has not been measured before: the Independent "
            "Verifiability Rate (IVR), the fraction of artifacts. The IVR is low.",
            [("IVR", ["Independent Verifiability Rate"])],
        ),
        # the paper calling itself a document or a thesis
        ("This document describes Hermes v2.1 , the winning entry to a challenge .", [("Hermes v2.1", [])]),
        ("This thesis presents GraphWeaver , a planner for robots .", [("GraphWeaver", [])]),
        # a contribution verb joined by 'and' to a first-person subject's verb; not to someone else's
        ("We note a similarity with X and develop Drop - Path , a variant of dropout .", [("Drop - Path", [])]),
        ("We propose a network and introduce FooNet , a detector .", [("FooNet", [])]),
        ("Existing methods analyze X and propose FooNet , a network .", []),
        # a modal between the subject and the verb
        ("We will further present a Sparse Hop Router ( SHR ) for graphs .", [("SHR", ["Sparse Hop Router"])]),
        ("This document lists the rules of the challenge .", []),
        # background, baselines, studied systems and phenomena are not the paper's methods
        ("Previous techniques, such as Low-Rank Adaptation (LoRA) and ReLoRA, suffer from low rank.", []),
        # a model family, abbreviated or spelled out, is a word of the field
        ("We train Generative Adversarial Networks at the largest scale yet .", []),
        ("We revise a popular model , namely Gated Recurrent Units ( GRUs ) , and propose Li - GRU .",
         [("Li - GRU", [])]),
        ("We study this puzzle through Embedded Language Flows (ELF) and find a mechanism.", []),
        # a name given before the paper says what it contributes is someone else's
        (
            "Most detectors use one layer called Shape Head to predict boxes . We propose a detector named Bar - Net .",
            [("Bar - Net", [])],
        ),
        ("A novel deep network called FooNet is proposed for retrieval .", [("FooNet", [])]),
        ("The proposed approach , dubbed FooNet , reaches 71.2 % .", [("FooNet", [])]),
        ("we show that the hardness reduces to a problem called set disjointness (SD).", []),
        ("We introduce a pruning procedure that optimizes the selected pool.", []),
        # a quoted long form defined right after the cue
        ("We introduce the “ gated flow unit ” ( GFU ) which speeds up learning .", [("GFU", ["gated flow unit"])]),
        ('We introduce the "Wasserstein Gap Score" (WGS), which correlates with humans.',
         [("WGS", ["Wasserstein Gap Score"])]),
        # a name set in LaTeX, as arXiv abstracts keep it
        (r"We propose \textsc{Ravel}, an adaptive low-rank method.", [("Ravel", [])]),
        (r"We introduce \textbf{FooBar}: a planner for robots.", [("FooBar", [])]),
        (r"We propose $\textbf{R3Tag}$, a tagging framework.", [("R3Tag", [])]),
        # a compound adjective made from someone else's name describes, it does not name
        ("We offer practical GPT-based tools for teachers.", []),
        ("we propose a novel ResNet - like architecture with two streams .", []),
    ],
)
def test_methods_from_contribution_cues(text: str, expected: list[tuple]) -> None:
    assert [(m.name, m.aliases) for m in extract(text).methods] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("we build a route planner called Q - Hop , which learns shortcuts .", [("Q - Hop", [])]),
        (
            "We present a Dual - Stream Tagging Network ( DS - TN ) for parsing .",
            [("DS - TN", ["Dual - Stream Tagging Network"])],
        ),
        ("This paper designs a deep encoder ( FaceCoder2 + ) for retrieval .", [("FaceCoder2 +", [])]),
        # a tokenized compound adjective is one word between the article and the method noun
        (
            "This paper designs a high - performance deep recurrent encoder ( FaceCoder3 + ) for retrieval .",
            [("FaceCoder3 +", [])],
        ),
        # a spaced hyphen before a function word is a dash, not part of the name
        ("we propose Zephyrus - a planner that reasons .", [("Zephyrus", [])]),
        # the name the paper gives its model in apposition, even a word used generically elsewhere
        ("We propose a new simple network architecture , the Transformer , based on attention .",
         [("Transformer", [])]),
        ("We compare against a strong model , the Transformer , in all runs .", []),
        ("We obtain better results than a strong deep baseline model ( BoxNet2 ) in all runs .", []),
        ("We propose a simple baseline model , BoxNet2 , for retrieval .", [("BoxNet2", [])]),
        ("Our model , the Gated - Attention ( GA ) Reader , integrates hops .", [("GA", ["Gated - Attention"])]),
        # a lower-case name after a method noun, and a second name joined by 'or'
        ("We propose a regularizer dubbed dropblock for convolutions .", [("dropblock", [])]),
        ("We propose a new architecture , referred to as Foo - Net , for retrieval .", [("Foo - Net", [])]),
        # a long lower-case name ends with its method noun
        ("We propose a new approach , called the gated multiscale recurrent flow network , that learns .",
         [("gated multiscale recurrent flow network", [])]),
        ("we propose a new approach ( namely , Orthogonal Embedding CNNs , or OE - CNNs ) .",
         [("Orthogonal Embedding CNNs", ["OE - CNNs"])]),
        ("We propose FooNet or BarNet , two models .", [("FooNet", [])]),
        # a name and the short form it spells, written apart, are one method; a variant is another
        ("We propose a new framework ( Rank Ordered Logits , ROLO ) . ROLO is fast .",
         [("Rank Ordered Logits", ["ROLO"])]),
        ("We propose GHM and a loss called GHM - C for boxes .", [("GHM", []), ("GHM - C", [])]),
        # a parenthesized short form the name's initials open, though no acronym rule spells it
        ("We propose our Graph Capsule Network ( GCAPS - CNN ) model .", [("Graph Capsule Network", ["GCAPS - CNN"])]),
        # 'this' points with a noun; a quote mark written apart
        ("We call this model “ DeepNet ” .", [("DeepNet", [])]),
        ("We refer to the architecture as a “ stacked hourglass ” network .", [("stacked hourglass", [])]),
        ("we call this phenomenon the reversal curse .", []),
        ("This exposes a new dimension , which we call “ breadth ” , besides depth .", []),
        # 'the' points with a method noun too: the name is what follows it
        ("We call the resulting architecture Foo - Net .", [("Foo - Net", [])]),
        # a tokenized compound adjective is one word between 'our' and the method noun
        ("We study retrieval . Our multi - scale deep framework FooNet reaches 71.2 % .", [("FooNet", [])]),
        # 'the proposed' before a coined name, in any sentence; not an acronym defined before as a technique
        ("We study face retrieval . The proposed Foo - Net reaches 71.2 % on LFW .", [("Foo - Net", [])]),
        ("Adversarial training ( AT ) is popular . The proposed AT model reaches 71.2 % .", []),
        # 'our' before a coined name, a noun it modifies and a plural method noun
        ("We train it fast . Our Cross - Gated sentence encoders reach 71.2 % .", [("Cross - Gated sentence encoders", [])]),
        ("We train it fast . Our Bayesian neural network reaches 71.2 % .", []),
        ("We train it fast . Our 130M - parameter bitstream model reaches 71.2 % .", []),
        # a sentence that defines a name as a method noun
        ("The ByteNet is a one - dimensional convolutional neural network for translation .", [("ByteNet", [])]),
        # a coined name before a present passive contribution verb; not one proposed by or in others' work
        ("In this paper , FooNet is proposed for retrieval .", [("FooNet", [])]),
        ("Two losses called Foo - C and Foo - R are designed for boxes .", [("Foo - C", []), ("Foo - R", [])]),
        ("FooNet is proposed in [ 3 ] . We propose BarNet .", [("BarNet", [])]),
        ("A new loss , FooLoss , is also proposed .", [("FooLoss", [])]),
        # without 'The': a coined name defined as something new, not a known model
        ("FooNet is a novel deep network for retrieval . It reaches 71.2 % .", [("FooNet", [])]),
        ("BarNet - 2 is a convolutional network . We tune it .", []),
        ("GPT-4 is a new language model . We tune it .", []),
    ],
)
def test_methods_in_tokenized_text(text: str, expected: list[tuple]) -> None:
    """Tokenized text ('M - Walk', 'DeepID2 +') spells a hyphenated or plus-suffixed name apart."""
    assert [(m.name, m.aliases) for m in extract(text).methods] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # right after a contribution sentence, a coined name that acts is the one introduced
        ("We introduce a sparse routing layer. RouteMix adapts its width to the input.", ["RouteMix"]),
        # later, a repeated coined name as the subject of a result verb
        (
            "We study routing for agents. Experiments show that RouteMix achieves the best accuracy. "
            "Moreover, RouteMix scales to long inputs.",
            ["RouteMix"],
        ),
        ("We build a graph layer. Graph - Hopper 2.1 is twice as fast as before.", ["Graph - Hopper 2.1"]),
        # a plural names the instances of the same method
        ("We describe a network called Relay Net ( RelayNet ). RelayNets learn to wait.", ["RelayNet"]),
        # baselines: compared with, proposed by prior work, named before the contribution, said once
        ("We propose a layer. Compared to RouteMix, it is fast. RouteMix achieves 50%, RouteMix stalls.", []),
        ("Prior work has proposed KV-Mix. We show that KV-Mix achieves less than KV-Mix claims.", []),
        ("RouteMix is popular. We propose a sparse layer. RouteMix achieves 50% while RouteMix stalls.", []),
        ("We propose a sparse layer. It is fast. TinyOpt matches the reference loss.", []),
    ],
)
def test_methods_named_as_acting_subjects(text: str, expected: list[str]) -> None:
    assert [m.name for m in extract(text).methods] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a description the abstract goes on to use as a name
        (
            "We propose a novel tidal warp sampling and pruning scheme . With tidal warp sampling and "
            "pruning , our model reaches 81.2 % accuracy .",
            ["tidal warp sampling and pruning"],
        ),
        # used again without its first word
        (
            "We present a new greedy lattice span merging algorithm for parsing . The lattice span "
            "merging step runs in linear time .",
            ["greedy lattice span merging"],
        ),
        # said once, two words (a term of the field), written before the contribution (a task), or
        # the parts of an artifact ('network') are descriptions
        ("We propose a novel tidal warp sampling scheme for parsing .", []),
        ("We introduce a novel gradient matching approach . Gradient matching on small models helps .", []),
        (
            "Dense video question answering is hard . We propose a dense video question answering "
            "method . Dense video question answering improves .",
            [],
        ),
        (
            "We propose a deep gated residual convolution network . The deep gated residual convolution "
            "layers train fast .",
            [],
        ),
    ],
)
def test_methods_described_and_used_as_names(text: str, expected: list[str]) -> None:
    assert [m.name for m in extract(text).methods] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a definition after 'state-of-the-art', 'existing', ... is someone else's, and so is one
        # listed right after it or after a generic acronym
        (
            "By relating the state - of - the - art Ladder Network ( LadNet ) and Gated Path Network "
            "( GPNet ) , we design the Twin Path Net ( TPN ) . TPN and LadNet are compared .",
            [("TPN", ["Twin Path Net"])],
        ),
        (
            "We propose FooLM , a framework that refines text from Automatic Speech Recognition ( ASR ) "
            "or Automatic Speech Captioning ( ASC ) .",
            [("FooLM", [])],
        ),
        ("We extend the widely used Gated Graph Filter ( GGF ) to sets . GGF is fast .", []),
        ("Inspired by expectation-maximization (EM), our method alternates two steps. EM is old.", []),
        ("This report presents our solution to the Ego9 Video Moment Queries (VMQ) Challenge 2025.", []),
        # a part named in the contribution verb's object, after 'with' and a modifier
        (
            "We propose a novel detector integrated with somatic skeleton line parsing ( SLP ) for crowds .",
            [("SLP", ["skeleton line parsing"])],
        ),
        ("We propose a novel detector for semantic role labeling ( SRL ) in crowds .", []),
        # a definition right after 'using' / 'with' is a tool the method works with
        ("We propose to localize parts using Spatial Transformer Networks ( STN ) with new constraints .", []),
        (
            "We propose BoxNet with the Cross Scale Attention ( CSA ) block .",
            [("BoxNet", []), ("CSA", ["Cross Scale Attention"])],
        ),
        (
            "We propose a new detector using a novel Cross Scale Attention ( CSA ) module .",
            [("CSA", ["Cross Scale Attention"])],
        ),
        # the paper's own definition in the same kind of sentence stays
        (
            "We propose the Gated Graph Filter ( GGF ) for sets . GGF is fast .",
            [("GGF", ["Gated Graph Filter"])],
        ),
    ],
)
def test_background_definitions_are_not_proposed(text: str, expected: list[tuple]) -> None:
    assert [(m.name, m.aliases) for m in extract(text).methods] == expected


def test_a_definition_that_names_a_problem_is_not_a_method() -> None:
    text = "We cast tagging as a Multiple Span Labeling ( MSL ) problem . MSL is solved by our FooTagger ."
    assert "MSL" not in [m.name for m in extract(text).methods]


def test_a_long_form_spelled_by_its_initials() -> None:
    """Letters inside words would spell 'RRI' from 'relaxation iteration' alone."""
    found = abbreviations(Document("with the restraint and relaxation iteration ( RRI ) scheme ."))
    assert [(a.short, a.long) for a in found] == [("RRI", "restraint and relaxation iteration")]
    found = abbreviations(Document("We propose GANQ (GPU-Adaptive Non-Uniform Quantization)."))
    assert [(a.short, a.long) for a in found] == [("GANQ", "GPU-Adaptive Non-Uniform Quantization")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a method noun defined in a contribution sentence and used again by its acronym
        (
            "We propose a parser built on a gated tree transition network (GTTN). Training a GTTN is cheap.",
            [("GTTN", ["gated tree transition network"])],
        ),
        # the method noun right after the definition, though another word follows it
        (
            "Our proposed gated - loop nets ( GLN ) method simultaneously minimizes the error .",
            [("GLN", ["gated - loop nets"])],
        ),
        # a whole-method noun right after a definition in a sentence about the paper's own work
        (
            "Specifically , with the stretch and relax iteration ( SRI ) training scheme , we integrate "
            "the constraint .",
            [("SRI", ["stretch and relax iteration"])],
        ),
        ("We view each vector within a fully connected ( FC ) layer as a basis .", []),
        ("we add a penalty based on the “ Maximum Mean Discrepancy ” ( MMD ) measure .", []),
        # 'our models (X)': a plural method noun before a parenthesized name
        ("Trained at scale, our models ( HopNets ) reach a new best loss.", [("HopNets", [])]),
    ],
)
def test_methods_from_definitions_and_plural_heads(text: str, expected: list[tuple]) -> None:
    assert [(m.name, m.aliases) for m in extract(text).methods] == expected


def test_a_method_listed_after_a_dataset_stays_a_method() -> None:
    """'experiments on X, Y achieves': a comma does not make the introduced method Y a dataset."""
    text = "We present StackWalker, a code parser. In experiments on TreeBank-9, StackWalker achieves 91% F1."
    draft = extract(text)
    assert [m.name for m in draft.methods] == ["StackWalker"]
    assert [b.name for b in draft.benchmarks] == ["TreeBank-9"]


def test_an_introduced_dataset_is_a_benchmark_not_a_method() -> None:
    draft = extract("We introduce HomogeneityNLI, a diagnostic dataset of 1,000 minimal pair items.")
    assert [b.name for b in draft.benchmarks] == ["HomogeneityNLI"] and draft.methods == []


# --- models and their sizes -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Early 4-bit quantizations of Qwen3.8-27B left the block in 8-bit.", {27.0}),
        ("We study a 30B (3.5B-active) Nemotron model.", {30.0, 3.5}),
        ("We quantize Gemma-4-26B-A4B end to end.", {26.0, 4.0}),
        ("We pretrain OLMoE-1B-7B on a web corpus.", {7.0, 1.0}),
        ("On OPT-125M, with rank equating to 8.3% of embedding dimension, it works.", {0.125}),
        ("the perplexity of APD on top of Pythia 6.9B is lower than that of Pythia 12B.", {6.9, 12.0}),
        ("Mixtral-8x7B routes tokens to two experts.", {7.0}),
        # a size alone names no model: its size is the paper's, kept apart from the models
        ("We examine four open models of 8 to 27 billion parameters.", {8.0, 27.0}),
        ("Transformers of 340M to 2B parameters pretrained on 15B tokens.", {0.34, 2.0}),
        ("small models (leq3B parameters) do not benefit.", {3.0}),
        ("On Gemma 2-2B-it and Qwen 2.5-7B, it holds.", {2.0, 7.0}),
        # versions are not sizes; token and data counts are not model sizes
        ("GPT-5.2, Qwen3.5, Llama-3.1 and Claude Haiku 4.5 are compared.", set()),
        ("using DataMan to select 30B tokens from a 447B token corpus.", set()),
    ],
)
def test_model_sizes(text: str, expected: set[float]) -> None:
    assert sizes(text) == expected


def test_models_named_without_a_size_carry_none() -> None:
    text = "GPT-4o, o1-mini and LLaMA2-7B are compared on ImageNet and CLIP features."
    assert [(m.name, m.params_b) for m in extract(text).models] == [
        ("LLaMA2-7B", 7.0),
        ("GPT-4o", None),
        ("o1-mini", None),
        ("CLIP", None),
    ]


def test_a_model_version_of_one_digit_or_a_spaced_variant_is_part_of_its_name() -> None:
    text = "GPT-5 and DeepSeek R1 are compared with GPT-4o on ImageNet."
    assert [m.name for m in extract(text).models] == ["GPT-5", "DeepSeek R1", "GPT-4o"]


def test_a_release_written_apart_is_one_model_and_its_version_no_result() -> None:
    text = (
        "Claude 3.7 Sonnet (47.7%) and GPT-4o mini (33.7%) trail Gemini 2.5 Pro, which reaches 80% "
        "accuracy, while Claude Haiku 4.5 reaches 50%."
    )
    extraction = extract(text)
    assert [m.name for m in extraction.models] == ["Claude 3.7 Sonnet", "GPT-4o mini", "Gemini 2.5 Pro", "Claude Haiku 4.5"]
    assert [(c.value, c.model) for c in extraction.claims] == [
        (47.7, "Claude 3.7 Sonnet"), (33.7, "GPT-4o mini"), (80.0, "Gemini 2.5 Pro"), (50.0, "Claude Haiku 4.5"),
    ]


# --- benchmarks -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Across perplexity at 4K/32K, MMLU-Pro, GSM8K and RULER retrieval to 64K, it matches.",
            ["MMLU-Pro", "GSM8K", "RULER"],
        ),
        ("We examine these questions on the Spanish MIR residency examination.", ["Spanish MIR"]),
        ("ODS nearly matches the baselines on two benchmarks: SimpleQA and FRAMES.", ["SimpleQA", "FRAMES"]),
        ("In FactualityPrompts, an open-ended text generation benchmark, APD helps.", ["FactualityPrompts"]),
        ("the improvement holds on nine KLEJ challenges.", ["KLEJ"]),
        ("On the One Billion Word Benchmark (LM1B), our model reaches 59.76.", ["LM1B"]),
        ("Empirical evaluations on seven benchmark datasets confirm that RPC helps.", []),
        ("these models lag behind on standard benchmarks and decision-making benchmarks.", []),
    ],
)
def test_benchmarks(text: str, expected: list[str]) -> None:
    assert [b.name for b in extract(text).benchmarks] == expected


# --- a name the title opens with -----------------------------------------------------------


@pytest.mark.parametrize(
    ("title", "abstract", "expected"),
    [
        # A coined name before the colon, written again in the abstract, with no cue of its own.
        (
            "QuillNet: Sparse Routing for Long Documents",
            "Long documents strain attention. QuillNet routes tokens sparsely and keeps accuracy.",
            ["QuillNet"],
        ),
        ("KV2Store \u2014 a cache for agents", "Agents reuse prefixes. KV2Store shares them.", ["KV2Store"]),
        ("ZipLM - a compressor for logs", "Logs grow fast. ZipLM shrinks them tenfold.", ["ZipLM"]),
        # Tokenized text: the spaced hyphens join the name, the spaced colon ends it.
        ("Tri - GAT : graph attention", "Graphs are large. Tri - GAT scales.", ["Tri - GAT"]),
        # The abstract already names it: the title adds nothing, and no second entry.
        ("DRIFT: Robust Tuning", "We propose DRIFT, a tuning method for noisy labels.", ["DRIFT"]),
        # An ordinary English phrase is not a name.
        ("Attention Is All You Need: Revisited", "Attention Is All You Need showed a simple idea.", []),
        # Contract v3: a name only in the title is the paper's method (the title is the paper's words).
        ("ZetaFormer: Fast Transformers", "We study fast transformers on long inputs.", ["ZetaFormer"]),
        # A dataset: the subtitle or the abstract says so, and the benchmark logic decides.
        ("CityQA: A Benchmark for Urban Questions", "CityQA holds questions about cities.", []),
        ("PolyVox: Many Voices", "PolyVox dataset holds 3,000 hours of speech.", []),
        # No separator: the title is not of the form 'Name: subtitle'.
        ("QuillNet for Long Documents", "Long documents strain attention. QuillNet routes tokens.", []),
        # A title opening with a noun phrase headed by an architecture noun names the paper's
        # model, in the abstract's spelling (in the title's when only the title writes it, contract
        # v3); a one-word head or a kind of model ('Deep Residual Networks') does not.
        (
            "Folded Ladder Networks for Speech Tagging",
            "Speech tagging is slow. We train folded ladder networks that tag in one pass.",
            ["folded ladder networks"],
        ),
        # written first in a first-person sentence, the title's name is the main method; written
        # first as background, it comes after the name the paper introduces
        (
            "Folded Ladder Networks for Speech Tagging",
            "In this paper , we propose folded ladder networks for tagging . We then introduce KGate , a gate .",
            ["folded ladder networks", "KGate"],
        ),
        (
            "Folded Ladder Networks for Speech Tagging",
            "Folded ladder networks are fast . We introduce a new architecture , called SliceTag , for tagging .",
            ["SliceTag", "Folded ladder networks"],
        ),
        # the abstract names it in the singular: the plural of the title is the same name
        (
            "Folded Ladder Networks",
            "We introduce the folded ladder network , a tagging module . Folded ladder networks tag fast .",
            ["folded ladder network"],
        ),
        ("Deeply - Gated Nets", "Our deeply - gated nets train faster.", ["deeply - gated nets"]),
        ("Networks for Speech", "Networks for speech are slow.", []),
        ("Folded Ladder Networks", "We study speech tagging.", ["Folded Ladder Networks"]),
        ("Deep Residual Networks", "We study speech tagging.", []),
        ("Compressing Word Embeddings via Hashing", "We study speech tagging.", []),
    ],
)
def test_a_name_the_title_opens_with(title: str, abstract: str, expected: list[str]) -> None:
    assert [m.name for m in extract(abstract, title).methods] == expected


def test_v3_the_title_names_the_method_our_model_is_and_grounding_keeps_it() -> None:
    """'BiDAF: ...' names the method; 'our model' in the abstract is it (contract v3)."""
    title = "BiDAF: Bidirectional Attention Flow for Machine Comprehension"
    abstract = "We introduce a multi-stage network. Our model reaches 77.3 F1 on SQuAD."
    extraction, rejected = ground(extract(abstract, title), abstract, "p", title)
    assert [m.name for m in extraction.methods] == ["BiDAF"] and rejected == []
    [claim] = extraction.claims
    assert (claim.method, claim.benchmark, claim.proposed) == ("BiDAF", "SQuAD", True)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The paper's own method, named: its claims say proposed; a baseline's do not.
        ("We propose GANQ. GANQ reaches 83.6% accuracy on GSM8K, while QuIP reaches 80.1% accuracy on GSM8K.",
         [(83.6, "GANQ", True), (80.1, "QuIP", False)]),
        # Never named: 'our model' is still the paper's method, with no name (contract v3).
        ("We propose a novel attention network. Our model reaches 81.1 F1 on SQuAD, while BiDAF reaches 77.3 F1 on SQuAD.",
         [(81.1, None, True), (77.3, "BiDAF", False)]),
        # A paper that studies others' models proposes nothing.
        ("We study how LLMs answer. GPT-4o reaches 45% accuracy on MATH.", [(45.0, None, False)]),
    ],
)
def test_v3_every_claim_says_whether_it_is_the_proposed_methods(text: str, expected: list[tuple]) -> None:
    assert [(c.value, c.method, c.proposed) for c in extract(text).claims] == expected


@pytest.mark.parametrize(
    ("text", "title", "benchmark"),
    [
        # (1) a sentence that scopes those after it
        ("We propose a new reader. We evaluate on SQuAD. Our model reaches 81.1 F1.", None, "SQuAD"),
        # ... until another benchmark is named
        ("We propose a new reader. We evaluate on SQuAD. On TriviaQA and NQ, our model reaches 81.1 F1.", None, None),
        # (2) a paper that evaluates on exactly one named benchmark (the title names it)
        ("We introduce a new parser. Our parser reaches 93.1 F1.", "A Span-Based Parser on the Penn Treebank", "Penn Treebank"),
        # never for an average, an efficiency number, or a test set of the sentence's own
        ("We propose a new reader. We evaluate on SQuAD. On average our model reaches 81.1 F1.", None, None),
        ("We propose a new reader. We evaluate on SQuAD. Our model runs 2.1x faster.", None, None),
        ("We introduce a new parser. A spelling probe shows our parser reaches 93.1 F1.", "A Parser on the Penn Treebank", None),
    ],
)
def test_v3_a_benchmark_from_context_in_exactly_two_cases(text: str, title: str | None, benchmark: str | None) -> None:
    [claim] = extract(text, title).claims
    assert claim.benchmark == benchmark


def test_a_title_name_is_grounded_in_the_abstract() -> None:
    abstract = "Long documents strain attention. QuillNet routes tokens sparsely."
    extraction, rejected = ground(extract(abstract, "QuillNet: Sparse Routing"), abstract, "p")
    assert rejected == []
    assert [m.name for m in extraction.methods] == ["QuillNet"]


# --- the whole fixture set ------------------------------------------------------------------

PAPERS = [p for p in read_inputs([str(FIXTURES / "abstracts")]) if not p.error]


def test_there_are_fixture_abstracts() -> None:
    assert len(PAPERS) >= 80


GOLD = {g["id"]: g for g in map(json.loads, (FIXTURES / "gold" / "dev.jsonl").open(encoding="utf-8"))}


@pytest.mark.parametrize("paper", PAPERS, ids=[p.id for p in PAPERS])
def test_every_fixture_abstract_extracts_and_grounds(paper) -> None:
    """Nothing the rules return is refused by grounding; a paper whose gold reports results gets
    claims (an extractor returning nothing fails here), and one that reports none gets none."""
    draft = extract(paper.abstract, paper.title)
    extraction, rejected = ground(draft, paper.abstract, paper.id, paper.title)
    assert rejected == []
    assert len(extraction.claims) == len(draft.claims)
    gold = GOLD[paper.id]
    if gold["claims"]:
        assert extraction.claims
    elif not gold["optional"]["values"]:
        assert not extraction.claims


def test_the_backend_reports_the_rules_version() -> None:
    """Runs record which rules made them: a change of the rules must show in run.json."""
    assert RulesBackend().identity() == {"backend": "rules", "rules_version": RULES_VERSION}
    assert re.fullmatch(r"\d+\.\d+", RULES_VERSION)


def test_odd_text_extracts_and_grounds() -> None:
    """Fragments, unbalanced brackets and random symbol soup: no exception, nothing ungrounded."""
    rng = random.Random(7)
    alphabet = string.ascii_letters + string.digits + " .,;:()%-+x/$\\~"
    texts = ["", " ", "(1)", "We propose (", "from 3 to", "between 2 and", "8x", "1e999", "12/0", "0 of 0"]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 120))) for _ in range(300)]
    for text in texts:
        _, rejected = ground(extract(text), text, "p")
        assert rejected == [], text


def test_a_quote_mark_standing_alone_before_a_data_word_is_not_a_name() -> None:
    draft = extract('We release " dataset " and reach 85.3% accuracy on it.', None)
    assert [c.value for c in draft.claims] == [85.3] and draft.benchmarks == []


def test_a_comparing_participle_s_change_is_on_the_benchmark_of_its_clause() -> None:
    text = PROPOSE + (
        "FooNet achieves 24.4 BLEU on LDC2015E86 , outperforming the state of the art by 1.1 points and "
        "24.5 BLEU on LDC2017T10 , outperforming the state of the art by 1.2 points ."
    )
    assert [c.benchmark for c in extract(text).claims] == ["LDC2015E86", "LDC2015E86", "LDC2017T10", "LDC2017T10"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We introduce FooBench, a benchmark of puzzles. FooNet reaches 70% on this highly challenging benchmark.",
         ["FooBench"]),
        ("We evaluate on MMLU and GSM8K. FooNet obtains 73.6 % and 76.6 % on these two datasets .", ["MMLU", "GSM8K"]),
        ("We evaluate on MMLU and GSM8K. FooNet obtains 73.6 % and 76.6 % on both benchmarks .", ["MMLU", "GSM8K"]),
        # one number cannot be on both of two benchmarks
        ("We evaluate on MMLU and GSM8K. FooNet obtains 73.6 % on both benchmarks .", [None]),
    ],
)
def test_a_demonstrative_dataset_phrase_names_the_benchmarks_written_before(text: str, expected: list) -> None:
    assert [c.benchmark for c in extract(PROPOSE + text).claims] == expected


def test_a_quoted_name_before_a_dataset_noun_is_a_benchmark() -> None:
    text = PROPOSE + (
        "FooNet raises accuracy from 71.2 % to 74.4 % on the “ abstract scenes ” multiple - choice benchmark ."
    )
    draft = extract(text)
    assert [b.name for b in draft.benchmarks] == ["abstract scenes"]
    assert [c.benchmark for c in draft.claims] == ["abstract scenes", "abstract scenes"]


def test_a_list_of_changes_is_on_the_benchmarks_of_the_results_it_leads_to() -> None:
    text = PROPOSE + "FooNet improves accuracy by 2.1 and 3.4 points, reaching 85.1 on MMLU and 80.2 on GSM8K."
    assert [c.benchmark for c in extract(text).claims] == ["MMLU", "GSM8K", "MMLU", "GSM8K"]


def test_a_version_written_apart_from_a_found_name_is_not_a_claim() -> None:
    text = PROPOSE + "We build on BarNet. BarNet 2.0 reaches 61.2 % on the VQA v2.0 dataset ."
    assert claim_values(text) == [(61.2, None)]


def test_a_benchmark_opening_its_sentence_with_a_colon_heads_every_number_of_it() -> None:
    text = PROPOSE + "MMLU (5-shot): FooNet reaches 85.3% and BarNet 80.1%. Training takes 3.5 hours."
    assert [c.benchmark for c in extract(text).claims] == ["MMLU", "MMLU", None]


def test_a_list_of_changes_takes_the_metrics_before_it_respectively() -> None:
    text = PROPOSE + "FooNet reaches 81.2% F1 and a recall of 74.5%, exceeding BarNet by 3.1% and 4.4%, respectively."
    assert [(c.metric, c.kind) for c in extract(text).claims] == [
        ("F1", "score"), ("recall", "score"), ("F1", "change"), ("recall", "change")
    ]


def test_a_share_of_counted_things_names_a_predicate_with_a_digit_after_a_clause_verb() -> None:
    text = PROPOSE + (
        "A probe over 200 paraphrase pairs shows FooNet keeps the top-1 answer on 81.5% of pairs versus 70.2% "
        "for BarNet (+11.3 pp)."
    )
    assert [(c.metric, c.method) for c in extract(text).claims] == [
        ("keeps the top-1 answer", "FooNet"), ("keeps the top-1 answer", "BarNet"), ("keeps the top-1 answer", "FooNet")
    ]


def test_a_comparative_is_measured_in_what_follows_in() -> None:
    text = PROPOSE + "FooNet stops 25% earlier in decoding steps and is 30% faster in wall-clock time."
    assert [(c.metric, c.kind) for c in extract(text).claims] == [
        ("decoding steps", "change"), ("wall-clock time", "change")
    ]


def test_a_change_pointed_back_to_is_measured_like_the_change_before_it() -> None:
    text = PROPOSE + "FooNet improves exact-match accuracy by 2.5% over BarNet. On long questions, this gain grows to 6.1%."
    assert [(c.metric, c.kind, c.baseline) for c in extract(text).claims] == [
        ("exact-match accuracy", "change", "BarNet"), ("exact-match accuracy", "change", "BarNet")
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("FooNet improves test accuracy on MMLU and GSM8K, achieving up to 4.1% gains over BarNet.", "test accuracy"),
        ("FooNet outperforms 4-bit baselines in mean accuracy, and improves over BazNet on GSM8K by 12 points.",
         "mean accuracy"),
        # a comparison that names no measure gives none
        ("FooNet improves robustness on MMLU, achieving 4.1% gains.", None),
    ],
)
def test_a_change_in_a_following_predicate_is_of_the_measure_compared_before_it(text: str, expected: str | None) -> None:
    (claim,) = extract(PROPOSE + text).claims
    assert (claim.metric, claim.kind) == (expected, "change")


def test_a_value_a_result_is_compared_with_is_measured_like_it() -> None:
    text = PROPOSE + "FooNet reaches 71.2% exact-match accuracy on TriviaQA with retrieval, compared with 64.0% without it."
    assert [(c.metric, c.benchmark) for c in extract(text).claims] == [("exact-match accuracy", "TriviaQA")] * 2


def test_a_measure_that_changes_is_not_the_subject_of_its_clause() -> None:
    text = PROPOSE + "FooNet is better than thought: the perplexity gap shrinks by 32%."
    (claim,) = extract(text).claims
    assert (claim.metric, claim.method, claim.kind) == ("perplexity gap", "FooNet", "change")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("With search, FooNet can surpass recurrent models -- reaching 31.2 vs. 40.5 perplexity on PTB.",
         [("FooNet", "recurrent models"), ("recurrent models", None)]),
        ("FooNet outperforms BarNet, scoring 81.2 vs. 75.0 F1.", [("FooNet", "BarNet"), ("BarNet", None)]),
    ],
)
def test_the_second_of_a_pair_belongs_to_the_side_the_sentence_compared_with(text: str, expected: list) -> None:
    assert [(c.method, c.baseline) for c in extract(PROPOSE + text).claims] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We train a chess model and find legality climbs to 61% (from a 48% pre-RL baseline).",
         [(61.0, "legality", None), (48.0, "legality", "pre-RL baseline")]),
        (PROPOSE + "FooNet reaches 75.1% accuracy, compared with a 70.2% supervised baseline.",
         [(75.1, "accuracy", "FooNet"), (70.2, "accuracy", "supervised baseline")]),
        # a reference noun in the metric's place is not the number's owner
        (PROPOSE + "FooNet reaches 75.1% baseline accuracy.", [(75.1, "baseline accuracy", "FooNet")]),
    ],
)
def test_a_number_inside_a_noun_phrase_a_reference_heads_is_that_reference_s(text: str, expected: list) -> None:
    assert [(c.value, c.metric, c.method) for c in extract(text).claims] == expected


def test_a_benchmark_is_found_wherever_its_name_is_written_again() -> None:
    text = (
        "We release FooBench, a dataset of puzzles. An evaluation of 12 models on FooBench reveals a gap: even "
        "the best model reaches only 31% accuracy."
    )
    (claim,) = extract(text).claims
    assert (claim.metric, claim.benchmark) == ("accuracy", "FooBench")


def test_a_number_in_parentheses_after_an_adjective_of_degree_measures_its_dimension() -> None:
    text = "We propose FooQ. FooQ is the smallest (3.1 GB) and fastest-decoding (+22%) recipe we test."
    assert [(c.metric, c.kind) for c in extract(text).claims] == [("size", "score"), ("decoding speed", "change")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a qualifier, a symbol or a stop word is no label
        ("FooQ drifts slowly (sim 0.41) on long inputs.", None),
        ("FooQ drifts slowly (about 0.41) on long inputs.", None),
    ],
)
def test_a_label_opening_a_parenthesis_names_the_number_after_it(text: str, expected: str | None) -> None:
    (claim,) = extract("We propose FooQ. " + text).claims
    assert claim.metric == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We also show that Masked diffusion models can be made approximately 12% more efficient.",
         "Masked diffusion models"),
        # a capital that only opens the sentence names nothing, nor does a name and its verb
        ("Encoder-only models reach 12% lower accuracy.", None),
        ("We find that DeepWalk outperforms strong baselines, reaching 12% higher accuracy.", "DeepWalk"),
    ],
)
def test_a_bare_plural_a_name_opens_inside_a_sentence_is_a_subject(text: str, expected: str | None) -> None:
    (claim,) = extract(text).claims
    assert claim.method == expected


def test_a_change_noun_heads_a_metric_before_of_and_its_results_share_the_metric() -> None:
    text = PROPOSE + (
        "FooNet gives consistent gains, with a BLEU score increase of 0.8 and 0.7, achieving 34.0 on Callhome and "
        "64.7 on Fisher, respectively."
    )
    assert [(c.metric, c.benchmark, c.kind) for c in extract(text).claims] == [
        ("BLEU score", "Callhome", "change"), ("BLEU score", "Fisher", "change"),
        ("BLEU score", "Callhome", "score"), ("BLEU score", "Fisher", "score"),
    ]


def test_the_level_a_participle_says_a_change_reached_is_of_the_changed_measure() -> None:
    text = PROPOSE + "Retrieval methods further increase accuracy, reaching up to 70% on this benchmark."
    (claim,) = extract(text).claims
    assert (claim.metric, claim.kind) == ("accuracy", "score")


def test_names_set_beside_the_subject_between_commas_say_who_it_is() -> None:
    text = PROPOSE + "Even the best models, Gemini-2.5-Pro and OpenAI o3, achieve just around 30% accuracy on hard tasks."
    (claim,) = extract(text).claims
    assert (claim.method, claim.model) == (None, "Gemini-2.5-Pro")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (PROPOSE + "Remarkably, the FooNet model reaches an mIoU of 91.35%.", "FooNet"),
        ("We study several segmenters. Remarkably, the PTv3 model had an mIoU of 91.35%, a good result.", "PTv3"),
        # a description with an article is no name
        ("We study several segmenters. A phrase-based SMT system reaches 91.35% accuracy.", None),
    ],
)
def test_a_name_written_before_a_head_noun_is_the_subject(text: str, expected: str | None) -> None:
    (claim,) = extract(text).claims
    assert claim.method == expected


def test_a_comparing_participle_s_points_are_points_of_the_clause_s_metric() -> None:
    text = PROPOSE + "FooNet achieves 24.4 BLEU on WMT14, outperforming the state of the art by 1.1 points."
    assert [(c.metric, c.kind) for c in extract(text).claims] == [("BLEU", "score"), ("BLEU", "change")]


def test_a_change_a_which_is_clause_states_is_of_the_measure_before_it() -> None:
    text = (
        "We propose FooAug. We obtain 79.4% top-1 accuracy with a ResNet - 50, which is a + 1.8% absolute gain "
        "over BarAug."
    )
    assert [(c.metric, c.kind, c.baseline) for c in extract(text).claims] == [
        ("top-1 accuracy", "score", None), ("top-1 accuracy", "change", "BarAug")
    ]


def test_a_noun_after_a_scaled_count_is_what_it_counts() -> None:
    (claim,) = extract(PROPOSE + "FooNet matches the baseline while removing 67.1M trainable input parameters.").claims
    assert claim.metric == "trainable input parameters"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (PROPOSE + "FooNet reaches 2.5% lower validation loss than BarNet (gap 0.083 nats).",
         ["validation loss", "validation loss"]),
        ("We study four models. The hard regime varies widely in prevalence across models (16% and 77%).",
         ["prevalence", "prevalence"]),
        # 'in' of a place is no measure
        ("We study four models. The rate measured in most laboratory experiments (sim 0.06) is high.", [None]),
    ],
)
def test_a_parenthesis_restating_a_comparison_or_a_variation_names_its_measure(text: str, expected: list) -> None:
    assert [c.metric for c in extract(text).claims] == expected


def test_the_model_is_the_one_model_a_paper_without_a_method_has_named() -> None:
    (claim,) = extract("We probe Llama-3-8B for refusal. The model detects fake entities with an AUC of 0.97.").claims
    assert (claim.metric, claim.model) == ("AUC", "Llama-3-8B")
    (claim,) = extract(PROPOSE + "We probe Llama-3-8B. The model detects fake entities with an AUC of 0.97.").claims
    assert claim.model is None


def test_numbers_in_an_aside_that_names_no_measure_restate_the_measure_before() -> None:
    text = "We study probes. Across models, the AUC is 0.81, unchanged after tuning (0.812 vs 0.809)."
    assert [c.metric for c in extract(text).claims] == ["AUC", "AUC", "AUC"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A pre-registered audit with a fixed FooGate threshold achieves 1.5% hallucinations at 24% abstention.",
         "FooGate"),
        # what it runs with names no method: no subject
        ("A pre-registered audit with twelve raters achieves 1.5% hallucinations at 24% abstention.", None),
    ],
)
def test_an_unnamed_subject_with_a_named_method_is_that_method_s(text: str, expected: str | None) -> None:
    claims = extract("We propose FooGate. " + text).claims
    assert claims and all(c.method == expected for c in claims)


def test_a_digit_after_a_slash_ends_a_name_not_a_list_of_numbers() -> None:
    text = "We release all the pre-trained models, including fooCLIP-L/14, which achieves 80.3% accuracy."
    (claim,) = extract(text).claims
    assert claim.method == "fooCLIP-L/14"


def test_a_name_called_beside_the_subject_with_its_acronym_is_the_subject() -> None:
    text = (
        "We revisit pruning. The new pruner, called Slim Gate (SG), reduces decoding latency by 41% "
        "over dense decoding."
    )
    (claim,) = extract(text).claims
    assert (claim.metric, claim.method) == ("decoding latency", "SG")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("FooNet achieves a convergence rate approximately 50.4% faster than BarNet.", "convergence rate"),
        ("FooNet is 35% faster than BarNet.", "speed"),
        # a measure of another clause is not bound before the number
        ("FooNet shows slightly lower accuracy than a method that is up to 29% slower.", "speed"),
    ],
)
def test_a_bare_comparative_is_of_the_measure_bound_before_it_else_a_speed(text: str, expected: str) -> None:
    (claim,) = extract(PROPOSE + text).claims
    assert claim.metric == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("FooNet reaches a precision and a recall of 81.2% and 74.5% on the test split.", ["precision", "recall"]),
        ("FooNet reaches R@1 and R@5 scores of 41.3 and 68.9.", ["R@1", "R@5 scores"]),
        ("FooNet reaches IoU0.3 and IoU0.5 scores of 41.3 and 28.9.", ["IoU0.3 scores", "IoU0.5 scores"]),
        # one metric for a list stays shared
        ("FooNet reaches an accuracy of 81.2% and 74.5% on the two splits.", ["accuracy", "accuracy"]),
    ],
)
def test_a_list_of_metrics_bound_before_a_list_of_numbers_pairs_them(text: str, expected: list) -> None:
    assert [c.metric for c in extract(PROPOSE + text).claims] == expected


def test_the_before_value_is_the_baselines_the_sentence_names() -> None:
    text = PROPOSE + "Using only 30% of the compute of baseline models, we reduce perplexity from 25.7 to 21.9."
    assert [(c.value, c.method) for c in extract(text).claims] == [(25.7, "baseline models"), (21.9, "FooNet")]


def test_the_measure_of_a_system_that_changes_in_inline_math() -> None:
    text = PROPOSE + "Notably, the convergence rate of the FooNet algorithm increases by over $63.3\\%$ in dense networks."
    (claim,) = extract(text).claims
    assert (claim.metric, claim.method, claim.kind) == ("convergence rate", "FooNet", "change")
def test_the_one_benchmark_a_sentence_closes_with_holds_each_of_its_results() -> None:
    text = PROPOSE + (
        "FooNet processes 30 % more pixels than single scale training at 800x1333 pixels on the COCO dataset . "
        "It improves the efficiency of BarNet by 6.0x and the AP by 1.0 % on COCO ."
    )
    assert [c.benchmark for c in extract(text).claims] == ["COCO", "COCO", "COCO"]


def test_from_to_pairs_listed_after_commas_keep_the_first_pair_s_metric() -> None:
    text = PROPOSE + (
        "We improve the best results of perplexity from 20.5 to 18.3 on WikiText - 103 , from 23.7 to 21.8 on One Billion Word , "
        "and from 55.3 to 54.5 on Penn Treebank ."
    )
    assert [c.metric for c in extract(text).claims] == ["perplexity"] * 6


def test_the_before_value_of_an_improved_record_is_the_record_s() -> None:
    text = PROPOSE + "FooNet works well , improving the best published negative log - likelihood on ImageNet from 3.83 to 3.77 ."
    assert [(c.value, c.method) for c in extract(text).claims] == [(3.83, "best published"), (3.77, "FooNet")]


def test_a_difference_in_points_after_a_score_is_of_the_score_s_measure() -> None:
    text = PROPOSE + "FooNet reaches 24.4 BLEU on LDC2015E86 , outperforming the state of the art by 1.1 points ."
    assert [c.metric for c in extract(text).claims] == ["BLEU", "BLEU"]


def test_a_comparing_relative_clause_states_a_change_of_its_antecedent_s_measure() -> None:
    text = PROPOSE + "FooNet achieves 41.6 mAP on COCO which surpasses the best method , BarNet , by 0.8 ."
    assert [c.metric for c in extract(text).claims] == ["mAP", "mAP"]


def test_a_bare_number_listed_before_a_difference_takes_its_unit() -> None:
    assert quantities("by 8 and 9.5 absolute percentage points respectively") == [
        (8.0, None, "pp"),
        (9.5, None, "pp"),
    ]


def test_a_registry_entry_is_named_by_its_own_name_when_the_text_writes_it() -> None:
    text = PROPOSE + "FooNet reaches 3.57 % error on the ImageNet test set . This result won ILSVRC 2015 ."
    assert [c.benchmark for c in extract(text).claims] == ["ImageNet"]


def test_a_decade_is_a_year_not_seconds() -> None:
    assert claim_values("The corpus was released in the 1990s . FooNet needs 1200s of training .") == [(1200.0, None)]


def test_a_scale_written_apart_is_the_number_s_scale() -> None:
    assert [(q.value, q.scale) for q in parse_quantities(Document("11.3 M English - French sentence pairs"))] == [
        (11.3, "M")
    ]
    assert [(q.value, q.scale) for q in parse_quantities(Document("in Section 3 B we"))] == [(3.0, None)]
    assert claim_values("We rebuild 11.3 M English - French sentence pairs with 83.3 precision .") == [(83.3, None)]


def test_an_amount_of_text_trained_on_is_a_data_size() -> None:
    assert claim_values("By training on 40 GB of text ( reviews ) , FooNet reaches a 0.69 F1 score .") == [(0.69, None)]


@pytest.mark.parametrize(
    "residue",
    [
        "mygreenrgb0.032 , 0.6392 , 0.2039",
        "labelsep=5pt , itemsep= - 4pt , darkgreenRGB0 , 140 , 0 auburnrgb0.43 , 0.21 , 0.1",
    ],
)
def test_latex_colour_and_length_residue_is_not_a_claim(residue: str) -> None:
    assert claim_values("FooNet reaches 52.5 % on MMLU . " + residue) == [(52.5, None)]


def test_a_score_in_another_unit_after_a_listed_change_stays_a_score() -> None:
    text = PROPOSE + "FooNet gets 24.4 BLEU on A , beating the state of the art by 1.1 points and 24.54 BLEU on B ."
    assert [(c.value, c.kind) for c in extract(text).claims] == [(24.4, "score"), (1.1, "change"), (24.54, "score")]


def test_a_benchmark_closing_a_predicate_of_its_own_holds_no_earlier_number() -> None:
    text = PROPOSE + "FooNet trains 9x faster than BarNet , and achieves a higher mAP on PASCAL VOC 2012 ."
    assert [c.benchmark for c in extract(text).claims] == [None]


def test_a_generic_object_of_a_change_verb_leaves_the_metric_to_what_changes_after_it() -> None:
    text = PROPOSE + "We improve performance on small objects ( miss rate decreases from 74.53 % to 60.79 % ) ."
    assert [c.metric for c in extract(text).claims] == ["miss rate", "miss rate"]


def test_a_smaller_share_used_is_a_result_and_a_share_used_a_setting() -> None:
    assert claim_values(PROPOSE + "FooNet beats all baselines while using 60 % less training data .") == [(60.0, None)]
    assert claim_values(PROPOSE + "Trained using only 10 % of the labels , it reaches 80 % accuracy .") == [(80.0, None)]


def test_names_after_on_closed_by_respectively_are_benchmarks_in_order() -> None:
    text = PROPOSE + "FooNet beats the previous best by 4.3 % and 2.1 % on MPII and LSP respectively ."
    assert [c.benchmark for c in extract(text).claims] == ["MPII", "LSP"]


def test_items_naming_their_metric_before_the_number_share_the_benchmark_named_once() -> None:
    text = PROPOSE + "FooNet achieves an EM score of 71.3 and F1 of 80.1 on the test set of SQuAD ."
    assert [(c.metric, c.benchmark) for c in extract(text).claims] == [("EM score", "SQuAD"), ("F1", "SQuAD")]


def test_an_improvement_apposed_to_a_number_is_measured_like_it() -> None:
    text = PROPOSE + "We obtain an accuracy of 93.5 % on SST - 2 ( binary ) , an improvement of 1.2 % over the previous best ."
    assert [(c.metric, c.kind) for c in extract(text).claims] == [("accuracy", "score"), ("accuracy", "change")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a two-letter name is named with its dataset noun
        ("FooNet reaches 83.3 precision on the UN corpus .", ["UN corpus"]),
        # one coined name right after a dataset noun
        ("FooNet beats the previous best by 6.37 % on the curve text dataset SCUT - CTW1500 .", ["SCUT - CTW1500"]),
    ],
)
def test_a_name_beside_a_dataset_noun_is_a_benchmark(text: str, expected: list[str]) -> None:
    draft = extract(PROPOSE + text)
    assert [b.name for b in draft.benchmarks] == expected
    assert [c.benchmark for c in draft.claims] == expected


def test_a_number_in_parentheses_after_a_name_s_abbreviation_is_on_that_benchmark() -> None:
    text = "We present a network . Its performance on the Google Street View House Number ( SVHN ) ( 4 % error ) database is good ."
    assert [c.benchmark for c in extract(text).claims] == ["SVHN"]


def test_a_benchmark_is_never_the_subject() -> None:
    text = PROPOSE + "The accuracies on MNIST and SVHN are 99.6 % and 97.9 % respectively ."
    assert [(c.benchmark, c.method, c.model) for c in extract(text).claims] == [
        ("MNIST", None, None),
        ("SVHN", None, None),
    ]


def test_a_change_noun_ending_a_list_makes_each_item_a_change() -> None:
    text = PROPOSE + "FooNet obtains 1.2 % , 2.3 % and 3.4 % improvements on MNIST , SVHN and CIFAR - 10 , respectively ."
    assert [(c.kind, c.benchmark) for c in extract(text).claims] == [
        ("change", "MNIST"),
        ("change", "SVHN"),
        ("change", "CIFAR - 10"),
    ]


@pytest.mark.parametrize(
    ("text", "direction"),
    [
        # An improvement of a lower-is-better metric is a decrease of it (the Improvements sheet
        # then calls it an improvement, not a regression).
        ("ADLM significantly improves test perplexity on LM1B, achieving up to 25.4% gains over prior DLMs.", "decrease"),
        ("Our CNN obtains an absolute 5.77% WER improvement over the baseline PLP DNN.", "decrease"),
        # An improvement of a higher-is-better metric, and a rise said as such, stay increases.
        ("GANQ improves accuracy on GSM8K, achieving up to 4.2% gains over GPTQ.", "increase"),
        ("Perplexity rises by 12% over the dense baseline when half the heads are pruned.", "increase"),
    ],
)
def test_the_direction_is_what_happens_to_the_measured_quantity(text: str, direction: str) -> None:
    [claim] = extract(text, None).claims
    assert (claim.kind, claim.direction) == ("change", direction)
