"""Names the registry does not know, mapped by the model: one cached request
per new name, answered from a closed list or "none", recorded in the run's names.json and
applied by every export after the reviewers' aliases. Against the loopback server, whose
``names=`` answers name requests; nothing is monkeypatched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extractor.backends.openai.pricing import cost_usd
from extractor.errors import InputError
from extractor.leaderboard import build_leaderboard, load_runs
from extractor.runs.names import parse_names, read_names
from extractor.runs import Run
from extractor.pipeline.runner import run
from extractor.review import apply_review, export_review
from extractor.schema import ClaimDraft, ExtractionDraft
from tests.conftest_fake import openai_config
from tests.fake_openai import Fault, FakeOpenAI

from .test_review import cell, claim_id, edit

UNKNOWN = "SemEval-10 nominal relations"  # no name or alias of the registry
ENTRY = "SemEval-2010 Task 8"
PAPERS = {
    "p1": ("RelNet", 84.2, UNKNOWN),
    "p2": ("CNN-Att", 82.7, ENTRY),
}


def abstract(paper: str) -> str:
    method, value, benchmark = PAPERS[paper]
    return f"{method} reaches {value} macro-F1 on {benchmark}."


def answer(text: str) -> ExtractionDraft:
    """Each paper's one score, with its benchmark and metric as the abstract writes them."""
    method, value, benchmark = next(p for key, p in PAPERS.items() if abstract(key) == text)
    return ExtractionDraft(claims=[ClaimDraft(value=value, metric="macro-F1", benchmark=benchmark, method=method, evidence=text)])


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "papers.jsonl"
    path.write_text("".join(json.dumps({"id": key, "abstract": abstract(key)}) + "\n" for key in PAPERS))
    return path


def blocks(run_dir: Path) -> list[tuple[str, int]]:
    board = build_leaderboard(*load_runs([Run.open(run_dir)]))
    return sorted(zip(board.blocks["title"], board.blocks["papers"]))


def name_requests(server: FakeOpenAI) -> list:
    return [r for r in server.log if r.name is not None]


def test_a_name_the_model_maps_ranks_both_papers_in_one_block(tmp_path: Path, source: Path) -> None:
    with FakeOpenAI(answer=answer, names={UNKNOWN: ENTRY}) as server:
        summary = run([str(source)], tmp_path / "run", openai_config(server))
    [request] = name_requests(server)  # macro-F1 and SemEval-2010 Task 8 are the registry's
    assert request.name == UNKNOWN
    assert request.messages[0]["role"] == "system" and f"- {ENTRY}" in request.messages[1]["content"]
    [recorded] = read_names(tmp_path / "run")
    assert (recorded.kind, recorded.name, recorded.same_as, recorded.model) == ("benchmark", UNKNOWN, ENTRY, "gpt-4o-mini")
    assert summary.info["names"]["asked"] == 1 and summary.info["names"]["mapped"] == 1
    assert blocks(tmp_path / "run") == [("SemEval-2010 Task 8 \u00b7 macro-F1 \u2191 (%)", 2)]


def test_without_the_step_or_with_none_the_names_stay_apart(tmp_path: Path, source: Path) -> None:
    with FakeOpenAI(answer=answer) as server:
        run([str(source)], tmp_path / "off", openai_config(server, map_names=False))
        assert name_requests(server) == []
        run([str(source)], tmp_path / "none", openai_config(server))
    assert [a.same_as for a in read_names(tmp_path / "none")] == [None]
    assert len(blocks(tmp_path / "off")) == len(blocks(tmp_path / "none")) == 2


@pytest.mark.parametrize("fault, said", [(None, "KBP37"), ("malformed", ENTRY), ("schema_invalid", ENTRY)])
def test_an_answer_outside_the_list_or_malformed_is_refused_and_counts_as_none(
    tmp_path: Path, source: Path, fault: str | None, said: str
) -> None:
    with FakeOpenAI(answer=answer) as server:  # extracted first, so the fault meets the name request
        run([str(source)], tmp_path / "first", openai_config(server, map_names=False))
    faults = [Fault(fault, match=UNKNOWN)] if fault else []
    with FakeOpenAI(answer=answer, names={UNKNOWN: said}, faults=faults) as server:
        summary = run([str(source)], tmp_path / "run", openai_config(server))
        assert len(name_requests(server)) == 1 and server.requests == 1  # refused, not re-asked
    [recorded] = read_names(tmp_path / "run")
    assert recorded.same_as is None and recorded.refused
    assert summary.info["names"]["refused"] == 1
    assert len(blocks(tmp_path / "run")) == 2


def test_a_cached_answer_sends_no_request_on_rerun(tmp_path: Path, source: Path) -> None:
    with FakeOpenAI(answer=answer, names={UNKNOWN: ENTRY}) as server:
        run([str(source)], tmp_path / "a", openai_config(server))
        sent = server.requests
        again = run([str(source)], tmp_path / "b", openai_config(server))  # another run, the same cache
        assert server.requests == sent
    assert again.info["names"]["cached"] == 1 and again.info["names"]["asked"] == 0
    assert [a.same_as for a in read_names(tmp_path / "b")] == [ENTRY]
    assert len(blocks(tmp_path / "b")) == 1


def test_the_names_cost_is_counted_and_max_cost_stops_them(tmp_path: Path, source: Path) -> None:
    with FakeOpenAI(answer=answer, names={UNKNOWN: ENTRY}) as server:
        summary = run([str(source)], tmp_path / "run", openai_config(server))
        [request] = name_requests(server)
        extraction = [r for r in server.log if r.name is None]
    names = summary.info["names"]["usage"]
    assert (names["prompt_tokens"], names["completion_tokens"]) == (request.usage["prompt_tokens"], request.usage["completion_tokens"])
    assert names["cost_usd"] > 0
    assert names["cost_usd"] == pytest.approx(cost_usd("gpt-4o-mini", names["prompt_tokens"], names["completion_tokens"]))
    total = Run.open(tmp_path / "run").info()["usage"]
    assert total["requests"] == len(extraction) + 1
    assert total["prompt_tokens"] == sum(r.usage["prompt_tokens"] for r in server.log)
    with FakeOpenAI(answer=answer, names={UNKNOWN: ENTRY}) as server:  # the cap is reached by the extraction
        capped = run([str(source)], tmp_path / "capped", openai_config(server, max_cost=1e-9, use_cache=False))
        assert name_requests(server) == []
    assert capped.info["names"]["not_sent"] == 1 and read_names(tmp_path / "capped") == []


def test_a_reviewers_word_beats_the_model_and_the_sheet_shows_the_models_merge(tmp_path: Path, source: Path) -> None:
    out = tmp_path / "run"
    with FakeOpenAI(answer=answer, names={UNKNOWN: ENTRY}) as server:
        run([str(source)], out, openai_config(server))
    book = tmp_path / "review.xlsx"
    export_review(Run.open(out), book)
    target = claim_id(out, "p1", 84.2)
    assert cell(book, "Claims", target, "same_as_by_model") == f"benchmark = {ENTRY} (gpt-4o-mini)"
    edit(book, book, "Claims", target, benchmark_same_as=UNKNOWN)  # the name is its own: undo the merge
    assert not apply_review(book, Run.open(out), "alice").refused
    assert len(blocks(out)) == 2
    again = tmp_path / "again.xlsx"
    export_review(Run.open(out), again)
    assert cell(again, "Claims", target, "same_as_by_model") is None
    assert cell(again, "Claims", target, "benchmark_same_as") == UNKNOWN
    edit(again, again, "Claims", target, benchmark_same_as=None)  # the reviewer's word taken back
    assert not apply_review(again, Run.open(out), "alice").refused
    assert len(blocks(out)) == 1  # the model's answer holds again
    last = tmp_path / "last.xlsx"
    export_review(Run.open(out), last)
    assert cell(last, "Claims", target, "same_as_by_model") == f"benchmark = {ENTRY} (gpt-4o-mini)"


def test_a_name_a_reviewer_has_spoken_about_is_not_asked(tmp_path: Path, source: Path) -> None:
    out = tmp_path / "run"
    with FakeOpenAI(answer=answer, names={UNKNOWN: ENTRY}) as server:
        run([str(source)], out, openai_config(server, map_names=False))
        book = tmp_path / "review.xlsx"
        export_review(Run.open(out), book)
        edit(book, book, "Claims", claim_id(out, "p1", 84.2), benchmark_same_as="KBP37")
        assert not apply_review(book, Run.open(out), "alice").refused
        run([str(source)], out, openai_config(server))  # the same run again, the step on
        assert name_requests(server) == []
    assert read_names(out) == []
    assert [title.split(" \u00b7 ")[0] for title, _ in blocks(out)] == ["KBP37", ENTRY]


def test_a_bad_names_table_is_refused_naming_the_record() -> None:
    text = json.dumps({"names": 1, "answers": [{"kind": "dataset", "name": "X", "same_as": None, "model": "m", "prompt_version": "names-v1"}]})
    with pytest.raises(InputError, match=r"names.json: answer 0: kind must be benchmark or metric"):
        parse_names(text, "runs/a/names.json")
    assert parse_names(json.dumps({"names": 1, "answers": []}), "runs/a/names.json") == []


def test_a_dry_run_counts_the_name_requests_of_the_cached_answers(tmp_path: Path, source: Path) -> None:
    from extractor.pipeline.dry_run import dry_run

    with FakeOpenAI(answer=answer, names={UNKNOWN: ENTRY}) as server:
        config = openai_config(server)
        before = dry_run([str(source)], config).estimate
        run([str(source)], tmp_path / "run", openai_config(server, map_names=False))
        pending = dry_run([str(source)], config).estimate
        run([str(source)], tmp_path / "named", config)
        after = dry_run([str(source)], config).estimate
        assert len(name_requests(server)) == 1
    assert before.names.requests == 0 and before.names.tokens_each > 0  # nothing extracted yet
    assert pending.requests == 0 and pending.names.requests == 1 and pending.names.prompt_tokens > 0
    assert pending.names.cost_usd > 0 and pending.cost_usd == pytest.approx(pending.names.cost_usd)
    assert "1 for the new names of the cached answers" in dict(pending.rows())["name requests"]
    assert after.names.requests == 0  # answered, cached
