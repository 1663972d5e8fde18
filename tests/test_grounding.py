import pytest

from extractor.grounding import find_evidence, ground, problems
from extractor.text.name_keys import name_in_text
from extractor.schema import Benchmark, ClaimDraft, ExtractionDraft, Method, Model

ABSTRACT = (
    "We propose GANQ (GPU-Adaptive Non-Uniform Quantization), a framework for\n"
    "LLMs. On Qwen3.8-27B, GANQ  reaches 83.6% accuracy on GSM8K and achieves up to 2.57times "
    "speedup over the FP16 baseline, with 9--34 accuracy points of gain."
)


def claim(**fields) -> ClaimDraft:
    return ClaimDraft(**{"evidence": "", **fields})


def test_evidence_is_found_across_whitespace_and_case() -> None:
    span = find_evidence("a framework for llms.", ABSTRACT)
    assert span is not None
    assert ABSTRACT[span[0] : span[1]] == "a framework for\nLLMs."


def test_grounded_claims_get_spans_and_stable_ids() -> None:
    draft = ExtractionDraft(
        claims=[
            claim(value=83.6, unit="%", evidence="GANQ reaches 83.6% accuracy on GSM8K", benchmark="GSM8K"),
            claim(value=2.57, unit="x", kind="change", evidence="up to 2.57times speedup"),
            claim(value=9, value_max=34, unit="points", evidence="9--34 accuracy points"),
        ]
    )
    extraction, rejected = ground(draft, ABSTRACT, "dp-1")
    assert rejected == []
    first, second, third = extraction.claims
    assert ABSTRACT[first.value_span[0] : first.value_span[1]] == "83.6"
    assert first.evidence == "GANQ  reaches 83.6% accuracy on GSM8K"  # the abstract's own words
    assert ABSTRACT[third.value_span[0] : third.value_span[1]] == "9--34"
    again, _ = ground(draft, ABSTRACT, "dp-1")
    assert [c.id for c in again.claims] == [c.id for c in extraction.claims]
    assert len({c.id for c in extraction.claims}) == 3


def test_invented_numbers_and_evidence_are_rejected_with_reasons() -> None:
    draft = ExtractionDraft(
        claims=[
            claim(value=91.2, evidence="GANQ reaches 83.6% accuracy"),
            claim(value=83.6, evidence="GANQ reaches 83.6% accuracy on MMLU"),
            claim(value=9, value_max=40, evidence="9--34 accuracy points"),
        ]
    )
    extraction, rejected = ground(draft, ABSTRACT, "p")
    assert extraction.claims == []
    reasons = [r.reason for r in rejected]
    assert reasons == [
        "value 91.2 is not written in the evidence",
        "evidence is not found in the abstract",
        "value_max 40 is not written in the evidence",
    ]


def test_an_ungrounded_attribute_name_is_cleared_and_the_number_kept() -> None:
    invented = claim(
        value=83.6, unit="%", evidence="reaches 83.6% accuracy", metric="accuracy", benchmark="MATH-500",
        method="SqueezeLLM", model="Qwen3.8-27B", baseline="GPTQ",
    )
    extraction, rejected = ground(ExtractionDraft(claims=[invented]), ABSTRACT, "p")
    [kept] = extraction.claims
    assert (kept.value, kept.metric, kept.model) == (83.6, "accuracy", "Qwen3.8-27B")
    assert kept.benchmark is kept.method is kept.baseline is None
    assert [(r.field, r.reason) for r in rejected] == [
        ("attribution", "benchmark 'MATH-500' does not occur in the abstract"),
        ("attribution", "method 'SqueezeLLM' does not occur in the abstract"),
        ("attribution", "baseline 'GPTQ' does not occur in the abstract"),
    ]
    assert rejected[0].item["benchmark"] == "MATH-500"  # the claim as the backend gave it
    assert problems(ExtractionDraft(claims=[invented]), ABSTRACT)[0] == (
        "attribution: 'reaches 83.6% accuracy': benchmark 'MATH-500' does not occur in the abstract"
    )
    # The claim id does not depend on the names: clearing one keeps the claim's identity.
    again, _ = ground(ExtractionDraft(claims=[claim(value=83.6, evidence="reaches 83.6% accuracy")]), ABSTRACT, "p")
    assert again.claims[0].id == kept.id


def test_a_bound_must_be_written_before_its_number() -> None:
    """A bound takes a score off the leaderboard, so one the text does not write is cleared."""
    text = "GANQ keeps the error below 2.1% and reaches more than 90% accuracy, with 83.6% on GSM8K."
    draft = ExtractionDraft(claims=[
        claim(value=2.1, unit="%", bound="upper", evidence="keeps the error below 2.1%"),
        claim(value=90, unit="%", bound="upper", evidence="reaches more than 90% accuracy"),  # the wrong side
        claim(value=83.6, unit="%", bound="lower", evidence="83.6% on GSM8K"),  # none written
    ])
    extraction, rejected = ground(draft, text, "p")
    assert [(c.value, c.bound) for c in extraction.claims] == [(2.1, "upper"), (90, None), (83.6, None)]
    assert [(r.field, r.item["value"], r.reason) for r in rejected] == [
        ("attribution", 90, "bound 'upper' is not written: no 'less than', 'below' or 'at most' before the number"),
        ("attribution", 83.6, "bound 'lower' is not written: no 'more than', 'over' or 'at least' before the number"),
    ]


def test_an_ungrounded_number_is_rejected_once_whatever_its_names() -> None:
    draft = ExtractionDraft(claims=[claim(value=91.2, evidence="GANQ reaches 83.6% accuracy", benchmark="MATH-500")])
    _, rejected = ground(draft, ABSTRACT, "p")
    assert [(r.field, r.reason) for r in rejected] == [("claims", "value 91.2 is not written in the evidence")]


def test_names_and_sizes_must_occur_in_the_text() -> None:
    draft = ExtractionDraft(
        methods=[Method(name="GANQ", aliases=["GPU-Adaptive Non-Uniform Quantization", "Foo"]), Method(name="SqueezeLLM")],
        models=[Model(name="Qwen3.8 27B", params_b=27), Model(name="Qwen3.8-27B", params_b=70)],
        benchmarks=[Benchmark(name="gsm-8k"), Benchmark(name="GSM8K"), Benchmark(name="MMLU")],
    )
    extraction, rejected = ground(draft, ABSTRACT, "p")
    assert [m.name for m in extraction.methods] == ["GANQ"]
    assert extraction.methods[0].aliases == ["GPU-Adaptive Non-Uniform Quantization"]
    assert [m.params_b for m in extraction.models] == [27]
    # "gsm-8k" is GSM8K written differently: grounded, and the later duplicate is dropped.
    assert [b.name for b in extraction.benchmarks] == ["gsm-8k"]
    assert sorted(r.field for r in rejected) == ["benchmarks", "methods", "models"]


def test_name_match_ignores_case_spacing_and_punctuation() -> None:
    assert name_in_text("Llama 3.2-3B", "we fine-tune llama-3.2-3b")
    assert not name_in_text("Llama-3.1", "we fine-tune llama-3.2-3b")


def test_names_may_come_from_the_title_evidence_and_numbers_never() -> None:
    """Contract v3: the title is the paper's words for names (methods, models, benchmarks and
    the names a claim is attributed to), never for evidence or numbers."""
    title = "BiDAF: Bidirectional Attention Flow for Machine Comprehension on SQuAD"
    abstract = "We introduce a multi-stage network. Our model reaches 77.3 F1 on the test set."
    draft = ExtractionDraft(
        methods=[Method(name="BiDAF", aliases=["Bidirectional Attention Flow"])],
        benchmarks=[Benchmark(name="SQuAD")],
        claims=[
            ClaimDraft(value=77.3, metric="F1", benchmark="SQuAD", method="BiDAF", proposed=True,
                       evidence="Our model reaches 77.3 F1 on the test set"),
            ClaimDraft(value=68.0, metric="EM", evidence="Machine Comprehension on SQuAD 68.0"),
        ],
    )
    extraction, rejected = ground(draft, abstract, "p1", title)
    assert [m.name for m in extraction.methods] == ["BiDAF"] and extraction.methods[0].aliases == ["Bidirectional Attention Flow"]
    assert [b.name for b in extraction.benchmarks] == ["SQuAD"]
    [claim] = extraction.claims
    assert (claim.method, claim.benchmark, claim.proposed) == ("BiDAF", "SQuAD", True)
    assert [r.reason for r in rejected] == ["evidence is not found in the abstract"]
    # Without the title the same names are not the paper's words.
    extraction, rejected = ground(draft, abstract, "p1")
    assert extraction.methods == [] and extraction.claims[0].method is None
    assert "name 'BiDAF' does not occur in the abstract" in [r.reason for r in rejected]
    # A name never spans the title and the abstract.
    assert not ground(ExtractionDraft(benchmarks=[Benchmark(name="SQuAD We")]), abstract, "p1", title)[0].benchmarks


WORDS = (
    "The probe drifts about five times its repeat noise. Fifty families were studied, and the agent "
    "resolved ten autonomously in one tenth of a second. Two thirds of the runs beat twenty-one baselines."
)


@pytest.mark.parametrize(
    ("value", "unit", "evidence", "written"),
    [
        (5, "x", "about five times its repeat noise", "five"),
        (50, None, "Fifty families were studied", "Fifty"),
        (10, None, "the agent resolved ten autonomously", "ten"),
        (0.1, None, "in one tenth of a second", "one tenth"),
        (66.7, "%", "Two thirds of the runs", "Two thirds"),
        (0.67, None, "Two thirds of the runs", "Two thirds"),
        (21, None, "beat twenty-one baselines", "twenty-one"),
    ],
)
def test_a_number_written_as_words_grounds_with_its_span(value: float, unit: str | None, evidence: str, written: str) -> None:
    extraction, rejected = ground(ExtractionDraft(claims=[claim(value=value, unit=unit, evidence=evidence)]), WORDS, "p")
    assert rejected == []
    start, end = extraction.claims[0].value_span
    assert WORDS[start:end] == written


@pytest.mark.parametrize(
    ("value", "evidence"),
    [
        (6, "about five times its repeat noise"),  # not what the words say
        (10, "Fifty families were studied"),  # written, but outside the evidence
        (0.5, "in one tenth of a second"),
    ],
)
def test_number_words_follow_the_span_rules_of_digits(value: float, evidence: str) -> None:
    _, rejected = ground(ExtractionDraft(claims=[claim(value=value, evidence=evidence)]), WORDS, "p")
    assert [r.reason for r in rejected] == [f"value {value:g} is not written in the evidence"]


def test_a_word_is_no_model_size() -> None:
    text = "One model, TinyLM, is evaluated."
    extraction, rejected = ground(ExtractionDraft(models=[Model(name="TinyLM", params_b=1)]), text, "p")
    assert extraction.models == [] and rejected[0].reason == "parameter count is not written in the abstract"


def test_a_bound_written_after_its_number_is_kept() -> None:
    text = "It brings 1.5+% absolute improvements, keeps 90% or more of the accuracy and costs 3 points or less."
    draft = ExtractionDraft(claims=[
        claim(value=1.5, unit="%", bound="lower", evidence="1.5+% absolute improvements"),
        claim(value=90, unit="%", bound="lower", evidence="keeps 90% or more of the accuracy"),
        claim(value=3, unit="points", bound="upper", evidence="costs 3 points or less"),
        claim(value=90, unit="%", bound="upper", evidence="keeps 90% or more of the accuracy"),  # the wrong side
    ])
    extraction, rejected = ground(draft, text, "p")
    assert [c.bound for c in extraction.claims] == ["lower", "lower", "upper"]
    assert [(r.field, r.item["bound"]) for r in rejected] == [("attribution", "upper")]


def test_a_value_written_in_digits_and_in_words_is_placed_at_its_digits() -> None:
    text = "Two heads reach 2% error."
    extraction, _ = ground(ExtractionDraft(claims=[claim(value=2, unit="%", evidence=text)]), text, "p")
    start, end = extraction.claims[0].value_span
    assert text[start:end] == "2"


def test_what_the_tuning_recording_showed_grounding_dropping_is_kept() -> None:
    """From the recorded answers of the tuning set (never the held-out ones): a decimal split by a
    tokenizer ('7. 1% mAP') is one number; a bound with an article between ('over a 2x
    speedup', 'at least a 15% improvement') or 'within' ('within 2-5%') is written."""
    abstract = (
        "Gen-n-Val shows significant improvements (7. 1% mAP) over YOLO-Worldv2. TabFlex can achieve over a 2x "
        "speedup compared to TabPFN, maintaining accuracy within 2-5% of full-precision baselines, and achieving "
        "at least a 15% accuracy improvement over the base model. It is up to 1 , 800 + times faster."
    )
    draft = ExtractionDraft(claims=[
        ClaimDraft(value=7.1, unit="%", metric="mAP", evidence="Gen-n-Val shows significant improvements (7. 1% mAP)"),
        ClaimDraft(value=2, unit="x", metric="speedup", bound="lower", kind="change", evidence="TabFlex can achieve over a 2x speedup"),
        ClaimDraft(value=2, value_max=5, unit="%", bound="upper", evidence="maintaining accuracy within 2-5% of full-precision baselines"),
        ClaimDraft(value=15, unit="%", bound="lower", kind="change", evidence="at least a 15% accuracy improvement"),
        ClaimDraft(value=1800, unit="x", kind="change", evidence="up to 1 , 800 + times faster"),
    ])
    extraction, rejected = ground(draft, abstract, "p")
    assert rejected == []
    assert [(c.value, c.bound) for c in extraction.claims] == [(7.1, None), (2, "lower"), (2, "upper"), (15, "lower"), (1800, None)]
