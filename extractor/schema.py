"""The extraction contract (../shared/spec/ANNOTATION.md) as pydantic models.

Two layers: the *draft* models are what a backend (an LLM or the rules) returns; the grounded
models add what only the code may compute (claim ids and character spans in the abstract).
The JSON Schema of both is exported to ``schemas/`` and checked by a test.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Kind = Literal["score", "change"]
Direction = Literal["increase", "decrease"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Method(_Strict):
    name: str = Field(description="Name as written in the abstract, e.g. 'GANQ'.")
    aliases: list[str] = Field(
        default_factory=list,
        description="Other names for the same method in the abstract, e.g. its expansion.",
    )
    proposed: bool = Field(
        True, description="True when this paper introduces it; false for a baseline it compares to."
    )


class Model(_Strict):
    name: str = Field(description="Model name as written, e.g. 'Qwen3.8-27B'.")
    params_b: float | None = Field(
        None, ge=0, description="Total parameters in billions when the text gives a size."
    )
    active_params_b: float | None = Field(
        None, ge=0, description="Active parameters in billions for mixture-of-experts models."
    )


class Benchmark(_Strict):
    name: str = Field(description="Dataset, benchmark or test suite name as written.")


class ClaimDraft(_Strict):
    """One reported number, as a backend proposes it."""

    value: float = Field(description="The number as written: 83.6% -> 83.6; 2.57x -> 2.57.")
    value_max: float | None = Field(None, description="Upper end of a range (9--34 -> 34).")
    unit: str | None = Field(None, description="'%', 'x', 'points', 'GiB', 'ms', ... or null.")
    metric: str | None = Field(None, description="accuracy, perplexity, speedup, F1, pass@1, ...")
    benchmark: str | None = Field(None, description="Benchmark the number was measured on.")
    method: str | None = Field(None, description="Method the number belongs to.")
    model: str | None = Field(None, description="Model the number belongs to.")
    baseline: str | None = Field(None, description="What a change is relative to ('FP16').")
    setting: str | None = Field(None, description="Condition such as '3-bit' or '32K context'.")
    kind: Kind = Field("score", description="'score' for an absolute result, 'change' otherwise.")
    direction: Direction | None = Field(
        None, description="For a change: whether the quantity went up or down."
    )
    evidence: str = Field(
        description="The exact fragment of the abstract that states the number (copy it)."
    )


class ExtractionDraft(_Strict):
    """What a backend returns for one abstract."""

    methods: list[Method] = Field(default_factory=list)
    models: list[Model] = Field(default_factory=list)
    benchmarks: list[Benchmark] = Field(default_factory=list)
    claims: list[ClaimDraft] = Field(default_factory=list)


class Claim(ClaimDraft):
    """A grounded claim: its number and evidence were found in the abstract."""

    id: str = Field(description="Stable id from the paper, the value and where it sits.")
    span: tuple[int, int] = Field(description="[start, end) of the evidence in the abstract.")
    value_span: tuple[int, int] = Field(description="[start, end) of the number itself.")


class Extraction(_Strict):
    methods: list[Method] = Field(default_factory=list)
    models: list[Model] = Field(default_factory=list)
    benchmarks: list[Benchmark] = Field(default_factory=list)
    claims: list[Claim] = Field(default_factory=list)


class Rejection(_Strict):
    """An item a backend proposed that the grounding check refused."""

    field: Literal["methods", "models", "benchmarks", "claims"]
    item: dict = Field(description="The item as the backend gave it.")
    reason: str


class Usage(_Strict):
    prompt_tokens: int = 0
    completion_tokens: int = 0
    requests: int = 0
    retries: int = Field(0, description="Transport retries (429, 5xx, timeouts).")
    reasks: int = Field(0, description="Validation re-asks sent back to the model.")
    cost_usd: float = 0.0
    cached: bool = False

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            requests=self.requests + other.requests,
            retries=self.retries + other.retries,
            reasks=self.reasks + other.reasks,
            cost_usd=self.cost_usd + other.cost_usd,
            cached=self.cached and other.cached,
        )


class Source(_Strict):
    file: str
    line: int | None = None


class PaperResult(_Strict):
    """One line of ``papers.jsonl``."""

    id: str
    title: str | None = None
    status: Literal["ok", "failed"]
    error: str | None = None
    source: Source | None = None
    abstract: str | None = None
    metadata: dict = Field(default_factory=dict)
    extraction: Extraction | None = None
    rejected: list[Rejection] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)


EXPORTED_SCHEMAS: dict[str, type[BaseModel]] = {
    "extraction_draft": ExtractionDraft,
    "paper_result": PaperResult,
}


def json_schemas() -> dict[str, dict]:
    """The JSON Schema of each exported model, as written to ``schemas/<name>.schema.json``."""
    return {name: model.model_json_schema() for name, model in EXPORTED_SCHEMAS.items()}
