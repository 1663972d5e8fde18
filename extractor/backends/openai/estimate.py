"""What a run of the openai backend would send and cost, without sending anything (its dry-run
step: the pipeline finds the distinct abstracts the cache does not hold, :mod:`extractor.
pipeline.dry_run`, and this prices them).

Requests: one per distinct abstract that is not in the cache, exactly as the runner counts
them. Prompt tokens: the real request (prompt messages, and the schema in the shape the mode
sends it: tool definition, ``response_format`` or schema text) rendered by instructor and
counted with tiktoken, using OpenAI's chat accounting (3 tokens per message, 3 to prime the
reply); the tool and response_format definitions are counted as their JSON, which OpenAI
renders in a form of its own, so that part is an approximation. Completion tokens: the
few-shot examples' answers (every field written out, as models do) have a known number of
tokens per abstract token; an abstract is expected to need as many. Re-asks and retries are
not foreseen. Cost: tokens times the price table of :mod:`extractor.backends.openai.pricing`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import tiktoken

from extractor.backends.cache import ExtractionCache, names_key
from extractor.backends.openai.exchange import request_body
from extractor.backends.openai.name_mapping import Question, names_identity, new_questions
from extractor.backends.openai.options import DEFAULT_PROMPT_VERSION, OpenAIOptions, choose_mode
from extractor.backends.openai.pricing import cost_usd, price_for
from extractor.backends.openai.tokens import encoding_for, request_tokens
from extractor.backends.openai.prompts import Prompt, load_prompt
from extractor.catalog.candidates import candidates
from extractor.schema import ExtractionDraft

def render_request(prompt: Prompt, mode: str, abstract: str, title: str | None) -> dict:
    """The request body the run sends for this abstract in this mode."""
    return request_body(mode, prompt.messages(abstract, title), OpenAIOptions())


@dataclass(frozen=True)
class Overhead:
    """Prompt tokens every request carries besides its abstract and title."""

    mode: str
    instructions: int  # the system prompt without its examples
    examples: int  # the few-shot examples
    schema: int  # the schema as the mode sends it, the user template and message framing
    total: int


def prompt_overhead(model: str | None, mode: str, prompt_version: str = DEFAULT_PROMPT_VERSION) -> Overhead:
    """The tokens a request costs before its abstract: what to keep lean."""
    prompt = load_prompt(prompt_version)
    encoding = encoding_for(model)
    total = request_tokens(render_request(prompt, mode, "", None), encoding)
    instructions = len(encoding.encode(prompt.instructions))
    examples = len(encoding.encode(prompt.examples_text))
    return Overhead(mode, instructions, examples, total - instructions - examples, total)


def completion_ratio(prompt: Prompt, encoding: tiktoken.Encoding) -> float:
    """Completion tokens per abstract token in the prompt's own worked examples."""
    answers = sum(len(encoding.encode(e.output.model_dump_json(exclude_defaults=True))) for e in prompt.examples)  # as the prompt shows them
    abstracts = sum(len(encoding.encode(e.abstract)) for e in prompt.examples)
    return answers / abstracts


@dataclass(frozen=True)
class NamesEstimate:
    """The name requests (:mod:`.name_mapping`) for the new names of the answers already cached; the
    answers still to come bring theirs, at about ``tokens_each`` prompt tokens a name."""

    requests: int
    prompt_tokens: int
    completion_tokens: int
    tokens_each: int
    cost_usd: float | None


def estimate_names(drafts: list[ExtractionDraft], config: OpenAIOptions, cache: ExtractionCache | None, encoding: tiktoken.Encoding) -> NamesEstimate:
    """The requests the names step would send for these cached answers' names, and their tokens:
    each request rendered as the run sends it, its answer as long as the first candidate's."""
    from extractor.backends.openai.name_requests import load_names_prompt, name_request

    prompt = load_names_prompt()
    identity = names_identity(config.model, prompt)
    names = [(kind, getattr(c, kind)) for d in drafts for c in d.claims for kind in ("benchmark", "metric") if getattr(c, kind)]
    questions = [
        q for q in new_questions(names, set())
        if cache is None or cache.get_value(names_key(identity, q.kind, q.name, q.candidates)) is None
    ]
    mode = choose_mode(config)
    sizes = [
        request_tokens(name_request(mode, prompt.messages(q.kind, q.name, q.candidates), q.candidates, config), encoding)
        for q in questions or [Question("benchmark", "", candidates("benchmark", ""))]
    ]
    prompt_tokens = sum(sizes) if questions else 0
    completion_tokens = sum(len(encoding.encode(json.dumps({"same_as": q.candidates[0]}))) for q in questions)
    known = price_for(config.model) is not None
    return NamesEstimate(
        requests=len(questions), prompt_tokens=prompt_tokens, completion_tokens=completion_tokens,
        tokens_each=round(sum(sizes) / len(sizes)),
        cost_usd=cost_usd(config.model, prompt_tokens, completion_tokens) if known else None,
    )


@dataclass(frozen=True)
class Estimate:
    """The requests the pending abstracts need, their tokens and cost, and the names step's."""

    model: str | None
    mode: str
    encoding: str
    requests: int  # first attempts that would be sent
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float | None  # None when the model's price is unknown
    overhead: Overhead
    batch: bool = False  # priced at the Batch API's price
    names: NamesEstimate | None = None  # the names step, when it is on

    def rows(self) -> list[tuple[str, str]]:
        """The estimate as (what, how much) lines for a table."""
        price = price_for(self.model, self.batch)
        tier = "Batch API price" if self.batch else "standard price"
        cost = (
            f"${self.cost_usd:.4f} ({self.model} at ${price.input:g} in / ${price.output:g} out per 1M tokens, {tier})"
            if self.cost_usd is not None and price is not None
            else f"unknown: no price for model {self.model!r} in the price table (tokens only)"
        )
        overhead, names = self.overhead, self.names
        name_rows = [] if names is None else [(
            "name requests",
            f"{names.requests:,} for the new names of the cached answers ({names.prompt_tokens:,} prompt, "
            f"{names.completion_tokens:,} completion tokens, in the cost above); one more per new name of the answers "
            f"to come, about {names.tokens_each:,} prompt tokens each (none without the names step)",
        )]
        return [
            (
                "requests to send",
                f"{self.requests:,} "
                + ("(batch lines; re-asks go out in follow-up batches)" if self.batch else "(first attempts; re-asks and retries come on top)"),
            ),
            ("prompt tokens", f"{self.prompt_tokens:,} (tiktoken {self.encoding}, mode {self.mode})"),
            ("completion tokens", f"{self.completion_tokens:,} (as many per abstract token as the few-shot answers)"),
            ("cost", cost),
            *name_rows,
            (
                "prompt overhead per request",
                f"{overhead.total:,} tokens: instructions {overhead.instructions:,}, examples "
                f"{overhead.examples:,}, schema and framing {overhead.schema:,}",
            ),
        ]


def estimate(
    options: OpenAIOptions, pending: list[tuple[str, str | None]], answered: list[ExtractionDraft], cache: ExtractionCache | None,
) -> Estimate:
    """What the run would send for the ``pending`` abstracts (and titles), and what the names
    step would send for the ``answered`` drafts the cache holds; sends nothing."""
    encoding = encoding_for(options.model)
    names = estimate_names(answered, options, cache, encoding) if options.map_names else None
    mode = choose_mode(options)
    prompt = load_prompt(options.prompt_version)
    ratio = completion_ratio(prompt, encoding)
    prompt_tokens = completion_tokens = 0
    for abstract, title in pending:
        prompt_tokens += request_tokens(render_request(prompt, mode, abstract, title), encoding)
        completion_tokens += round(ratio * len(encoding.encode(abstract)))
    known = price_for(options.model) is not None
    extraction_cost = cost_usd(options.model, prompt_tokens, completion_tokens, options.batch) if known else None
    return Estimate(
        model=options.model,
        mode=mode,
        encoding=encoding.name,
        requests=len(pending),
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
        cost_usd=None if extraction_cost is None else extraction_cost + (names.cost_usd or 0.0 if names else 0.0),
        batch=options.batch,
        overhead=prompt_overhead(options.model, mode, options.prompt_version),
        names=names,
    )
