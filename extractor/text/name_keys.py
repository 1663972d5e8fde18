"""Names compared as a reader compares them: 'Llama 3.2-3B' and 'llama-3.2 3b' are one name.

Grounding, the rules, the catalog, the leaderboard and the evaluator all ask whether two names
are one, or whether a text writes a name; they share these functions so they agree.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from bisect import bisect_left
from functools import lru_cache
from itertools import accumulate
from operator import attrgetter
from typing import NamedTuple, TypeVar

T = TypeVar("T")

_NAME_KEY = re.compile(r"[^0-9a-z]+")


def name_key(name: str) -> str:
    """Case-, space- and punctuation-insensitive form of a name: 'Llama 3.2-3B' = 'llama323b'."""
    return _NAME_KEY.sub("", name.lower())


# A word of a text, for names: a run of digits and the letters after it, or a run of letters;
# so a new word starts where digits follow letters ('ResNet50' holds 'ResNet'; 'leq3B', a LaTeX
# macro that lost its backslash, holds '3B') but never inside letters ('search' holds no 'ARC').
_WORD = re.compile(r"[0-9]+[a-z]*|[a-z]+")


class _TextKey(NamedTuple):
    """A text's name key, and where in it each of the text's words ends (ascending)."""

    key: str
    ends: list[int]

    def word_ends_at(self, at: int) -> bool:
        i = bisect_left(self.ends, at)
        return i < len(self.ends) and self.ends[i] == at


@lru_cache(maxsize=256)
def _text_key(text: str) -> _TextKey:
    """The name key of a whole text with its word ends, folded once per text for all the names
    checked in it."""
    words = _WORD.findall(text.lower())
    return _TextKey("".join(words), list(accumulate(map(len, words))))


# What may follow a name inside its word: a plural ('PReLUs'), or a model's variant written as
# a subscript that lost its markup ('BERT$_{base}$' as 'BERTbase', 'ELECTRAlarge').
_SUFFIXES = ("s", "es", "base", "large", "small", "tiny", "medium", "huge", "xl", "xxl")


@lru_cache(maxsize=4096)
def _whole_words(key: str, original: str) -> bool:
    """Whether ``key`` is in the text's key from the start of a word to the end of one, or
    to one of :data:`_SUFFIXES` that ends it: 'ARC' is not in 'search', nor 'ImageNet' in
    'image networks'. Kept: grounding asks again for the names it keeps."""
    text = _text_key(original)
    at = text.key.find(key)
    while at >= 0:
        end = at + len(key)
        if (at == 0 or text.word_ends_at(at)) and (
            text.word_ends_at(end)
            or any(text.key.startswith(suffix, end) and text.word_ends_at(end + len(suffix)) for suffix in _SUFFIXES)
        ):
            return True
        at = text.key.find(key, at + 1)
    return False


def name_in_text(name: str, text: str | tuple[str, ...]) -> bool:
    """Whether the text (or one of the texts: a name never spans two) writes the name, in whole
    words: ignoring case, spacing and punctuation, but never inside a longer word."""
    key = name_key(name)
    return bool(key) and any(_whole_words(key, t) for t in ((text,) if isinstance(text, str) else text))


def paper_texts(abstract: str, title: str | None) -> tuple[str, ...]:
    """The texts a name may come from: the title and the abstract."""
    return (title, abstract) if title and title.strip() else (abstract,)


def unique_names(items: Iterable[T], name: Callable[[T], str] = attrgetter("name")) -> list[T]:
    """The first item of each name, in order; names equal up to case, spacing and punctuation
    are one name."""
    seen: set[str] = set()
    out = []
    for item in items:
        key = name_key(name(item))
        if key and key not in seen:
            seen.add(key)
            out.append(item)
    return out
