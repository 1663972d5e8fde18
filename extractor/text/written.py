"""How the text writes a name a reviewer typed: the spelling to suggest when a name is refused,
and the changes an office suite's AutoCorrect makes on its own (``LLaMA`` to ``LlaMA``, ``1/2``
to ``½``, ``top-1`` to ``Top-1``), which a reviewer did not mean."""

from __future__ import annotations

import re
import unicodedata
from difflib import SequenceMatcher

from extractor.text.name_keys import name_key

_WORD = re.compile(r"\S+")
_EDGE = ".,;:()[]{}\"'“”‘’"
SIMILAR = 0.75  # how alike two names' keys must be for one to be offered for the other


def written_as(name: str, texts: tuple[str, ...]) -> str | None:
    """The words of ``texts`` that write ``name`` most nearly ('SQuAD 2.0' for 'SQuAD v2.0'),
    when some are alike enough to be what was meant; None when none is."""
    key = name_key(name)
    if not key:
        return None
    size = len(name.split())
    best: tuple[float, str] | None = None
    for text in texts:
        words = [m.group().strip(_EDGE) for m in _WORD.finditer(text)]
        for length in range(max(1, size - 1), size + 2):
            for start in range(len(words) - length + 1):
                phrase = " ".join(words[start : start + length]).strip(_EDGE)
                other = name_key(phrase)
                if not other or other == key:
                    continue
                ratio = SequenceMatcher(None, key, other).ratio()
                if ratio >= SIMILAR and (best is None or ratio > best[0]):
                    best = (ratio, phrase)
    return best[1] if best else None


def exact_spelling(name: str, texts: tuple[str, ...]) -> str | None:
    """How ``texts`` write ``name`` when they write it only in another case ('LLaMA' for
    'LlaMA'); None when they write it exactly so, or not at all."""
    folded = " ".join(name.split())
    for text in texts:
        flat = " ".join(text.split())
        if folded in flat:
            return None
    for text in texts:
        flat = " ".join(text.split())
        at = flat.lower().find(folded.lower())
        if at >= 0:
            return flat[at : at + len(folded)]
    return None


def _unfolded(text: str) -> str:
    """``½`` as ``1/2`` (NFKC writes a fraction slash), and other compatibility forms folded."""
    return unicodedata.normalize("NFKC", text).replace("\u2044", "/")


def autocorrected(typed: object, shown: object) -> bool:
    """Whether ``typed`` is ``shown`` changed only as AutoCorrect changes text: in case, or a
    fraction made one character."""
    if not isinstance(typed, str) or not isinstance(shown, str) or typed == shown:
        return False
    return _unfolded(typed).casefold() == _unfolded(shown).casefold()
