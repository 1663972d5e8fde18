"""docs/constructions.md is the construction tables as they are now, and every table is
complete: named entries, each with an example (the examples themselves run in test_rules.py)."""

from pathlib import Path

import pytest

from extractor.rules.constructions import TABLES, constructions_markdown
from extractor.rules.table import Construction, Example, Table

PAGE = Path(__file__).resolve().parent.parent / "docs" / "constructions.md"


def test_the_constructions_page_is_the_tables() -> None:
    assert PAGE.read_text(encoding="utf-8") == constructions_markdown(), (
        "docs/constructions.md is out of date: python -m extractor.rules.constructions > docs/constructions.md"
    )


def test_every_construction_has_a_reason_and_runs_something() -> None:
    for table in TABLES:
        for construction in table.entries:
            assert construction.reason.strip() and callable(construction.run), f"{table.field}:{construction.name}"


@pytest.mark.parametrize(
    ("entries", "problem"),
    [
        ((Construction("a", len, "why", ()),), "without an example: a"),
        (
            (Construction("a", len, "why", (Example("x", 1, "value"),)),) * 2,
            "named twice: a",
        ),
    ],
)
def test_a_table_refuses_an_entry_without_an_example_or_a_name_twice(entries: tuple, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        Table("field", "order", entries)
