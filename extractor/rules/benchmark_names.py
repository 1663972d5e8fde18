"""Benchmarks and datasets: the shared registry's names, plus what the text marks as one.

Textual cues: a name followed by a dataset noun (``the X benchmark``, ``X dataset``, ``KLEJ
challenges``), a name in apposition with one (``X, an open-ended generation benchmark``), names
listed after one (``benchmarks such as X and Y``, ``two benchmarks: X and Y``, ``standard
benchmarks (X, Y, Z)``), names coordinated with a registry name in an evaluation phrase (``on
LM1B and FooText``), and datasets the paper introduces (from :mod:`.coined`). A name and its
acronym (``One Billion Word Benchmark (LM1B)``) are one benchmark.
"""

from __future__ import annotations

import re

from extractor.catalog.registry import find_benchmarks
from extractor.text.name_keys import name_key
from extractor.rules.acronyms import Abbreviation
from extractor.rules.chunks import QUOTES, coined, head_after, name_chunk, name_like
from extractor.rules.cues import Name
from extractor.rules.document import AsciiFirst, Document, Mention
from extractor.rules.vocabulary import (
    DATA_HEADS,
    GENERIC_NAMES,
    METRIC_WORDS,
    MODEL_FAMILIES,
    alternation,
    word_start,
)

_NAME_TOKEN = r"[^\s,;:()\[\]]+"
_ITEM = _NAME_TOKEN + r"(?:\s+" + _NAME_TOKEN + r"){0,2}"
# Dataset nouns after a name: loose ones may follow a modifier or two ('the MIR residency
# examination'), tight ones follow the name ('KLEJ challenges'), plural ones end a list ('the
# FLIC and MPII benchmarks').
_PLURAL_HEADS = r"benchmarks|datasets|corpora|test\s?sets|competitions|collections"
_TIGHT_HEADS = r"suite|test\s?set|testbed|leaderboard|challenges?|arena"
_LOOSE_HEADS = r"benchmark|dataset|data\s+set|corpus|examination|exam|competition|treebank"
_HEAD_WORD = re.compile(
    rf"\b(?:(?P<plural>{_PLURAL_HEADS})|(?P<tight>{_TIGHT_HEADS})|(?P<loose>{_LOOSE_HEADS}))\b(?!-)"
)
# Where one of those nouns is, found with the words grouped by their first letter (which the
# named groups do not allow): at most one of them ends at a word boundary from any place.
_HEAD_WORD_AT = AsciiFirst(r"\b(?:" + alternation(f"{_PLURAL_HEADS}|{_TIGHT_HEADS}|{_LOOSE_HEADS}") + r")\b(?!-)")
# A list starts where a name token does: trying it from inside one only repeats the work.
_LIST_END = re.compile(
    r"(?<![^\s,;:()\[\]])(?:" + _ITEM + r"\s*,\s*)*" + _ITEM + r"\s*,?\s+(?:and|or)\s+" + _ITEM + r"\s*$"
)
_AND_OR = re.compile(r"\s(?:and|or)\s")  # what every list names: cheap to rule one out first
_MODIFIER = re.compile(r"[a-z][\w-]+")
# 'Stanford Question Answering Dataset', 'the MICCAI iSEG-2017 Challenge': the head is in the name.
_TITLED_HEADS = ("Dataset", "Benchmark", "Corpus", "Challenge", "Treebank", "Suite", "Arena", "Bench")
_TITLED_HEAD = re.compile(r"\b(?:" + "|".join(_TITLED_HEADS) + r")\b")
_TITLED_WORDS = re.compile(r"(?:[A-Z0-9][\w'.+-]*\s+){1,6}$")
# A name that carries 'Bench' as its last part ('Aurora-Bench', 'LongVideoBench', 'MT-Bench').
_BENCH_NAME = re.compile(r"(?<![\w.+/-])[A-Z][\w.+-]*?Bench(?:mark)?(?![\w/-])")  # not in a URL
_LIST_AFTER_HEAD = AsciiFirst(
    r"\b(?:benchmarks?|datasets?|corpora|test\s+sets|suites|tasks)\s*(?P<open>such\s+as|including|like|:|\(|,|(?=[A-Z]))\s*"
    r"(?:(?:i\.e\.|e\.g\.)\s*,?\s*)?"
)
# A dataset noun followed by the coined name it is called ('the curve text dataset SCUT - CTW1500').
# Its nouns open with their letters (vocabulary.word_start): a word boundary was tested at every character.
_HEAD_THEN_NAME = re.compile(r"(?:" + word_start("dataset|benchmark|corpus") + r")\s+(?=[A-Z])")
# 'achieves 24.40 BLEU on LDC2015E86', 'state-of-the-art results on CIFAR, SVHN and COCO'.
# 'on' as a word, checked after the letters so that the engine can jump from one 'on' to the next.
_ON = re.compile(r"on(?<!\won)\s+(?:the\s+)?(?=\S)")
_RESULTS_LEAD = re.compile(
    r"(?:\b(?:results?|performance|accuracy|accuracies|state[- ]of[- ]the[- ]art|sota|experiments?|evaluat\w*|"
    r"tested|scores?|bleu|f1|error|outperform\w*)\b[^.;:()]{0,30}?|\d[\d.,]*\s*(?:%|\\%)?\s*(?:[\w/@-]+\s+){0,3}?"
    r"(?:\([^()]{1,20}\)\s*)?)$"
)
_LEAD_HINT = re.compile(
    r"\d|result|perform|accura|art\b|sota|experiment|evaluat|tested|score|bleu|f1|error|outperform"
)
_APPOSITION = re.compile(r",\s+an?\s")
_TRAILING_PAREN = re.compile(r"\s*\([^)]{1,80}\)\s*$")
_LAST_TOKEN = re.compile(r"[^\s,;:()]+$")
# Words before a name that make it a modifier of an unnamed dataset ('a new PEFT benchmark').
_MODIFIED = re.compile(
    r"\b(?:a|an|first|new|novel|systematic|large-scale|comprehensive|our|this)\s+(?:[\w-]+\s+)?$",
    re.IGNORECASE,
)
_EVALUATION = re.compile(r"\b(?:on|in|across|over|using|from|of)\s+(?:the\s+)?$", re.IGNORECASE)
# A registry name right before one of these is a modality ('an RGB image'), not a benchmark.
_MODALITY = re.compile(
    r"\s*-?\s*(?:images?|cameras?|channels?|pixels?|sensors?|modality|based)\b", re.IGNORECASE
)
_QUANTITY = re.compile(r"\d[\d.,]*[KMBTkmbt]?$|\d[Dd]$")
# What may follow a benchmark name that ends a phrase ('on X, Y and Z, ...', 'on X with ...', 'on
# X and Y respectively'):
# not a noun it modifies ('the Euclidean distance').
_FOLLOWS_NAME = re.compile(
    r"\s*(?:$|[,.;:)\u2014\u2013]|--|(?:and|or|with|in|for|while|by|to|at|using|which|where|when|as|than|compared|under|"
    r"over|from|across|test|benchmarks?|datasets?|split|sets?|tasks?|validation|show\w*|demonstrat\w*|"
    r"confirm\w*|achiev\w*|outperform\w*|is|are|was|were|respectively|\d)\b)"
)
# Hardware, instruction sets and number formats are not datasets ('on arm64', 'on H100').
_PLATFORM = re.compile(r"(?i)(?:x86|x64|arm\d*|aarch64|cuda|[ahv]\d{2,3}|rtx|tpu|fp\d+|bf16|int\d+)(?:\b|_)")
_NON_SPACE = re.compile(r"\S+")
_NUMBER_TOKEN = re.compile(r"\d[\w.-]*")
_CAPITALIZED_WORD = re.compile(r"[A-Z][a-z]+")  # a common word capitalized ("To", "Videos")
_PLAIN_WORD = re.compile(r"[A-Za-z][a-z ]*")
_ET_AL = re.compile(r"\s+et\.?\s+al")
_LIST_SEPARATOR = re.compile(r"\s*(?:,\s*(?P<last>(?:and|or)\s+)?|\s+(?P<last2>and|or)\s+)")
_LIST_LAST = re.compile(r"\s*(?:,\s*)?(?:and|or)\b")
_JOINED_AFTER = re.compile(r"(?:\s*,\s*(?:and\s+)?|\s+and\s+)")
_JOINED_BEFORE = re.compile(r"(?<![\w/.-])(?P<name>[A-Z][\w'.+-]*)(?:\s*,\s*|\s+and\s+)$")
_NOT_NAMES = frozenset(
    "the a an our on in we this these each all both to for with by as at from its their".split()
)


def _is_name(name: str) -> bool:
    first = name.split()[0]
    return (
        len(name) >= 2
        and name_like(first)
        and first.lower() not in _NOT_NAMES
        and name.lower() not in GENERIC_NAMES
        and name.lower() not in METRIC_WORDS
        and not _QUANTITY.match(first)
        and not MODEL_FAMILIES.match(name)
        and not _PLATFORM.match(name)
    )


def _before_head(doc: Document, head: re.Match) -> list[Mention]:
    """The names a dataset noun follows."""
    text = doc.text
    floor = max(doc.sentence_of(head.start())[0], head.start() - 120)
    before = text[floor : head.start()]
    paren = _TRAILING_PAREN.search(before)  # 'the ICDAR 2015 Incidental (Challenge 4) benchmark'
    if paren and head.group("loose"):
        before = before[: paren.start()]
    if head.group("plural"):
        listed = _LIST_END.search(before) if _AND_OR.search(before) else None
        if not listed or _MODIFIED.search(text[max(0, floor + listed.start() - 40) : floor + listed.start()]):
            return []
        return _names_in(doc, floor + listed.start(), floor + listed.end())
    tokens = list(_NON_SPACE.finditer(before))
    for modifiers in range(3 if head.group("loose") else 1):
        if (
            modifiers and not _MODIFIER.fullmatch(tokens[-modifiers].group())
            if len(tokens) >= modifiers
            else True
        ):
            break
        kept = tokens[: len(tokens) - modifiers][-5:]
        if modifiers and kept and kept[-1].group().isdigit():
            kept = kept[:-1]  # a count before the modifiers ('CoNLL-2014 10 annotation dataset') is no name's part
        kept = kept[-4:]
        if not kept:
            break
        named = _name_suffix(
            doc, text[floor + kept[0].start() : floor + kept[-1].end()], floor + kept[0].start()
        )
        if named and not _MODIFIED.search(text[max(0, named.start - 40) : named.start]):
            if len(named.name) <= 2 and named.name.isalpha() and not modifiers:  # 'the UN corpus'
                return [Mention(text[named.start : head.end()], named.start, head.end())]
            return [named]
    return []


def _name_suffix(doc: Document, words: str, offset: int) -> Mention | None:
    """The longest run of name tokens that ends ``words`` ('the Spanish MIR' -> 'Spanish MIR'),
    without a capitalized common word that only opens the sentence."""
    tokens = list(_NON_SPACE.finditer(words))
    keep: list[re.Match] = []
    for token in reversed(tokens):
        bare = token.group().strip(QUOTES)
        if bare == "-" and keep:  # tokenized text writes 'Market-1501' as 'Market - 1501'
            keep.insert(0, token)
            continue
        if (
            not bare  # a quote mark standing alone
            or bare.lower() in _NOT_NAMES
            or bare[-1] in ",;:."
            or not (name_like(bare) or _NUMBER_TOKEN.fullmatch(bare))
        ):
            break
        keep.insert(0, token)
    while keep and keep[0].group() == "-":
        keep.pop(0)
    while (
        keep
        and doc.sentence_of(offset + keep[0].start())[0] == offset + keep[0].start()
        and _CAPITALIZED_WORD.fullmatch(keep[0].group())
    ):
        keep.pop(0)
    if not keep:
        return None
    start, end = offset + keep[0].start(), offset + keep[-1].end()
    name = doc.text[start:end].strip(QUOTES)
    return Mention(name, start, start + len(name)) if _is_name(name) else None


def _names_in(doc: Document, start: int, end: int) -> list[Mention]:
    """The names in a coordinated list ('both A, B and C'), as written."""
    text = doc.text
    out = []
    for part in re.finditer(r"[^,]+", text[start:end]):
        for item in re.finditer(r"(?:(?!\s(?:and|or)\s).)+", part.group()):
            words = re.sub(r"^\s*(?:and|or)\s+", "", item.group())
            offset = start + part.start() + item.start() + item.group().find(words)
            named = _name_suffix(doc, words.rstrip(), offset)
            if named:
                out.append(named)
    return out


def _common_word(text: str, name: str) -> bool:
    """'+0.39dB on Videos': a capitalized word the abstract also writes in lower case."""
    return (
        bool(_CAPITALIZED_WORD.fullmatch(name)) and re.search(r"\b" + name.lower() + r"\b", text) is not None
    )


def _sentence_initial_word(doc: Document, mention: Mention) -> bool:
    """A capitalized common word that opens a sentence ('To address ...') is not a name."""
    word = doc.text[mention.start : mention.end]
    return doc.sentence_of(mention.start)[0] == mention.start and bool(_CAPITALIZED_WORD.fullmatch(word))


def _list_from(text: str, position: int, end: int) -> list[tuple[str, int, int]]:
    """Names separated by commas from ``position``; the item after 'and' is the last."""
    out = []
    while position < end:
        chunk = name_chunk(text, position)
        if (
            chunk is None
            or not _is_name(chunk[0])
            or _ET_AL.match(text[chunk[2] : chunk[2] + 8])
        ):
            break
        out.append(chunk)
        sep = _LIST_SEPARATOR.match(text[chunk[2] : end])
        if not sep:
            break
        if out and len(out) > 1 and _LIST_LAST.match(text[out[-2][2] : chunk[1]]):
            break
        position = chunk[2] + sep.end()
    return out


def find_benchmark_mentions(
    doc: Document, introduced: list[Name], acronyms: list[Abbreviation], exclude: list[tuple[int, int]]
) -> list[Mention]:
    """Every place a benchmark is named, in order. ``exclude`` are spans that name models."""
    text = doc.text
    # A registry alias written as a plain lower-case word ('multiple') is the word, not the name.
    canonical: list[str] = []
    registry = []
    for m in find_benchmarks(text):
        # A plain word that only spells an alias in another case ('Multiple' for 'MultiPLE') and a
        # modality ('an RGB image') are not benchmark names.
        plain_word = _PLAIN_WORD.fullmatch(m.surface) and m.surface.lower() != m.canonical.lower()
        if plain_word or _MODALITY.match(text, m.span[1]):
            continue
        registry.append(Mention(m.surface, *m.span))
        canonical.append(m.canonical)
    # Every alias of one registry entry written here is named by the entry's own name when the
    # text writes it ('ImageNet' with 'ILSVRC 2015'), else by its shortest form ('SQuAD').
    shortest = {}
    for c in canonical:
        written = [r.name for r, k in zip(registry, canonical, strict=True) if k == c]
        own = [w for w in written if name_key(w) == name_key(c)]
        shortest[c] = own[0] if own else min(written, key=len)
    registry = [Mention(shortest[c], r.start, r.end) for r, c in zip(registry, canonical, strict=True)]
    found = list(registry)
    for at in _HEAD_WORD_AT.finditer(text):
        found.extend(_before_head(doc, _HEAD_WORD.match(text, at.start())))
    # A substring check first: few abstracts write a capitalized dataset noun at all.
    if any(h in text for h in _TITLED_HEADS):
        for head in _TITLED_HEAD.finditer(text):
            words = _TITLED_WORDS.search(text, max(0, head.start() - 90), head.start())
            tokens = words.group().split() if words else []
            while tokens and (tokens[0].lower() in _NOT_NAMES or not name_like(tokens[0])):
                tokens.pop(0)
            if tokens:
                start = head.start() - len(words.group()) + words.group().find(tokens[0])
                found.append(Mention(text[start : head.end()], start, head.end()))
        found.extend(Mention(m.group(), m.start(), m.end()) for m in _BENCH_NAME.finditer(text))
    for match in _APPOSITION.finditer(text):
        end = match.start()
        paren = _TRAILING_PAREN.search(text, max(0, end - 90), end)
        name = _LAST_TOKEN.search(text, max(0, end - 60), paren.start() if paren else end)
        if name and head_after(text, end) in DATA_HEADS and _is_name(name.group()):
            found.append(Mention(name.group(), name.start(), name.end()))
    lower = text.lower()
    for match in _LIST_AFTER_HEAD.finditer(lower):
        items = _list_from(text, match.end(), doc.sentence_of(match.start())[1])
        if match.group("open") not in ("(", ",", "") or len(items) >= 2:
            found.extend(Mention(*item) for item in items)
    for match in _HEAD_THEN_NAME.finditer(text):  # 'the curve text dataset SCUT - CTW1500'
        chunk = name_chunk(text, match.end())
        if chunk and coined(chunk[0]) and _is_name(chunk[0]):
            found.append(Mention(*chunk))
    for match in _ON.finditer(lower):
        window = lower[max(0, match.start() - 45) : match.start()]
        if _LEAD_HINT.search(window) and _RESULTS_LEAD.search(window):
            items = _list_from(text, match.end(), doc.clause_of(match.end())[1])
            if items and _FOLLOWS_NAME.match(text, items[-1][2]):
                found.extend(Mention(*item) for item in items if not _common_word(text, item[0]))
    found.extend(_fronted(doc))
    found.extend(_quoted(text))
    found.extend(Mention(n.name, n.start, n.start + len(n.name)) for n in introduced if n.kind == "data")
    found.extend(_coordinated(text, registry, found))
    # A name the paper introduces as its method is not a dataset because a textual cue lists it
    # ('In experiments on CoNLL-2005, LISA achieves ...'); the registry still decides for its names.
    own = {name_key(a) for n in introduced if n.kind == "method" for a in (n.name, *n.aliases)}
    listed = {r.start for r in registry}
    found = [
        m
        for m in found
        if not any(s <= m.start < e for s, e in exclude)
        and not _sentence_initial_word(doc, m)
        and (m.start in listed or name_key(m.name) not in own)
    ]
    return _one_per_acronym(_unique(found), acronyms)


# 'the “ abstract scenes ” multiple - choice benchmark': a quoted name (tokenized text spaces the
# quote marks) before a dataset noun and up to four words describing it.
_QUOTED = re.compile(
    r"[\"\u201c]\s?(?P<name>[^\"\u201c\u201d.,;:()]{2,40}?)\s?[\"\u201d]\s+(?:(?:[\w]+|-)\s+){0,4}?"
    r"(?:benchmark|dataset|data\s+set|corpus|test\s?set)s?\b"
)


def _quoted(text: str) -> list[Mention]:
    """Quoted names a dataset noun heads: the quotes mark the words as a name, so they need no
    capitals."""
    if "\u201c" not in text and '"' not in text:
        return []
    quoted = [(m.group("name").strip(), m.start("name")) for m in _QUOTED.finditer(text)]
    return [Mention(name, start, start + len(name)) for name, start in quoted if len(name.split()) <= 4]


_FRONTED_ON = re.compile(r"(?:(?:Finally|Moreover|Furthermore|In\s+addition|Notably)\s*,\s*)?(?:On|Across)\s+(?:the\s+)?")
# What ends a fronted evaluation phrase: its comma, or the clause's first-person subject.
_FRONTED_END = re.compile(r"\s*(?:(?:benchmarks?|datasets?|test\s?sets?|splits?)\s*)?(?:,|we\b|our\b)")


def _fronted(doc: Document) -> list[Mention]:
    """'On ConLL - 2012 English SRL we also show ...', 'On CIFAR-10 and SVHN, ...': coined names a
    sentence opens with as where its results hold."""
    text = doc.text
    out = []
    for start, end in doc.sentences:
        match = _FRONTED_ON.match(text, start, end)
        if not match:
            continue
        items = _list_from(text, match.end(), end)
        if items and _FRONTED_END.match(text, items[-1][2]):
            out.extend(Mention(*item) for item in items if coined(item[0]) and not _common_word(text, item[0]))
    return out


def _coordinated(text: str, registry: list[Mention], known: list[Mention]) -> list[Mention]:
    """'on LM1B and FooText': a name joined by 'and' or a comma to a registry benchmark that an
    evaluation preposition introduces."""
    out = []
    starts = {k.start for k in known}
    for mention in registry:
        lead = text[max(0, mention.start - 60) : mention.start]
        after = _JOINED_AFTER.match(text[mention.end : mention.end + 8])
        if after and _EVALUATION.search(lead):
            chunk = name_chunk(text, mention.end + after.end())
            if chunk and _is_name(chunk[0]) and chunk[1] not in starts:
                out.append(Mention(chunk[0], chunk[1], chunk[2]))
        before = _JOINED_BEFORE.search(lead)
        if before and _is_name(before.group("name")) and _EVALUATION.search(lead[: before.start()]):
            start = mention.start - len(before.group(0))
            if start not in starts:
                out.append(Mention(before.group("name"), start, start + len(before.group("name"))))
    return out


def _unique(mentions: list[Mention]) -> list[Mention]:
    """Mentions in text order, none inside a longer one found at the same place."""
    out: list[Mention] = []
    for mention in sorted(mentions, key=lambda m: (m.start, -(m.end - m.start))):
        if any(o.start <= mention.start and mention.end <= o.end for o in out):
            continue
        out.append(mention)
    return out


def _one_per_acronym(mentions: list[Mention], acronyms: list[Abbreviation]) -> list[Mention]:
    """'One Billion Word Benchmark (LM1B)': every mention of the pair takes its shorter form."""
    rename: dict[str, str] = {}
    for acronym in acronyms:
        forms = [m.name for m in mentions if acronym.start <= m.start < acronym.end]
        if len(forms) >= 2:
            short = min(forms, key=len)
            rename.update((name_key(f), short) for f in forms)
    return [Mention(rename.get(name_key(m.name), m.name), m.start, m.end) for m in mentions]
