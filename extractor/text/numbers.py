"""Find the numbers written in a text, in the forms abstracts use.

``1,552``, ``2.57times``, ``83.6%``, ``9--34``, ``~24%``, ``-0.52``, ``1.5e-3``, ``3.2x10^4``,
``32K``, ``approx1.1`` (a LaTeX macro that lost its backslash), ``8x7B``, ``26B-A4B``. Each mention keeps its character span and the values it may stand for (``32K`` may be
cited as 32 or as 32000), so grounding can ask "is this number in the text?" without guessing
at formatting. Pure functions, shared by grounding and the rules extractor.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from extractor.text.format_chars import drop_format, original_span

_SCALE = {"k": 1e3, "m": 1e6, "b": 1e9, "t": 1e12}

# What opens a number: a sign, a digit or a point. The pattern starts by reading that character,
# so that the engine skips to the next one from its own table instead of trying the whole pattern
# at every place; what must stand before the number is then asked of the character before it.
_OPENS = r"[-+\u2212\d.]"
NUMBER_RE = re.compile(
    rf"""
    {_OPENS}
    (?:
        (?<![\w.]{_OPENS})                     # not inside a word or after a decimal point,
      | (?<=approx{_OPENS})|(?<=sim{_OPENS})|(?<=leq{_OPENS})|(?<=geq{_OPENS})
                                              # except glued to a LaTeX macro whose backslash
                                              # was lost ("approx1.1", "sim1T", "leq3B"),
      | (?<=\dx{_OPENS})|(?<=-A{_OPENS})        # an expert count ("8x7B") or an active size ("26B-A4B")
    )
    (?:                                       # the number itself: 1,552 or 12,345.6 | 83.6 | .83
        (?<=[-+\u2212])(?P<num>\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)   # after its sign
      | (?<=\d)(?P<whole>\d{{0,2}}(?:,\d{{3}})+(?:\.\d+)?|\d*(?:\.\d+)?)   # the rest, from its first digit
      | (?<=\.)(?P<fraction>\d+)                                          # the rest, from its point
    )
    (?:
        (?P<exp>[eE][-+\u2212]?\d+)           # 1.5e-3
      | \s?(?:[x\u00d7]|\\times)\s?10\^\{{?(?P<pow>[-+\u2212]?\d+)\}}?   # 3.2x10^4
    )?
    (?P<scale>[kKMBT](?![a-zA-Z]))?           # 32K, 1.5M, 7B (not 'Kb' or 'Bits')
    """,
    re.VERBOSE,
)


def _signed(match: re.Match[str]) -> tuple[str | None, str, int]:
    """(sign, the number as written without it, where that starts) of a :data:`NUMBER_RE` match."""
    if match.group("num") is not None:
        return match.string[match.start()], match.group("num"), match.start("num")
    end = match.end("whole") if match.group("whole") is not None else match.end("fraction")
    return None, match.string[match.start() : end], match.start()


# The words right before a number that make it a ceiling or a floor ('less than 10%', 'by over
# 20 points', '$\\leq 3$'): where a value lies, not a measured value ('up to' and 'about' qualify
# measured ones).
_BOUND_BEFORE = re.compile(
    r"(?<![A-Za-z])(?:(?P<upper>less\s+than|fewer\s+than|at\s+most|below|under|leq?|[<\u2264])"
    r"|(?P<lower>more\s+than|over|at\s+least|above|exceeding|geq?|[>\u2265]))=?\s*\$?\s*$",
    re.IGNORECASE,
)
_BOUND_REACH = 24
# A bound written after the number: '1.5+%', '90% or more', '10 points or less'.
_BOUND_AFTER = re.compile(
    r"\s*(?:(?P<lower>\+)|(?:%|\s*(?:points?|pp|x|times))?\s*or\s+(?:(?P<lower_words>more|higher|above|greater)"
    r"|(?P<upper>less|fewer|lower|below)))(?![A-Za-z])",
    re.IGNORECASE,
)


def bound_before(text: str, start: int) -> str | None:
    """'upper' or 'lower' when the words right before the number at ``start`` make it a bound."""
    found = _BOUND_BEFORE.search(text, max(0, start - _BOUND_REACH), start)
    return found.lastgroup if found else None


def bound_after(text: str, end: int) -> str | None:
    """'upper' or 'lower' when what follows the number ending at ``end`` makes it a bound."""
    found = _BOUND_AFTER.match(text, end)
    if not found:
        return None
    return "upper" if found.group("upper") else "lower"


# What a writer (or a model citing one) also takes for a bound before the number: an article
# between ('over a 2x speedup', 'at least a 15% improvement'), and 'within' a ceiling ('within
# 2-5% of full precision'). Grounding accepts these; the rules read only ``bound_before``.
_BOUND_CITED = re.compile(
    r"(?<![A-Za-z])(?:(?P<upper>less\s+than|fewer\s+than|at\s+most|below|under|within)"
    r"|(?P<lower>more\s+than|over|at\s+least|above|exceeding))\s+(?:an?\s+)?\$?\s*$",
    re.IGNORECASE,
)


def bound_written(text: str, start: int, end: int) -> str | None:
    """The bound the text writes around the number at [start, end): before it (an article
    between, or 'within', included), else after it."""
    cited = _BOUND_CITED.search(text, max(0, start - _BOUND_REACH), start)
    return bound_before(text, start) or (cited.lastgroup if cited else None) or bound_after(text, end)


@dataclass(frozen=True)
class NumberMention:
    start: int
    end: int
    text: str
    value: float
    alternates: tuple[float, ...]

    def matches(self, value: float) -> bool:
        return any(_close(abs(value), abs(v)) for v in (self.value, *self.alternates))


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _to_float(text: str) -> float:
    return float(text.replace(",", "").replace("\u2212", "-"))


def find_numbers(original: str) -> list[NumberMention]:
    """Every number in ``original`` with its span and the values it may stand for; format
    characters (a zero-width space in ``8\u200b3.6``) are read through."""
    text, offsets = drop_format(original)
    mentions = []
    for match in NUMBER_RE.finditer(text):
        sign, num, num_start = _signed(match)
        base = _to_float(num)
        # A hyphen right after a word character is a joiner or a range dash ("9-34", "Qwen-7"),
        # not a minus sign.
        if sign == "-" and match.start() > 0 and text[match.start() - 1].isalnum():
            sign = None
        start = match.start() if sign else num_start
        value = -base if sign in ("-", "\u2212") else base
        alternates: list[float] = [base]
        if match.group("exp"):
            value = _to_float(num + match.group("exp").replace("\u2212", "-"))
            alternates = [value, base]
        elif match.group("pow"):
            value = base * 10 ** int(match.group("pow").replace("\u2212", "-"))
            alternates = [value, base]
        if match.group("scale"):
            alternates.append(base * _SCALE[match.group("scale").lower()])
        if not math.isfinite(value):
            continue  # '1e999' overflows a float: no claim can carry it
        start, end = original_span(offsets, start, match.end())
        mentions.append(NumberMention(start, end, original[start:end], value, tuple(alternates)))
    return mentions


def mentions_in(mentions: list[NumberMention], start: int, end: int) -> list[NumberMention]:
    return [m for m in mentions if m.start >= start and m.end <= end]


# Numbers written as words, as a careful writer spells small counts and fractions ("five times",
# "Fifty families", "twenty-one", "one tenth of a second", "two thirds"). A small table, not a
# library: text2num and word2number rewrite the text or read one phrase, and give no spans.
_UNITS = {
    w: n for n, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen".split()
    )
}
_TENS = {w: 10 * n for n, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)}
_DENOMINATORS = {
    "half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4, "fourth": 4, "fourths": 4,
    "fifth": 5, "fifths": 5, "sixth": 6, "sixths": 6, "seventh": 7, "sevenths": 7, "eighth": 8, "eighths": 8,
    "ninth": 9, "ninths": 9, "tenth": 10, "tenths": 10, "hundredth": 100, "hundredths": 100,
    "thousandth": 1000, "thousandths": 1000,
}
_SCALE_WORDS = {"hundred": 100, "thousand": 1e3, "million": 1e6, "billion": 1e9}
_alt = lambda words: "|".join(sorted(words, key=len, reverse=True))  # noqa: E731 (longest first)
_CARDINAL = rf"(?:(?P<tens>{_alt(_TENS)})(?:[-\s](?P<unit>{_alt(_UNITS)}))?|(?P<small>{_alt(_UNITS)}))"
NUMBER_WORDS_RE = re.compile(
    rf"(?<![\w-]){_CARDINAL}(?:\s+(?P<scale>{_alt(_SCALE_WORDS)})|[-\s](?P<denominator>{_alt(_DENOMINATORS)}))?(?![\w-])",
    re.IGNORECASE,
)


def _word_value(match: re.Match[str]) -> float:
    if match.group("small"):
        value = float(_UNITS[match.group("small").lower()])
    else:
        value = float(_TENS[match.group("tens").lower()] + _UNITS.get((match.group("unit") or "").lower(), 0))
    if match.group("scale"):
        return value * _SCALE_WORDS[match.group("scale").lower()]
    if match.group("denominator"):
        return value / _DENOMINATORS[match.group("denominator").lower()]
    return value


# Numbers a tokenizer split with spaces (SciREX's abstracts are token-joined): a decimal split
# after its point before a percent sign ('7. 1% mAP', '63. 53\\%': a percent opens no sentence),
# and thousands split around their commas ('1 , 800 + times'). Each pattern opens by reading a
# digit and only then asks what stands before it (as :data:`NUMBER_RE` does), so the engine
# skips from digit to digit instead of trying the pattern at every character.
_SPLIT_DECIMAL = re.compile(r"(\d(?<![\d.]\d)\d*)\. (\d+)(?=\s?\\?%)")
_SPACED_THOUSANDS = re.compile(r"\d(?<![\d.,]\d)\d{0,2}(?: , \d{3})+(?!\d)")


def find_split_numbers(text: str) -> list[NumberMention]:
    """Every number a tokenizer split with spaces, as one number: ``7. 1%`` 7.1, ``1 , 800`` 1800."""
    found = [
        NumberMention(m.start(), m.end(), m.group(), float(f"{m.group(1)}.{m.group(2)}"), ())
        for m in _SPLIT_DECIMAL.finditer(text)
    ]
    found += [
        NumberMention(m.start(), m.end(), m.group(), float(m.group().replace(" , ", "")), ())
        for m in _SPACED_THOUSANDS.finditer(text)
    ]
    return sorted(found, key=lambda m: m.start)


def find_number_words(text: str) -> list[NumberMention]:
    """Every number written as words, with its span: ``five`` 5, ``Fifty`` 50, ``twenty-one``
    21, ``one tenth`` 0.1, ``two thirds`` 0.667 (a fraction may be cited rounded, or in percent:
    66.7, 67, 0.67), ``three hundred`` 300."""
    mentions = []
    for match in NUMBER_WORDS_RE.finditer(text):
        value = _word_value(match)
        alternates = set()
        if match.group("denominator"):
            for digits in (1, 2, 3):
                alternates |= {round(value, digits), round(value * 100, digits - 1), value * 100}
        mentions.append(NumberMention(match.start(), match.end(), match.group(), value, tuple(sorted(alternates - {value}))))
    return mentions
