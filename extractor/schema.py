"""The extraction contract (docs/ANNOTATION.md) as pydantic models.

Two layers: the *draft* models are what a backend (an LLM or the rules) returns; the grounded
models add what only the code may compute (claim ids and character spans in the abstract).
The JSON Schema of both is exported to ``schemas/`` and checked by a test.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

Kind = Literal["score", "change"]
Direction = Literal["increase", "decrease"]
#: A number the text gives as a ceiling ('less than 10%') or a floor ('more than 90%', 'at least').
Bound = Literal["upper", "lower"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


#: The most characters a spreadsheet cell holds (Excel; LibreOffice cuts there too).
CELL_CHARS = 32_767
#: A name or a metric longer than this is no name: the bound keeps every field, and the review
#: sheet's hidden base, inside a spreadsheet cell (32,767 characters).
MAX_NAME = 500
Name = Annotated[str, StringConstraints(max_length=MAX_NAME)]
#: Evidence is a sentence or two of the abstract (the longest of 857 recorded answers is 193
#: characters; the rules cut a longer sentence around the number). With it, a claim's nine
#: names (seven fields, two merged names) and a reviewer's note (``MAX_NOTE`` of the review
#: sheet), a row's hidden base stays under a cell's 32,767 characters even when JSON writes
#: every character as two (quotes, backslashes, line breaks): 2 * (9 * 500 + 2 * 2000) + ids.
MAX_EVIDENCE = 2000


# The draft models are sent to the LLM with every request, so their field descriptions are
# short: the system prompt (prompts/<version>/system.md) defines each field with examples, and
# the descriptions restate the attribution rules of docs/ANNOTATION.md (version 3) where the
# model reads each field.


class Method(_Strict):
    name: Name
    aliases: list[Name] = Field(default_factory=list)
    proposed: bool = True


class Model(_Strict):
    name: Name
    params_b: float | None = Field(None, ge=0)
    active_params_b: float | None = Field(None, ge=0)


class Benchmark(_Strict):
    name: Name


class ClaimDraft(_Strict):
    """One reported number, as a backend proposes it."""

    # A non-finite number (1e999 overflows to inf; an LLM may answer NaN) is never a claim.
    value: float = Field(allow_inf_nan=False)
    value_max: float | None = Field(None, allow_inf_nan=False)
    bound: Bound | None = Field(None, description="A ceiling ('less than N') or floor ('at least N').")
    unit: Name | None = Field(None, description="'%', 'x', 'points', 'GiB', 'ms', ... or null.")
    metric: Name | None = Field(None, description="In the paper's words (top-1 accuracy, pass@1, speedup).")
    benchmark: Name | None = Field(None, description="The dataset this number is measured on.")
    method: Name | None = Field(None, description="What achieved it; we/our method = the proposed method.")
    model: Name | None = Field(None, description="The pretrained model that achieved it.")
    baseline: Name | None = Field(None, description="What it is compared with ('FP16').")
    setting: Name | None = None
    proposed: bool = Field(False, description="The paper's own proposed method's result, named or not.")
    kind: Kind = Field("score", description="change: a gain, reduction, speedup or gap.")
    direction: Direction | None = Field(None, description="Of the measured quantity, for a change.")
    evidence: Annotated[str, StringConstraints(max_length=MAX_EVIDENCE)]


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
    unnamed_sizes_b: list[float] = Field(
        default_factory=list,
        description="Sizes (billions of parameters) of models the text does not name ('four open models of 8 to "
        "27 billion parameters'): the paper's model sizes, never entries of the list of models.",
    )
    benchmarks: list[Benchmark] = Field(default_factory=list)
    claims: list[Claim] = Field(default_factory=list)


class Rejection(_Strict):
    """An item a backend proposed that the grounding check refused. ``attribution``: a claim kept
    without one of its names (benchmark, method, model or baseline), which the abstract does
    not write, or without its bound, unit or metric, which the text at its number does not
    give; ``item`` is the claim as the backend gave it."""

    field: Literal["methods", "models", "benchmarks", "claims", "attribution"]
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
