"""``extractor schema``: write the JSON Schemas of the output formats."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer


def schema_command(
    out: Annotated[Path, typer.Option("--out", "-o", show_default=False, help="Directory to write the schemas to (default: schemas).")] = Path("schemas"),
) -> None:
    """Write the JSON Schema of the extraction draft and of a papers.jsonl line."""
    from extractor.atomic import atomic_write_text
    from extractor.schema import json_schemas

    for name, schema in json_schemas().items():
        path = out / f"{name}.schema.json"
        atomic_write_text(path, json.dumps(schema, indent=2, sort_keys=True) + "\n")
        typer.echo(path)
