"""One line of a batch output file, read as an online answer: parsed, validated and grounded by
:func:`~extractor.backends.openai.exchange.parse_answer`, whoever ran the batch (the OpenAI
Batch API, ``vllm run-batch``, SGLang, Together, Mistral). The answer is a result, a re-ask
for the next round, or why the paper failed; when one request has several lines, the best
answer is kept (:func:`best`), so a later bad line never replaces a good one."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from openai.types.chat import ChatCompletion

from extractor.backends.base import BackendResult
from extractor.backends.openai.batch_files import EXPORTED, BatchState, Carry, OutputLine, Submission, read_jsonl
from extractor.backends.openai.exchange import (
    CUT_OFF,
    MAX_REASKS,
    PARSE_ERRORS,
    Grounding,
    cut_off_message,
    invalid_message,
    parse_answer,
    reask_body,
    refusal,
    refused_message,
    request_body,
)
from extractor.backends.openai.prompts import Prompt
from extractor.backends.openai.tokens import counted_tokens, reported_tokens, usage_warning
from extractor.backends.openai.options import OpenAIOptions
from extractor.schema import ExtractionDraft

log = logging.getLogger(__name__)


@dataclass
class TokenCounter:
    """An answer's tokens: as its line reports them, else counted here from the paper's request
    and the answer (said once per run, naming where the answers came from)."""

    prompt: Prompt
    mode: str
    config: OpenAIOptions
    source: str  # the endpoint, or the files an import reads
    warned: bool = False

    def __call__(self, response: ChatCompletion, abstract: str, title: str | None) -> tuple[int, int]:
        tokens = reported_tokens(response)
        if tokens is None:
            request = request_body(self.mode, self.prompt.messages(abstract, title), self.config)
            tokens = counted_tokens(response, request, self.config.model)
            if not self.warned:
                self.warned = True
                log.warning(usage_warning(self.source))
        return tokens


@dataclass
class Answered:
    """What a round's output says about one paper, and its bookkeeping after this round."""

    carry: Carry
    result: BackendResult | None = None
    error: str | None = None
    reask: tuple[ChatCompletion, Exception] | None = None
    problem: str | None = None  # the line is not an answer at all: said by file and line

    @property
    def rank(self) -> int:
        return 3 if self.result is not None else 2 if self.reask is not None else 1 if self.problem is None else 0


def best(kept: Answered | None, new: Answered) -> Answered:
    """The better of two answers to one request: a result before a re-ask before an error, the
    earlier line on a tie (a repeated line changes nothing)."""
    return new if kept is None or new.rank > kept.rank else kept


def judge(
    item: OutputLine, carry: Carry, abstract: str, title: str | None, mode: str, config: OpenAIOptions,
    source: str, again: str, tokens: TokenCounter,
) -> Answered:
    """One output line for one paper. ``carry`` (a copy: it is changed) is what its earlier
    rounds left; ``source`` names the batch in messages, ``again`` says how to send it again."""
    try:
        return _judge(item.line, carry, abstract, title, mode, config, source, again, tokens)
    except (ValueError, AttributeError, TypeError, KeyError) as exc:  # pydantic, empty choices, a field of the wrong type
        problem = f"{item.where} ({item.key}) is not a chat completion: {' '.join(str(exc).split())[:200]}"
        return Answered(carry, error=f"{problem}; {again}", problem=problem)


def _judge(
    line: dict, carry: Carry, abstract: str, title: str | None, mode: str, config: OpenAIOptions, source: str, again: str,
    tokens: TokenCounter,
) -> Answered:
    response_part = line.get("response") or {}
    if line.get("error") or response_part.get("status_code") != 200:
        error = line.get("error") or (response_part.get("body") or {}).get("error") or {}
        if not isinstance(error, dict):
            error = {"message": str(error)}
        status = response_part.get("status_code")
        reason = error.get("message") or error.get("code") or "no answer"
        if error.get("code") in ("batch_expired", "batch_cancelled"):
            return Answered(carry, error=f"{reason} ({source}); {again}")
        carry.requests += 1  # it ran, and failed
        return Answered(carry, error=f"HTTP {status} in {source}: {reason}; {again}")
    response = ChatCompletion.model_validate(response_part["body"])
    carry.requests += 1
    prompt_tokens, completion_tokens = tokens(response, abstract, title)
    carry.prompt_tokens += prompt_tokens
    carry.completion_tokens += completion_tokens
    grounding = Grounding(abstract, title, reasks_left=carry.grounding_left)
    try:
        draft = parse_answer(response, mode, grounding)
    except CUT_OFF:
        return Answered(carry, error=cut_off_message(config.max_tokens))
    except PARSE_ERRORS as exc:
        said = refusal(response)
        if said:
            return Answered(carry, error=refused_message(said))
        if carry.reasks >= MAX_REASKS:
            return Answered(carry, error=invalid_message(carry.requests, carry.reasks, exc))
        carry.reasks += 1
        carry.grounding_left = grounding.reasks_left
        return Answered(carry, reask=(response, exc))
    return Answered(carry, result=BackendResult(
        draft=ExtractionDraft.model_validate(draft.model_dump()), usage=carry.usage(config.model), checked=grounding.checked))


def follow_up(state: BatchState, submission: Submission, reasks: dict[str, Answered], mode: str) -> list[Submission]:
    """The next round's files for the papers of ``submission`` whose answer is worth a re-ask:
    each request of its file sent back with instructor's re-ask messages (written, not saved)."""
    if not reasks:
        return []
    follow = []
    for key, line in zip(submission.keys, read_jsonl(state.directory / submission.name)):
        answer = reasks.get(key)
        if answer is not None and answer.reask is not None:
            response, error = answer.reask
            follow.append((key, reask_body(line["body"], mode, response, error)))
    carry = {key: a.carry for key, a in reasks.items()}
    return state.add(submission.round + 1, follow, carry, exported=submission.status == EXPORTED)
