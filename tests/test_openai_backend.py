"""The openai backend against the loopback server: modes, fallback, cache, usage and cost.

Nothing is monkeypatched: the openai SDK, instructor and tenacity talk HTTP to
``tests/fake_openai.py``, which answers each abstract with a grounded extraction.
"""

from __future__ import annotations

import asyncio
import csv
import json
from pathlib import Path

import pytest
from instructor.processing import handle_response_model

from extractor.backends.openai.backend import OpenAIBackend, identity_for
from extractor.backends.openai.exchange import (
    INSTRUCTOR_MODES,
    GroundedDraft,
    known_fields,
    request_body,
)
from extractor.backends.openai.pricing import cost_usd, price_for
from extractor.backends.openai.prompts import load_prompt
from extractor.backends.openai.options import MODES, OpenAIOptions, choose_mode
from extractor.config import RunConfig
from extractor.errors import ConfigError
from extractor.runs import Run
from tests.runs import read_papers
from extractor.pipeline.runner import run
from extractor.schema import ExtractionDraft
from tests.conftest_fake import fixture_papers, openai_config, write_papers
from tests.fake_openai import FakeOpenAI, grounded_answer


def run_papers(tmp_path: Path, config: RunConfig, count: int = 4, out: str = "run") -> list:
    papers = fixture_papers(count)
    source = write_papers(tmp_path / "papers.jsonl", papers)
    summary = run([str(source)], tmp_path / out, config)
    return summary.results


@pytest.mark.parametrize("mode", MODES)
def test_every_mode_extracts_every_paper(tmp_path: Path, fake_openai: FakeOpenAI, mode: str) -> None:
    results = run_papers(tmp_path, openai_config(fake_openai, mode=mode))
    assert [r.status for r in results] == ["ok"] * 4
    assert {r.mode for r in fake_openai.log} == {mode}
    assert fake_openai.requests == 4
    for result in results:
        expected = grounded_answer(result.abstract)
        assert [c.value for c in result.extraction.claims] == [c.value for c in expected.claims]
        assert result.usage.requests == 1 and result.usage.retries == 0 and result.usage.reasks == 0
        assert result.usage.prompt_tokens > 0 and result.usage.completion_tokens > 0
        assert result.usage.cost_usd == pytest.approx(
            cost_usd("gpt-4o-mini", result.usage.prompt_tokens, result.usage.completion_tokens)
        )
    info = Run.open(tmp_path / "run").info()
    assert info["mode"] == info["mode_used"] == mode and info["mode_fallbacks"] == []
    assert info["usage"]["requests"] == 4 and info["usage"]["cost_usd"] > 0


def test_the_grounded_answer_keeps_its_claims_in_claims_csv(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    results = run_papers(tmp_path, openai_config(fake_openai), count=1)
    ganq = results[0]
    assert [c.value for c in ganq.extraction.claims] == [2.57]
    with (tmp_path / "run" / "claims.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["paper_id"], r["value"]) for r in rows] == [(ganq.id, "2.57")]


def test_the_mode_is_chosen_for_the_endpoint_and_can_be_forced() -> None:
    assert choose_mode(OpenAIOptions()) == "tools"
    assert choose_mode(OpenAIOptions(base_url="https://api.openai.com/v1")) == "tools"
    assert choose_mode(OpenAIOptions(base_url="http://127.0.0.1:8080/v1")) == "json_schema"
    assert choose_mode(OpenAIOptions(base_url="http://127.0.0.1:8080/v1", mode="md_json")) == "md_json"
    with pytest.raises(ConfigError, match="mode must be one of 'tools', 'json_schema', 'json' or 'md_json', not 'xml'"):
        OpenAIOptions.resolve({"mode": "xml"})


def test_identity_names_everything_that_changes_the_output() -> None:
    config = OpenAIOptions(model="gpt-4o-mini", base_url="http://127.0.0.1:1/v1")
    identity = identity_for(config)
    assert set(identity) == {
        "backend", "model", "mode", "prompt_version", "prompt_hash", "schema_hash", "temperature", "max_tokens",
    }
    assert identity["mode"] == "json_schema" and identity["prompt_version"] == "v3"
    for change in ({"model": "gpt-4o"}, {"mode": "json"}, {"temperature": 0.7}, {"max_tokens": 512}):
        other = config.model_copy(update=change)
        assert identity_for(other) != identity
    # the URL is not part of it: a local server restarted on another port still hits the cache
    assert identity_for(config.model_copy(update={"base_url": "http://127.0.0.1:2/v1"})) == identity


def test_the_model_sees_the_extraction_draft_schema_without_titles() -> None:
    sent = GroundedDraft.model_json_schema()
    full = ExtractionDraft.model_json_schema()
    assert sent["title"] == "ExtractionDraft"  # instructor names the tool after it
    assert '"title"' not in json.dumps({key: value for key, value in sent.items() if key != "title"})
    assert sent["$defs"].keys() == full["$defs"].keys()
    for name, definition in full["$defs"].items():
        assert sent["$defs"][name]["properties"].keys() == definition["properties"].keys()
        assert sent["$defs"][name].get("required") == definition.get("required")
    # the descriptions that add to the system prompt are kept
    assert sent["$defs"]["ClaimDraft"]["properties"]["unit"]["description"].startswith("'%', 'x'")


@pytest.mark.parametrize(
    ("refused", "fallback"), [("json_schema", "tools"), ("tools", "json_schema"), ("json", "json_schema")]
)
def test_a_refused_mode_falls_back_once_and_every_paper_is_ok(
    tmp_path: Path, fake_openai: FakeOpenAI, refused: str, fallback: str
) -> None:
    fake_openai.refuse.add(refused)
    fake_openai.latency = 0.02
    results = run_papers(tmp_path, openai_config(fake_openai, mode=refused, concurrency=3), count=6)
    assert [r.status for r in results] == ["ok"] * 6
    refusals = [r for r in fake_openai.log if r.mode == refused]
    assert 1 <= len(refusals) <= 3  # only the requests already in flight when it was refused
    assert fake_openai.requests == 6 + len(refusals)
    info = Run.open(tmp_path / "run").info()
    assert info["mode"] == refused and info["mode_used"] == fallback
    [event] = info["mode_fallbacks"]
    assert event["refused"] == refused and event["used"] == fallback
    assert event["reason"] and info["counts"]["ok"] == 6


def test_llama_cpp_refusal_of_json_schema_is_detected_by_default(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    fake_openai.refuse.add("json_schema")
    results = run_papers(tmp_path, openai_config(fake_openai, concurrency=1), count=3)
    assert [r.status for r in results] == ["ok"] * 3
    # tools next, not json: json sends no schema to constrain the answer with
    assert [r.mode for r in fake_openai.log] == ["json_schema", "tools", "tools", "tools"]
    assert "Input should be 'text' or 'json_object'" in Run.open(tmp_path / "run").info()["mode_fallbacks"][0]["reason"]


@pytest.mark.parametrize(
    ("first", "chain"),
    [("json_schema", ["tools", "json", "md_json"]), ("tools", ["json_schema", "json", "md_json"])],
)
def test_fallbacks_chain_down_to_markdown_json(
    tmp_path: Path, fake_openai: FakeOpenAI, first: str, chain: list[str]
) -> None:
    fake_openai.refuse.update({"json_schema", "tools", "json"})
    config = openai_config(fake_openai, concurrency=1, mode=first)
    results = run_papers(tmp_path, config, count=2)
    # every mode is tried once, none twice; the plain-text mode cannot be refused
    assert [r.status for r in results] == ["ok", "ok"]
    assert [e["used"] for e in Run.open(tmp_path / "run").info()["mode_fallbacks"]] == chain
    assert [r.mode for r in fake_openai.log] == [first, *chain, "md_json"]


@pytest.mark.parametrize("mode", MODES)
def test_the_request_is_the_one_instructor_builds(mode: str) -> None:
    config = OpenAIOptions(model="m", base_url="http://127.0.0.1:1/v1", mode=mode, max_tokens=99)
    prompt = load_prompt(config.prompt_version)
    for abstract in ("Another abstract, 83.6%.", "GANQ reaches 2.57x."):
        messages = prompt.messages(abstract, None)
        _, built = handle_response_model(GroundedDraft, mode=INSTRUCTOR_MODES[mode], messages=list(messages))
        expected = {**built, "model": "m", "temperature": 0.0, "max_tokens": 99}
        assert request_body(mode, messages, config) == expected
    # a re-ask extends its own copy of the messages, never the schema part kept for the mode
    first = request_body(mode, messages, config)
    first["messages"].append({"role": "user", "content": "fix it"})
    assert request_body(mode, messages, config) == expected


def test_a_second_identical_run_sends_nothing(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    config = openai_config(fake_openai)
    first = run_papers(tmp_path, config, out="first")
    sent = fake_openai.requests
    second = run_papers(tmp_path, config, out="second")
    assert fake_openai.requests == sent == 4
    assert all(r.usage.cached and r.usage.requests == 0 for r in second)
    assert [r.extraction for r in second] == [r.extraction for r in first]
    assert (tmp_path / "first" / "claims.csv").read_text() == (tmp_path / "second" / "claims.csv").read_text()
    assert Run.open(tmp_path / "second").info()["counts"]["cached"] == 4


def test_the_same_abstract_twice_is_sent_once(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    [paper] = fixture_papers(1)
    source = tmp_path / "twice.jsonl"
    source.write_text("".join(json.dumps({"id": i, "abstract": paper.abstract}) + "\n" for i in ("a", "b")))
    summary = run([str(source)], tmp_path / "run", openai_config(fake_openai))
    assert [r.status for r in summary.results] == ["ok", "ok"] and fake_openai.requests == 1


def test_missing_settings_are_config_errors() -> None:
    with pytest.raises(ConfigError, match=r"needs a key \(OPENAI_API_KEY\) or a base_url"):
        OpenAIBackend(OpenAIOptions(model="gpt-4o-mini"))
    with pytest.raises(ConfigError, match="needs a model"):
        OpenAIBackend(OpenAIOptions(base_url="http://127.0.0.1:1/v1"))
    OpenAIBackend(OpenAIOptions(model="gpt-4o-mini"), sending=False)  # a dry run needs no endpoint


def test_a_local_server_needs_no_key(fake_openai: FakeOpenAI) -> None:
    backend = OpenAIBackend(OpenAIOptions(model="any", base_url=fake_openai.base_url))

    async def go() -> None:
        try:
            result = await backend.extract(fixture_papers(1)[0].abstract, None)
            assert [c.value for c in result.draft.claims] == [2.57]
            assert result.usage.cost_usd == 0.0 and result.usage.prompt_tokens > 0  # unknown price
        finally:
            await backend.aclose()

    asyncio.run(go())


def test_prices_come_from_the_table() -> None:
    assert price_for("gpt-4o-mini") == price_for("gpt-4o-mini-2024-07-18") == price_for("openai/gpt-4o-mini")
    assert price_for("gpt-4o") != price_for("gpt-4o-mini")
    assert price_for("smollm2-135m") is None and cost_usd("smollm2-135m", 10**6, 10**6) == 0.0
    assert cost_usd("gpt-4o-mini", 1_000_000, 1_000_000) == pytest.approx(0.15 + 0.60)


def test_papers_jsonl_records_usage_per_paper(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    run_papers(tmp_path, openai_config(fake_openai), count=2)
    papers = read_papers(tmp_path / "run")
    info = Run.open(tmp_path / "run").info()
    assert sum(p.usage.prompt_tokens for p in papers) == info["usage"]["prompt_tokens"]
    assert sum(p.usage.requests for p in papers) == info["usage"]["requests"] == fake_openai.requests


def test_abstracts_reach_the_model_verbatim(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    """instructor renders messages as Jinja templates when given a validation context; the
    grounding check does not use one, so braces and dollars in an abstract stay as written."""
    abstract = "We propose TPL, where {{ x }} and {% if y %} and {# z #} and $\\alpha$ stay. TPL reaches 91.2% accuracy."
    source = tmp_path / "braces.jsonl"
    source.write_text(json.dumps({"id": "braces", "abstract": abstract}) + "\n")
    summary = run([str(source)], tmp_path / "run", openai_config(fake_openai))
    [result] = summary.results
    assert result.status == "ok" and [c.value for c in result.extraction.claims] == [91.2]
    [request] = fake_openai.log
    assert request.abstract == abstract


def test_unknown_keys_are_dropped_but_a_different_object_is_not_taken_for_an_extraction() -> None:
    reply = {"title": "x", "claims": [{"value": 1.0, "evidence": "e", "description": "d"}], "methods": []}
    assert known_fields(ExtractionDraft, reply) == {"claims": [{"value": 1.0, "evidence": "e"}], "methods": []}
    lone_claim = {"value": 1.0, "evidence": "e"}
    assert known_fields(ExtractionDraft, lone_claim) == lone_claim  # fails validation, gets re-asked


def test_an_answer_is_grounded_once_and_its_claims_carry_the_paper_id(
    tmp_path: Path, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The validator's grounding of an answer is the one the run keeps (its claim ids given the
    paper's id), not done again by the runner: same claims and rejections as grounding anew."""
    import extractor.backends.openai.exchange as exchange
    import extractor.grounding as grounding
    import extractor.runs.journal as journal
    from extractor.grounding import ground

    calls: list[str] = []

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(str(args[2]))
        return ground(*args, **kwargs)

    for module in (grounding, exchange, journal):
        monkeypatch.setattr(module, "ground", counted, raising=False)
    results = run_papers(tmp_path, openai_config(fake_openai), count=3)
    assert len(calls) == 3 and all(r.status == "ok" for r in results)
    for result in results:
        draft = ExtractionDraft(
            methods=result.extraction.methods, models=result.extraction.models,
            benchmarks=result.extraction.benchmarks,
            claims=[c.model_dump(exclude={"id", "span", "value_span"}) for c in result.extraction.claims],
        )
        again, rejected = ground(draft, result.abstract, result.id, result.title)
        assert [c.id for c in result.extraction.claims] == [c.id for c in again.claims]
        assert all(c.id.startswith(result.id + "#") for c in result.extraction.claims)


def test_the_response_model_is_not_walked_for_async_validators_per_answer(
    tmp_path: Path, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """instructor's ``process_response_async`` walks the response model's whole class hierarchy
    for async validators on every answer (more CPU than validating the answer); the answers are
    parsed by the mode's parser instead, and GroundedDraft declares none (the contract test pins
    that), so nothing is lost."""
    import instructor.v2.validation.async_validators as async_validators

    walks: list[object] = []
    real = async_validators.reject_async_validators

    def counted(model: object) -> None:
        walks.append(model)
        real(model)

    monkeypatch.setattr(async_validators, "reject_async_validators", counted)
    results = run_papers(tmp_path, openai_config(fake_openai), count=3)
    assert all(r.status == "ok" and r.extraction.claims for r in results)
    assert walks == []


def test_the_session_pays_the_sdk_s_lazy_import_when_it_is_made() -> None:
    """The SDK imports ``openai.resources.chat`` (about 0.5 s) on the first access to
    ``client.chat``: it is paid when the session is made, not while the first request is sent."""
    import subprocess
    import sys

    probe = (
        "import sys; from extractor import make_config; from extractor.backends.openai.session import Session; "
        "Session(make_config('openai', model='m', base_url='http://127.0.0.1:1/v1', api_key='k').options, 'json_schema'); "
        "print('openai.resources.chat' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "True"


def _bodies(mode: str) -> list[dict]:
    """A first request and its re-ask, as the session sends them in ``mode``."""
    from openai.types.chat import ChatCompletion

    from extractor.backends.openai.exchange import reask_body

    from extractor.backends.openai.options import OpenAIOptions

    config = OpenAIOptions(model="m", base_url="http://127.0.0.1:9/v1")
    first = request_body(mode, load_prompt(config.prompt_version).messages("We reach 91.2% on ImageNet.", "T"), config)
    message: dict = {"role": "assistant", "content": '{"claims": [{"value": 97.3}]}'}
    if mode == "tools":
        name = first["tools"][0]["function"]["name"]
        message = {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": name, "arguments": '{"claims": []}'}}]}
    answer = ChatCompletion.model_validate({
        "id": "a", "object": "chat.completion", "created": 1, "model": "m",
        "choices": [{"index": 0, "finish_reason": "stop", "message": message}],
    })
    return [first, reask_body(first, mode, answer, ValueError("the number 97.3 is not in the abstract"))]


@pytest.mark.parametrize("mode", MODES)
def test_the_sdk_s_walk_of_a_request_body_leaves_ours_as_it_is(mode: str) -> None:
    """What lets the session skip the walk (``session.untransformed``): a new SDK whose walk
    changes our bodies fails here."""
    from openai._utils import async_maybe_transform  # the SDK's own walk, which create() runs
    from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming

    for body in _bodies(mode):
        walked = asyncio.run(async_maybe_transform(body, CompletionCreateParamsNonStreaming))
        assert json.dumps(walked, sort_keys=True) == json.dumps(body, sort_keys=True)


def test_the_session_sends_the_json_create_sends(tmp_path: Path) -> None:
    from openai import AsyncOpenAI

    from extractor.backends.openai.session import untransformed

    bodies = [body for mode in MODES for body in _bodies(mode)]
    sent = {}
    for how in ("create", "untransformed"):
        with FakeOpenAI(record=tmp_path / f"{how}.jsonl") as server:

            async def send_all() -> None:
                client = AsyncOpenAI(base_url=server.base_url, api_key="k", max_retries=0)
                create = client.chat.completions.create
                send = untransformed(create)
                for body in bodies:
                    await (create(**body) if how == "create" else send(body))
                await client.close()

            asyncio.run(send_all())
        sent[how] = [json.loads(line) for line in (tmp_path / f"{how}.jsonl").read_text().splitlines()]
    assert sent["untransformed"] == sent["create"] and len(sent["create"]) == len(bodies)
