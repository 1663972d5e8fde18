"""The faster forms of text functions on the client's path give what their plain definitions give.

Whitespace folding joins ``str.split`` where it used a substitution, and the split-number
patterns read a digit before asking what stands before it, where they opened with the lookbehind.
The plain forms are written here as the definition, and both are run over the
fixture abstracts, SciREX's token-joined ones and random strings of the characters that matter.
"""

from __future__ import annotations

import random
import re
import sys

import pytest

from extractor.pipeline.ingest import read_inputs
from extractor.text.hashing import normalize_text
from extractor.text.numbers import _SPACED_THOUSANDS, _SPLIT_DECIMAL, find_split_numbers

from .conftest import FIXTURES, ROOT

PLAIN_SPLIT_DECIMAL = re.compile(r"(?<![\d.])(\d+)\. (\d+)(?=\s?\\?%)")
PLAIN_SPACED_THOUSANDS = re.compile(r"(?<![\d.,])\d{1,3}(?: , \d{3})+(?![\d])")
SCIREX = ROOT / "fixtures" / "external" / "scirex" / "scirex_train_abstracts.jsonl"


def _abstracts() -> list[str]:
    return [p.abstract for p in read_inputs([str(FIXTURES / "abstracts"), str(SCIREX)]) if not p.error]


def _random_texts(pieces: str | list[str], count: int) -> list[str]:
    rng = random.Random(24)
    return ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 16))) for _ in range(count)]


NUMBER_PIECES = ["1", "12", "123", "1234", " , ", ". ", ",", ".", " ", "%", "\\", "\n", "a"]


def test_whitespace_folding_splits_where_the_substitution_matched() -> None:
    spaces = "".join(chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace())
    texts = [*_abstracts(), spaces, f"a{spaces}b", *_random_texts(spaces + "ab\u200b", 3000)]
    for text in texts:
        assert normalize_text(text) == re.sub(r"\s+", " ", text).strip(), repr(text)


@pytest.mark.parametrize(
    ("fast", "plain"),
    [(_SPLIT_DECIMAL, PLAIN_SPLIT_DECIMAL), (_SPACED_THOUSANDS, PLAIN_SPACED_THOUSANDS)],
    ids=["split decimal", "spaced thousands"],
)
def test_the_split_number_patterns_match_what_the_lookbehind_first_ones_match(fast: re.Pattern[str], plain: re.Pattern[str]) -> None:
    texts = [*_abstracts(), *_random_texts(NUMBER_PIECES, 20000)]
    found = 0
    for text in texts:
        expected = [(m.span(), m.groups()) for m in plain.finditer(text)]
        assert [(m.span(), m.groups()) for m in fast.finditer(text)] == expected, repr(text)
        found += bool(expected)
    assert found > 50  # the texts hold such numbers, so the comparison is not of empty lists


def test_split_numbers_read_as_before() -> None:
    found = find_split_numbers("mAP 7. 1% at 1 , 800 + times; 2. 5 and 12,345 stay")
    assert [(m.text, m.value) for m in found] == [("7. 1", 7.1), ("1 , 800", 1800.0)]
