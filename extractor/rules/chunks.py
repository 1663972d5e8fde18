"""The tokens a coined name is made of, and the name written at a position.

A name is a run of name-like tokens (capitalized, with inner capitals, digits or symbols)
joined by connectors (``Diffusion in Diffusion``); tokenized text writes ``M-Walk`` as ``M -
Walk``, and :data:`TOKEN` keeps it one token. The head noun after a name (``X framework``,
``X, a benchmark of``) says whether it is a method or a dataset.
"""

from __future__ import annotations

import re

from extractor.rules.vocabulary import DATA_HEADS, GENERIC_NAMES, METHOD_HEADS, alternation

HEADS = METHOD_HEADS | DATA_HEADS
HEADS_PATTERN = alternation("|".join(sorted(HEADS, key=len, reverse=True)))
QUOTES = "\"'\u201c\u201d\u2018\u2019`"
_DATA_VERBS = re.compile(r"^(?:releas|curat|collect|publish|construct)", re.IGNORECASE)
CONNECTORS = frozenset("of in for with via on to from by the as".split())
_STOP_CAPITALS = frozenset(
    "we our this the in to a an for on it its these those that however moreover finally first "
    "second third specifically experiments results extensive empirically".split()
)
# A chunk that starts with a quantity ('318M-parameter Transformer') describes, it does not name.
_QUANTITY_START = re.compile(r"\d[\d.,]*[KMBTkmbt]?(?:-|\s|$)")
# A token of a name. Tokenized text writes 'M-Walk' as 'M - Walk' and 'DeepID2+' as 'DeepID2 +':
# a hyphen spaced between two word characters joins them unless a function word follows (then it
# is a dash: 'X - a method').
_DASH_WORDS = (
    "a|an|the|this|these|that|which|who|where|and|or|but|is|are|was|were|we|it|its|our|for|to|of|in|on|"
    "with|as|at|by|i\\.e|e\\.g"
)
TOKEN = re.compile(
    r"\S+(?:(?<=[^\W_])\s-\s(?!(?:" + _DASH_WORDS + r")\b)(?=[^\W_])\S+)*(?:(?<=[^\W_])\s\+\+?(?=\s|$))?"
)
_DASH = re.compile(r"\u2014|\u2013|--")
_PLAIN_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_LOWER_WORD = re.compile(r"[a-z][a-z0-9]*(?:(?:-|\s-\s)[a-z0-9]+)*")
_POSSESSIVE = re.compile(r"['\u2019]s$")
# 'NLP-based tools', 'a ResNet - like architecture': a compound adjective describes the noun after
# it; the name it is made from is someone else's.
_COMPOUND_ADJECTIVE = re.compile(
    r"(?:-|\s-\s)(?:based|like|style|driven|guided|inspired|oriented|powered|centric|specific)$",
    re.IGNORECASE,
)
# arXiv abstracts keep LaTeX: '\textsc{Ravan}' is the name Ravan set in small capitals, and
# '$\textbf{R2Rec}$' the name R2Rec set in math mode.
_LATEX_OPEN = re.compile(r"\s*\$?\\(?:textsc|textbf|textit|texttt|textsf|emph|mathrm|mathbf|mathsf|mathtt)\{")
_GREEK = "\u03bb\u03b1\u03b2\u03b3\u03b4\u03b5\u03c4\u03bc\u03c3\u03c0\u03c6"
_PHRASE_END = frozenset(
    "that which who where for of to with comprising consisting containing including built based "
    "designed optimized trained using and or".split()
)
# The word right after a name and the one after it ('( DSN ) method simultaneously').
_WORDS_AFTER = re.compile(r"\s+([\w-]+)(?:\s+([a-z][\w-]*))?")
# An apposition after a name: 'X, a two-stage framework that', 'X (Long Name), a benchmark of'.
_APPOSITION_AFTER = re.compile(r"(?:\s*\([^)]{1,80}\))?\s*[,:]\s*(?:a|an|the|our)\s+([^;.()]{1,120})")



def name_like(token: str) -> bool:
    """A token a coined name is made of: capitalized, with inner capitals, digits or symbols."""
    core = token.strip(QUOTES)
    if not core or "<" in core or ">" in core or "=" in core or not (core[0].isalnum() or core[0] in _GREEK):
        return False
    return (
        core[0].isupper()
        or core[0] in _GREEK
        or any(c.isupper() for c in core[1:])
        or (any(c.isdigit() for c in core) and any(c.isalpha() for c in core))
    )


def name_chunk(text: str, start: int, lowercase: bool = False) -> tuple[str, int, int] | None:
    """The name written from ``start``: name-like tokens, joined by connectors ('Diffusion in
    Diffusion'), ending at punctuation or a lower-case word. With ``lowercase`` the name may be
    a short lower-case phrase ('self-ask', 'inference-time dynamic prompting'); a name that
    starts capitalized does not continue in lower case ('FDNet1.0 for face detection')."""
    tokens: list[tuple[int, int]] = []
    latex = _LATEX_OPEN.match(text, start)
    for match in TOKEN.finditer(text, latex.end() if latex else start):
        raw = match.group()
        if raw.startswith("("):
            break
        # Trailing punctuation and a dash end the name; '!' and '++' may belong to it ('BeNice!').
        raw = _DASH.split(raw, 1)[0]
        word = raw.rstrip(",.;:?)}$")
        closes = word != raw or raw != match.group() or (bool(tokens) and raw.endswith(tuple(QUOTES)))
        bare = word.strip(QUOTES)
        if not bare:
            break
        lower = bare.lower()
        previous = text[tokens[-1][0] : tokens[-1][1]].lower() if tokens else ""
        if not (
            (name_like(bare) and lower not in _STOP_CAPITALS)
            or (tokens and lower in CONNECTORS and not closes)
            # a number after 'by' is a result, never part of a name ('on MMLU and GSM8K by 3.1')
            or (tokens and _PLAIN_NUMBER.fullmatch(bare) and previous in CONNECTORS and previous != "by")
            or (
                lowercase
                and len(tokens) < 4
                and _LOWER_WORD.fullmatch(bare)
                and lower not in CONNECTORS
                and lower not in _STOP_CAPITALS
                and (not tokens or text[tokens[0][0] : tokens[0][1]].strip(QUOTES)[:1].islower())
            )
        ):
            break
        tokens.append((match.start(), match.start() + len(word)))
        if closes or len(tokens) >= 7:
            break
    while tokens and text[tokens[-1][0] : tokens[-1][1]].lower() in CONNECTORS:
        tokens.pop()
    if not tokens:
        return None
    start, end = tokens[0][0], tokens[-1][1]
    name = _POSSESSIVE.sub("", text[start:end].strip(QUOTES + " "))
    if (
        len(name) < 2
        or name.lower() in GENERIC_NAMES
        or _QUANTITY_START.match(name)
        or _COMPOUND_ADJECTIVE.search(name)
    ):
        return None
    return name, start, end


def chunk_ending(text: str, floor: int, end: int) -> tuple[str, int, int] | None:
    """The name that ends at ``end``: walk back over name-like tokens and connectors."""
    picked: list[re.Match] = []
    for token in reversed(list(TOKEN.finditer(text, floor, end))):
        bare = token.group().strip(QUOTES + ",")
        if name_like(bare) and bare.lower() not in _STOP_CAPITALS:
            picked.insert(0, token)
        elif picked and bare.lower() in CONNECTORS and len(picked) < 6:
            picked.insert(0, token)
        else:
            break
    while picked and picked[0].group().strip(QUOTES).lower() in CONNECTORS:
        picked.pop(0)
    if not picked:
        return None
    start = picked[0].start() + (1 if picked[0].group()[0] in QUOTES else 0)
    name = text[start:end].strip(QUOTES + ", ")
    if name.lower() in GENERIC_NAMES or _QUANTITY_START.match(name):
        return None
    return name, start, end


def head_after(text: str, end: int) -> str | None:
    """The head noun that follows a name ('GAPS framework'), or that an apposition gives it
    ('X, a two-stage framework that', 'X (Long Name), a diagnostic benchmark of')."""
    # the word right after ('( DSN ) method simultaneously'), else the one after a modifier
    direct = _WORDS_AFTER.match(text[end : end + 40])
    for word in direct.groups() if direct else ():
        if word and word[0].islower() and word in HEADS:
            return word
    apposition = _APPOSITION_AFTER.match(text[end : end + 200])
    if apposition:
        for word in apposition.group(1).lower().replace(",", " ").split()[:10]:
            if word in _PHRASE_END:
                break
            if word in HEADS:
                return word
    return None


def kind_of(head: str | None, verb: str | None = None) -> str:
    if head in DATA_HEADS or (head is None and verb and _DATA_VERBS.match(verb)):
        return "data"
    return "method"


def coined(name: str) -> bool:
    """'CyCADA', 'M - Walk', 'DeepID2 +', 'FooNet': a name no dictionary word spells."""
    token = TOKEN.match(name)
    first = token.group() if token else ""
    return any(c.isalpha() for c in first) and (
        any(c.isupper() for c in first[1:]) or any(c.isdigit() for c in first)
    )
