"""The parts of instructor that ``extractor/backends/openai/exchange.py`` drives, pinned: their
names, the parameters we pass, and what they do with one request and one answer. A new
instructor release that moves or changes one fails here, by name, rather than in a run.
pyproject.toml bounds instructor below the next minor release; raise the bound when this passes.
"""

from __future__ import annotations

import asyncio
import inspect
import json

import instructor
import pytest
from instructor import ResponseSchema
from instructor.core import IncompleteOutputException, ResponseParsingError
from instructor.processing import (
    handle_reask_kwargs,
    handle_response_model,
    process_response_async,
)
from openai.types.chat import ChatCompletion
from pydantic import BaseModel, ValidationError

from extractor.backends.openai.exchange import INSTRUCTOR_MODES, GroundedDraft


def parameters(function: object) -> list[str]:
    return list(inspect.signature(function).parameters)


def test_the_functions_take_the_parameters_we_pass() -> None:
    # handle_response_model(model, mode=..., messages=...): messages travel in **kwargs
    assert parameters(handle_response_model)[:2] == ["response_model", "mode"]
    assert inspect.signature(handle_response_model).parameters["kwargs"].kind is inspect.Parameter.VAR_KEYWORD
    params = inspect.signature(process_response_async).parameters
    assert list(params)[0] == "response"
    for name in ("response_model", "mode", "strict", "validation_context"):
        assert params[name].kind is inspect.Parameter.KEYWORD_ONLY, name
    assert inspect.iscoroutinefunction(process_response_async)
    assert parameters(handle_reask_kwargs)[:4] == ["kwargs", "mode", "response", "exception"]


def test_the_classes_and_exceptions_are_where_we_import_them() -> None:
    assert issubclass(ResponseSchema, BaseModel)
    assert issubclass(ResponseParsingError, Exception) and issubclass(IncompleteOutputException, Exception)
    assert {mode.name for mode in INSTRUCTOR_MODES.values()} == {"TOOLS", "JSON_SCHEMA", "JSON", "MD_JSON"}
    assert all(isinstance(mode, instructor.Mode) for mode in INSTRUCTOR_MODES.values())


def completion(arguments: str, finish: str = "tool_calls") -> ChatCompletion:
    call = {"id": "call_1", "type": "function", "function": {"name": "ExtractionDraft", "arguments": arguments}}
    return ChatCompletion.model_validate({
        "id": "c1", "object": "chat.completion", "created": 0, "model": "m",
        "choices": [{"index": 0, "finish_reason": finish, "message": {"role": "assistant", "content": None, "tool_calls": [call]}}],
    })


def test_one_request_and_one_answer_in_tools_mode() -> None:
    messages = [{"role": "user", "content": "<abstract>GANQ reaches 2.57x.</abstract>"}]
    model, request = handle_response_model(GroundedDraft, mode=instructor.Mode.TOOLS, messages=list(messages))
    assert model is GroundedDraft
    assert request["tools"][0]["function"]["name"] == "ExtractionDraft" and request["messages"] == messages

    answer = {"claims": [{"value": 2.57, "unit": "x", "evidence": "GANQ reaches 2.57x"}]}
    parsed = asyncio.run(process_response_async(
        completion(json.dumps(answer)), response_model=GroundedDraft, mode=instructor.Mode.TOOLS,
        strict=False, validation_context={},
    ))
    assert isinstance(parsed, GroundedDraft) and parsed.claims[0].value == 2.57

    bad = completion('{"claims": [{"value": "many"}]}')
    with pytest.raises(ValidationError) as caught:
        asyncio.run(process_response_async(bad, response_model=GroundedDraft, mode=instructor.Mode.TOOLS, strict=False))
    reask = handle_reask_kwargs(request, instructor.Mode.TOOLS, bad, caught.value)
    # the answer and the reason go back after the original messages (instructor extends the list it
    # is given in place: request_body gives every request a list of its own)
    assert reask["messages"][0] == messages[0]
    assert [m["role"] for m in reask["messages"]] == ["user", "assistant", "tool"]
    assert "value" in reask["messages"][-1]["content"]  # the validation error names the field

    with pytest.raises(IncompleteOutputException):
        asyncio.run(process_response_async(
            completion('{"claims": [', finish="length"), response_model=GroundedDraft, mode=instructor.Mode.TOOLS,
        ))
