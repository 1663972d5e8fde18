"""The whitespace- and case-folded view of an abstract that evidence is searched in.

It is computed once per abstract (cached) with a regex over words; these tests hold it to the
plain definition: every folded character maps back to the original character it came from.
"""

from __future__ import annotations

import pytest

from extractor.grounding import _folded, find_evidence
from extractor.pipeline.ingest import read_inputs

from .conftest import FIXTURES


def reference_fold(text: str) -> tuple[str, tuple[int, ...]]:
    """Character by character: lower-case, one space per whitespace run, none at the start."""
    out, offsets, previous_space = [], [], False
    for i, ch in enumerate(text):
        if ch.isspace():
            if not previous_space and out:
                out.append(" ")
                offsets.append(i)
            previous_space = True
            continue
        previous_space = False
        out.append(ch.lower())
        offsets.extend([i] * len(ch.lower()))
    return "".join(out).rstrip(" "), tuple(offsets[: len("".join(out).rstrip(" "))])


FIXTURE_ABSTRACTS = [p.abstract for p in read_inputs([str(FIXTURES / "abstracts")]) if not p.error]
ODD_TEXTS = [
    "",
    "   \n\t ",
    "  leading and trailing  \n",
    "\u0130stanbul model gains 3.2\u2009points\u00a0on  XNLI.\r\n\r\nDone.",
    "GANQ\treaches\n\n83.6%\u2003accuracy",
    "\n\n  GANQ \t reaches 83.6%\r\n",
]


@pytest.mark.parametrize("text", FIXTURE_ABSTRACTS + ODD_TEXTS)
def test_the_fold_matches_the_character_by_character_definition(text: str) -> None:
    folded, offsets = _folded(text)
    assert (folded, tuple(offsets[at] for at in range(len(folded)))) == reference_fold(text)


def test_evidence_with_a_longer_lower_case_maps_to_the_right_span() -> None:
    text = "On \u0130stanbul data, GANQ  reaches\n83.6% accuracy."
    span = find_evidence("ganq reaches 83.6%", text)
    assert span is not None and text[span[0] : span[1]] == "GANQ  reaches\n83.6%"


def test_the_fold_is_computed_once_per_abstract() -> None:
    text = FIXTURE_ABSTRACTS[0]
    _folded.cache_clear()
    for phrase in text.split()[:5]:
        find_evidence(phrase, text)
    assert _folded.cache_info().misses == 1
