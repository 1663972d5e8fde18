"""Invisible format characters (Unicode Cf: zero-width space, soft hyphen, bidi marks) are not
part of what a text says: numbers are read through them, evidence is found across them, and every
span still points into the original abstract."""

from __future__ import annotations

from extractor import extract
from extractor.grounding import find_evidence, ground
from extractor.schema import ClaimDraft, ExtractionDraft
from extractor.text.numbers import find_numbers

ABSTRACT = "GANQ reaches 8\u200b3.6% accuracy on GSM8K and 1\u00ad,552 tokens/s, 2.5\u2060x faster."


def test_a_zero_width_space_inside_a_number_is_read_through() -> None:
    mentions = find_numbers(ABSTRACT)
    assert [m.value for m in mentions][:3] == [83.6, 1552, 2.5]
    first = mentions[0]
    assert ABSTRACT[first.start : first.end] == "8\u200b3.6" == first.text


def test_evidence_without_the_format_characters_is_found_with_the_original_span() -> None:
    span = find_evidence("reaches 83.6% accuracy", ABSTRACT)
    assert span is not None and ABSTRACT[span[0] : span[1]] == "reaches 8\u200b3.6% accuracy"
    draft = ExtractionDraft(claims=[ClaimDraft(value=83.6, unit="%", metric="accuracy", evidence="reaches 83.6% accuracy")])
    extraction, rejected = ground(draft, ABSTRACT, "p1")
    assert not rejected
    [claim] = extraction.claims
    assert ABSTRACT[claim.value_span[0] : claim.value_span[1]] == "8\u200b3.6"
    assert claim.evidence == "reaches 8\u200b3.6% accuracy"


def test_the_rules_extractor_reads_the_whole_number() -> None:
    values = {c.value for c in extract(ABSTRACT).extraction.claims}
    assert 83.6 in values and 3.6 not in values
