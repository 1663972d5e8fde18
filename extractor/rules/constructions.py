"""Every construction table of the rules, in one list, and the page that shows them
(docs/constructions.md): ``python -m extractor.rules.constructions > docs/constructions.md``
writes it; a test fails when the page and the tables drift apart."""

from __future__ import annotations

from extractor.rules.attribution import METRIC_CHECK, SUBJECT_CHECK
from extractor.rules.attribution.benchmark import BENCHMARK, CONTEXT_BENCHMARK, MEASURED_BENCHMARK, NOT_FROM_CONTEXT
from extractor.rules.attribution.change import ALIGNED_DIRECTION, DIRECTION, KIND, MEASURED_KIND
from extractor.rules.attribution.lists import ALIGN
from extractor.rules.attribution.metric import METRIC, METRIC_FALLBACK
from extractor.rules.attribution.subject import PROPOSED, SUBJECT, SUBJECT_AT_THE_NUMBER, SUBJECT_THEN
from extractor.rules.claims import ROLE
from extractor.rules.coined import TITLE_NAME
from extractor.rules.table import Table

TABLES: tuple[Table, ...] = (
    ROLE,
    METRIC,
    METRIC_FALLBACK,
    BENCHMARK,
    METRIC_CHECK,
    MEASURED_BENCHMARK,
    NOT_FROM_CONTEXT,
    CONTEXT_BENCHMARK,
    PROPOSED,
    TITLE_NAME,
    SUBJECT_AT_THE_NUMBER,
    SUBJECT,
    SUBJECT_THEN,
    SUBJECT_CHECK,
    KIND,
    MEASURED_KIND,
    DIRECTION,
    ALIGN,
    ALIGNED_DIRECTION,
)


def _cell(text: str) -> str:
    """Text as one Markdown table cell: a bar would end it."""
    return text.replace("|", "\\|").replace("\n", " ")


def constructions_markdown() -> str:
    """The page: each table's order rule, then its constructions in order with their examples."""
    parts = [
        "# What the rules read: the construction tables\n",
        "Generated from the tables in `extractor/rules/` (`python -m extractor.rules.constructions >",
        "docs/constructions.md`; a test keeps it in sync). Each table is tried in the order listed;",
        "every example is a test (`tests/test_rules.py`) that runs the whole rules extractor on the",
        "sentence and checks the attribute of the claim named (`#0` is the first claim).\n",
    ]
    for table in TABLES:
        parts.append(f"## {table.field}\n\nOrder: {table.order}.\n")
        parts.append("| # | construction | runs | why | examples |\n| --- | --- | --- | --- | --- |")
        for position, construction in enumerate(table.entries, 1):
            examples = "<br>".join(
                _cell(f"{e.text} → #{e.claim} {e.attribute} = {e.expected!r}") for e in construction.examples
            )
            run = getattr(construction.run, "__name__", repr(construction.run))
            parts.append(
                f"| {position} | `{construction.name}` | `{run}` | {_cell(construction.reason)} | {examples} |"
            )
        parts.append("")
    return "\n".join(parts)


if __name__ == "__main__":
    print(constructions_markdown(), end="")
