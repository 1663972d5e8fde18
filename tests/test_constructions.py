"""docs/constructions.md is the construction tables as they are now, and every table is
complete: named entries, each with an example (the examples themselves run in test_rules.py)."""

from dataclasses import replace
from pathlib import Path

import pytest

from extractor.rules import attribution, claims, coined
from extractor.rules.attribution import benchmark, change, lists, metric, subject
from extractor.rules.constructions import TABLES, constructions_markdown
from extractor.rules.table import Construction, Example, Table
from tests.test_rules import observed

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


# The tables whose entries can each be left out (the module that holds the table, its name).
REMOVABLE = {
    "align": (lists, "ALIGN"),
    "metric checked against the benchmark": (attribution, "METRIC_CHECK"),
    "names checked against the subject": (attribution, "SUBJECT_CHECK"),
    "no benchmark from context": (benchmark, "NOT_FROM_CONTEXT"),
    "subject, then": (subject, "SUBJECT_THEN"),
    "benchmark": (benchmark, "BENCHMARK"),
    "benchmark from context": (benchmark, "CONTEXT_BENCHMARK"),
    "benchmark once the metric is read": (benchmark, "MEASURED_BENCHMARK"),
    "claim or not": (claims, "ROLE"),
    "direction": (change, "DIRECTION"),
    "direction once aligned": (change, "ALIGNED_DIRECTION"),
    "kind": (change, "KIND"),
    "kind once the metric is read": (change, "MEASURED_KIND"),
    "metric": (metric, "METRIC"),
    "metric after the grammar": (metric, "METRIC_FALLBACK"),
    "proposed method": (subject, "PROPOSED"),
    "subject": (subject, "SUBJECT"),
    "subject at the number": (subject, "SUBJECT_AT_THE_NUMBER"),
    "title name": (coined, "TITLE_NAME"),
}
# Entries whose examples something outside the table reads the same way when they are left out:
# the last entry of the 'metric after the grammar' table takes the noun after the number too, only
# not firmly bound; the last role construction always answers (without it a quantity has no role
# at all).
SHADOWED = {("metric", "after-the-number"), ("claim or not", "bare-number")}


@pytest.mark.parametrize(
    ("field", "name", "example"),
    [
        pytest.param(table.field, c.name, e, id=f"{table.field}:{c.name}:{i}")
        for table in TABLES
        if table.field in REMOVABLE
        for c in table.entries
        if (table.field, c.name) not in SHADOWED
        for i, e in enumerate(c.examples)
    ],
)
def test_each_example_is_read_by_its_own_construction(
    field: str, name: str, example: Example, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without its construction, an example reads otherwise: the example is that entry's."""
    module, attribute = REMOVABLE[field]
    table = getattr(module, attribute)
    assert observed(example) == example.expected
    monkeypatch.setattr(module, attribute, replace(table, entries=tuple(c for c in table.entries if c.name != name)))
    assert observed(example) != example.expected
