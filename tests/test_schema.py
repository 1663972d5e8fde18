import json

import pytest

from extractor.schema import ExtractionDraft, json_schemas

from .conftest import ROOT


@pytest.mark.parametrize("name", sorted(json_schemas()))
def test_exported_schema_matches_the_models(name: str) -> None:
    path = ROOT / "schemas" / f"{name}.schema.json"
    assert path.exists(), f"{path} is missing: run `extractor schema --out schemas`"
    on_disk = json.loads(path.read_text())
    assert on_disk == json_schemas()[name], f"{path} drifted from the models: run `extractor schema --out schemas`"


def test_draft_schema_has_no_code_computed_fields() -> None:
    claim = ExtractionDraft.model_json_schema()["$defs"]["ClaimDraft"]["properties"]
    assert "span" not in claim and "id" not in claim
    assert {"value", "value_max", "unit", "metric", "benchmark", "method", "model", "baseline",
            "setting", "kind", "direction", "evidence"} <= set(claim)
