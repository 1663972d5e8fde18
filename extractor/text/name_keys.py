"""Names compared as a reader compares them: 'Llama 3.2-3B' and 'llama-3.2 3b' are one name.

Grounding, the rules, the catalog, the leaderboard and the evaluator all ask whether two names
are one, or whether a text writes a name; they share these functions so they agree.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from operator import attrgetter
from typing import TypeVar

T = TypeVar("T")

_NAME_KEY = re.compile(r"[^0-9a-z]+")


def name_key(name: str) -> str:
    """Case-, space- and punctuation-insensitive form of a name: 'Llama 3.2-3B' = 'llama323b'."""
    return _NAME_KEY.sub("", name.lower())


@lru_cache(maxsize=256)
def _text_key(text: str) -> str:
    """The name key of a whole text, folded once per text for all the names checked in it."""
    return name_key(text)


def name_in_text(name: str, text: str | tuple[str, ...]) -> bool:
    """Whether the text (or one of the texts: a name never spans two) writes the name."""
    key = name_key(name)
    return bool(key) and any(key in _text_key(t) for t in ((text,) if isinstance(text, str) else text))


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
