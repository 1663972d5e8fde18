"""One short label per paper, used wherever a paper is named: a board row of its unnamed
proposed method, a chart bar, a Title column's neighbour."""

from __future__ import annotations

import re

_NAME_BEFORE_COLON = re.compile(r"^\s*([^:]{1,40}?)\s*:\s+\S")
MAX_WORDS = 6
MAX_CHARS = 48


def paper_label(title: str | None, paper_id: str) -> str:
    """The name a title gives before its colon ('BiDAF: Bidirectional Attention Flow ...' is
    'BiDAF'), else the title's first words ('Attention Is All You Need'), else the paper id."""
    title = " ".join((title or "").split())
    if not title:
        return paper_id
    named = _NAME_BEFORE_COLON.match(title)
    if named and len(named.group(1).split()) <= 4:
        return named.group(1)
    words = title.split()
    label = " ".join(words[:MAX_WORDS])
    if len(label) > MAX_CHARS:
        label = label[:MAX_CHARS].rsplit(" ", 1)[0] or label[:MAX_CHARS]
    return label + ("\u2026" if label != title else "")
