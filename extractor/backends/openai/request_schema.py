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
    The top-level title stays: instructor names the tool after it."""

    def field_title_should_be_set(self, schema: object) -> bool:
        return False

    def generate(self, schema: CoreSchema, mode: JsonSchemaMode = "validation") -> JsonSchemaValue:
        json_schema = super().generate(schema, mode)
        for definition in json_schema.get("$defs", {}).values():
            definition.pop("title", None)
        return json_schema


@cache
def draft_schema_text() -> str:
    """The schema the model is sent (as JSON text, so each caller gets a fresh copy)."""
    return json.dumps(ExtractionDraft.model_json_schema(schema_generator=WithoutTitles))


def schema_hash() -> str:
    return content_hash(json.loads(draft_schema_text()))
