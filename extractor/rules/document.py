"""Sentences, clauses, words and the regions of an abstract that hold no results.

Everything downstream asks positional questions ("which clause holds this number?", "what are
the three words before it?"), so an abstract is segmented once into a :class:`Document` with
sorted spans and answered by bisection.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from extractor.rules.vocabulary import alternation

# The spaces Unicode counts among the ASCII characters, which re.ASCII's \s leaves out.
_ASCII_SPACES = r"\s\x1c-\x1f"
# A pattern's non-ASCII characters, as written or escaped.
_NON_ASCII = re.compile(r"[^\x00-\x7f]|\\[uUN]|\\x[89a-fA-F]")


def ascii_only(pattern: str) -> str:
    """``pattern`` for re.ASCII that matches ASCII text as ``pattern`` does without it: there
    \\w, \\d and \\b look characters up in a small table instead of Unicode's, and \\s and \\S
    are given back the four separators (\\x1c-\\x1f) that Unicode counts as spaces."""
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            escape = pattern[i : i + 2]
            if escape == "\\s":
                out.append(_ASCII_SPACES if in_class else f"[{_ASCII_SPACES}]")
            elif escape == "\\S":
                if in_class:
                    raise ValueError(f"\\S in a character class: {pattern!r}")
                out.append(f"[^{_ASCII_SPACES}]")
            else:
                out.append(escape)
            i += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
            opening = re.match(r"\[\^?\]?", pattern[i:]).group()  # a ']' right after '[' or '[^' is itself
            out.append(opening)
            i += len(opening)
            continue
        out.append(char)
        i += 1
    return "".join(out)


class AsciiFirst:
    """A pattern that reads ASCII text with an re.ASCII copy of itself (:func:`ascii_only`): the
    same matches, with word boundaries and classes looked up in a small table; other text is read
    by the pattern as written."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        if flags & re.IGNORECASE and _NON_ASCII.search(pattern):
            # Unicode folds some other letters into ASCII ones (long s into s, the Kelvin sign into k)
            raise ValueError(f"a case-insensitive pattern with non-ASCII characters: {pattern!r}")
        self._ascii = re.compile(ascii_only(pattern), flags | re.ASCII)
        self._unicode = re.compile(pattern, flags)

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> re.Match[str] | None:
        return self._for(text).search(text, pos, len(text) if endpos is None else endpos)

    def match(self, text: str, pos: int = 0, endpos: int | None = None) -> re.Match[str] | None:
        return self._for(text).match(text, pos, len(text) if endpos is None else endpos)

    def finditer(self, text: str, pos: int = 0, endpos: int | None = None) -> Iterator[re.Match[str]]:
        return self._for(text).finditer(text, pos, len(text) if endpos is None else endpos)

    def _for(self, text: str) -> re.Pattern[str]:
        return self._ascii if text.isascii() else self._unicode


# Words that end with a period without ending a sentence (lower-cased, final period removed).
_ABBREVIATIONS = frozenset(
    "e.g i.e al vs etc cf fig figs eq eqs approx resp params no nos viz ca incl w.r.t sec "
    "ref refs tab dr prof st inc ltd co jan feb mar apr jun jul aug sep sept oct nov dec".split()
)
_BOUNDARY = re.compile(r"[.!?][\"')\]]*\s+(?=[\"'(\[$\\]?[A-Z0-9])")
_LETTER = re.compile(r"[a-z]")
# Clauses: semicolons, dashes used as parentheses, and a comma before a conjunction or a
# participle that opens a new predication ("..., while surpassing TEAL by 1.77%").
# The words after a comma are grouped by first letter (vocabulary.alternation): the engine tried
# each of them after every comma.
_PUNCT_CLAUSE = (
    r";\s+|:\s+(?=[a-z(])|,\s+(?=(?:"
    + alternation(
        "while|whereas|but|yet|and|which|"
        "where|although|though|thus|thereby|respectively|surpassing|outperforming|achieving|"
        "reaching|yielding|demonstrating|leading|resulting|reducing|improving|compared"
    )
    + r")\b)"
)
# (The alternatives open with different characters: their order decides nothing.)
_CLAUSE = re.compile(r"(?=[;:,\u2014\s])(?:\s+--\s+|\s+\u2014\s*|\u2014|" + _PUNCT_CLAUSE + ")")
# A sentence without dashes can only be cut at a semicolon, colon or comma: this copy opens with
# those three characters alone, which the engine skips to; _CLAUSE, whose dashes may follow
# spaces, is tried at every space.
_CLAUSE_PUNCT = re.compile(_PUNCT_CLAUSE)
_WORD = AsciiFirst(r"[^\W_][\w'\-+@.^/&]*[\w+]|[^\W_]")
# One word and the space after it in a pattern that counts words; tokenized text writes
# 'high-performance' as 'high - performance', still one word.
SPACED_WORD = r"[\w-]+(?:\s-\s[\w-]+)*\s+"
# Parts of an abstract whose numbers are never results: links and inline LaTeX math.
# A link is a token with a slash (or 'www.') that names a scheme or a domain.
# A token with a slash is tried from where the token starts only: from inside one, the run before
# the slash is read again, and from its start the same slash is found first anyway.
_SLASHED = re.compile(r"(?<![^\s/])[^\s/]*/\S*|www\.\S+")
_LINK = re.compile(r"://|^www\.|\.(?:com|org|io|ai|net|edu|dev|html?)(?:/|$)")
# What every link holds: an abstract with none of them (most) has no links, and is not searched.
_LINK_MARKS = ("://", "www.", ".com", ".org", ".io", ".ai", ".net", ".edu", ".dev", ".htm")
# Inline LaTeX math; '$15$' (a number alone) is a number written in math mode, not a symbol.
_MATH = re.compile(r"\$(?!\s*[\d.,]+\s*\$)[^$]{1,400}\$")


_LIST_MARKER = re.compile(r"(?:^|(\S*)\s+)\(?\d{1,2}\)?$")


def _is_list_marker(before: str) -> bool:
    """'techniques: 1. A greedy ...': a one- or two-digit item number, not a sentence end."""
    if not before[-1:].isdigit() and before[-1:] != ")":
        return False
    match = _LIST_MARKER.search(before[-40:] if len(before) > 40 else before)
    if not match:
        return False
    word = match.group(1)
    if word is None:
        return len(before) <= 40  # the number opens the text
    return word.endswith((":", ",", ";")) or word in ("and", "or")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """[start, end) of each sentence, whitespace trimmed."""
    spans = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        before = text[start : match.start()]
        token = _last_word(before).lstrip("(\"'").lower()
        if token in _ABBREVIATIONS or _LETTER.fullmatch(token) or _is_list_marker(before):
            continue
        spans.append((start, match.start() + 1))
        start = match.end()
    spans.append((start, len(text)))
    return [_trim(text, s, e) for s, e in spans if text[s:e].strip()]


class AnyCase:
    """A case-insensitive pattern, written in lower case, that reads ASCII text lower-cased with
    a case-sensitive copy of itself: the same matches at the same places, without folding the
    case of every character compared, which is most of what such a search costs (and with
    :func:`ascii_only` tables). Other text, whose lower case may differ in length or in folding,
    is read case-insensitively. On ASCII text a match is one of the lower-cased text, so its
    groups are lower case."""

    def __init__(self, pattern: str) -> None:
        if any(c.isupper() for c in re.sub(r"\\.|\(\?P[<=]", "", pattern)):
            raise ValueError(f"the pattern must be written in lower case: {pattern!r}")
        self._sensitive = re.compile(ascii_only(pattern), re.ASCII)
        self._insensitive = re.compile(pattern, re.IGNORECASE)

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> re.Match[str] | None:
        pattern, string = self._read(text)
        return pattern.search(string, pos, len(text) if endpos is None else endpos)

    def finditer(self, text: str, pos: int = 0, endpos: int | None = None) -> Iterator[re.Match[str]]:
        pattern, string = self._read(text)
        return pattern.finditer(string, pos, len(text) if endpos is None else endpos)

    def _read(self, text: str) -> tuple[re.Pattern[str], str]:
        return (self._sensitive, text.lower()) if text.isascii() else (self._insensitive, text)


def written_at(text: str, word: str) -> Iterator[int]:
    """Where ``word`` (not empty) is written on its own, with no word character or hyphen right
    before or after it, left to right and without overlaps: what a pattern with lookarounds
    for both finds, without compiling one for every name (60 us each)."""
    at = text.find(word)
    while at >= 0:
        end = at + len(word)
        if not _joins(text, at - 1) and not _joins(text, end):
            yield at
            at = text.find(word, end)
        else:
            at = text.find(word, at + 1)


def _joins(text: str, position: int) -> bool:
    """A word character or a hyphen at ``position`` (none outside the text)."""
    return 0 <= position < len(text) and (text[position].isalnum() or text[position] in "_-")


def _last_word(before: str) -> str:
    """The whitespace-free run that ends ``before`` (a final newline aside; '' when none), read
    from the right: a regex search from the left scanned the whole sentence at every full stop."""
    if before.endswith("\n"):
        before = before[:-1]
    return before.rsplit(maxsplit=1)[-1] if before and not before[-1].isspace() else ""


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def clause_spans(text: str, sentence: tuple[int, int]) -> list[tuple[int, int]]:
    """The sentence cut at clause boundaries, outside parentheses and brackets."""
    start, end = sentence
    cuts = []
    depth = 0
    position = start
    piece = text[start:end]
    dashed = "\u2014" in piece or "--" in piece
    marked = dashed or ";" in piece or ":" in piece or "," in piece
    for match in (_CLAUSE if dashed else _CLAUSE_PUNCT).finditer(text, start, end) if marked else ():
        depth += _depth(text, position, match.start())
        position = match.start()
        if depth <= 0:
            cuts.append((match.start(), match.end()))
    spans = []
    for cut_start, cut_end in cuts:
        spans.append((start, cut_start))
        start = cut_end
    spans.append((start, end))
    return [_trim(text, s, e) for s, e in spans if text[s:e].strip()]


def _depth(text: str, start: int, end: int) -> int:
    piece = text[start:end]
    return piece.count("(") + piece.count("[") - piece.count(")") - piece.count("]")


@dataclass(frozen=True)
class Mention:
    """A name found in the abstract (a benchmark, method or model) and where it is written."""

    name: str
    start: int
    end: int


class Word(NamedTuple):
    start: int
    end: int
    text: str
    lower: str


@dataclass
class Document:
    """An abstract segmented once: sentences, clauses, words and masked regions."""

    text: str
    sentences: list[tuple[int, int]] = field(init=False)
    clauses: list[tuple[int, int]] = field(init=False)
    urls: list[tuple[int, int]] = field(init=False)
    math: list[tuple[int, int]] = field(init=False)

    def __post_init__(self) -> None:
        text = self.text
        self.sentences = sentence_spans(text)
        self.clauses = [c for s in self.sentences for c in clause_spans(text, s)]
        self._sentence_starts = [s for s, _ in self.sentences]
        self._clause_starts = [s for s, _ in self.clauses]
        self.urls = (
            [m.span() for m in _SLASHED.finditer(text) if _LINK.search(m.group())]
            if "/" in text and any(mark in text for mark in _LINK_MARKS)
            else []
        )
        self.math = [m.span() for m in _MATH.finditer(text)] if "$" in text else []

    def sentence_of(self, position: int) -> tuple[int, int]:
        return _containing(self.sentences, self._sentence_starts, position, len(self.text))

    def clause_of(self, position: int) -> tuple[int, int]:
        return _containing(self.clauses, self._clause_starts, position, len(self.text))

    def in_url(self, position: int) -> bool:
        return any(s <= position < e for s, e in self.urls)

    def in_math(self, position: int) -> bool:
        return any(s <= position < e for s, e in self.math)

    def words_before(self, position: int, count: int, floor: int = 0) -> list[Word]:
        """Up to ``count`` words that end at or before ``position`` and start at or after ``floor``."""
        start = max(floor, position - 24 * count)
        words = [m for m in _WORD.finditer(self.text, start, position)]
        if start > floor and words and words[0].start() == start:
            words = words[1:]  # may be the cut-off end of a longer word
        return [Word(m.start(), m.end(), m.group(), m.group().lower()) for m in words[-count:]]

    def words_after(self, position: int, count: int, ceiling: int | None = None) -> list[Word]:
        """Up to ``count`` words that start at or after ``position`` and end by ``ceiling``."""
        end = len(self.text) if ceiling is None else ceiling
        out = []
        for m in _WORD.finditer(self.text, position, min(end, position + 24 * count)):
            if len(out) == count:
                break
            out.append(Word(m.start(), m.end(), m.group(), m.group().lower()))
        return out


def _containing(
    spans: list[tuple[int, int]], starts: list[int], position: int, length: int
) -> tuple[int, int]:
    index = bisect_right(starts, position) - 1
    if index < 0:
        return (0, spans[0][1] if spans else length)
    return spans[index]
