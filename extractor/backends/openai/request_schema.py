"""The JSON Schema the model is sent: the draft models without pydantic's derived titles.

Light on purpose (no openai, no instructor): the backend hashes it for the cache key, the
session sends it, and the dry-run estimate counts its tokens.
"""

from __future__ import annotations

import json
from functools import cache

from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode, JsonSchemaValue
from pydantic_core import CoreSchema

from extractor.schema import ExtractionDraft
from extractor.text.hashing import content_hash


class WithoutTitles(GenerateJsonSchema):
    """Pydantic's JSON Schema without the ``title`` it derives from every field and nested model
    name ("Value Max" for value_max): they tell a model nothing and were 14% of every prompt.
    The top-level title stays: instructor names the tool after it. Without ``maxLength`` too:
    the 500-character bound on names (:data:`extractor.schema.MAX_NAME`) is the store's, checked
    when the answer is validated; sent, it tells a model nothing and llama.cpp's grammar for it
    (500 nested repetitions per string) takes its server down."""

    def field_title_should_be_set(self, schema: object) -> bool:
        return False

    def generate(self, schema: CoreSchema, mode: JsonSchemaMode = "validation") -> JsonSchemaValue:
        json_schema = super().generate(schema, mode)
        for definition in json_schema.get("$defs", {}).values():
            definition.pop("title", None)
        return _without_max_length(json_schema)


def _without_max_length(node: JsonSchemaValue) -> JsonSchemaValue:
    if isinstance(node, dict):
        return {k: _without_max_length(v) for k, v in node.items() if k != "maxLength"}
    if isinstance(node, list):
        return [_without_max_length(v) for v in node]
    return node


@cache
def draft_schema_text() -> str:
    """The schema the model is sent (as JSON text, so each caller gets a fresh copy)."""
    return json.dumps(ExtractionDraft.model_json_schema(schema_generator=WithoutTitles))


def schema_hash() -> str:
    return content_hash(json.loads(draft_schema_text()))
