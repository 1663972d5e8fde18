"""The parts of instructor that ``extractor/backends/openai/exchange.py`` drives, pinned: their
names, the parameters we pass, and what they do with one request and one answer. A new
instructor release that moves or changes one fails here, by name, rather than in a run.
pyproject.toml bounds instructor below the next minor release; raise the bound when this passes.
"""

from __future__ import annotations

import inspect
import json

import instructor
import pytest
from instructor import ResponseSchema
from instructor.core import IncompleteOutputException, ResponseParsingError
from instructor.processing import handle_reask_kwargs, handle_response_model
from instructor.v2 import mode_registry
from instructor.v2.validation import model_declares_async_validators
from openai.types.chat import ChatCompletion
from pydantic import BaseModel, ValidationError

from extractor.backends.openai.exchange import INSTRUCTOR_MODES, GroundedDraft


def parse(response: ChatCompletion, mode: instructor.Mode, context: dict | None = None) -> GroundedDraft:
    """An answer read as ``exchange.parse_answer`` reads it: the mode's registered parser."""
    parser = mode_registry.get_handlers(instructor.Provider.OPENAI, mode).response_parser
    return parser(response=response, response_model=GroundedDraft, validation_context=context,
                  strict=False, stream=False, is_async=True)


def parameters(function: object) -> list[str]:
    return list(inspect.signature(function).parameters)


def test_the_functions_take_the_parameters_we_pass() -> None:
    # handle_response_model(model, mode=..., messages=...): messages travel in **kwargs
    assert parameters(handle_response_model)[:2] == ["response_model", "mode"]
    assert inspect.signature(handle_response_model).parameters["kwargs"].kind is inspect.Parameter.VAR_KEYWORD
    for mode in INSTRUCTOR_MODES.values():
        parser = mode_registry.get_handlers(instructor.Provider.OPENAI, mode).response_parser
        assert parameters(parser) == ["response", "response_model", "validation_context", "strict", "stream", "is_async"]
        assert not inspect.iscoroutinefunction(parser)
    assert parameters(handle_reask_kwargs)[:4] == ["kwargs", "mode", "response", "exception"]


def test_the_response_model_declares_no_async_validators() -> None:
    # instructor's process_response_async refuses a model with its async validators on every
    # answer; the mode's parser, called directly, would not run them: there must be none
    assert not model_declares_async_validators(GroundedDraft)


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
    parsed = parse(completion(json.dumps(answer)), instructor.Mode.TOOLS, {})
    assert isinstance(parsed, GroundedDraft) and parsed.claims[0].value == 2.57

    bad = completion('{"claims": [{"value": "many"}]}')
    with pytest.raises(ValidationError) as caught:
        parse(bad, instructor.Mode.TOOLS)
    reask = handle_reask_kwargs(request, instructor.Mode.TOOLS, bad, caught.value)
    # the answer and the reason go back after the original messages (instructor extends the list it
    # is given in place: request_body gives every request a list of its own)
    assert reask["messages"][0] == messages[0]
    assert [m["role"] for m in reask["messages"]] == ["user", "assistant", "tool"]
    assert "value" in reask["messages"][-1]["content"]  # the validation error names the field

    with pytest.raises(IncompleteOutputException):
        parse(completion('{"claims": [', finish="length"), instructor.Mode.TOOLS)
