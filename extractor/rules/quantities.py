"""The number grammar: join the numbers :func:`find_numbers` sees into the quantities a sentence
means by them.

``9--34`` and ``from 0.03 to 0.57`` are one range, ``2.57times`` is 2.57 with unit ``x``,
``11.0 pm 1.3 points`` is 11.0 points with an uncertainty, ``15 of 18`` and ``12/18`` are
fractions, ``3times 10^5`` is one number, ``8 to 27 billion`` scales both ends, and a hyphen
after a number (``3-bit``, ``130M-parameter``) makes it a modifier. Deciding whether a quantity
is a result is :mod:`.claims`' business; this module only reads what is written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from extractor.rules.document import Document
from extractor.text.numbers import NumberMention, find_numbers

SCALES = {"K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12}
_SCALE_WORDS = {"thousand": "K", "million": "M", "billion": "B", "trillion": "T"}

# A unit right after a number, with the normalized unit each group stands for. LaTeX spacing
# (``0.2\,pp``), the end of inline math (``$15$ seconds``) and a single space may come between.
# Tokenized text spaces a rate's slash ('1.27 bits / char').
_UNIT = re.compile(
    r"""\$?(?:\\[,;:!\ ]|~|\s)?\s?(?:
        (?P<pp>pp\b|p\.p\.|(?:absolute\s+)?percentage[\s-]points?\b|percent\s+points?\b)
      | (?P<pct>\\?%|percent\b)
      | (?P<points>(?:absolute\s+|accuracy\s+)?(?:points?|pts?)\b)
      | (?P<x>[x\u00d7](?![\w])|\$?\\times\b\$?|times\b|-?fold\b)
      | (?P<memory>[KMGT]i?B\b|bytes\b)
      | (?P<time>ms\b|\u00b5s\b|us\b|ns\b|seconds?\b|secs?\b|minutes?\b|mins?\b|hours?\b|hrs?\b|days?\b|s(?=[\s,.;)])|h(?=[\s,.;)]))
      | (?P<bits>bits?[\s-]+per[\s-]+(?:dim(?:ension)?|token|char(?:acter)?|byte|pixel)\b
               |bits?\s?/\s?(?:dim|char)\b|BPD\b|bpd\b|BPC\b|bpc\b)
      | (?P<fps>frames?\s?(?:/|per)\s?s(?:ec(?:ond)?)?\b)
      | (?P<other>nats?\b|dB\b|FPS\b|fps\b|tokens/s\b|it/s\b|[GTP]?FLOPs\b|bits?\b)
      | (?P<scale>thousand|million|billion|trillion)\b
    )""",
    re.VERBOSE,
)
_TIME_UNITS = {
    "sec": "s",
    "secs": "s",
    "second": "s",
    "seconds": "s",
    "min": "minutes",
    "mins": "minutes",
    "minute": "minutes",
    "hrs": "hours",
    "hr": "hours",
    "hour": "hours",
    "h": "hours",
    "day": "days",
    "us": "\u00b5s",
}
_HYPHEN_WORD = re.compile(r"-([A-Za-z][A-Za-z]*)")
_POINT_ADJECTIVE = re.compile(r"\s?-\s?points?\b")
# A plus standing alone right before a number, after a space or an opening bracket, and not
# after a number (a sum: '3 + 2 layers').
_APART_PLUS = re.compile(r"(?:^|(?<=[\s(\[]))(?<![\d%)]\s)\+\s$")
_SCIENTIFIC = re.compile(r"\s*(?:\\times|times|\u00d7|x)\s*10\s*\^\s*\{?\s*([-+\u2212]?\d+)\s*\}?")
_UNCERTAINTY = re.compile(r"^\s*(?:\u00b1|\\pm|pm|\+-|\+/-|\+/\u2212)\s*$")
_RANGE = re.compile(r"^\s*(?:--|\u2013|\u2014|-|to|~)\s*(?:~|\u2248|approx\.?|sim)?\s*$")
_OF = re.compile(r"^\s+(?:out\s+)?of\s+$")
_SPACES = re.compile(r"\s+")
_FACTOR_OF = re.compile(r"\bfactor\s+of\s+(?:about\s+|roughly\s+|approximately\s+|~\s*)?$", re.IGNORECASE)
_BETWEEN = re.compile(r"\bbetween\s+$", re.IGNORECASE)
_AND = re.compile(r"\s+and\s+")
_COMMA = re.compile(r",\s*")
_TO = re.compile(r"\s+to\s+")
_FROM = re.compile(r"\bfrom\s+$", re.IGNORECASE)
# Words and symbols that qualify a number. The LaTeX macros may be glued to a symbol ("τapprox").
_QUALIFIER = re.compile(
    r"(?P<q>(?<![A-Za-z])(?:up\s+to|about|around|roughly|nearly|almost|over|more\s+than|less\s+than|"
    r"fewer\s+than|at\s+least|at\s+most|below|above|under|exceeding|ge|le|near-?|only|just|merely)"
    r"|approx(?:imately|\.)?|sim|geq|leq|~|\u2248|\u223c|[<>]=?|\u2265|\u2264)\s*$",
    re.IGNORECASE,
)
# The characters a qualifier ends with (in lower case; none of them has a case form outside ASCII):
# the pattern, which may start at any character, is searched for only before a number whose words
# before it end with one of them.
QUALIFIER_LAST = frozenset("otdyrnwegxmq.-~<>=\u2248\u223c\u2265\u2264")
_CHANGE_VERB_BEFORE_FROM = re.compile(
    r"\b(?:reduc\w*|rais\w*|increas\w*|improv\w*|boost\w*|drop\w*|decreas\w*|lower\w*|cut\w*|"
    r"grow\w*|grew|ris\w*|rose|climb\w*|shrink\w*|shrank|narrow\w*|fall\w*|fell|jump\w*|go|goes|"
    r"going|went|mov\w*|push\w*|bring\w*|brought|lift\w*|decay\w*|declin\w*|chang\w*|transform\w*)\b"
    # a dash or colon sets 'from A to B' off as the change's figures ('improve the performance of
    # the up - down model on VQA v2.0 dataset – from 65.67 % to 70.24 %'), farther from its verb
    r"(?:[^.;]{0,40}|(?:[^.;]|\.(?=\d)){0,100}\s(?:\u2013|\u2014|--|:)\s+from\s+)$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Quantity:
    """One written quantity: a number, a range or a fraction, with what is glued to it."""

    start: int  # first character (sign included)
    end: int  # last character, unit included
    value: float
    value_max: float | None = None
    unit: str | None = None  # '%', 'pp', 'points', 'x', 'GiB', 'ms', ... as normalized
    scale: str | None = None  # 'K', 'M', 'B' or 'T' from a suffix ('7B') or a word ('7 billion')
    sign: str | None = None  # '+' or '-' when written
    qualifier: str | None = None  # 'up to', '~', 'less than', ...
    form: str = "single"  # single | range | fraction | of | product | scientific | before | after
    denominator: float | None = None
    decimal: bool = False  # written with a decimal point
    modifier: str | None = None  # the word of a compound adjective: '3-bit' -> 'bit'
    uncertainty: float | None = None  # '11.0 pm 1.3' -> 1.3
    number_end: int = 0  # end of the last number, before its unit

    @property
    def magnitude(self) -> float:
        return abs(self.value) * (SCALES[self.scale] if self.scale else 1.0)


# A scale letter written apart from its number, before another word ('11.3 M English - French').
_APART_SCALE = re.compile(r" ([KMBT])(?= [A-Za-z(])")
_REFERENCE = re.compile(r"\b(?:section|table|figure|fig\.|appendix|eq\.)\s*$", re.IGNORECASE)  # 'Section 3 B'


def _mention_scale(text: str, mention: NumberMention) -> tuple[str | None, int]:
    """The scale suffix of a mention ('7B', tokenized '11.3 M'), or a lower-case 'b' after a model
    name ('6.7b')."""
    last = mention.text[-1]
    if last in "kKMBT" and not last.isdigit():
        return last.upper(), mention.end
    after = text[mention.end : mention.end + 2]
    if after[:1] == "b" and not after[1:2].isalpha() and text[mention.start - 1 : mention.start] == "-":
        return "B", mention.end + 1
    apart = _APART_SCALE.match(text, mention.end)
    if apart and not _REFERENCE.search(text, max(0, mention.start - 12), mention.start):
        return apart.group(1), apart.end()  # tokenized text writes the scale apart: '11.3 M pairs'
    return None, mention.end


def _atom(text: str, mention: NumberMention) -> Quantity:
    """A single number with its unit, scale, modifier and qualifier."""
    scale, end = _mention_scale(text, mention)
    number_end = end
    raw = mention.text.lstrip("+-\u2212")
    sign = mention.text[0] if mention.text[0] in "+-\u2212" else None
    if sign is None and _APART_PLUS.search(text, max(0, mention.start - 3), mention.start):
        sign = "+"  # tokenized text writes a gain's sign apart: '( + 0.15dB on Images'
    value = mention.value
    form = "single"
    scientific = _SCIENTIFIC.match(text, end) if scale is None else None
    if scientific:
        value = value * 10 ** int(scientific.group(1).replace("\u2212", "-"))
        end = number_end = scientific.end()
        form = "scientific"
    unit = None
    modifier = None
    match = _UNIT.match(text, end)
    if match and match.group("scale") and scale is None:
        scale = _SCALE_WORDS[match.group("scale")]
        end = match.end()
        match = _UNIT.match(text, end)
    if match and not match.group("scale"):
        unit = _normalize_unit(match)
        if unit is not None:
            end = match.end()
    points = _POINT_ADJECTIVE.match(text, end) if unit is None else None
    if points:  # 'a 3.1-point accuracy drop', tokenized '+ 4 - point mAP': a difference in points
        unit, end = "points", points.end()
    if unit is None and _FACTOR_OF.search(text, max(0, mention.start - 30), mention.start):
        unit = "x"  # 'by roughly a factor of 20': a multiplier
    hyphen = _HYPHEN_WORD.match(text, end)
    if hyphen:
        modifier = hyphen.group(1).lower()
    reach = max(0, mention.start - 20)
    last = text[reach : mention.start].rstrip()[-1:].lower()
    qualifier = _QUALIFIER.search(text, reach, mention.start) if last in QUALIFIER_LAST else None
    return Quantity(
        start=mention.start,
        end=end,
        value=value,
        unit=unit,
        scale=scale,
        sign="-" if sign == "\u2212" else sign,
        qualifier=_normalize_qualifier(qualifier.group("q")) if qualifier else None,
        form=form,
        decimal="." in raw or "e" in raw.lower(),
        modifier=modifier,
        number_end=number_end,
    )


def _normalize_unit(match: re.Match) -> str | None:
    kind = match.lastgroup
    written = match.group(kind).strip()
    if kind == "pct":
        return "%"
    if kind in ("pp", "points"):
        return "pp" if kind == "pp" else "points"
    if kind == "x":
        return "x"
    if kind == "time":
        return _TIME_UNITS.get(written, written)
    if kind == "bits":
        lowered = written.lower()
        return "BPC" if "char" in lowered or lowered == "bpc" else "bits/dim"
    if kind == "fps":
        return "FPS"  # '23 frames / sec', '45 frames per second'
    if kind == "other" and written.startswith("bit"):
        return "bits"
    return written


def _normalize_qualifier(written: str) -> str:
    return _SPACES.sub(" ", written.lower()).rstrip("-.")


def _range(a: Quantity, b: Quantity, end: int) -> Quantity | None:
    """``a`` to ``b`` as one range, when the two ends agree in unit and scale and rise."""
    if a.unit and b.unit and a.unit != b.unit:
        return None
    if (a.scale and not b.scale) or a.modifier:
        return None
    scale = b.scale or a.scale
    low = replace(a, scale=a.scale or scale)
    high_value = abs(b.value) if b.sign == "-" and a.sign != "-" else b.value
    high = replace(b, value=high_value)
    if not high.magnitude > low.magnitude and not (
        low.value < 0 and high.value < 0 and high.value > low.value
    ):
        return None
    factor = SCALES[high.scale] / SCALES[low.scale] if high.scale and low.scale else 1.0
    return replace(
        low,
        end=end,
        value_max=high_value * factor,
        unit=b.unit or a.unit,
        form="range",
        decimal=a.decimal or b.decimal,
        modifier=b.modifier,
        uncertainty=b.uncertainty,
        number_end=b.number_end,
    )


# Tokenized text spells 'top-1' and 'ResNet-50' apart ('top - 1'): a number joined to a word by a
# spaced hyphen is part of a name, unless the word is a function word ('of - 0.15' is negative).
_NAME_PART = re.compile(
    r"(?<![\w-])(?!(?:of|to|is|was|are|be|and|or|by|at|from|than|vs|about|around|approximately|between|"
    r"with|in|on|for|as|reaches|achieves)\b)[A-Za-z]\w*\s-\s$",
    re.IGNORECASE,
)


def parse_quantities(doc: Document, mentions: list[NumberMention] | None = None) -> list[Quantity]:
    """Every quantity written in the abstract, outside links, in order."""
    text = doc.text
    mentions = find_numbers(text) if mentions is None else mentions
    atoms: list[Quantity] = []
    covered = -1
    for mention in mentions:
        spaced = text[max(0, mention.start - 3) : mention.start] == " - "
        name_part = spaced and _NAME_PART.search(text, max(0, mention.start - 30), mention.start)
        if mention.start < covered or doc.in_url(mention.start) or name_part:
            continue
        atom = _atom(text, mention)
        covered = atom.number_end if atom.form == "scientific" else mention.end
        atoms.append(atom)
    return _merge(text, atoms)


def _merge(text: str, atoms: list[Quantity]) -> list[Quantity]:
    out: list[Quantity] = []
    index = 0
    while index < len(atoms):
        a = atoms[index]
        b = atoms[index + 1] if index + 1 < len(atoms) else None
        if b is None:
            out.append(a)
            break
        between = text[a.end : b.start]
        before = text[max(0, a.start - 12) : a.start]
        if _UNCERTAINTY.match(between):
            out.append(
                replace(
                    a, end=b.end, unit=a.unit or b.unit, uncertainty=abs(b.value), number_end=b.number_end
                )
            )
            index += 2
            continue
        if between == "x" or between == "\u00d7":
            out.append(
                replace(
                    a,
                    end=b.end,
                    form="product",
                    denominator=b.value,
                    scale=b.scale,
                    number_end=b.number_end,
                    unit=b.unit,
                )
            )
            index += 2
            continue
        if between == "/" and not (a.scale or b.scale or a.unit):
            out.append(
                replace(
                    a,
                    end=b.end,
                    form="fraction",
                    denominator=b.value,
                    unit=b.unit,
                    number_end=b.number_end,
                    modifier=b.modifier,
                )
            )
            index += 2
            continue
        if (
            _OF.match(between)
            and not (a.decimal or b.decimal or a.unit or a.scale)
            and 0 <= a.value <= b.value
        ):
            out.append(
                replace(
                    a, end=b.end, form="of", denominator=b.value, number_end=b.number_end, modifier=b.modifier
                )
            )
            index += 2
            continue
        pair = _from_to(text, a, b, between, before, out[-1] if out else None)
        if pair:
            out.extend(pair)
            index += 2
            continue
        merged = None
        if _inside_name(text, a):
            out.append(a)
            index += 1
            continue
        if _RANGE.match(between) or _between_and(before, between) or _bracket(text, a, b, between):
            merged = _range(a, b, b.end)
        if merged:
            out.append(merged)
            index += 2
            continue
        out.append(_unit_of_list(a, b, between))
        index += 1
    return out


_LIST_AND = re.compile(r"\s*(?:,\s*(?:and\s+)?|and\s+)")


def _unit_of_list(a: Quantity, b: Quantity, between: str) -> Quantity:
    """'by 8 and 9.5 absolute percentage points': a bare number listed right before a number
    with a unit of difference or share is written in that unit."""
    if a.unit or a.scale or a.modifier or b.unit not in ("%", "pp", "points", "x"):
        return a
    if not _LIST_AND.fullmatch(between):
        return a
    return replace(a, unit=b.unit)


def _inside_name(text: str, a: Quantity) -> bool:
    """'Llama-3.1-8B': a number hyphen-joined to a word is part of a name, not a range's start."""
    return a.start >= 2 and text[a.start - 1] == "-" and text[a.start - 2].isalpha()


def _between_and(before: str, between: str) -> bool:
    return bool(_BETWEEN.search(before)) and bool(_AND.fullmatch(between))


def _bracket(text: str, a: Quantity, b: Quantity, between: str) -> bool:
    return (
        text[a.start - 1 : a.start] == "["
        and bool(_COMMA.fullmatch(between))
        and text[b.end : b.end + 1] == "]"
    )


def _from_to(
    text: str, a: Quantity, b: Quantity, between: str, before: str, previous: Quantity | None
) -> list[Quantity] | None:
    """'reduce perplexity from 25.7 to 21.9': a before and an after value, both results; so is a
    second 'from A to B' the same sentence coordinates with a first ('improves accuracy on X from
    87.6% to 93.2% and from 88.0% to 93.8% on Y')."""
    if not _TO.fullmatch(between) or not _FROM.search(before):
        return None
    lead = text[max(0, a.start - 130) : a.start]
    rises = _range(a, b, b.end) is not None
    coordinated = (
        previous is not None
        and previous.form == "after"
        and a.start - previous.end < 120
        and not re.search(r"[.;!?]\s", text[previous.end : a.start])
    )
    if rises and not (coordinated or _CHANGE_VERB_BEFORE_FROM.search(lead)):
        return None
    unit = a.unit or b.unit
    return [replace(a, form="before", unit=unit), replace(b, form="after", unit=unit)]
