"""What the evidence writes at a claim's number: a unit written there that the claim contradicts,
a metric measured in another kind of unit or whose words the paper never writes, and names
found only inside longer words are refused; the claim keeps its number, off the ranking.

The LLM path is run against the loopback server (one re-ask with the reasons, then the field is
cleared); the offline rules get the same check, without a re-ask.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from extractor.grounding import ground
from extractor.leaderboard import build_leaderboard
from extractor.pipeline.runner import run
from extractor.rules import extract
from extractor.schema import ClaimDraft, ExtractionDraft, Method
from extractor.text.name_keys import name_in_text
from tests.runs import read_papers
from tests.conftest_fake import openai_config
from tests.fake_openai import FakeOpenAI

FOONET = "We search for a faster retriever. FooNet cuts latency to 41.3 ms per query."
BARNET = "We propose BarNet. BarNet reaches 38.0% top-1 accuracy on ARC."
INVENTED = ClaimDraft(
    value=41.3, unit="%", metric="top-1 accuracy", benchmark="ARC", method="FooNet", proposed=True,
    evidence="FooNet cuts latency to 41.3 ms per query",
)
TRUE_ARC = ClaimDraft(
    value=38.0, unit="%", metric="top-1 accuracy", benchmark="ARC", method="BarNet", proposed=True,
    evidence="BarNet reaches 38.0% top-1 accuracy on ARC",
)
REASONS = [
    "benchmark 'ARC' does not occur in the abstract",
    "unit '%' is not the 'ms' written at the number",
    "metric 'top-1 accuracy' is measured in %, not the 'ms' written at the number",
]


def answers(abstract: str) -> ExtractionDraft:
    """A model that credits FooNet's latency as a top-1 accuracy on ARC, and BarNet rightly."""
    if abstract.startswith("We search"):
        return ExtractionDraft(methods=[Method(name="FooNet")], claims=[INVENTED])
    return ExtractionDraft(methods=[Method(name="BarNet")], claims=[TRUE_ARC])


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("ARC", "We search for a faster retriever."),
        ("MATH", "A mathematical view of retrieval."),
        ("GLUE", "Two encoders glued together."),
        ("ImageNet", "We study image networks."),
        ("SQuAD", "A squadron of small models."),
    ],
)
def test_a_name_is_never_found_inside_a_longer_word(name: str, text: str) -> None:
    assert not name_in_text(name, text)
    assert name_in_text(name, f"{text} We also report {name} results.")


def test_names_still_match_across_case_punctuation_plurals_and_digits() -> None:
    assert name_in_text("Llama 3.2-3B", "we fine-tune llama-3.2-3b")
    assert name_in_text("PReLU", "learned PReLUs")  # a plural is the name
    assert name_in_text("ResNet", "a ResNet50 backbone")  # digits after a name start a new word
    assert name_in_text("3B parameters", "small models (leq3B parameters)")  # a macro that lost its backslash
    assert name_in_text("ELECTRA", "ConvBERTbase beats ELECTRAbase")  # a variant that lost its subscript
    assert not name_in_text("GPT-4", "we query GPT-4o")  # another model


def test_a_unit_and_a_metric_the_number_does_not_carry_are_cleared_and_the_number_kept() -> None:
    extraction, rejected = ground(ExtractionDraft(claims=[INVENTED]), FOONET, "p")
    [claim] = extraction.claims
    assert (claim.value, claim.method, claim.proposed) == (41.3, "FooNet", True)
    assert claim.unit is claim.metric is claim.benchmark is None
    assert [(r.field, r.reason) for r in rejected] == [("attribution", reason) for reason in REASONS]
    assert all(r.item["unit"] == "%" for r in rejected)  # the claim as it was given


@pytest.mark.parametrize(
    ("claim", "reason"),
    [
        # a metric none of whose words the paper writes
        (ClaimDraft(value=41.3, metric="harmonic score", evidence="41.3 ms per query"),
         "metric 'harmonic score' does not occur in the abstract: none of its words is written"),
        # seconds are not milliseconds
        (ClaimDraft(value=41.3, unit="s", metric="latency", evidence="41.3 ms per query"),
         "unit 's' is not the 'ms' written at the number"),
    ],
)
def test_each_check_says_what_it_refused(claim: ClaimDraft, reason: str) -> None:
    _, rejected = ground(ExtractionDraft(claims=[claim]), FOONET, "p")
    assert [r.reason for r in rejected] == [reason]


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("It reduces latency by 30%.", dict(value=30, unit="%", metric="latency", kind="change")),
        ("Splitwise reduces end-to-end latency by 1.4x.", dict(value=1.4, unit="x", metric="end-to-end latency", kind="change")),
        ("It is 16 times faster.", dict(value=16, unit="x", metric="speedup", kind="change")),
        ("It reaches 1.169 bits-per-character.", dict(value=1.169, metric="BPC")),  # the registry's name for it
        ("Our system ranked 3rd among 19 teams.", dict(value=3, metric="rank")),
        ("It gains 7.3% points.", dict(value=7.3, unit="points", kind="change")),
        ("It answers in 5 seconds.", dict(value=5, unit="s", metric="time")),
        ("It reaches 83.6\\% accuracy.", dict(value=83.6, unit="percent", metric="accuracy")),
        ("It keeps |ρ| approx 0.94.", dict(value=0.94, metric="|\u03c1|")),  # no word to look for
        # the number twice in the evidence: the claim is the one whose unit it gives
        ("It wins on the 100 hour subset using 100 times less data.", dict(value=100, unit="x", kind="change")),
    ],
)
def test_what_papers_write_at_their_numbers_is_kept(text: str, claim: dict) -> None:
    draft = ExtractionDraft(claims=[ClaimDraft(evidence=text.rstrip("."), **claim)])
    extraction, rejected = ground(draft, text, "p")
    assert rejected == []
    assert (extraction.claims[0].unit, extraction.claims[0].metric) == (claim.get("unit"), claim.get("metric"))


def test_the_model_is_asked_once_then_the_fields_are_cleared_and_the_claim_is_off_the_ranking(tmp_path: Path) -> None:
    source = tmp_path / "papers.jsonl"
    source.write_text(f'{{"id": "foonet", "abstract": "{FOONET}"}}\n{{"id": "barnet", "abstract": "{BARNET}"}}\n')
    with FakeOpenAI(answer=answers) as server:
        run([str(source)], tmp_path / "run", openai_config(server))
        asked = server.requests_for("We search")
    assert len(asked) == 2  # asked once more, shown the reasons
    sent_back = "\n".join(str(m.get("content")) for m in asked[1].messages)
    assert all(reason in sent_back for reason in REASONS)
    results = {r.id: r for r in read_papers(tmp_path / "run")}
    foonet = results["foonet"]
    [claim] = foonet.extraction.claims
    assert (claim.value, claim.unit, claim.metric, claim.benchmark) == (41.3, None, None, None)
    assert [(r.field, r.reason) for r in foonet.rejected] == [("attribution", reason) for reason in REASONS]
    board = build_leaderboard(list(results.values()))
    assert list(board.scores["paper_id"]) == ["barnet"]  # FooNet's latency ranks nowhere
    assert list(board.unranked["value"]) == [41.3]


def test_a_model_that_corrects_itself_when_asked_again_is_taken(tmp_path: Path) -> None:
    asked: list[str] = []

    def corrects(abstract: str) -> ExtractionDraft:
        asked.append(abstract)
        claim = INVENTED if len(asked) == 1 else INVENTED.model_copy(update={"unit": "ms", "metric": "latency", "benchmark": None})
        return ExtractionDraft(methods=[Method(name="FooNet")], claims=[claim])

    source = tmp_path / "papers.jsonl"
    source.write_text(f'{{"id": "foonet", "abstract": "{FOONET}"}}\n')
    with FakeOpenAI(answer=corrects) as server:
        [result] = run([str(source)], tmp_path / "run", openai_config(server)).results
    assert result.usage.reasks == 1 and result.rejected == []
    [claim] = result.extraction.claims
    assert (claim.value, claim.unit, claim.metric) == (41.3, "ms", "latency")


def test_the_rules_output_gets_the_same_check() -> None:
    text = (
        "CornerNet-Squeeze improves the popular real-time detector YOLOv3 (34.4% AP at 34ms for "
        "CornerNet-Squeeze compared to 33.0% AP at 39ms for YOLOv3) on COCO."
    )
    draft = extract(text)
    assert ("ms", "AP") in {(c.unit, c.metric) for c in draft.claims}  # the rules' reading, unchanged
    extraction, rejected = ground(draft, text, "p")
    assert {(c.value, c.unit, c.metric) for c in extraction.claims} == {
        (34.4, "%", "AP"), (34.0, "ms", None), (33.0, "%", "AP"), (39.0, "ms", None)
    }
    assert [r.reason for r in rejected] == ["metric 'AP' is measured in %, not the 'ms' written at the number"] * 2
