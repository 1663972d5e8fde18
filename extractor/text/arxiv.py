"""arXiv identifiers in the places users keep them: a bare id, a URL, "arXiv:2401.01234v2"."""

from __future__ import annotations

import re
from collections.abc import Iterable

_IN_TEXT = re.compile(r"(?:arxiv[:/ ]|abs/|pdf/)\s*(\d{4}\.\d{4,5})(?:v\d+)?", re.IGNORECASE)
_BARE = re.compile(r"^(\d{4}\.\d{4,5})(?:v\d+)?$")


def find_arxiv_id(texts: Iterable[object]) -> str | None:
    """The first arXiv id (without version) among ``texts``: a text that is an id, or one that
    names an id ('arXiv:2401.01234', '.../abs/2401.01234v2'). Non-text values are skipped."""
    for text in texts:
        if not isinstance(text, str):
            continue
        text = text.strip()
        found = _BARE.match(text) or _IN_TEXT.search(text)
        if found:
            return found.group(1)
    return None
