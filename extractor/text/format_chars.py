"""Unicode format characters (category Cf: zero-width space, soft hyphen, word joiner, bidi
marks) are invisible and say nothing: ``8\u200b3.6%`` is 83.6%. Numbers and evidence are read
with them taken out, and every position found is mapped back into the original text.
"""

from __future__ import annotations

import unicodedata


def is_format(ch: str) -> bool:
    return ch > "\x7f" and unicodedata.category(ch) == "Cf"


def drop_format(text: str) -> tuple[str, tuple[int, ...] | None]:
    """``text`` without its format characters, and the original index of each kept character
    (None when there was nothing to drop: indices are the same)."""
    if text.isascii() or not any(is_format(ch) for ch in set(text)):  # each character once
        return text, None
    kept = [i for i, ch in enumerate(text) if not is_format(ch)]
    return "".join(text[i] for i in kept), tuple(kept)


def original_span(offsets: tuple[int, ...] | None, start: int, end: int) -> tuple[int, int]:
    """The [start, end) of a match in the dropped text, as a span of the original text."""
    if offsets is None or start == end:
        return start, end
    return offsets[start], offsets[end - 1] + 1
