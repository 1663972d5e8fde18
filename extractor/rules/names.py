"""Names a paper coins for its own contributions, read from how abstracts introduce them.

Cues, each a function below: a contribution verb with a first-person subject (``we propose
X``, ``this paper describes X``, ``namely X``); naming (``called X``, ``a ratio we call X``);
apposition (``X, a ... framework``, ``a new method, X,``, ``our trained model X``, ``The
approach, X, ...``); acronym definitions (``Long Name (ACR)`` / ``ACR (Long Name)``, found with
the Schwartz-Hearst algorithm) in a contribution sentence; and, right after a contribution
sentence, subjects such as ``The Text-Only Probe measures ...``; and a coined name a title opens
with (``CyCADA: ...``) that the abstract also writes. The noun a name heads decides whether it is
a method or an introduced dataset.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from extractor.catalog.registry import metric_entry
from extractor.grounding import name_key
from extractor.rules.text import Document
from extractor.rules.vocabulary import (
    DATA_HEADS,
    GENERIC_NAMES,
    METHOD_HEADS,
    MODEL_FAMILIES,
    PHENOMENON_HEADS,
)

HEADS = METHOD_HEADS | DATA_HEADS
_HEADS_PATTERN = "|".join(sorted(HEADS, key=len, reverse=True))
QUOTES = "\"'\u201c\u201d\u2018\u2019`"
_FIRST_PERSON = re.compile(r"\b(?:we|our|this\s+(?:paper|work|study|article|report))\b", re.IGNORECASE)
_CUE = re.compile(
    r"\b(?:we|this\s+(?:paper|work|study|article|report))\s+(?:\w+ly\s+|then\s+|also\s+|further\s+|"
    r"first\s+|next\s+|now\s+|therefore\s+|thus\s+|hence\s+)*"
    r"(?P<verb>propos\w*|introduc\w*|present\w*|develop\w*|design\w*|devis\w*|build\w*|built|"
    r"construct\w*|creat\w*|releas\w*|deriv\w*|formulat\w*|offer\w*|contribut\w*|train\w*|"
    r"establish\w*|curat\w*|collect\w*|publish\w*|open-sourc\w*|describ\w*|put\s+forward)\b"
    r"|\b(?:this|which)\s+(?:leads|led)\s+(?:us\s+)?to\b|\bleading\s+to\b|\bnamely,?\b"
    r"|\bby\s+(?:building|introducing|proposing|designing|developing|constructing)\b",
    re.IGNORECASE,
)
_CUE_WORDS = ("we ", "this ", "lead", "namely", "by ")
_NAMING_WORDS = ("call", "name", "dub", "term", "coin", "denot", "refer")
_PASSIVE = re.compile(
    r"\b(?:is|are|was|were)\s+(?:\w+ly\s+)?(?:proposed|introduced|presented|developed|designed)\b",
    re.IGNORECASE,
)
_DATA_VERBS = re.compile(r"^(?:releas|curat|collect|publish|construct)", re.IGNORECASE)
# 'a ratio we call X', 'a new method called X', 'we refer to this as X'. After a participle the
# name must look like one ('named entities' is not a naming); after 'we call' it may not.
_NAMING = re.compile(
    r"\b(?:(?P<we>we\s+(?:call|name|term|dub|coin|denote)|we\s+refer\s+to\s+(?:\w+\s+){0,6}?as)|"
    r"(?:called|named|dubbed|termed|coined|denoted)(?:\s+as)?)\s+(?:it\s+|this\s+|them\s+|our\s+[\w-]+\s+)?"
    r"(?:the\s+|a\s+|an\s+)?",
    re.IGNORECASE,
)
_NAMING_HEAD = re.compile(r"(\w+)\s*,?\s+(?:(?:which|that)\s+)?$")
# Verbs of studying something that exists: a name defined after them is not a contribution.
_STUDY = re.compile(
    r"\bwe\s+(?:\w+ly\s+)?(?:study|studies|investigate|analy[sz]e|examine|evaluate|use|apply|audit|"
    r"revisit|consider|explore|test|probe|leverage|employ|adopt|follow|compare|benchmark|fine-tune|"
    r"finetune|characterize|focus)\b",
    re.IGNORECASE,
)
_NOVELTY = re.compile(
    r"\b(?:new|novel|first|not\s+been|to\s+our\s+knowledge|propos\w*|introduc\w*)\b", re.IGNORECASE
)
# 'we propose a ... (ACR)', 'our proposed ... (ACR)', and 'The X (ACR) we present employs ...'.
_STRONG_LEAD = re.compile(
    r"(?<!recently\s)(?<!previously\s)(?<!originally\s)(?<!widely\s)"
    r"\b(?i:our\s+proposed|propos\w*|introduc\w*|present\w*)\s+(?:[\w-]+\s+){0,6}$"
)
_WE_PRESENT_AFTER = re.compile(
    r"\s*(?:that\s+|which\s+)?we\s+(?:propose|present|introduce|develop|call)\b", re.IGNORECASE
)
_NOT_A_DEFINITION = re.compile(
    r"\b(?:such\s+as|like|e\.g\.?|i\.e\.?|including|known\s+as|than|vs\.?|versus|over|baselines?|"
    r"in\s+terms\s+of|measured\s+by|focusing\s+on|based\s+on)\s*(?:the\s+)?$",
    re.IGNORECASE,
)
_SKIP = frozenset(
    """
    a an the new novel simple yet effective efficient generic first lightweight principled
    scalable practical powerful robust flexible training-free plug-and-play fully our
    """.split()
)
_CONNECTORS = frozenset("of in for with via on to from by the as".split())
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
_TOKEN = re.compile(
    r"\S+(?:(?<=[^\W_])\s-\s(?!(?:" + _DASH_WORDS + r")\b)(?=[^\W_])\S+)*(?:(?<=[^\W_])\s\+\+?(?=\s|$))?"
)
_DASH = re.compile(r"\u2014|\u2013|--")
_PLAIN_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_LOWER_WORD = re.compile(r"[a-z][a-z0-9]*(?:(?:-|\s-\s)[a-z0-9]+)*")
_POSSESSIVE = re.compile(r"['\u2019]s$")
_GREEK = "\u03bb\u03b1\u03b2\u03b3\u03b4\u03b5\u03c4\u03bc\u03c3\u03c0\u03c6"
# 'our trained model Curie-7B-v1', 'the proposed framework X'.
_OUR_HEAD_NAME = re.compile(
    r"\b(?i:our|the\s+proposed)\s+(?:[\w-]+\s+){0,2}?(?P<head>" + _HEADS_PATTERN + r")s?\s+(?=\S)"
)
# 'We present KV-cache compression': a capitalized word before a process noun modifies it.
_MODIFIES_NOUN = re.compile(
    r"\s+(?!(?:" + _HEADS_PATTERN + r")\b)[a-z]+(?:tion|sion|ing|ment|ance|ence|ity|ness|ism)s?\b"
)
_PARENTHESIZED_NAME = re.compile(r"\s*\(\s*([^\s()]+)\s*\)")
# 'our DUEL framework'.
_OUR_NAME_HEAD = re.compile(r"\b(?i:our)\s+(?P<name>\S+)\s+(?P<head>" + _HEADS_PATTERN + r")\b")
# 'a new method, self-ask, that' / 'a new technique ("reordering")': the head, then its article.
_HEAD_THEN_NAME = re.compile(r"\b(?P<head>" + _HEADS_PATTERN + r")\s*(?:,\s*(?:the\s+)?|\(\s*)(?=\S)")
_ARTICLE_BEFORE = re.compile(r"\b(?i:a|an|the|our)\s+(?:[\w-]+\s+){0,3}$")
_APPOSITION = re.compile(r"\s*,\s+an?\s+")
_LAST_TOKEN = re.compile(r"[^\s,;:()]+$")
# 'The approach, Diverse Prompt Mixer, is tested': a sentence that opens by naming its subject.
_OPENING = re.compile(
    r"(?:The|This|Our)\s+(?:[\w-]+\s+){0,2}?(?P<head>" + _HEADS_PATTERN + r")\s*,\s+(?:the\s+)?(?=\S)"
)
# 'The Text-Only Probe measures ...', 'The Abstraction Gap (AG) metric quantifies ...'.
_SUBJECT = re.compile(r"The\s+(?P<name>(?:[A-Z][\w-]*\s+){1,4})(?:\([^)]{1,12}\)\s+)?(?P<next>[a-z][\w-]*)")
# 'deployable planners (B2T/RoH/ISR)'.
_PLURAL_LIST = re.compile(r"\b(?P<head>[a-z]+s)\s+\((?P<names>[^()]{3,60})\)")
# 'Moreover, M-Walk outperforms ...', 'results show that our FooNet achieves ...': a coined name as
# the subject of a sentence after the abstract has stated its contribution.
_SUBJECT_LEAD = re.compile(
    r"(?:(?:Finally|Moreover|Furthermore|Additionally|In\s+addition|Overall|Notably|Empirically|"
    r"Experimentally|As\s+a\s+result|Consequently|Specifically|In\s+particular)\s*,\s*)?(?:(?:The|Our)\s+)?"
)
_SHOW_THAT = re.compile(
    r"\b(?:show\w*|demonstrat\w*|confirm\w*|indicat\w*|reveal\w*|verif\w*|prove[sn]?)\s+that\s+"
    r"(?:(?:the|our)\s+)?(?=\S)",
    re.IGNORECASE,
)
_VERSION = re.compile(r"\s+v?\d+(?:\.\d+)*\b(?![.,]\d)")
_VERB_AFTER = re.compile(
    r"\s+(?:(?:also|further|still|consistently|significantly|substantially|clearly|even|not\s+only|"
    r"then|only|thus|therefore)\s+)*(?P<verb>[a-z]+)\b"
)
# Verbs that report a result: after one the subject is the paper's method wherever it stands.
_RESULT_VERB = re.compile(
    r"(?:achiev|outperform|obtain|surpass|improv|yield|reach|attain|beat|exceed|establish|deliver|"
    r"perform|match|win|won|set|rank|generaliz|converg|scal|reduc|significantly)"
)
# Any finite verb: right after a contribution sentence, a name that acts is the one just introduced.
_FINITE_VERB = re.compile(r"[a-z]{3,}(?:s|ed)|is|are|was|can|could|has|does|uses")
_COMPARED = (
    r"\b(?:than|over|such\s+as|e\.g\.?|including|compared\s+(?:to|with)|vs\.?|versus|like|unlike|"
    r"outperform\w*|surpass\w*|beat\w*|exceed\w*|extends?|based\s+on|built\s+on|from|"
    r"(?:has|have|had|previously|recently|originally)\s+(?:been\s+)?proposed)\s*,?\s+"
    r"(?:(?:the|a|an)\s+)?(?:[\w-]+\s+){0,2}?"
)
_PHRASE_END = frozenset(
    "that which who where for of to with comprising consisting containing including built based "
    "designed optimized trained using and or".split()
)


@dataclass(frozen=True)
class Name:
    """A coined name: its written form, other names for it, where it is, and what it heads."""

    name: str
    aliases: tuple[str, ...]
    start: int
    kind: str  # 'method' or 'data'


@dataclass(frozen=True)
class Abbreviation:
    short: str
    long: str
    start: int  # of the whole definition
    end: int


# --- acronym definitions (Schwartz & Hearst, PSB 2003) ----------------------------------------

_PAREN = re.compile(r"\(([^()]{1,120})\)")


def _short_form(candidate: str) -> bool:
    return (
        1 <= len(_TOKEN.findall(candidate)) <= 2
        and 2 <= len(candidate) <= 14
        and candidate[0].isalnum()
        and any(c.isupper() for c in candidate)
        and not re.fullmatch(r"[\d.,%\s-]+", candidate)
    )


def _long_form(short: str, candidate: str) -> str | None:
    """The shortest ending of ``candidate`` whose letters spell ``short`` in order, the first
    one at a word start; None when there is none or it is implausibly long."""
    core = short[:-1] if re.search(r"[A-Z]s$", short) else short
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
    long = candidate[candidate.rfind(" ", 0, i + 1) + 1 :].strip(" ,")
    if len(long.split()) > min(len(core) + 5, 2 * len(core)) or len(long) <= len(core):
        return None
    return long


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
    tokens = list(_TOKEN.finditer(text, max(0, len(text) - 40)))
    return tokens[-1] if tokens else None


# --- name chunks ------------------------------------------------------------------------------


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
    for match in _TOKEN.finditer(text, start):
        raw = match.group()
        if raw.startswith("("):
            break
        # Trailing punctuation and a dash end the name; '!' and '++' may belong to it ('BeNice!').
        raw = _DASH.split(raw, 1)[0]
        word = raw.rstrip(",.;:?)")
        closes = word != raw or raw != match.group() or (bool(tokens) and raw.endswith(tuple(QUOTES)))
        bare = word.strip(QUOTES)
        if not bare:
            break
        lower = bare.lower()
        previous = text[tokens[-1][0] : tokens[-1][1]].lower() if tokens else ""
        if not (
            (name_like(bare) and lower not in _STOP_CAPITALS)
            or (tokens and lower in _CONNECTORS and not closes)
            or (tokens and _PLAIN_NUMBER.fullmatch(bare) and previous in _CONNECTORS)
            or (
                lowercase
                and len(tokens) < 4
                and _LOWER_WORD.fullmatch(bare)
                and lower not in _CONNECTORS
                and lower not in _STOP_CAPITALS
                and (not tokens or text[tokens[0][0] : tokens[0][1]].strip(QUOTES)[:1].islower())
            )
        ):
            break
        tokens.append((match.start(), match.start() + len(word)))
        if closes or len(tokens) >= 7:
            break
    while tokens and text[tokens[-1][0] : tokens[-1][1]].lower() in _CONNECTORS:
        tokens.pop()
    if not tokens:
        return None
    start, end = tokens[0][0], tokens[-1][1]
    name = _POSSESSIVE.sub("", text[start:end].strip(QUOTES + " "))
    if len(name) < 2 or name.lower() in GENERIC_NAMES or _QUANTITY_START.match(name):
        return None
    return name, start, end


def _chunk_ending(text: str, floor: int, end: int) -> tuple[str, int, int] | None:
    """The name that ends at ``end``: walk back over name-like tokens and connectors."""
    picked: list[re.Match] = []
    for token in reversed(list(_TOKEN.finditer(text, floor, end))):
        bare = token.group().strip(QUOTES + ",")
        if name_like(bare) and bare.lower() not in _STOP_CAPITALS:
            picked.insert(0, token)
        elif picked and bare.lower() in _CONNECTORS and len(picked) < 6:
            picked.insert(0, token)
        else:
            break
    while picked and picked[0].group().strip(QUOTES).lower() in _CONNECTORS:
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
    direct = re.match(r"\s+(?:[\w-]+\s+)?([a-z][\w-]*)", text[end : end + 40])
    if direct and direct.group(1).lower() in HEADS:
        return direct.group(1).lower()
    apposition = re.match(
        r"(?:\s*\([^)]{1,80}\))?\s*[,:]\s*(?:a|an|the|our)\s+([^;.()]{1,120})", text[end : end + 200]
    )
    if apposition:
        for word in apposition.group(1).lower().replace(",", " ").split()[:10]:
            if word in _PHRASE_END:
                break
            if word in HEADS:
                return word
    return None


def _kind_of(head: str | None, verb: str | None = None) -> str:
    if head in DATA_HEADS or (head is None and verb and _DATA_VERBS.match(verb)):
        return "data"
    return "method"


# --- the cues ---------------------------------------------------------------------------------


class _Names:
    """The names found so far, each merged with the acronym definition it overlaps."""

    def __init__(self, acronyms: list[Abbreviation]) -> None:
        self.acronyms = acronyms
        self.found: list[Name] = []

    def add(self, name: str, start: int, end: int, kind: str, aliases: tuple[str, ...] = ()) -> None:
        if name.lower() in GENERIC_NAMES:
            return
        for acronym in self.acronyms:
            if acronym.start <= end and start < acronym.end:
                name, aliases = acronym.short, (acronym.long,)
                break
        self.found.append(Name(name, aliases, start, kind))

    def add_chunk(self, chunk: tuple[str, int, int] | None, kind: str) -> None:
        if chunk:
            self.add(chunk[0], chunk[1], chunk[2], kind)


def _after_cue(text: str, position: int, sentence_end: int) -> int:
    """Skip articles, adjectives and list markers after a cue verb."""
    while True:
        match = re.match(
            r"(?:\s*(?:\(\w{1,4}\)|[:,]|\d\.(?=\s)))*\s*([\w'\u03bb-]+)", text[position:sentence_end]
        )
        if not match:
            return position
        if match.group(1).lower() in _SKIP:
            position += match.end()
            continue
        at = position + match.start(1)
        return at - 1 if text[at - 1 : at] in QUOTES else at


def _cued(text: str, span: tuple[int, int], names: _Names) -> None:
    """'we propose X', 'this paper describes X', 'namely X' (and 'X and Y')."""
    for cue in _CUE.finditer(text, *span):
        verb = cue.group("verb")
        position = _after_cue(text, cue.end(), span[1])
        chunk = (
            name_chunk(text, position)
            or _acronym_at(position, names.acronyms)
            or _lowercase_named(text, position)
        )
        defined = chunk and any(a.start <= chunk[2] and chunk[1] < a.end for a in names.acronyms)
        if chunk and (defined or not _MODIFIES_NOUN.match(text, chunk[2])):
            kind = _kind_of(head_after(text, chunk[2]), verb)
            names.add_chunk(chunk, kind)
            names.add_chunk(_coordinated(text, chunk[2], span[1]), kind)


def _lowercase_named(text: str, position: int) -> tuple[str, int, int] | None:
    """'we propose medoid voting, a simple, but effective approach': a lower-case name the
    apposition right after it makes a method."""
    chunk = name_chunk(text, position, lowercase=True)
    if (
        chunk
        and len(chunk[0].split()) <= 3
        and re.match(r"\s*,\s+(?:a|an)\s", text[chunk[2] :])
        and head_after(text, chunk[2])
    ):
        return chunk
    return None


def _acronym_at(position: int, acronyms: list[Abbreviation]) -> tuple[str, int, int] | None:
    """'we propose inference-time dynamic prompting (IDP)': a definition right at the cue."""
    for acronym in acronyms:
        if 0 <= acronym.start - position <= 2:
            return acronym.short, acronym.start, acronym.end
    return None


def _coordinated(text: str, end: int, sentence_end: int) -> tuple[str, int, int] | None:
    """'MATH-P-Simple and MATH-P-Hard': a second name joined to the first by 'and'."""
    match = re.match(r"\s+and\s+", text[end:sentence_end])
    chunk = name_chunk(text, end + match.end()) if match else None
    return chunk if chunk and name_like(chunk[0].split()[0]) else None


def _named(text: str, span: tuple[int, int], names: _Names) -> None:
    """'a new method called SKIM', 'a ratio we call the compositionality gap'."""
    for match in _NAMING.finditer(text, *span):
        lead = _NAMING_HEAD.search(text, max(span[0], match.start() - 30), match.start())
        head = lead.group(1).lower() if lead else ""
        if head in PHENOMENON_HEADS:
            continue
        chunk = name_chunk(text, match.end(), lowercase=True)
        quoted = text[match.end() : match.end() + 1] in QUOTES
        defined = _acronym_at(match.end(), names.acronyms)
        if chunk and (match.group("we") or quoted or name_like(chunk[0].split()[0])):
            names.add_chunk(chunk, _kind_of(head))
        elif defined:  # 'a method called meta-transfer learning (MTL)'
            names.add_chunk(defined, _kind_of(head))


def _appositions(text: str, span: tuple[int, int], names: _Names) -> None:
    """Names in apposition to a method or dataset noun, in a contribution sentence."""
    start = span[0]
    sentence = text[start : span[1]]
    for match in _HEAD_THEN_NAME.finditer(sentence):
        if not _ARTICLE_BEFORE.search(sentence, max(0, match.start() - 60), match.start()):
            continue
        at = start + match.end()
        if any(a.start <= at < a.end and a.long not in text[at - 1 : a.end] for a in names.acronyms):
            continue  # 'the evidence lower bound (ELBO)' is a definition, not an apposition
        chunk = name_chunk(text, at, lowercase=True)
        if not chunk or not re.match(r"\s*[,)]", text[chunk[2] : chunk[2] + 2]):
            continue
        first = chunk[0].split()[0]
        if name_like(first) or "-" in first or text[at - 1] in QUOTES or text[at] in QUOTES:
            names.add_chunk(chunk, _kind_of(match.group("head").lower()))
    if "our" in sentence.lower() or "proposed" in sentence:
        for match in _OUR_HEAD_NAME.finditer(sentence):
            at = start + match.end()
            kind = _kind_of(match.group("head").lower())
            names.add_chunk(name_chunk(text, at), kind)
            named = _PARENTHESIZED_NAME.match(text, at - 1)  # 'our models (BigGANs)'
            if named and name_like(named.group(1)):
                names.add(named.group(1), named.start(1), named.end(1), kind)
        for match in _OUR_NAME_HEAD.finditer(sentence):
            # 'our SRL model' names a task when SRL was defined earlier, outside this sentence.
            background = any(a.short == match.group("name") and a.start < start for a in names.acronyms)
            if name_like(match.group("name")) and not background:
                names.add_chunk(
                    name_chunk(text, start + match.start("name")), _kind_of(match.group("head").lower())
                )
    for match in _APPOSITION.finditer(sentence):
        token = _LAST_TOKEN.search(sentence, max(0, match.start() - 60), match.start())
        head = head_after(text, start + match.start()) if token else None
        if head and name_like(token.group()):
            names.add_chunk(_chunk_ending(text, start, start + match.start()), _kind_of(head))
    _plural_list(text, span, names)


def _plural_list(text: str, span: tuple[int, int], names: _Names) -> None:
    """'deployable planners (B2T/RoH/ISR)': coined names listed after a plural method noun."""
    for match in _PLURAL_LIST.finditer(text, *span):
        head = match.group("head")
        parts = re.split(r"\s*[/,]\s*", match.group("names"))
        if (
            (head in METHOD_HEADS or head[:-1] in METHOD_HEADS)
            and len(parts) >= 2
            and all(name_like(p) and " " not in p for p in parts)
        ):
            offset = match.start("names")
            for part in parts:
                at = text.find(part, offset)
                names.add(part, at, at + len(part), "method")


def _opening(text: str, span: tuple[int, int], names: _Names) -> None:
    """'The approach, Diverse Prompt Mixer, is tested ...'."""
    match = _OPENING.match(text, span[0], span[1])
    if match:
        chunk = name_chunk(text, match.end())
        if chunk and re.match(r"\s*,", text[chunk[2] : chunk[2] + 2]):
            names.add_chunk(chunk, _kind_of(match.group("head").lower()))


def _definitions(
    doc: Document, span: tuple[int, int], names: _Names, previous_cue: bool, cued: bool
) -> None:
    """Acronym definitions in a contribution sentence: any, right after a cue verb or in a
    passive 'X (ACR) is proposed'; a Title Case one in a first-person sentence that marks it
    new or uses the acronym again (and is not a known metric)."""
    text = doc.text
    here = [
        a for a in names.acronyms if span[0] <= a.start < span[1] and a.short.lower() not in GENERIC_NAMES
    ]
    if not here:
        return
    sentence = text[span[0] : span[1]]
    passive = bool(_PASSIVE.search(sentence))
    for acronym in here:
        lead = text[max(span[0], acronym.start - 40) : acronym.start]
        if _NOT_A_DEFINITION.search(lead) or (
            _STUDY.search(text, span[0], acronym.start) and not _NOVELTY.search(sentence)
        ):
            continue
        head = head_after(text, acronym.end)
        titled = all(
            w[0].isupper() for w in re.findall(r"[\w'-]+", acronym.long) if w.lower() not in _CONNECTORS
        )
        # 'We propose ... using a deeply-recursive convolutional network (DRCN). ... a DRCN is ...':
        # a method noun defined in a contribution sentence and used again by its acronym.
        reused = (
            cued and acronym.long.split()[-1].lower() in METHOD_HEADS and acronym.short in text[acronym.end :]
        )
        strong = (
            passive
            or reused
            or bool(_STRONG_LEAD.search(lead) or _WE_PRESENT_AFTER.match(text, acronym.end))
        )
        if not (strong and (titled or head in HEADS or acronym.long.split()[-1].lower() in HEADS)):
            new_here = (previous_cue or _FIRST_PERSON.search(sentence)) and (
                _NOVELTY.search(sentence) or text.count(acronym.short) > 1
            )
            if not (titled and new_here) or metric_entry(acronym.short) or metric_entry(acronym.long):
                continue
        kind = "data" if re.search(r"(?i)\b(?:benchmark|dataset|corpus)\b", acronym.long) else _kind_of(head)
        names.add(acronym.short, acronym.start, acronym.end, kind, (acronym.long,))


def _subject(text: str, span: tuple[int, int], names: _Names) -> None:
    """Right after a contribution sentence: 'The Text-Only Probe measures ...'."""
    match = _SUBJECT.match(text, span[0], span[1])
    if not match:
        return
    name = match.group("name").strip()
    following = match.group("next")
    if following in METHOD_HEADS or (
        following not in HEADS and len(name.split()) >= 2 and name.split()[-1].lower() in METHOD_HEADS
    ):
        names.add(name, match.start("name"), match.start("name") + len(name), "method")


def _coined(name: str) -> bool:
    """'CyCADA', 'M - Walk', 'DeepID2 +', 'FooNet': a name no dictionary word spells."""
    token = _TOKEN.match(name)
    first = token.group() if token else ""
    return any(c.isalpha() for c in first) and (
        any(c.isupper() for c in first[1:]) or any(c.isdigit() for c in first)
    )


def _acting_subjects(
    doc: Document, span: tuple[int, int], names: _Names, previous_cue: bool, background: int
) -> None:
    """A coined name the sentence opens with (or that 'results show that' introduces), followed by
    a result verb, or by any verb right after a contribution sentence: 'CyCADA adapts ...',
    'FlowNet 2.0 is only marginally slower', 'Experiments show that M - Walk outperforms ...'.
    A name the abstract also writes before its first contribution sentence, or as what something
    is compared with or built on, is a baseline."""
    text = doc.text
    starts = [_SUBJECT_LEAD.match(text, span[0], span[1]).end()]
    if " that " in text[span[0] : span[1]]:
        starts += [m.end() for m in _SHOW_THAT.finditer(text, span[0], span[1])]
    for at in starts:
        first = _TOKEN.match(text, at)
        chunk = name_chunk(text, at) if first and _coined(first.group().strip(QUOTES)) else None
        if not chunk or not _coined(chunk[0]) or MODEL_FAMILIES.match(chunk[0]):
            continue
        name, start, end = chunk
        version = _VERSION.match(text, end)
        if version:
            end = version.end()
            name = text[start:end]
        verb = _VERB_AFTER.match(text, end, span[1])
        if not verb or not (
            (previous_cue and _FINITE_VERB.fullmatch(verb.group("verb")))
            or (_RESULT_VERB.match(verb.group("verb")) and text.count(name) > 1)
        ):
            continue
        compared = re.search(_COMPARED + re.escape(name), text, re.IGNORECASE)
        if name in text[:background] or compared or metric_entry(name):
            continue
        names.add(name, start, end, "method")


# What ends a name that opens a title: 'CyCADA: ...', 'M - Walk : ...', 'X \u2014 ...', 'X - a ...'.
_TITLE_BREAK = re.compile(r":|--|\u2013|\u2014")
_LONE_BREAKS = frozenset({":", "-", "--", "\u2013", "\u2014"})
_DATA_WORD = re.compile(
    r"\b(?:" + "|".join(sorted(DATA_HEADS, key=len, reverse=True)) + r")s?\b", re.IGNORECASE
)


def title_name(title: str, text: str) -> tuple[str, int] | None:
    """The coined name a title opens with ('CyCADA: Cycle-Consistent ...', 'FlowNet 2.0 - ...'),
    where the abstract writes it first. An ordinary phrase ('Attention Is All You Need: ...'), a
    name the abstract never writes, and a name the title calls a dataset are not one."""
    if title.isupper():
        return None
    starts: list[int] = []
    end = 0
    for token in _TOKEN.finditer(title):
        word = token.group()
        cut = None if word in _LONE_BREAKS else _TITLE_BREAK.search(word)
        head = "" if word in _LONE_BREAKS else word[: cut.start()] if cut else word
        if head:
            starts.append(token.start())
            end = token.start() + len(head)
        if word in _LONE_BREAKS or cut or len(starts) > 3:
            break
    else:
        return None
    if not starts or len(starts) > 3 or _DATA_WORD.search(title, end):
        return None
    name = title[starts[0] : end].strip(QUOTES + " ")
    if not any(_coined(t) for t in _TOKEN.findall(name)) or name.lower() in GENERIC_NAMES:
        return None
    found = re.search(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", text)
    if not found or head_after(text, found.end()) in DATA_HEADS:
        return None
    return name, found.start()


def find_names(doc: Document, acronyms: list[Abbreviation]) -> list[Name]:
    """Every coined name the cues point at, methods and introduced datasets alike."""
    text = doc.text
    names = _Names(acronyms)
    previous_cue = False
    background = -1  # where the first contribution sentence starts
    for span in doc.sentences:
        sentence = text[span[0] : span[1]]
        lower = sentence.lower()
        before = len(names.found)
        # Substring checks first: most sentences hold none of the words a cue needs.
        cued = any(w in lower for w in _CUE_WORDS) and bool(_CUE.search(sentence))
        if background < 0 and (cued or _FIRST_PERSON.search(sentence)):
            background = span[0]
        if background >= 0 and not cued:
            _acting_subjects(doc, span, names, previous_cue, background)
        if cued:
            _cued(text, span, names)
        if any(w in lower for w in _NAMING_WORDS):
            _named(text, span, names)
        if cued or previous_cue or _FIRST_PERSON.search(sentence) or _PASSIVE.search(sentence):
            _appositions(text, span, names)
        _opening(text, span, names)
        _definitions(doc, span, names, previous_cue, cued)
        if previous_cue:
            _subject(text, span, names)
        previous_cue = cued or len(names.found) > before
    return _merge(names.found)


def _singular(key: str) -> str:
    """'reasonets' and 'reasonet' are one name: the plural names the instances of a method."""
    return key[:-1] if len(key) > 3 and key.endswith("s") else key


def _merge(found: list[Name]) -> list[Name]:
    """One entry per name: aliases joined, a dataset reading kept over a method reading."""
    merged: dict[str, Name] = {}
    for item in found:
        key = name_key(item.name)
        if not key:
            continue
        twin = next(
            (
                k
                for k, old in merged.items()
                if _singular(key) in {_singular(name_key(a)) for a in (k, *old.aliases)}
            ),
            None,
        )
        if twin is None:
            merged[key] = item
            continue
        old = merged[twin]
        aliases = tuple(dict.fromkeys(a for a in (*old.aliases, *item.aliases, item.name) if a != old.name))
        merged[twin] = Name(
            old.name, aliases, old.start, "data" if "data" in (old.kind, item.kind) else old.kind
        )
    return list(merged.values())
