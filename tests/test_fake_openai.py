"""The loopback server itself: answer shapes per mode, grounded answers, faults, concurrency."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from extractor.grounding import problems
from extractor.schema import ExtractionDraft
from tests.fake_openai import LLAMA_CPP_JSON_SCHEMA_ERROR, FakeOpenAI, Fault, Replay, abstract_key

ABSTRACT = (
    "We propose GANQ, a quantization method. On a single GPU, GANQ achieves up to 2.57times "
    "speedup over the baseline and improves accuracy by 3.1 points."
)


def post(server: FakeOpenAI, body: dict, timeout: float = 5) -> tuple[int, dict]:
    request = urllib.request.Request(
        server.base_url + "/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def chat(mode: str) -> dict:
    body: dict = {"model": "m", "messages": [{"role": "user", "content": f"<abstract>{ABSTRACT}</abstract>"}]}
    if mode == "tools":
        body["tools"] = [{"type": "function", "function": {"name": "ExtractionDraft", "parameters": {}}}]
        body["tool_choice"] = {"type": "function", "function": {"name": "ExtractionDraft"}}
    elif mode == "json_schema":
        body["response_format"] = {"type": "json_schema", "json_schema": {"name": "x", "schema": {}}}
    elif mode == "json":
        body["response_format"] = {"type": "json_object"}
    return body


def answer_text(payload: dict) -> str:
    message = payload["choices"][0]["message"]
    if message.get("tool_calls"):
        return message["tool_calls"][0]["function"]["arguments"]
    return message["content"].removeprefix("```json\n").removesuffix("\n```")


@pytest.mark.parametrize("mode", ["tools", "json_schema", "json", "md_json"])
def test_each_mode_gets_a_grounded_answer_in_its_own_shape(fake_openai: FakeOpenAI, mode: str) -> None:
    status, payload = post(fake_openai, chat(mode))
    assert status == 200
    draft = ExtractionDraft.model_validate_json(answer_text(payload))
    assert {c.value for c in draft.claims} == {2.57, 3.1}
    assert problems(draft, ABSTRACT) == []
    assert payload["usage"]["prompt_tokens"] > 0 and payload["usage"]["completion_tokens"] > 0
    assert fake_openai.log[-1].mode == mode and fake_openai.requests == 1


def test_a_refused_mode_answers_like_llama_cpp(fake_openai: FakeOpenAI) -> None:
    fake_openai.refuse.add("json_schema")
    status, payload = post(fake_openai, chat("json_schema"))
    assert status == 500
    assert "Input should be 'text' or 'json_object'" in payload["error"]["message"]
    assert payload["error"]["message"] == LLAMA_CPP_JSON_SCHEMA_ERROR
    assert post(fake_openai, chat("json"))[0] == 200


def test_faults_apply_to_matching_requests_then_run_out(fake_openai: FakeOpenAI) -> None:
    fake_openai.faults += [Fault("rate_limit", times=2, match="GANQ", seconds=3), Fault("invented_number")]
    assert post(fake_openai, chat("json"))[0] == 429
    assert post(fake_openai, chat("json"))[0] == 429
    status, payload = post(fake_openai, chat("json"))
    invented = ExtractionDraft.model_validate_json(answer_text(payload))
    assert status == 200 and problems(invented, ABSTRACT)
    status, payload = post(fake_openai, chat("json"))
    assert problems(ExtractionDraft.model_validate_json(answer_text(payload)), ABSTRACT) == []
    assert [r.fault for r in fake_openai.log] == ["rate_limit", "rate_limit", "invented_number", None]


def test_requests_are_served_concurrently() -> None:
    with FakeOpenAI(latency=0.3) as server, ThreadPoolExecutor(32) as pool:
        statuses = list(pool.map(lambda _: post(server, chat("json"))[0], range(32)))
    assert statuses == [200] * 32
    assert server.most_in_flight > 1, "the server answered one request at a time"


def test_record_writes_every_request_body_in_the_order_of_arrival(tmp_path) -> None:
    recorded = tmp_path / "bodies.jsonl"
    bodies = [chat("tools"), chat("json"), {**chat("json"), "temperature": 0}]
    with FakeOpenAI(record=recorded) as server:
        for body in bodies:
            post(server, body)
    assert [json.loads(line) for line in recorded.read_text(encoding="utf-8").splitlines()] == bodies


def test_an_outage_stops_listening_and_comes_back_on_the_same_port(fake_openai: FakeOpenAI) -> None:
    port = fake_openai.port
    fake_openai.outage(0.5)
    with pytest.raises(urllib.error.URLError):
        post(fake_openai, chat("json"), timeout=1)
    time.sleep(0.8)
    assert fake_openai.port == port
    assert post(fake_openai, chat("json"))[0] == 200


def test_replay_answers_each_mode_with_the_recorded_text_and_names_an_unrecorded_abstract(tmp_path) -> None:
    recorded = {"claims": [{"value": 3.1, "unit": "points", "evidence": "improves accuracy by 3.1 points"}]}
    path = tmp_path / "answers.jsonl"
    lines = [{"recording": {"model": "hand"}}, {"id": "p-1", "abstract_hash": abstract_key("  " + ABSTRACT.replace(" ", "\n", 3)), "answer": recorded}]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with FakeOpenAI(replay=Replay.read(path)) as server:
        for mode in ("tools", "json_schema", "json", "md_json", "tools"):  # the re-ask gets the same answer
            status, payload = post(server, chat(mode))
            assert status == 200 and json.loads(answer_text(payload)) == recorded
        other = chat("tools")
        other["messages"][0]["content"] = "<abstract>Sparse experts route tokens by similarity alone.</abstract>"
        status, payload = post(server, other)
    assert status == 404
    assert "'Sparse experts route tokens by similarity alone.'" in payload["error"]["message"]
