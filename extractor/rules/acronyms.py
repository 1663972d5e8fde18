"""Acronym definitions: ``Long Name (ACR)`` and ``ACR (Long Name)``.

The Schwartz-Hearst algorithm (PSB 2003): the long form is the shortest ending of the words
before the parenthesis whose letters spell the short form in order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from extractor.rules.chunks import CONNECTORS, QUOTES, TOKEN
from extractor.rules.document import Document


@dataclass(frozen=True)
class Abbreviation:
    short: str
    long: str
    start: int  # of the whole definition
    end: int


_PAREN = re.compile(r"\(([^()]{1,120})\)")
_NUMERIC = re.compile(r"[\d.,%\s-]+")
_PLURAL_ACRONYM = re.compile(r"[A-Z]s$")


def _short_form(candidate: str) -> bool:
    return (
        1 <= len(TOKEN.findall(candidate)) <= 2
        and 2 <= len(candidate) <= 14
        and candidate[0].isalnum()
        and any(c.isupper() for c in candidate)
        and not _NUMERIC.fullmatch(candidate)
    )


# Words a long form may hold that give no letter to the short form ('restraint and relaxation').
_UNLETTERED = CONNECTORS | {"and", "&", "-"}


def _initials(core: str, candidate: str) -> str | None:
    """The ending of ``candidate`` whose words open with the letters of ``core``, function words
    skipped: 'restraint and relaxation iteration (RRI)', where letters inside words would spell
    'relaxation iteration'."""
    letters = [c.lower() for c in core if c.isalnum()]
    words = candidate.split()
    k = len(words) - 1
    for letter in reversed(letters):
        while k >= 0 and words[k].lower() in _UNLETTERED and words[k][:1].lower() != letter:
            k -= 1
        if k < 0 or words[k][:1].lower() != letter:
            return None
        k -= 1
    return " ".join(words[k + 1 :])


def _long_form(short: str, candidate: str) -> str | None:
    """The words of ``candidate`` before the short form that spell it: by their initials when
    they do, else (Schwartz-Hearst) the shortest ending whose letters spell it in order, the
    first one at a word start; None when there is none or it is implausibly long."""
    core = short[:-1] if _PLURAL_ACRONYM.search(short) else short
    initials = _initials(core, candidate.strip(" ," + QUOTES))
    if initials and len(initials.split()) > 1:
        return initials
    s, i = len(core) - 1, len(candidate) - 1
    while s >= 0:
        c = core[s].lower()
        if not c.isalnum():
            s -= 1
            continue
        while i >= 0 and (candidate[i].lower() != c or (s == 0 and i > 0 and candidate[i - 1].isalnum())):
            i -= 1
        if i < 0:
            return None
        s -= 1
        i -= 1
    long = candidate[candidate.rfind(" ", 0, i + 1) + 1 :].strip(" ," + QUOTES)
    if len(long.split()) > min(len(core) + 5, 2 * len(core)) or len(long) <= len(core):
        return None
    return long


def spells(short: str, long: str) -> bool:
    """'CORAL' and 'Consistent Rank Logits': a short form whose letters the whole long form
    spells, the two written apart ('( Consistent Rank Logits , CORAL )'). One word only: 'GHM - C'
    is a variant of 'gradient harmonizing mechanism', not its short form."""
    return (
        short.isalnum()
        and _short_form(short)
        and short.lower() not in long.lower()
        and len(long.split()) > 1
        and _long_form(short, long) == long.strip(" ," + QUOTES)
    )


def abbreviations(doc: Document) -> list[Abbreviation]:
    """Every 'Long Name (ACR)' and 'ACR (Long Name)' definition in the abstract."""
    text = doc.text
    found = []
    for match in _PAREN.finditer(text):
        inner = match.group(1).strip()
        sentence_start = doc.sentence_of(match.start())[0]
        before = text[sentence_start : match.start()].rstrip()
        if _short_form(inner):
            window = " ".join(before.split()[-min(len(inner) + 5, 2 * len(inner)) :])
            long = _long_form(inner, window)
            if long:
                found.append(
                    Abbreviation(inner, long, text.rfind(long, sentence_start, match.start()), match.end())
                )
                continue
        word = _last_token(before)
        if word and _short_form(word.group()) and len(inner.split()) >= 2:
            short = word.group().strip(QUOTES + ",:")
            long = _long_form(short, inner)
            if long and long == inner.strip(" ,"):
                found.append(Abbreviation(short, inner, sentence_start + word.start(), match.end()))
    return found


def _last_token(text: str) -> re.Match | None:
    """The last name token of ``text`` ('MT - DNN' in 'a model MT - DNN')."""
    tokens = list(TOKEN.finditer(text, max(0, len(text) - 40)))
    return tokens[-1] if tokens else None
