"""The language pair of a translation result ('English-to-German', 'En→De', 'EN-FR'): a
WMT14 English-German BLEU and a WMT14 English-French BLEU are two leaderboards, not one."""

from __future__ import annotations

import re
from typing import NamedTuple

LANGUAGES = {
    "english": "en", "german": "de", "french": "fr", "romanian": "ro", "chinese": "zh", "japanese": "ja",
    "russian": "ru", "czech": "cs", "spanish": "es", "italian": "it", "portuguese": "pt", "arabic": "ar",
    "turkish": "tr", "finnish": "fi", "estonian": "et", "latvian": "lv", "lithuanian": "lt", "hindi": "hi",
    "korean": "ko", "vietnamese": "vi", "dutch": "nl", "polish": "pl", "kazakh": "kk", "gujarati": "gu",
    "nepali": "ne", "sinhala": "si", "icelandic": "is", "inuktitut": "iu", "tamil": "ta", "hungarian": "hu",
    "ukrainian": "uk", "hebrew": "he", "persian": "fa", "swedish": "sv", "danish": "da", "greek": "el",
}
_CODES = sorted(set(LANGUAGES.values()))
_NAMES = "|".join(sorted(LANGUAGES, key=len, reverse=True))
# 'English-to-German', 'English - to - German' (tokenized text), 'English to French',
# 'English→Russian', 'English–Romanian', 'English-German'
_BY_NAME = re.compile(
    rf"\b(?P<a>{_NAMES})\s*(?:-\s*to\s*-|to|→|->|=>|[-–—/])\s*(?P<b>{_NAMES})\b", re.IGNORECASE
)
# 'En-De', 'EN→FR', 'en-de', 'De-En': codes written as a pair, one of them English (a pair of two
# other codes, 'it-is', is as often an ordinary word pair)
_BY_CODE = re.compile(
    rf"(?<![\w-])(?P<a>{'|'.join(_CODES)})\s*(?:→|->|=>|[-–—/]|2)\s*(?P<b>{'|'.join(_CODES)})(?![\w-])", re.IGNORECASE
)


class LanguagePair(NamedTuple):
    pair: str  # 'en-de': source and target
    start: int
    end: int


def language_pairs(text: str | None) -> list[LanguagePair]:
    """Every language pair the text writes, as 'en-de' with its span, in order."""
    if not text:
        return []
    found: list[LanguagePair] = []
    for pattern, code in ((_BY_NAME, lambda s: LANGUAGES[s.lower()]), (_BY_CODE, str.lower)):
        for m in pattern.finditer(text):
            a, b = code(m.group("a")), code(m.group("b"))
            overlaps = any(p.start < m.end() and m.start() < p.end for p in found)
            if a != b and not overlaps and (pattern is _BY_NAME or "en" in (a, b)):
                found.append(LanguagePair(f"{a}-{b}", m.start(), m.end()))
    return sorted(found, key=lambda p: p.start)


def only_pair(text: str | None) -> str | None:
    """The language pair of a text that writes exactly one ('EN-FR and EN-DE' has none)."""
    pairs = {p.pair for p in language_pairs(text)}
    return pairs.pop() if len(pairs) == 1 else None
