"""Names a paper coins for its own contributions: which cues each sentence gets, one entry per
name, and a coined name a title opens with (``CyCADA: ...``) that the abstract also writes.

The cues themselves are in :mod:`.cues`, acronym definitions in :mod:`.acronyms`, and the
tokens a name is made of in :mod:`.chunks`. The noun a name heads decides whether it is a
method or an introduced dataset.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from extractor.text.name_keys import name_key
from extractor.rules.acronyms import Abbreviation, spells
from extractor.rules.chunks import QUOTES, TOKEN, coined, head_after
from extractor.rules.cues import (
    CUE_WORDS,
    FIRST_PERSON,
    NAMING_WORDS,
    Found,
    Name,
    acting_subjects,
    appositions,
    cue_verbs,
    cues,
    definitions,
    named,
    opening,
    own_phrase,
    passive,
    passive_subjects,
    proposed,
    subject,
)
from extractor.rules.document import Document, written_at
from extractor.rules.table import Construction, Example, Table
from extractor.rules.vocabulary import DATA_HEADS, GENERIC_NAMES

# What ends a name that opens a title: 'CyCADA: ...', 'M - Walk : ...', 'X \u2014 ...', 'X - a ...'.
_TITLE_BREAK = re.compile(r":|--|\u2013|\u2014")
_LONE_BREAKS = frozenset({":", "-", "--", "\u2013", "\u2014"})
_DATA_WORD = re.compile(
    r"\b(?:" + "|".join(sorted(DATA_HEADS, key=len, reverse=True)) + r")s?\b", re.IGNORECASE
)


# A title that opens with a capitalized noun phrase headed by an architecture noun names the
# paper's model: 'Stacked Hourglass Networks for Human Pose Estimation', 'Deeply-Supervised Nets'.
_TITLE_MODEL = re.compile(
    r"(?:(?:[A-Z][\w]*|-|\d+[A-Z]?)\s*){1,5}?\s*(?:Networks?|Nets|Autoencoders?|Readers?|Machines|"
    r"Transformers?|Embeddings|Convolutions)(?=\s*(?:$|:|\(|\b(?:for|with|via|by|in|on|using)\b))"
)


# Words that, before an architecture noun, name a kind of model rather than one ('Deep Residual
# Networks', 'Graph Convolutional Neural Networks'): such a title names no method of its own.
_KIND_WORDS = frozenset(
    "a an the deep very neural convolutional recurrent graph residual artificial generative adversarial".split()
)


def _title_model(title: str, text: str) -> tuple[str, int] | None:
    """The model a title's opening noun phrase names, as the abstract writes it (any case), or as
    the title writes it when the abstract does not (contract v3: a title's name counts), unless
    the phrase names a kind of model or is a verb's -ing form with its object ('Compressing Word
    Embeddings'; 'Matching Networks' is a name)."""
    found = _TITLE_MODEL.match(title)
    if not found or len(found.group().split()) < 2:
        return None
    words = [w for w in re.split(r"\s*-\s*|\s+", found.group()) if w]
    written = re.search(r"(?<![\w-])" + r"(?:\s*-\s*|\s+)".join(map(re.escape, words)) + r"(?![\w-])", text, re.IGNORECASE)
    if written:
        return written.group(), written.start()
    verb = words[0].lower().endswith("ing") and len(words) > 2  # 'Compressing Word Embeddings'
    if verb or all(w.lower() in _KIND_WORDS for w in words[:-1]):
        return None
    return found.group().strip(), -1


def _coined_title_name(title: str, text: str) -> tuple[str, int] | None:
    starts: list[int] = []
    end = 0
    for token in TOKEN.finditer(title):
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
    if not any(coined(t) for t in TOKEN.findall(name)) or name.lower() in GENERIC_NAMES:
        return None
    found = next(written_at(text, name), None)
    if found is None:
        return (name, -1) if head_after(title, end) not in DATA_HEADS else None
    if head_after(text, found + len(name)) in DATA_HEADS:
        return None
    return name, found


#: A title-name construction: from the title and the abstract, the name with where the abstract
#: first writes it (-1 when only the title does), or None.
TitleConstruction = Callable[[str, str], "tuple[str, int] | None"]

#: The name a title gives the paper's method: the constructions :func:`title_name` tries, in order.
TITLE_NAME: Table[TitleConstruction] = Table(
    "title name",
    "a coined name opening the title wins over the model an ordinary opening noun phrase names; an "
    "all-capitals title gives none",
    (
        Construction(
            'coined-name-opening-the-title',
            _coined_title_name,
            "'CyCADA: Cycle-Consistent ...': a coined name before the title's break is the paper's method, even when only the title writes it (v3)",
            (
                Example('We propose a new reader. Our model reaches 81.1 F1 on SQuAD.', 'QuillNet', 'method', title='QuillNet: Sparse Routing for Reading'),
            ),
        ),
        Construction(
            'model-the-title-opens-with',
            _title_model,
            "'Wide Residual Networks': a capitalized noun phrase headed by an architecture noun names the model, as the abstract writes it, or as the title does when the abstract never writes it (v3; not a kind of model: 'Deep Residual Networks')",
            (
                Example('We study deep networks. Our wide residual networks reach 3.9% error on CIFAR-10.', 'wide residual networks', 'method', title='Wide Residual Networks'),
                Example('We study few-shot learning. Our algorithm reaches 93.2% accuracy on Omniglot.', 'Matching Networks', 'method', title='Matching Networks for One Shot Learning'),
            ),
        ),
    ),
)


def title_name(title: str, text: str) -> tuple[str, int] | None:
    """The coined name a title opens with ('CyCADA: Cycle-Consistent ...', 'FlowNet 2.0 - ...')
    with where the abstract writes it first (-1 when only the title does: contract v3 counts a
    name in the title), or the model its opening noun phrase names ('Wide Residual Networks'):
    the constructions of :data:`TITLE_NAME`. An ordinary phrase ('Attention Is All You Need:
    ...') and a name the title calls a dataset are not one."""
    if title.isupper():
        return None
    return next((f for c in TITLE_NAME.entries if (f := c.run(title, text)) is not None), None)


def find_names(doc: Document, acronyms: list[Abbreviation]) -> list[Name]:
    """Every coined name the cues point at, methods and introduced datasets alike."""
    text = doc.text
    names = Found(acronyms)
    previous_cue = False
    background = -1  # where the first contribution sentence starts
    for span in doc.sentences:
        sentence = text[span[0] : span[1]]
        lower = sentence.lower()
        before = len(names.found)
        # Substring checks first: most sentences hold none of the words a cue needs.
        verbs = cues(text, span) if any(w in lower for w in CUE_WORDS) else []
        cued = bool(verbs)
        # Whether the paper speaks of itself here ('we', 'this paper'): searched for once, and only
        # when it decides something below (it was searched for twice in a third of them).
        speaks = cued or ((background < 0 or not previous_cue) and FIRST_PERSON.search(sentence) is not None)
        if background < 0 and speaks:
            background = span[0]
        if background >= 0 and not cued:
            acting_subjects(doc, span, names, previous_cue, background)
        if cued:
            cue_verbs(text, span, names, verbs)
        # 'existing methods use a layer called X': a name given before the paper says what it
        # contributes ('we', 'is proposed', 'the proposed') is someone else's
        is_passive = passive(sentence)
        if any(w in lower for w in NAMING_WORDS) and (background >= 0 or is_passive or own_phrase(sentence)):
            named(text, span, names)
        if speaks or previous_cue or is_passive:
            appositions(text, span, names)
        if "proposed" in lower:
            proposed(text, span, names)
        if is_passive:
            passive_subjects(text, span, names)
        opening(text, span, names)
        definitions(doc, span, names, previous_cue, cued)
        if previous_cue:
            subject(text, span, names)
        previous_cue = cued or len(names.found) > before
    return _merge(names.found)


def singular(key: str) -> str:
    """'reasonets' and 'reasonet' are one name: the plural names the instances of a method."""
    return key[:-1] if len(key) > 3 and key.endswith("s") else key


def _merge(found: list[Name]) -> list[Name]:
    """One entry per name (a short form and the long form it spells are one): aliases joined, a
    dataset reading kept over a method reading."""
    merged: dict[str, Name] = {}
    for item in found:
        key = name_key(item.name)
        if not key:
            continue
        twin = next(
            (
                k
                for k, old in merged.items()
                if singular(key) in {singular(name_key(a)) for a in (k, *old.aliases)}
                or spells(item.name, old.name)
                or spells(old.name, item.name)
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
