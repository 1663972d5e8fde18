"""One paper's work in two halves, so that any engine can run the middle (a Ray Data pipeline,
``ray.data.llm``, a queue of workers): :func:`paper_request`, the Chat Completions request to
send for an abstract, and :func:`paper_result`, the finished, grounded result from the model's
answer to it. Both are the online run's own steps: the same body per mode, and the answer
parsed, validated and grounded as online. With no round trip left for a re-ask, an item the
abstract does not support goes to ``rejected`` (as after an online run's last re-ask), and an
answer that is not an extraction fails the paper with the reason.
"""

from __future__ import annotations

from typing import Any

from openai.types.chat import ChatCompletion

from extractor.backends.base import BackendResult
from extractor.backends.openai.exchange import CUT_OFF, PARSE_ERRORS, Grounding, parse_answer, refusal, request_body
from extractor.backends.openai.options import DEFAULT_MODEL, OpenAIOptions, choose_mode
from extractor.backends.openai.pricing import cost_usd
from extractor.backends.openai.prompts import load_prompt
from extractor.config import RunConfig
from extractor.errors import ConfigError
from extractor.pipeline.finish import Failure, grounded
from extractor.pipeline.ingest import Paper, paper_id
from extractor.pipeline.runner import ENGINE
from extractor.schema import ExtractionDraft, PaperResult, Source, Usage


def openai_options(config: RunConfig | None) -> OpenAIOptions:
    """The openai backend's options of ``config`` (its defaults and gpt-4o-mini when none):
    the mode is the one a run with them uses, no key or base URL needed."""
    if config is None:
        return OpenAIOptions(model=DEFAULT_MODEL)
    if not isinstance(config.options, OpenAIOptions):
        raise ConfigError(f"the two halves are the openai backend's; this config is backend {config.backend}'s")
    return config.options


def paper_request(abstract: str, title: str | None = None, config: RunConfig | None = None) -> dict[str, Any]:
    """The Chat Completions request body (model, messages, structured-output part) that an
    online run sends for this abstract."""
    options = openai_options(config)
    messages = load_prompt(options.prompt_version).messages(abstract.strip(), title)
    return request_body(choose_mode(options), messages, options)


def paper_result(
    answer: dict[str, Any], abstract: str, title: str | None = None, config: RunConfig | None = None,
    id: str | None = None,  # noqa: A002 (the paper's id, as in every input)
) -> PaperResult:
    """The paper's result from the model's ``answer`` (a Chat Completions response body, as
    JSON) to :func:`paper_request`'s request: grounded, with its usage and cost."""
    options = openai_options(config)
    abstract = abstract.strip()
    paper = Paper(id=id or paper_id(abstract), abstract=abstract, title=title, source=Source(file=ENGINE))
    try:
        response = ChatCompletion.model_validate(answer)
    except (ValueError, TypeError) as exc:
        return grounded(paper, Failure(f"the answer is not a chat completion: {' '.join(str(exc).split())[:200]}", Usage()))
    tokens = response.usage
    prompt, completion = (tokens.prompt_tokens or 0, tokens.completion_tokens or 0) if tokens else (0, 0)
    usage = Usage(prompt_tokens=prompt, completion_tokens=completion, requests=1, cost_usd=cost_usd(options.model, prompt, completion))
    try:
        draft = parse_answer(response, choose_mode(options), Grounding(abstract, title, reasks_left=0))
    except CUT_OFF:
        return grounded(paper, Failure(f"the answer was cut off at the token limit (max_tokens={options.max_tokens})", usage))
    except (*PARSE_ERRORS, ValueError) as exc:
        said = refusal(response)
        reason = f"the model refused: {said}" if said else f"the answer is not a valid extraction: {' '.join(str(exc).split())[:300]}"
        return grounded(paper, Failure(reason, usage))
    return grounded(paper, BackendResult(ExtractionDraft.model_validate(draft.model_dump()), usage))
