"""Abstracts of well-known papers, pasted as a user would, with the answers a capable model gives
(names as the text writes them): scores on one benchmark and metric that state no differing
condition share one block whatever the models' sizes, and no error rate is ranked as accuracy.
The offline rules, run on the same abstracts, never rank an error rate as accuracy either. (Phi-3's
"69% on MMLU" and Flan-PaLM's "75.2% on five-shot MMLU" write no measure: grounding keeps no
metric for them, so they are not ranked.)"""

from __future__ import annotations

from pathlib import Path

from extractor.api import run
from extractor.config import make_config
from extractor.grounding import ground
from extractor.leaderboard import build_leaderboard, load_runs
from extractor.runs import Run
from extractor.schema import ClaimDraft, ExtractionDraft, Model, PaperResult

ALEXNET = (
    "We trained a large, deep convolutional neural network to classify the 1.2 million high-resolution images in the "
    "ImageNet LSVRC-2010 contest into the 1000 different classes. On the test data, we achieved top-1 and top-5 error "
    "rates of 37.5% and 17.0% which is considerably better than the previous state-of-the-art."
)
EFFICIENTNET = (
    "In particular, our EfficientNet-B7 achieves state-of-the-art 84.3% top-1 accuracy on ImageNet, while being 8.4x "
    "smaller and 6.1x faster on inference than the best existing ConvNet."
)
RESNET = (
    "On the ImageNet dataset we evaluate residual nets with a depth of up to 152 layers. An ensemble of these residual "
    "nets achieves 3.57% error on the ImageNet test set."
)
CHINCHILLA = (
    "We test this hypothesis by training a predicted compute-optimal model, Chinchilla, that uses the same compute "
    "budget as Gopher but with 70B parameters and 4x more data. As a highlight, Chinchilla reaches a state-of-the-art "
    "average accuracy of 67.5% on the MMLU benchmark, greater than a 7% improvement over Gopher."
)
PHI3 = (
    "We introduce phi-3-mini, a 3.8 billion parameter language model trained on 3.3 trillion tokens (e.g., phi-3-mini "
    "achieves 69% on MMLU and 8.38 on MT-bench). We also provide some initial parameter-scaling results with a 7B and "
    "14B models trained for 4.8T tokens, called phi-3-small and phi-3-medium, both significantly more capable than "
    "phi-3-mini (e.g., respectively 75% and 78% on MMLU, and 8.7 and 8.9 on MT-bench)."
)
PHI1 = (
    "We introduce phi-1, a new large language model for code, with significantly smaller size than competing models: "
    "phi-1 is a Transformer-based model with 1.3B parameters, trained for 4 days on 8 A100s, using a selection of "
    "textbook quality data from the web (6B tokens) and synthetically generated textbooks and exercises with GPT-3.5 "
    "(1B tokens). Despite this small scale, phi-1 attains pass@1 accuracy 50.6% on HumanEval and 55.5% on MBPP."
)
STARCODER = (
    "The BigCode community introduces StarCoder and StarCoderBase: 15.5B parameter models with 8K context length, "
    "infilling capabilities and fast large-batch inference enabled by multi-query attention. We fine-tuned "
    "StarCoderBase on 35B Python tokens, resulting in the creation of StarCoder. StarCoder outperforms every model "
    "that is fine-tuned on Python, can be prompted to achieve 40% pass@1 on HumanEval, and still retains its "
    "performance on other programming languages."
)
FLAN = (
    "Flan-PaLM 540B instruction-finetuned on 1.8K tasks outperforms PaLM 540B by a large margin (+9.4% on average). "
    "Flan-PaLM 540B achieves state-of-the-art performance on several benchmarks, such as 75.2% on five-shot MMLU."
)


def paper(paper_id: str, abstract: str, claims: list[dict], models: list[Model] | None = None) -> PaperResult:
    extraction, rejected = ground(ExtractionDraft(models=models or [], claims=[ClaimDraft(**c) for c in claims]), abstract, paper_id)
    assert not rejected, rejected
    return PaperResult(id=paper_id, title=paper_id, status="ok", abstract=abstract, extraction=extraction)


def answered() -> list[PaperResult]:
    """Six papers, extracted as a capable model extracts them."""
    return [
        paper("alexnet", ALEXNET, [
            dict(value=37.5, unit="%", metric="top-1", benchmark="ImageNet", proposed=True, evidence="top-1 and top-5 error rates of 37.5% and 17.0%"),
            dict(value=17.0, unit="%", metric="top-5", benchmark="ImageNet", proposed=True, evidence="top-1 and top-5 error rates of 37.5% and 17.0%"),
        ]),
        paper("efficientnet", EFFICIENTNET, [
            dict(value=84.3, unit="%", metric="top-1 accuracy", benchmark="ImageNet", model="EfficientNet-B7", proposed=True,
                 evidence="our EfficientNet-B7 achieves state-of-the-art 84.3% top-1 accuracy on ImageNet"),
        ]),
        paper("resnet", RESNET, [
            dict(value=3.57, unit="%", metric="error", benchmark="ImageNet", setting="ensemble; test set", method="residual nets",
                 proposed=True, evidence="An ensemble of these residual nets achieves 3.57% error on the ImageNet test set"),
        ]),
        paper("chinchilla", CHINCHILLA, [
            dict(value=67.5, unit="%", metric="average accuracy", benchmark="MMLU", model="Chinchilla", proposed=True,
                 evidence="Chinchilla reaches a state-of-the-art average accuracy of 67.5% on the MMLU benchmark"),
        ], models=[Model(name="Chinchilla", params_b=70)]),
        paper("phi1", PHI1, [
            dict(value=50.6, unit="%", metric="pass@1", benchmark="HumanEval", model="phi-1", proposed=True,
                 evidence="phi-1 attains pass@1 accuracy 50.6% on HumanEval"),
        ], models=[Model(name="phi-1", params_b=1.3)]),
        paper("starcoder", STARCODER, [
            dict(value=40.0, unit="%", metric="pass@1", benchmark="HumanEval", model="StarCoder", proposed=True,
                 setting="prompted", evidence="can be prompted to achieve 40% pass@1 on HumanEval"),
        ], models=[Model(name="StarCoder", params_b=15.5)]),
    ]


def test_one_benchmark_and_metric_is_one_block_whatever_the_sizes_and_no_error_is_an_accuracy() -> None:
    scores = build_leaderboard(answered()).scores
    humaneval = scores[scores["benchmark"] == "HumanEval"]
    assert humaneval["block"].nunique() == 1 and humaneval["paper"].nunique() == 2
    assert sorted(humaneval["size_b"]) == [1.3, 15.5] and humaneval["configuration"].fillna("").tolist() == ["", "prompted"]
    mmlu = scores[scores["benchmark"] == "MMLU"]
    assert mmlu["block_conditions"].tolist() == ["5-shot"]  # MMLU's usual count
    imagenet = scores[scores["benchmark"] == "ImageNet"].set_index("comparable")
    assert imagenet["metric"].to_dict() == {37.5: "top-1 error", 17.0: "top-5 error", 84.3: "top-1 accuracy", 3.57: "error rate"}
    accuracy = imagenet.loc[imagenet["better"] == "higher"]
    assert accuracy.index.tolist() == [84.3]  # the error rates are ranked lower-is-better, apart


def test_the_rules_never_rank_an_error_rate_as_accuracy(tmp_path: Path) -> None:
    inputs = tmp_path / "pasted.txt"
    inputs.write_text("\n\n".join((ALEXNET, EFFICIENTNET, RESNET, CHINCHILLA, PHI3, PHI1, STARCODER, FLAN)) + "\n", encoding="utf-8")
    run([str(inputs)], tmp_path / "run", make_config("rules", use_cache=False))
    claims = build_leaderboard(*load_runs([Run.open(tmp_path / "run")])).claims
    errors = claims[claims["evidence"].str.contains("error", case=False) & (claims["benchmark"] == "ImageNet") & (claims["kind"] == "score")]
    assert 37.5 in errors["value"].tolist() and set(errors["better"]) == {"lower"}  # a top-1 error, never an accuracy
