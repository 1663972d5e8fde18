"""The pattern helpers the rules are written with match what their plain forms match (they only
change how the regex engine gets there)."""

from __future__ import annotations

import re

import pytest

from extractor.rules.document import AnyCase, ascii_only
from extractor.rules.vocabulary import alternation, word_start

TEXTS = [
    "We propose FooNet; this paper shows that our model beats BarNet (we think).",
    "the tests,then datasets\x1cof words-we_our 1we we2 ourselves.",
    "",
    "we",
]


@pytest.mark.parametrize("pattern", [r"we|our|this\s+paper", r"test\s?sets|tests|dataset|data\s+set"])
def test_grouped_alternations_match_the_flat_one(pattern: str) -> None:
    flat = re.compile(rf"\b(?:{pattern})\b")
    for grouped in (rf"\b(?:{alternation(pattern)})\b", rf"(?:{word_start(pattern)})\b"):
        for text in TEXTS:
            assert [m.span() for m in re.finditer(grouped, text)] == [m.span() for m in flat.finditer(text)]


def test_ascii_only_keeps_the_unicode_spaces_of_ascii() -> None:
    assert ascii_only(r"a\s+[^\s,]\S\w") == r"a[\s\x1c-\x1f]+[^\s\x1c-\x1f,][^\s\x1c-\x1f]\w"
    assert ascii_only(r"[]\s](\[\s)") == r"[]\s\x1c-\x1f](\[[\s\x1c-\x1f])"
    separated = "we\x1cpropose"  # an ASCII separator that Unicode counts as a space
    assert re.search(r"we\s", separated) and AnyCase(r"we\s").search(separated)
    assert re.compile(ascii_only(r"we\S"), re.ASCII).search(separated) is None


def test_ascii_only_refuses_what_it_cannot_rewrite() -> None:
    with pytest.raises(ValueError):
        ascii_only(r"[\S]")


def test_every_qualifier_ends_with_a_character_the_gate_lets_through() -> None:
    from extractor.rules.quantities import _QUALIFIER, QUALIFIER_LAST

    qualifiers = [
        *("up to", "about", "around", "roughly", "nearly", "almost", "over", "more than", "less than"),
        *("fewer than", "at least", "at most", "below", "above", "under", "exceeding", "ge", "le", "near"),
        *("near-", "only", "just", "merely", "approx", "approx.", "approximately", "sim", "geq", "leq"),
        *("~", "\u2248", "\u223c", "<", ">", "<=", ">=", "\u2265", "\u2264"),
    ]
    for qualifier in qualifiers + [q.upper() for q in qualifiers]:
        text = f"a {qualifier} "
        found = _QUALIFIER.search(text)
        assert found and found.group("q") == qualifier
        assert text.rstrip()[-1:].lower() in QUALIFIER_LAST
    assert "f" not in QUALIFIER_LAST  # "accuracy of 85.3%": not searched
