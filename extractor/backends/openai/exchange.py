"""One exchange with the model in the words of the Chat Completions API: the request body per
mode, the parsing, validation and grounding of an answer, and the body of a re-ask.

The online session (:mod:`~extractor.backends.openai.session`), the Batch API
(:mod:`~extractor.backends.openai.batch`) and the dry-run estimate all build requests and
read answers here, so an answer is treated alike whichever way it came. The instructor parts
used (``handle_response_model``, the mode registry's response parsers, ``handle_reask_kwargs``,
``ResponseSchema`` and its exceptions) are pinned by ``tests/test_instructor_contract.py``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any, get_args, get_origin

import instructor
from instructor import ResponseSchema
from instructor.core import IncompleteOutputException, ResponseParsingError
from instructor.processing import handle_reask_kwargs, handle_response_model
from instructor.v2 import ResponseParser, mode_registry
from openai.types.chat import ChatCompletion
from pydantic import (
    BaseModel,
    ConfigDict,
    ValidationError,
    ValidationInfo,
    model_validator,
)

from extractor.backends.openai.request_schema import draft_schema_text
from extractor.backends.openai.options import OpenAIOptions
from extractor.grounding import CHECK, MAX_ITEMS, Checked, explained, ground, over_the_cap
from extractor.schema import ExtractionDraft

INSTRUCTOR_MODES: dict[str, instructor.Mode] = {
    "tools": instructor.Mode.TOOLS,
    "json_schema": instructor.Mode.JSON_SCHEMA,
    "json": instructor.Mode.JSON,
    "md_json": instructor.Mode.MD_JSON,
}
# instructor writes the schema into the messages in these modes; in the others it is a part of
# the request of its own (tool definition, response_format) that does not depend on the paper.
SCHEMA_IN_MESSAGES = frozenset({"json", "md_json"})
class EmptyAnswerError(ValueError):
    """A chat completion with no choices: nothing to parse, nothing to re-ask about."""


class NotJSONError(ValueError):
    """An HTTP 200 whose body is not JSON (the SDK hands it over as text): a proxy's or a login
    page's HTML, not the model's answer. Retried like a server error, never re-asked."""



PARSE_ERRORS = (ValidationError, json.JSONDecodeError, ResponseParsingError)
CUT_OFF = IncompleteOutputException  # finish_reason "length": not worth a re-ask
MAX_REASKS = 2
GROUNDING_REASKS = 1


def known_fields(model: type[BaseModel], data: Any) -> Any:
    """``data`` without the keys that ``model`` does not define, at every level of nesting, and
    each list cut to one item over :data:`~extractor.grounding.MAX_ITEMS` (grounding says it was
    cut; an answer of 100,000 claims is not validated, kept or journaled whole). An object with
    none of the model's keys is left as it is, to fail validation: it is another object (a lone
    claim, a wrapper), not this one with extras."""
    if not isinstance(data, dict) or not data.keys() & model.model_fields.keys():
        return data
    kept = {}
    for name, value in data.items():
        field = model.model_fields.get(name)
        if field is None:
            continue
        args = get_args(field.annotation)
        item = args[0] if get_origin(field.annotation) is list and args else None
        if isinstance(value, list):
            value = value[: MAX_ITEMS + 1]
        if isinstance(item, type) and issubclass(item, BaseModel) and isinstance(value, list):
            value = [known_fields(item, element) for element in value]
        kept[name] = value
    return kept


@dataclass
class Grounding:
    """The abstract a reply is checked against, and the grounding re-asks left for it. It
    reaches the validator as the validation context of the mode's response parser (the
    parsing step only: instructor's ``create`` would also render the messages as Jinja templates
    when given a context, which would rewrite abstracts containing "{{" or "{#")."""

    abstract: str
    title: str | None = None
    reasks_left: int = GROUNDING_REASKS
    checked: Checked | None = None  # the validated answer's grounding, kept for the run


class GroundedDraft(ExtractionDraft, ResponseSchema):
    # Sent to the model under the same name, description and schema as ExtractionDraft (minus
    # pydantic's titles). A ResponseSchema already, so instructor does not build a wrapper class
    # on every request.
    __doc__ = ExtractionDraft.__doc__
    model_config = ConfigDict(title="ExtractionDraft")

    @classmethod
    def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
        """The lean schema of :func:`draft_schema_text`, built once: instructor asks for it on
        every request in the JSON modes, and building it costs more than the rest of a request's
        client-side work (a fresh copy each call)."""
        if args or kwargs:
            return super().model_json_schema(*args, **kwargs)
        return json.loads(draft_schema_text())

    @model_validator(mode="before")
    @classmethod
    def _known_fields_only(cls, data: Any) -> Any:
        """Drop keys the schema does not define (small models add "title" or "description"):
        such a key carries nothing the extraction uses, so it is not worth a re-ask. Cut every
        list past the cap (:func:`known_fields`)."""
        return known_fields(ExtractionDraft, data)

    @model_validator(mode="after")
    def _grounded(self, info: ValidationInfo) -> GroundedDraft:
        """Send ungrounded items back to the model once, with the reasons."""
        grounding = (info.context or {}).get("grounding")
        if grounding is None or grounding.reasks_left <= 0:
            return self
        grounded = ground(self, grounding.abstract, CHECK, grounding.title)
        # An answer over the cap is a server that ignores max_tokens: sending it back costs
        # more than it can bring, so it is taken as grounding leaves it.
        found = [] if over_the_cap(self) else explained(grounded[1])
        grounding.checked = None if found else Checked(grounding.abstract, grounding.title, grounded)
        if found:
            grounding.reasks_left -= 1
            raise ValueError(
                "these items are not supported by the abstract; copy numbers, names and evidence "
                "exactly from the abstract or leave the item out:\n- " + "\n- ".join(found)
            )
        return self


@cache
def _schema_part(mode: str) -> dict[str, Any]:
    """What a mode adds to every request besides the messages (the tool definition and
    tool_choice, or response_format). Built once: instructor checks the response model's whole
    class hierarchy each time, which cost more than parsing and validating the answer."""
    _, part = handle_response_model(GroundedDraft, mode=INSTRUCTOR_MODES[mode], messages=[])
    return {k: v for k, v in part.items() if k != "messages"}


@cache
def mode_parser(mode: str) -> ResponseParser:
    """instructor's parser of a mode's answers, looked up once. ``process_response_async``
    around it walks the response model's whole class hierarchy for async validators on every
    answer (GroundedDraft declares none) and formats the response into a debug message: more
    CPU than parsing and validating the answer."""
    return mode_registry.get_handlers(instructor.Provider.OPENAI, INSTRUCTOR_MODES[mode]).response_parser


def request_body(mode: str, messages: list[dict], config: OpenAIOptions) -> dict[str, Any]:
    """The Chat Completions request body for these messages in this mode, exactly as
    instructor would send it: the same online, in a Batch API file and in the estimate."""
    if mode in SCHEMA_IN_MESSAGES:
        _, body = handle_response_model(GroundedDraft, mode=INSTRUCTOR_MODES[mode], messages=list(messages))
    else:
        body = {**_schema_part(mode), "messages": list(messages)}
    return {**body, "model": config.model, "temperature": config.temperature, "max_tokens": config.max_tokens}


def parse_answer(response: ChatCompletion, mode: str, grounding: Grounding) -> GroundedDraft:
    """The validated, grounded draft in a response; a :data:`PARSE_ERRORS` error is worth a
    re-ask (:func:`reask_body`), :data:`CUT_OFF` is not."""
    if isinstance(response, str):  # instructor would say "No choices in OpenAI response"
        page = "an HTML page" if response.lstrip().startswith("<") else "text"
        raise NotJSONError(f"the server answered HTTP 200 with {page}, not JSON: {' '.join(response.split())[:120]!r}")
    if not getattr(response, "choices", None):  # instructor would fail with an IndexError
        raise EmptyAnswerError("the server answered HTTP 200 without a choice (\"choices\": []): no answer to read")
    return mode_parser(mode)(
        response=response,
        response_model=GroundedDraft,
        validation_context={"grounding": grounding},
        strict=False,
        stream=False,
        is_async=True,
    )


def reask_body(request: dict[str, Any], mode: str, response: ChatCompletion, error: Exception) -> dict[str, Any]:
    """The request that sends ``response`` back to the model with the reason it failed."""
    return handle_reask_kwargs(request, INSTRUCTOR_MODES[mode], response, error)


def refusal(response: Any) -> str | None:
    """The model's refusal message in a response, if it refused (not worth a re-ask)."""
    choices = getattr(response, "choices", None)
    return getattr(choices[0].message, "refusal", None) if choices else None


# Why a paper got no extraction, in the same words whoever sent the request (online or a batch).

def one_line(text: str, limit: int = 300) -> str:
    """A server's or a parser's message on one line, cut at ``limit`` characters."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "\u2026"


def attempts_text(requests: int) -> str:
    return f"after {requests} attempt{'s' * (requests != 1)}"


def cut_off_message(max_tokens: int) -> str:
    return f"the answer was cut off at the token limit (finish_reason=length, max_tokens={max_tokens}); rerun with a higher limit"


def refused_message(said: str) -> str:
    return f"the model refused: {said}"


def invalid_message(requests: int, reasks: int, error: BaseException) -> str:
    return f"the model's answer is not a valid extraction {attempts_text(requests)} ({reasks} re-asks): {one_line(str(error))}"
