"""The cues by which an abstract introduces its own contributions, each a function below.

A contribution verb with a first-person subject (``we propose X``, ``this paper describes X``,
``namely X``); naming (``called X``, ``a ratio we call X``); apposition (``X, a ... framework``,
``a new method, X,``, ``our trained model X``, ``The approach, X, ...``); acronym definitions in
a contribution sentence; right after a contribution sentence, subjects such as ``The Text-Only
Probe measures ...``; and coined names acting as the subject of a result sentence. Each cue adds
what it finds to a :class:`Found`; :mod:`.coined` decides which cues a sentence gets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from extractor.catalog.registry import metric_entry
from extractor.rules.acronyms import Abbreviation
from extractor.rules.chunks import (
    CONNECTORS,
    HEADS,
    HEADS_PATTERN,
    QUOTES,
    TOKEN,
    chunk_ending,
    coined,
    head_after,
    kind_of,
    name_chunk,
    name_like,
)
from extractor.rules.document import SPACED_WORD, AnyCase, AsciiFirst, Document
from extractor.rules.vocabulary import (
    DATA_HEADS,
    GENERIC_NAMES,
    METHOD_HEADS,
    MODEL_FAMILIES,
    PHENOMENON_HEADS,
    generic_name,
    word_start,
)

# The paper speaking of itself: 'we', 'this paper', 'this document describes', 'this thesis'.
_ITSELF = r"this\s+(?:paper|work|study|article|report|document|thesis|manuscript|note)"
FIRST_PERSON = AnyCase(r"(?:" + word_start(r"we|our|" + _ITSELF) + r")\b")
# Every alternative opens with the first letter of its words ('we', 'this', 'which', 'leading',
# 'namely', 'by'), which the engine skips to; only then are the word boundary before it and the
# letter itself (behind) checked: a word boundary was tested at every character of the sentence.
CUE = AnyCase(
    r"[wtlnb](?<!\w[wtlnb])(?:(?:(?<=w)e|(?<=t)" + _ITSELF.removeprefix("t") + r")\s+"
    r"(?:\w+ly\s+|then\s+|also\s+|further\s+|will\s+|first\s+|next\s+|now\s+|therefore\s+|thus\s+|hence\s+)*"
    r"(?P<verb>propos\w*|introduc\w*|present\w*|develop\w*|design\w*|devis\w*|build\w*|built|"
    r"construct\w*|creat\w*|releas\w*|deriv\w*|formulat\w*|offer\w*|contribut\w*|train\w*|"
    r"establish\w*|curat\w*|collect\w*|publish\w*|open-sourc\w*|describ\w*|put\s+forward)\b"
    r"|(?:(?<=t)his|(?<=w)hich)\s+(?:leads|led)\s+(?:us\s+)?to\b|(?<=l)eading\s+to\b|(?<=n)amely,?\b"
    r"|(?<=b)y\s+(?:building|introducing|proposing|designing|developing|constructing)\b)"
)
CUE_WORDS = ("we ", "this ", "lead", "namely", "by ")
# 'We note similarities with ... and develop drop - path , a ...': a contribution verb joined to
# the first-person subject's first verb.
_AND_VERBS = ("propos", "introduc", "present", "develop", "design", "devis")
_AND_CUE = re.compile(
    r"\band\s+(?:then\s+|also\s+|further\s+)?(?P<verb>(?:" + "|".join(_AND_VERBS) + r")\w*)\b",
    re.IGNORECASE,
)
_SUBJECT_BEFORE = re.compile(r"\b(?:we|" + _ITSELF + r")\s", re.IGNORECASE)
NAMING_WORDS = ("call", "name", "dub", "term", "coin", "denot", "refer")
_PARTICIPLES = ("proposed", "introduced", "presented", "developed", "designed")
_PASSIVE = re.compile(
    r"\b(?:is|are|was|were)\s+(?:\w+ly\s+|also\s+|further\s+|then\s+|first\s+)?(?:"
    + "|".join(_PARTICIPLES)
    + r")\b",
    re.IGNORECASE,
)
# 'a ratio we call X', 'a new method called X', 'we refer to this as X'. After a participle the
# name must look like one ('named entities' is not a naming); after 'we call' it may not.
_NAMING = AsciiFirst(
    r"\b(?:(?P<we>we\s+(?:call|name|term|dub|coin|denote)|we\s+refer\s+to\s+(?:\w+\s+){0,6}?as)|"
    r"(?:called|named|dubbed|termed|coined|denoted|referred\s+to)(?:\s+as)?)\s+"
    r"(?:it\s+|this\s+|them\s+|our\s+[\w-]+\s+)?"
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
    r"\b(?i:our\s+proposed|propos\w*|introduc\w*|present\w*)\s+(?:" + SPACED_WORD + r"){0,6}$"
)
_WE_PRESENT_AFTER = re.compile(
    r"\s*(?:that\s+|which\s+)?we\s+(?:propose|present|introduce|develop|call)\b", re.IGNORECASE
)
_NOT_A_DEFINITION = re.compile(
    r"\b(?:such\s+as|like|e\.g\.?|i\.e\.?|including|known\s+as|than|vs\.?|versus|over|baselines?|"
    r"in\s+terms\s+of|measured\s+by|focusing\s+on|based\s+on|inspired\s+by)\s*"
    r"(?:the\s+)?[\"'\u201c\u2018`]?\s*$",
    re.IGNORECASE,
)
# 'the state-of-the-art Residual Network (ResNet)', 'the widely used X (ACR)': someone else's.
_BACKGROUND_LEAD = re.compile(
    r"\b(?:state\s*-\s*of\s*-\s*the\s*-\s*art|existing|conventional|traditional|classical|"
    r"popular|standard|well\s*-\s*known|widely\s*-?\s*used|prior|previous|vanilla|original)\s+"
    r"(?:" + SPACED_WORD + r"){0,5}$",
    re.IGNORECASE,
)
# 'we propose to localize parts using Spatial Transformer Networks (STN)': a Title Case definition
# that what the paper proposes to do works with, not one it names as its own ('we propose FooNet
# with the Cross Scale Attention (CSA) module' names its own).
_TOOL_LEAD = re.compile(r"\b(?:using|with|via)\s+(?:the\s+|a\s+|an\s+)?$", re.IGNORECASE)
_PROPOSE_TO = re.compile(r"\bpropos\w*\s+to\s", re.IGNORECASE)
_PART_LEAD = re.compile(r"\b(?:with|using|via|by)\s+(?:" + SPACED_WORD + r"){1,2}$")
# 'the Ego4D Natural Language Queries (NLQ) Challenge': part of a dataset's name, even capitalized;
# the benchmark rules read it.
_DATA_AFTER = re.compile(r"\s+(?:" + "|".join(sorted(DATA_HEADS)) + r")s?\b", re.IGNORECASE)
# 'as a Multiple Instance Learning (MIL) problem': a definition that names a problem or task.
_PHENOMENON_AFTER = re.compile(r"\s+(?:" + "|".join(sorted(PHENOMENON_HEADS)) + r")\b")
_LIST_JOIN = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+)(?:the\s+)?")
# Method nouns that name a whole method, not a part of one ('a fully connected (FC) layer').
_WHOLE_METHODS = frozenset(
    "method approach framework algorithm scheme strategy technique model architecture mechanism "
    "network pipeline system procedure paradigm recipe".split()
)
_SKIP = frozenset(
    """
    a an the new novel simple yet effective efficient generic first lightweight principled
    scalable practical powerful robust flexible training-free plug-and-play fully our
    """.split()
)
# 'our trained model Curie-7B-v1', 'the proposed framework X'.
_OUR_HEAD_NAME = re.compile(
    r"\b(?i:our|the\s+proposed)\s+(?:" + SPACED_WORD + r"){0,2}?(?P<head>" + HEADS_PATTERN + r")s?\s+(?=\S)"
)
# 'The proposed FooNet achieves ...': the paper's own name, whatever sentence it stands in.
_PROPOSED_NAME = re.compile(r"\b(?i:our|the)\s+(?:newly\s+)?proposed\s+(?=\S)")
# 'We present KV-cache compression': a capitalized word before a process noun modifies it.
_MODIFIES_NOUN = re.compile(
    r"\s+(?!(?:" + HEADS_PATTERN + r")\b)[a-z]+(?:tion|sion|ing|ment|ance|ence|ity|ness|ism)s?\b"
)
# 'namely, Orthogonal Embedding CNNs, or OE-CNNs)': a second name for the same thing.
_OR_ALIAS = re.compile(r"\s*,?\s+or\s+(?=[^,()]{1,24}[),])")
# 'our Graph Capsule Network ( GCAPS - CNN ) model': a short form its initials open.
_PAREN_OPEN = re.compile(r"\s*\(\s*(?=[^()]{1,24}\))")
_PARENTHESIZED_NAME = re.compile(r"\s*\(\s*([^\s()]+)\s*\)")
# 'our DUEL framework', 'our Shortcut - Stacked sentence encoders': a coined name may stand apart
# from its head by a noun it modifies.
_OUR_NAME_HEAD = re.compile(
    r"\b(?i:our)\s+(?P<name>\S+(?:\s-\s\S+)*)\s+(?:(?P<modified>[a-z]+)\s+)?(?P<head>"
    + HEADS_PATTERN
    + r")s?\b"
)
# 'a new method, self-ask, that' / 'a new technique ("reordering")': the head, then its article.
_HEAD_THEN_NAME = AsciiFirst(r"\b(?P<head>" + HEADS_PATTERN + r")\s*(?:,\s*(?:the\s+)?|\(\s*)(?=\S)")
# 'compared to a strong deep baseline model ( iBOWIMG )': the name apposed is what is compared with.
_BASELINE_APPOSED = AnyCase(
    r"\b(?:compared\s+(?:to|with)|than|against|over|versus|vs\.?|outperform\w*|surpass\w*)\s+(?:a|an|the)\s"
)
_ARTICLE_BEFORE = re.compile(r"\b(?i:a|an|the|our)\s+(?:" + SPACED_WORD + r"){0,3}$")
_APPOSITION = re.compile(r"\s*,\s+an?\s+")
# What every apposition holds, found from its comma: most sentences have none, and the pattern
# above, which may start at any space, is tried at every character.
_APPOSITION_COMMA = re.compile(r",\s+an?\s")
_LAST_TOKEN = re.compile(r"[^\s,;:()]+$")
# 'The approach, Diverse Prompt Mixer, is tested': a sentence that opens by naming its subject.
_OPENING = re.compile(
    r"(?:The|This|Our)\s+(?:" + SPACED_WORD + r"){0,2}?(?P<head>" + HEADS_PATTERN
    + r")\s*,\s+(?:the\s+)?(?=\S)"
)
# 'Our model, the Gated-Attention (GA) Reader, integrates ...': the name may hold its acronym.
_NAME_CLOSES = re.compile(r"\s*(?:\(\s*[^()]{1,12}\)\s*(?:[A-Z][\w-]*\s*)?)?,")
# 'The ByteNet is a one-dimensional convolutional neural network ...': a sentence defining a name.
_DEFINING = re.compile(r"The\s+(?=\S)")
# A sentence opening with a word that has an inner capital or a digit ('FooNet', 'M - Walk').
_COINED_START = re.compile(r"[^\W\d_][\w-]*?[A-Z\d]|[^\W\d_]\w*\s-\s\w")
_DEFINED_AS = re.compile(r"\s+is\s+an?\s+(?:" + SPACED_WORD + r"){0,5}?(?P<head>" + HEADS_PATTERN + r")\b")
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
_SHOW_THAT = AsciiFirst(
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
# A list of its own, drifted from vocabulary.RESULT_VERBS (it adds win, set, generaliz, converg,
# scal, 'significantly' and lacks most verbs of change); unifying them would change what is read.
_RESULT_VERB = re.compile(
    r"(?:achiev|outperform|obtain|surpass|improv|yield|reach|attain|beat|exceed|establish|deliver|"
    r"perform|match|win|won|set|rank|generaliz|converg|scal|reduc|significantly)"
)
# Any finite verb: right after a contribution sentence, a name that acts is the one just introduced.
_FINITE_VERB = re.compile(r"[a-z]{3,}(?:s|ed)|is|are|was|can|could|has|does|uses")
# What a name written right after is compared with or built on ('better than X', 'based on X').
_COMPARED_BEFORE = AnyCase(
    r"\b(?:than|over|such\s+as|e\.g\.?|including|compared\s+(?:to|with)|vs\.?|versus|like|unlike|"
    r"outperform\w*|surpass\w*|beat\w*|exceed\w*|extends?|based\s+on|built\s+on|from|"
    r"(?:has|have|had|previously|recently|originally)\s+(?:been\s+)?proposed)\s*,?\s+"
    r"(?:(?:the|a|an)\s+)?(?:[\w-]+\s+){0,2}?\Z"
)
# The most words _COMPARED_BEFORE spans: 'has been proposed', a comma, an article, two words.
_COMPARED_WORDS = 7


_JOINED_BEFORE = re.compile(r"(\S.*?)\s+(?:(?:" + "|".join(sorted(CONNECTORS)) + r")\s+)+$")


@dataclass(frozen=True)
class Name:
    """A coined name: its written form, other names for it, where it is, and what it heads."""

    name: str
    aliases: tuple[str, ...]
    start: int
    kind: str  # 'method' or 'data'


class Found:
    """The names found so far, each merged with the acronym definition it overlaps."""

    def __init__(self, acronyms: list[Abbreviation]) -> None:
        self.acronyms = acronyms
        self.found: list[Name] = []

    def add(
        self, name: str, start: int, end: int, kind: str, aliases: tuple[str, ...] = (), definite: bool = False
    ) -> None:
        """``definite``: the text names it as its own ('architecture, the Transformer,'), so a
        word other papers use generically is this paper's name."""
        if generic_name(name) and not definite:
            return
        for acronym in self.acronyms:
            if acronym.start <= end and start < acronym.end:
                # 'FooNet with the Cross Scale Attention ( CSA )': a name joined to the definition
                # by a function word is a name of its own
                before = _JOINED_BEFORE.match(name[: max(0, acronym.start - start)])
                if before and not generic_name(before.group(1)):
                    self.found.append(Name(before.group(1), aliases, start, kind))
                name, aliases = acronym.short, (acronym.long,)
                break
        self.found.append(Name(name, aliases, start, kind))

    def add_chunk(self, chunk: tuple[str, int, int] | None, kind: str, definite: bool = False) -> None:
        if chunk:
            self.add(chunk[0], chunk[1], chunk[2], kind, definite=definite)


def passive(sentence: str) -> bool:
    """'X is proposed', 'Y was introduced'. In ASCII text, where lower case is all the case
    folding the pattern does, a sentence without one of the participles is ruled out first."""
    lower = sentence.lower()
    if sentence.isascii() and not any(p in lower for p in _PARTICIPLES):
        return False
    return _PASSIVE.search(sentence) is not None


_NEXT_WORD = re.compile(r"(?:\s*(?:\(\w{1,4}\)|[:,]|\d\.(?=\s)))*\s*([\w'\u03bb-]+)")


def _after_cue(text: str, position: int, sentence_end: int) -> int:
    """Skip articles, adjectives and list markers after a cue verb."""
    while True:
        match = _NEXT_WORD.match(text[position:sentence_end])
        if not match:
            return position
        if match.group(1).lower() in _SKIP:
            position += match.end()
            continue
        at = position + match.start(1)
        return at - 1 if text[at - 1 : at] in QUOTES else at


def cues(text: str, span: tuple[int, int]) -> list[re.Match[str]]:
    """The contribution verbs of a sentence: after their subject, or joined by 'and' to the verb
    of a first-person subject."""
    sentence = text[span[0] : span[1]]
    # the sentence alone first: reading the whole abstract's positions lower-cases all of it
    found = list(CUE.finditer(text, *span)) if CUE.search(sentence) else []
    lower = sentence.lower()
    if " and " in sentence and any(verb in lower for verb in _AND_VERBS):
        for joined in _AND_CUE.finditer(text, *span):
            if _SUBJECT_BEFORE.search(text, span[0], joined.start()):
                found.append(joined)
    return found


def cue_verbs(text: str, span: tuple[int, int], names: Found, verbs: list[re.Match[str]]) -> None:
    """'we propose X', 'this paper describes X', 'namely X' (and 'X and Y'), at the sentence's
    contribution verbs (:func:`cues`)."""
    for cue in verbs:
        verb = cue.group("verb")
        position = _after_cue(text, cue.end(), span[1])
        chunk = (
            name_chunk(text, position)
            or _acronym_at(text, position, names.acronyms)
            or _lowercase_named(text, position)
            or _after_modifiers(text, position, span[1])
            or _described(text, position, span)
        )
        defined = chunk and any(a.start <= chunk[2] and chunk[1] < a.end for a in names.acronyms)
        if chunk and (defined or not _MODIFIES_NOUN.match(text, chunk[2])):
            kind = kind_of(head_after(text, chunk[2]), verb)
            other = _OR_ALIAS.match(text, chunk[2], span[1]) or _PAREN_OPEN.match(text, chunk[2], span[1])
            alias = name_chunk(text, other.end()) if other else None
            alias = alias if alias and _abbreviates(alias[0], chunk[0]) else None
            names.add(chunk[0], chunk[1], chunk[2], kind, aliases=(alias[0],) if alias else ())
            names.add_chunk(_coordinated(text, chunk[2], span[1]), kind)


def _before_connector(text: str, chunk: tuple[str, int, int]) -> tuple[str, int, int]:
    """'dropblock for convolutions': a lower-case name ends before a function word."""
    words = chunk[0].split()
    cut = next((i for i, w in enumerate(words) if i and w.lower() in CONNECTORS), len(words))
    end = chunk[1] + len(" ".join(words[:cut]))
    return text[chunk[1] : end], chunk[1], end


def _abbreviates(short: str, name: str) -> bool:
    """'OE - CNNs' for 'Orthogonal Embedding CNNs': its capitals open with the name's initials."""
    initials = "".join(w[0] for w in name.split() if w[0].isupper())
    capitals = "".join(c for c in short if c.isupper())
    return len(short) < len(name) and len(initials) >= 2 and capitals.startswith(initials[:2])


# 'a many-to-many Token Transforming framework': hyphenated modifiers before a name and its noun.
_COMPOUND_MODIFIERS = re.compile(r"(?:[a-z]\w*(?:\s?-\s?[a-z]\w*)+\s+){1,2}")


def _after_modifiers(text: str, position: int, end: int) -> tuple[str, int, int] | None:
    """'we propose a many-to-many Token Transforming framework': the name after compound
    modifiers, when a method noun follows it and the sentence names it no other way ('a
    style - controllable Multi - source Abstractive Summarization model ... , called Masque')."""
    modifiers = _COMPOUND_MODIFIERS.match(text, position)
    chunk = name_chunk(text, modifiers.end()) if modifiers else None
    if not chunk or head_after(text, chunk[2]) not in METHOD_HEADS or _NAMING.search(text, chunk[2], end):
        return None
    return chunk


def _lowercase_named(text: str, position: int) -> tuple[str, int, int] | None:
    """'we propose medoid voting, a simple, but effective approach': a lower-case name the
    apposition right after it makes a method."""
    chunk = name_chunk(text, position, lowercase=True)
    if (
        chunk
        and len(chunk[0].split()) <= 3
        and re.match(r"\s*,\s+(?:a|an)\s", text[chunk[2] :])
        and (head_after(text, chunk[2]) or _VARIANT_APPOSED.match(text, chunk[2]))
    ):
        return chunk
    return None


# 'we develop drop - path , a natural extension of dropout': a name apposed to what it varies.
_VARIANT_APPOSED = re.compile(
    r"\s*,\s+(?:a|an)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:extension|variant|generali[sz]ation|modification|version)\s+of\b"
)


# 'a novel fluency boost learning and inference mechanism': three or more lower-case words before
# a noun of a process (not of an artifact: 'a convolutional neural network' describes what it is
# built of); two are a term of the field ('a gradient matching approach').
_DESCRIBED = re.compile(
    r"((?:[a-z][\w]*(?:\s?-\s?[a-z0-9]\w*)*\s+){3,6}?(?:and\s+(?:[a-z][\w-]*\s+){1,2})?)"
    r"(?=(?:method|approach|framework|algorithm|mechanism|scheme|strategy|technique|procedure|"
    r"paradigm|recipe)\b)"
)


def _described(text: str, position: int, span: tuple[int, int]) -> tuple[str, int, int] | None:
    """'we propose a novel fluency boost learning and inference mechanism': a description the
    abstract goes on to use as a name (written again after the sentence, maybe without its first
    word: 'online X refinement' then 'X refinement') and never wrote before it, which a task or
    a field it works in ('a few-shot learning method') would be."""
    found = _DESCRIBED.match(text, position, span[1])
    if not found:
        return None
    phrase = found.group(1).strip()
    words = phrase.split()
    if words[-1] in CONNECTORS or words[-1] == "and" or any(w in CONNECTORS for w in words):
        return None
    key = _spelled(phrase)
    later = _spelled(text[span[1] :])
    shorter = " ".join(words[1:])
    reused = key in later or (len(words) >= 4 and _spelled(shorter) in later)
    if not reused or key in _spelled(text[: span[0]]):
        return None
    return phrase, found.start(1), found.start(1) + len(phrase)


def _spelled(text: str) -> str:
    """Lower case with hyphens closed up: 'Fluency - boost' and 'fluency-boost' are one."""
    return re.sub(r"\s*-\s*", "-", text.lower())


def _acronym_at(text: str, position: int, acronyms: list[Abbreviation]) -> tuple[str, int, int] | None:
    """'we propose inference-time dynamic prompting (IDP)': a definition right at the cue, its
    long form maybe quoted ('We introduce the “ exponential linear unit ” ( ELU )')."""
    for acronym in acronyms:
        if acronym.start >= position and not text[position : acronym.start].strip(QUOTES + " "):
            return acronym.short, acronym.start, acronym.end
    return None


def _coordinated(text: str, end: int, sentence_end: int) -> tuple[str, int, int] | None:
    """'MATH-P-Simple and MATH-P-Hard': a second name joined to the first by 'and'."""
    match = re.match(r"\s+and\s+", text[end:sentence_end])
    chunk = name_chunk(text, end + match.end()) if match else None
    return chunk if chunk and name_like(chunk[0].split()[0]) else None


# 'we call this model "DeepNet"': the noun 'this' points with; '“ stacked hourglass ”': a quote
# mark written apart in tokenized text.
_POINTED_NOUN = re.compile(r"(?P<noun>[a-z][\w-]*)\s+(?=(?:the\s+|an?\s+)?[\"'\u201c\u2018`\w])")
_LONE_QUOTE = re.compile(r"[\"'\u201c\u2018`]\s+(?=\w)")
# 'we call the resulting architecture FooNet': the noun an article points with, before a name.
_THE_NOUN = re.compile(
    r"(?:[a-z][\w-]*\s+)?(?P<noun>" + HEADS_PATTERN + r")s?\s+(?=[\"'\u201c\u2018`]?\s*[A-Z0-9])"
)


def _naming_start(text: str, at: int) -> tuple[int, str]:
    """Where the name starts, and the noun 'this' or 'the' points with ('' when none)."""
    noun = ""
    if re.search(r"\bthis\s+$", text[max(0, at - 6) : at], re.IGNORECASE):
        pointed = _POINTED_NOUN.match(text, at)
        if pointed and (pointed.group("noun") in HEADS or pointed.group("noun") in PHENOMENON_HEADS):
            at, noun = pointed.end(), pointed.group("noun")
            at += len(re.match(r"(?:the\s+|an?\s+)?", text[at:]).group())
    elif re.search(r"\bthe\s+$", text[max(0, at - 5) : at], re.IGNORECASE):
        pointed = _THE_NOUN.match(text, at)
        if pointed:
            at, noun = pointed.end(), pointed.group("noun")
    lone = _LONE_QUOTE.match(text, at)
    return (lone.end() if lone else at), noun


def named(text: str, span: tuple[int, int], names: Found) -> None:
    """'a new method called SKIM', 'a ratio we call the compositionality gap'."""
    for match in _NAMING.finditer(text, *span):
        lead = _NAMING_HEAD.search(text, max(span[0], match.start() - 30), match.start())
        head = lead.group(1).lower() if lead else ""
        if head in PHENOMENON_HEADS:
            continue
        at, pointed = _naming_start(text, match.end())
        if pointed in PHENOMENON_HEADS:
            continue  # 'we call this phenomenon the reversal curse'
        head = head or pointed
        chunk = name_chunk(text, at, lowercase=True)
        quoted = text[at : at + 1] in QUOTES or text[at - 2 : at - 1] in QUOTES
        defined = _acronym_at(text, at, names.acronyms)
        # 'a regularizer dubbed dropblock': after a method or dataset noun a lower-case name is one
        headed = head in HEADS and not match.group("we")
        if chunk and headed and not name_like(chunk[0].split()[0]):
            chunk = _before_connector(text, chunk)
        if chunk and not name_like(chunk[0].split()[0]):
            chunk = _with_head(text, chunk)
        if chunk and (match.group("we") or quoted or headed or name_like(chunk[0].split()[0])):
            names.add_chunk(chunk, kind_of(head))
        elif defined:  # 'a method called meta-transfer learning (MTL)'
            names.add_chunk(defined, kind_of(head))


# 'called the hierarchical multiscale recurrent neural network': a long lower-case name cut short
# ends with the method noun right after it.
_HEAD_NEXT = re.compile(r"\s+(?:" + HEADS_PATTERN + r")s?\b")


def _with_head(text: str, chunk: tuple[str, int, int]) -> tuple[str, int, int]:
    head = _HEAD_NEXT.match(text, chunk[2]) if len(chunk[0].split()) >= 4 else None
    return (text[chunk[1] : head.end()], chunk[1], head.end()) if head else chunk


_DEFINITE_NAME = re.compile(r"[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,2}(?=\s*,)")


def _definite_name(text: str, at: int) -> tuple[str, int, int] | None:
    found = _DEFINITE_NAME.match(text, at)
    return (found.group(), found.start(), found.end()) if found else None


def appositions(text: str, span: tuple[int, int], names: Found) -> None:
    """Names in apposition to a method or dataset noun, in a contribution sentence."""
    start = span[0]
    sentence = text[start : span[1]]
    for match in _HEAD_THEN_NAME.finditer(sentence):
        article = _ARTICLE_BEFORE.search(sentence, max(0, match.start() - 60), match.start())
        if not article or _BASELINE_APPOSED.search(sentence, max(0, article.start() - 30), article.end()):
            continue
        at = start + match.end()
        if any(a.start <= at < a.end and a.long not in text[at - 1 : a.end] for a in names.acronyms):
            continue  # 'the evidence lower bound (ELBO)' is a definition, not an apposition
        # 'a new network architecture, the Transformer,': capitalized words the article makes a
        # name, even a word other papers use for something generic
        definite = (
            text[at - 4 : at].lower() == "the "
            and "," in match.group()
            and bool(_NOVELTY.search(sentence))
            and not _STUDY.search(sentence)
        )
        chunk = name_chunk(text, at, lowercase=True) or (_definite_name(text, at) if definite else None)
        if not chunk or not re.match(r"\s*[,)]", text[chunk[2] : chunk[2] + 2]):
            continue
        first = chunk[0].split()[0]
        definite = definite and first[0].isupper()
        if name_like(first) or "-" in first or definite or text[at - 1] in QUOTES or text[at] in QUOTES:
            names.add_chunk(chunk, kind_of(match.group("head").lower()), definite=definite)
    if "our" in sentence.lower() or "proposed" in sentence:
        for match in _OUR_HEAD_NAME.finditer(sentence):
            at = start + match.end()
            kind = kind_of(match.group("head").lower())
            names.add_chunk(name_chunk(text, at), kind)
            named = _PARENTHESIZED_NAME.match(text, at - 1)  # 'our models (BigGANs)'
            if named and name_like(named.group(1)):
                names.add(named.group(1), named.start(1), named.end(1), kind)
        for match in _OUR_NAME_HEAD.finditer(sentence):
            background = _defined_before(match.group("name"), start, names.acronyms)
            kind = kind_of(match.group("head").lower())
            chunk = name_chunk(text, start + match.start("name")) if name_like(match.group("name")) else None
            if not chunk or background:
                continue
            if not match.group("modified"):
                names.add_chunk(chunk, kind)
            elif coined(chunk[0]) and chunk[2] == start + match.end("name"):
                # the noun between is part of the name: 'Shortcut - Stacked sentence encoders'
                names.add(text[chunk[1] : start + match.end()], chunk[1], start + match.end(), kind)
    for match in _APPOSITION.finditer(sentence) if _APPOSITION_COMMA.search(sentence) else ():
        token = _LAST_TOKEN.search(sentence, max(0, match.start() - 60), match.start())
        head = head_after(text, start + match.start()) if token else None
        if head and name_like(token.group()):
            names.add_chunk(chunk_ending(text, start, start + match.start()), kind_of(head))
    _plural_list(text, span, names)
    _colon_list(text, span, names)


# 'In this paper , FooNet is proposed': present tense, not proposed by or in someone's work.
_OWN_PASSIVE = re.compile(
    r"\s+(?:is|are)\s+(?:(?:also|further|then|thus|therefore|hence|first)\s+)?(?:"
    + "|".join(_PARTICIPLES)
    + r")\b(?!\s+(?:by|in)\b)"
)


def passive_subjects(text: str, span: tuple[int, int], names: Found) -> None:
    """'In this paper , FooNet is proposed for retrieval': the coined name right before a
    present passive contribution verb."""
    for match in _OWN_PASSIVE.finditer(text, *span):
        chunk = chunk_ending(text, span[0], match.start())
        if chunk and coined(chunk[0]) and not MODEL_FAMILIES.match(chunk[0]):
            names.add(*chunk, "method")


def own_phrase(sentence: str) -> bool:
    """'the proposed approach', 'our proposed DFN': the paper speaking of its own method."""
    return "proposed" in sentence and _PROPOSED_NAME.search(sentence) is not None


def proposed(text: str, span: tuple[int, int], names: Found) -> None:
    """'The proposed FooNet achieves ...', 'our proposed DFN': a coined name the paper calls
    its own, in any sentence."""
    for match in _PROPOSED_NAME.finditer(text, *span):
        chunk = name_chunk(text, match.end())
        if chunk and coined(chunk[0]) and not _defined_before(chunk[0], span[0], names.acronyms):
            names.add(*chunk, kind_of(head_after(text, chunk[2])))


def _defined_before(name: str, start: int, acronyms: list[Abbreviation]) -> bool:
    """'our SRL model', 'the proposed AT model' name a task or a technique when the acronym was
    defined before the sentence: the paper's own method is the model, not what it is named after."""
    return any(a.short == name and a.start < start for a in acronyms)


def _plural_list(text: str, span: tuple[int, int], names: Found) -> None:
    """'deployable planners (B2T/RoH/ISR)': coined names listed after a plural method noun."""
    if "(" not in text[span[0] : span[1]]:
        return  # most sentences have no parenthesis: no need to try the pattern word by word
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


# 'a combination of two efficient variants of CornerNet : CornerNet - Saccade , which ..., and
# CornerNet - Squeeze , which ...': the variants a contribution sentence lists after a colon.
_VARIANTS_COLON = re.compile(
    r"\b(?:variants|versions|components|modules|models|methods|techniques|networks)\b[^.:;()]{0,40}\s:\s+"
)
_AND_NEXT = re.compile(r",\s+and\s+")


def _colon_list(text: str, span: tuple[int, int], names: Found) -> None:
    """Coined names listed after 'variants ... :', each closed by a comma or the sentence end."""
    if " : " not in text[span[0] : span[1]]:
        return
    for match in _VARIANTS_COLON.finditer(text, *span):
        starts = [match.end()] + [m.end() for m in _AND_NEXT.finditer(text, match.end(), span[1])]
        for at in starts:
            chunk = name_chunk(text, at)
            if chunk and coined(chunk[0]) and re.match(r"\s*[,.]", text[chunk[2] : chunk[2] + 2]):
                names.add(*chunk, "method")


def opening(text: str, span: tuple[int, int], names: Found) -> None:
    """'The approach, Diverse Prompt Mixer, is tested ...', 'The ByteNet is a ... network'."""
    match = _OPENING.match(text, span[0], span[1])
    if match:
        chunk = name_chunk(text, match.end())
        if chunk and _NAME_CLOSES.match(text, chunk[2], span[1]):
            names.add_chunk(chunk, kind_of(match.group("head").lower()))
    defining = _DEFINING.match(text, span[0], span[1])
    # without 'The' the name must be coined, not a known model, and the description new: 'FooNet
    # is a novel network' ('BERT is a language model' opens an abstract about someone else's)
    if not defining and not _COINED_START.match(text, span[0], span[1]):
        return
    chunk = name_chunk(text, defining.end() if defining else span[0])
    head = _DEFINED_AS.match(text, chunk[2], span[1]) if chunk else None
    if head and (defining or (_NOVELTY.search(head.group()) and not MODEL_FAMILIES.match(chunk[0]))):
        names.add_chunk(chunk, kind_of(head.group("head").lower()))


def definitions(
    doc: Document, span: tuple[int, int], names: Found, previous_cue: bool, cued: bool
) -> None:
    """Acronym definitions in a contribution sentence: any, right after a cue verb or in a
    passive 'X (ACR) is proposed'; a Title Case one in a first-person sentence that marks it
    new or uses the acronym again (and is not a known metric)."""
    text = doc.text
    here = [a for a in names.acronyms if span[0] <= a.start < span[1]]
    if not here:
        return
    sentence = text[span[0] : span[1]]
    is_passive = passive(sentence)
    background: list[Abbreviation] = []
    for acronym in here:
        lead = text[max(span[0], acronym.start - 40) : acronym.start]
        if (
            acronym.short.lower() in GENERIC_NAMES
            or _NOT_A_DEFINITION.search(lead)
            or _BACKGROUND_LEAD.search(lead)
            or _listed_after(text, acronym, background)
            or _PHENOMENON_AFTER.match(text, acronym.end)
            or _DATA_AFTER.match(text, acronym.end)
        ):
            background.append(acronym)
            continue
        if _STUDY.search(text, span[0], acronym.start) and not _NOVELTY.search(sentence):
            continue
        head = head_after(text, acronym.end)
        titled = all(
            w[0].isupper() for w in re.findall(r"[\w'-]+", acronym.long) if w.lower() not in CONNECTORS
        )
        # 'We propose ... using a deeply-recursive convolutional network (DRCN). ... a DRCN is ...':
        # a method noun defined in a contribution sentence and used again by its acronym.
        reused = (
            cued and acronym.long.split()[-1].lower() in METHOD_HEADS and acronym.short in text[acronym.end :]
        )
        tool = bool(_TOOL_LEAD.search(lead)) and _PROPOSE_TO.search(text, span[0], acronym.start) is not None
        strong = (
            is_passive
            or reused
            or (not tool and bool(_STRONG_LEAD.search(lead) or _WE_PRESENT_AFTER.match(text, acronym.end)))
        )
        # 'with the restraint and relaxation iteration (RRI) training scheme, we ...': a method noun
        # right after the definition, in a sentence about the paper's own work.
        headed = head in _WHOLE_METHODS and bool(FIRST_PERSON.search(sentence))
        accepted = (
            headed
            or (strong and (titled or head in HEADS or acronym.long.split()[-1].lower() in HEADS))
            or (not tool and _built_with(text, span[0], acronym.start))
        )
        if not accepted:
            new_here = (previous_cue or FIRST_PERSON.search(sentence)) and (
                _NOVELTY.search(sentence) or text.count(acronym.short) > 1
            )
            if (
                not (titled and new_here)
                or tool
                or metric_entry(acronym.short)
                or metric_entry(acronym.long)
            ):
                continue
        kind = "data" if re.search(r"(?i)\b(?:benchmark|dataset|corpus)\b", acronym.long) else kind_of(head)
        names.add(acronym.short, acronym.start, acronym.end, kind, (acronym.long,))


def _built_with(text: str, start: int, end: int) -> bool:
    """'we propose a novel method integrated with somatic topological line localization (TLL)':
    a part the contribution is built with, named in the contribution verb's object."""
    return bool(_PART_LEAD.search(text, start, end) and _STRONG_LEAD.search(text, start, end))


def _listed_after(text: str, acronym: Abbreviation, background: list[Abbreviation]) -> bool:
    """'the state-of-the-art Residual Network (ResNet) and Densely Convolutional Network
    (DenseNet)', 'Automatic Speech Recognition (ASR) or Automatic Speech Translation (AST)': a
    definition listed right after one of someone else's is someone else's too."""
    return any(_LIST_JOIN.fullmatch(text, other.end, acronym.start) for other in background)


def subject(text: str, span: tuple[int, int], names: Found) -> None:
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




def acting_subjects(
    doc: Document, span: tuple[int, int], names: Found, previous_cue: bool, background: int
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
        first = TOKEN.match(text, at)
        chunk = name_chunk(text, at) if first and coined(first.group().strip(QUOTES)) else None
        if not chunk or not coined(chunk[0]) or MODEL_FAMILIES.match(chunk[0]):
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
        if name in text[:background] or _compared(text, name) or metric_entry(name):
            continue
        names.add(name, start, end, "method")


def _compared(text: str, name: str) -> bool:
    """The abstract writes the name as what something is compared with or built on. The phrase
    is looked for where each writing of the name starts: compiling it with the name in it, new
    for every name, cost half a millisecond."""
    return any(
        _COMPARED_BEFORE.search(text, _words_back(text, written.start(), _COMPARED_WORDS), written.start())
        for written in re.finditer("(?=" + re.escape(name) + ")", text, re.IGNORECASE)
    )


def _words_back(text: str, end: int, count: int) -> int:
    """Where the ``count`` words (runs without spaces) before ``end`` start, or a little before:
    a pattern that spans at most that many words and ends at ``end`` starts there or after, and
    is searched for from there instead of from the abstract's start."""
    words = text[:end].rsplit(None, count)
    return len(words[0]) if len(words) > count else 0
