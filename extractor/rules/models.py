"""Models with their sizes: '27B', 'Qwen3.8-27B', '30B (3.5B-active)', '26B-A4B', 'OLMoE-1B-7B',
'8x7B', '8 to 27 billion parameters', '135M'.

The quantities :mod:`.claims` read as sizes are turned into models here. Version numbers are
never sizes because a size needs a scale (``B``, ``M``, ``billion``): ``GPT-5.2`` and
``Qwen3.5`` carry none.
"""

from __future__ import annotations

import re

from extractor.text.name_keys import unique_names
from extractor.rules.claims import SIZE, Reading
from extractor.rules.quantities import Quantity
from extractor.rules.document import AnyCase, Document, Mention
from extractor.rules.vocabulary import (
    FAMILY_NAMES,
    FAMILY_PREFIXES,
    MECHANISM_NOUNS,
    MODEL_FAMILIES,
    MODEL_NAME,
)
from extractor.schema import Model
from extractor.text.sizes import PARAMETER_NOUNS, is_bare_size

_TOKEN = re.compile(r"(?<![\w-])[A-Za-z][\w.+-]*")
# Every place a model family's name opens a word, overlapping ones included: a model name counts
# only where a token starts, and none may hide inside another match. The match is the character
# before the name (the text is read with a space before it), which the engine skips to from its
# own table, instead of asking at every character what comes before it.
_FAMILY_AT = AnyCase(r"[^\w-](?=" + FAMILY_NAMES + ")")
# A plain word ('Training'): opening a sentence, it is capitalised for the sentence, not coined.
_WORD_CASE = re.compile(r"[A-Z][a-z]+")
_CAPITALIZED = re.compile(r"[A-Z][\w.-]*[A-Za-z0-9]$|[A-Za-z]+-?\d[\w.-]*$")
# A version glued to a size, which the number grammar reads as a range ('2.5-7B' in 'Qwen 2.5-7B').
_VERSION_SIZE = re.compile(r"\d+(?:\.\d+)?-\d+(?:\.\d+)?[KMBT]", re.IGNORECASE)
_ACTIVE = re.compile(
    r"^\s*\(\s*~?(\d+(?:\.\d+)?)\s*([BM])[\s-]*active\s*\)|^\s*,?\s*(?:with\s+)?~?(\d+(?:\.\d+)?)\s*([BM])\s+active\b",
    re.IGNORECASE,
)


def _billions(value: float, scale: str | None) -> float:
    return value * {"K": 1e-6, "M": 1e-3, "B": 1.0, "T": 1e3}.get(scale or "B", 1.0)


def _token_around(text: str, start: int, end: int) -> tuple[int, int]:
    """The whitespace-delimited token holding [start, end), without surrounding punctuation."""
    left = start
    while left > 0 and not text[left - 1].isspace() and text[left - 1] not in "(,;[":
        left -= 1
    right = end
    while right < len(text) and not text[right].isspace() and text[right] not in "),;:]":
        right += 1
    while right > end and text[right - 1] in ".":
        right -= 1
    return left, right


def _model_name(doc: Document, q: Quantity) -> tuple[str, int, int]:
    """The model's name as written: the token holding the size ('LLaMA2-7B'), the name before a
    token that is only a size ('Mistral 7B', 'GPT-2 124M', 'Gemma 2-2B-it': a release written
    apart is one name), or the size with its noun ('27B models', which names no model)."""
    text = doc.text
    left, right = _token_around(text, q.start, q.number_end)
    token = text[left:right]
    if not is_bare_size(token):
        return token, left, right
    before = doc.words_before(left, 1)
    if (
        before
        and before[0].end >= left - 1
        and _CAPITALIZED.match(before[0].text)
        and before[0].lower not in ("the", "our", "a", "at", "to", "of", "and")
        and not (
            _WORD_CASE.fullmatch(before[0].text)
            and doc.sentence_of(left)[0] == before[0].start
            and not MODEL_FAMILIES.match(before[0].text)
        )
    ):
        return text[before[0].start : right], before[0].start, right
    after = doc.words_after(q.end, 1, ceiling=doc.sentence_of(q.start)[1])
    if (
        after
        and after[0].start - q.end <= 1
        and (after[0].lower in PARAMETER_NOUNS or after[0].text[0].isupper())
    ):
        return text[q.start : after[0].end], q.start, after[0].end
    return text[q.start : q.end], q.start, q.end


def find_models(doc: Document, readings: list[Reading]) -> tuple[list[Model], list[Mention]]:
    """A model for every size written (two for a range of sizes), and where each named one is.
    A size alone ('27B models', '720M scale') names no model: grounding keeps its size apart
    from the list of models (:func:`extractor.grounding.ground`)."""
    text = doc.text
    models: list[Model] = []
    mentions: list[Mention] = []
    sizes = [r.quantity for r in readings if r.role == SIZE]
    consumed: set[int] = set()
    for index, q in enumerate(sizes):
        if index in consumed:
            continue
        name, start, end = _model_name(doc, q)
        named = not is_bare_size(name)
        total = _billions(q.value, q.scale)
        active = None
        if q.form == "product" and q.denominator is not None:
            total = _billions(q.denominator, q.scale)  # '8x7B': eight experts of 7B, as written
        following = sizes[index + 1] if index + 1 < len(sizes) else None
        if following is not None and following.start <= end and following.start > q.start:
            # Two sizes in one name: 'OLMoE-1B-7B' (active, total) or '26B-A4B' (total, active).
            other = _billions(following.value, following.scale)
            if text[following.start - 1 : following.start] == "A":
                active = other
            else:
                total, active = max(total, other), min(total, other)
            consumed.add(index + 1)
        elif q.value_max is not None and named and _VERSION_SIZE.fullmatch(text[q.start : q.number_end]):
            # a release's version and size, not a range: 'Qwen 2.5-7B', 'Gemma 2-2B-it'
            total = _billions(q.value_max, q.scale)
        elif q.value_max is not None:
            high = _billions(q.value_max, q.scale)
            name_high = text[text.find(_number_text(text, q, high_end=True), q.start) : end] or name
            models.append(Model(name=name, params_b=total))
            models.append(Model(name=name_high if name_high != name else f"{name} ({high:g}B)", params_b=high))
            if named:
                mentions.append(Mention(name, start, end))
            continue
        else:
            stated = _ACTIVE.match(text[q.end : q.end + 40])
            if stated:
                active = _billions(
                    float(stated.group(1) or stated.group(3)), (stated.group(2) or stated.group(4)).upper()
                )
                if following is not None and following.start < q.end + 40:
                    consumed.add(index + 1)
                if not named:  # the name after the active count: '30B (3.5B-active) Nemotron'
                    after = q.end + stated.end()
                    word = doc.words_after(after, 1, ceiling=doc.sentence_of(q.start)[1])
                    if word and word[0].start - after <= 1 and _CAPITALIZED.match(word[0].text):
                        name, start, end = word[0].text, word[0].start, word[0].end
                        named = not is_bare_size(name)
            elif q.modifier == "active":
                continue
        models.append(Model(name=name, params_b=total, active_params_b=active))
        if named:
            mentions.append(Mention(name, start, end))
    return unique_names(models), mentions


def named_models(doc: Document, covered: list[Mention]) -> tuple[list[Model], list[Mention]]:
    """Models named without a size ('GPT-4o', 'DeepSeek-R1'): the subject of a claim often is one."""
    models: list[Model] = []
    mentions: list[Mention] = []
    for family in _FAMILY_AT.finditer(" " + doc.text):
        start = family.start()  # in the text, where the name starts
        match = MODEL_NAME.match(doc.text, start)
        if not match or not _token_starts(doc.text, start):
            continue
        name, end = match.group(), match.end()
        if name[:2].lower() not in FAMILY_PREFIXES:
            continue
        if any(m.start <= start < m.end for m in covered) or not (
            name[0].isupper() or any(c.isdigit() for c in name)
        ):
            continue
        if _names_a_mechanism(doc.text, name, end):
            continue
        models.append(Model(name=name))
        mentions.append(Mention(name, start, end))
    return models, mentions


_PHRASE_AFTER = re.compile(r"(?:[ \t]+[A-Za-z][\w-]*){1,3}")
_FUNCTION_WORDS = frozenset("and or with of in on to for by from as at the a an is are was were that which".split())


def _names_a_mechanism(text: str, name: str, end: int) -> bool:
    """Whether a family's bare name (no version: 'Kimi', not 'Llama-2') modifies a mechanism
    written right after it ('Kimi delta attention', 'Mamba layers'): that is no model."""
    if any(c.isdigit() for c in name):
        return False
    phrase = _PHRASE_AFTER.match(text, end)
    for word in phrase.group().lower().split() if phrase else ():
        if word in MECHANISM_NOUNS:
            return True
        if word in _FUNCTION_WORDS:  # 'Mamba and attention layers': the noun phrase ended
            return False
    return False


def _token_starts(text: str, start: int) -> bool:
    """Whether a token (:data:`_TOKEN`) starts at ``start``, as tokenizing the whole text would
    find: one may start there unless an earlier one runs on into it, and the run of token
    characters that leads to ``start`` holds every place where such a token could start."""
    if not _TOKEN.match(text, start):
        return False
    run = start
    while run > 0 and (text[run - 1].isalnum() or text[run - 1] in "_.+-"):
        run -= 1
    return _TOKEN.search(text, run, start) is None


def _number_text(text: str, q: Quantity, high_end: bool) -> str:
    """The written upper end of a range ('27' in '8 to 27 billion')."""
    tail = text[q.start : q.number_end]
    numbers = re.findall(r"\d[\d,.]*\s?[KMBT]?", tail)
    return numbers[-1].strip() if high_end and numbers else tail
