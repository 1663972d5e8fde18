"""The offline rules extractor: pure functions from an abstract to an ExtractionDraft."""

from __future__ import annotations

import re

from ..numbers import find_numbers
from ..schema import ClaimDraft, ExtractionDraft

RULES_VERSION = "0.1"

_SENTENCE = re.compile(r"[^.!?]*(?:[.!?](?=\s|$)|$)")


def extract(abstract: str) -> ExtractionDraft:
    """Numbers written with a result unit (%, x, points) become claims, with their sentence."""
    claims = []
    for sentence in _SENTENCE.finditer(abstract):
        text = sentence.group().strip()
        if not text:
            continue
        for mention in find_numbers(text):
            after = text[mention.end : mention.end + 8].lstrip()
            unit = "%" if after.startswith("%") else "x" if re.match(r"(x|times|×)\b", after) else None
            if unit is None and not after.startswith("point"):
                continue
            claims.append(ClaimDraft(value=mention.value, unit=unit or "points", evidence=text))
    return ExtractionDraft(claims=claims)
