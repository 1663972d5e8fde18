"""Canonical JSON and tagged content hashes, shared by the cache, paper ids and the store."""

from __future__ import annotations

import hashlib
import json
from typing import Any

HASH_PREFIX = "s2:"  # sha256; a change of scheme changes the prefix and so every key


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def content_hash(value: Any) -> str:
    text = value if isinstance(value, str) else canonical_json(value)
    return HASH_PREFIX + hashlib.sha256(text.encode("utf-8")).hexdigest()


def short_hash(value: Any, length: int = 12) -> str:
    """A short hex digest for human-facing ids."""
    return content_hash(value)[len(HASH_PREFIX) : len(HASH_PREFIX) + length]


def normalize_text(text: str) -> str:
    """Whitespace-folded text: two copies of one abstract that differ in line wrapping are one.
    ``str.split`` splits where ``re``'s ``\\s`` matches (both ask ``str.isspace``), at three
    times the speed of a substitution."""
    return " ".join(text.split())
