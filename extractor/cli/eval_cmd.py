"""``extractor eval``: precision, recall and F1 of a run against gold."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.table import Table

from extractor.eval.score import GOLD_FORMATS, Report, evaluate_run, report_json

EVAL_EXAMPLES = """
Examples:

  extractor run fixtures/abstracts --out runs/dev && extractor eval runs/dev --gold fixtures/gold/dev.jsonl

  extractor eval runs/dev --gold fixtures/gold/dev.jsonl --errors     # what was missed, what was extra

  extractor eval runs/dev --gold fixtures/gold/dev.jsonl --json       # for scripts

  extractor run scirex_train_abstracts.jsonl --out runs/scirex        # the SciREX file is also the input
  extractor eval runs/scirex --gold scirex_train_abstracts.jsonl --gold-format scirex
"""


def _figure(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _table(report: Report) -> Table:
    table = Table(title="micro-averaged over gold papers")
    for column in ("field", "precision", "recall", "F1", "tp", "fp", "fn"):
        table.add_column(column, justify="left" if column == "field" else "right")
    for name, counts in report.totals.items():
        table.add_row(
            name.replace("_", " "),
            _figure(counts.precision),
            _figure(counts.recall),
            _figure(counts.f1),
            str(counts.tp),
            str(counts.fp),
            str(counts.fn),
        )
    return table


def _print_errors(console: Console, report: Report) -> None:
    for paper in report.papers:
        lines = [
            f"  {name} {kind}: {item}"
            for name, score in paper.fields.items()
            for kind, items in (("missed", score.missed), ("extra", score.extra))
            for item in items
        ]
        if lines:
            status = "" if paper.status == "ok" else f" [red]({paper.status} in the run)[/]"
            console.print(f"[bold]{paper.id}[/]{status}")
            for line in lines:
                console.print(line, markup=False, highlight=False, soft_wrap=True)


def eval_command(
    run_dir: Annotated[Path, typer.Argument(help="Run directory (or its papers.jsonl) from any backend.")],
    gold: Annotated[Path, typer.Option("--gold", help="Gold JSON Lines file.")],
    gold_format: Annotated[str, typer.Option(help="annotation (ANNOTATION.md gold) or scirex (methods and datasets of scirex_train_abstracts.jsonl).")] = "annotation",
    as_json: Annotated[bool, typer.Option("--json", help="Print scores as JSON.")] = False,
    errors: Annotated[bool, typer.Option("--errors", help="List, per paper, what was missed and what was extra.")] = False,
) -> None:
    """Score a run against gold: precision, recall and F1 per field (ANNOTATION.md's rules).

    Fields: claims, methods, benchmarks and model sizes, micro-averaged over papers.
    """
    if gold_format not in GOLD_FORMATS:
        raise typer.BadParameter(f"choose one of {', '.join(GOLD_FORMATS)}", param_hint="--gold-format")
    try:
        report = evaluate_run(run_dir, gold, gold_format)
    except FileNotFoundError as exc:
        raise typer.BadParameter(f"no such file: {exc.filename}") from exc
    except ValidationError as exc:
        raise typer.BadParameter(f"not a run or gold file of the expected format: {exc}") from exc
    if as_json:
        typer.echo(report_json(report, errors))
        return
    console = Console()
    if errors:
        _print_errors(console, report)
    console.print(_table(report))
    missing, failed = report.ids_with("missing"), report.ids_with("failed")
    console.print(
        f"{len(report.papers)} gold papers: {len(missing)} missing from the run and "
        f"{len(failed)} failed in it (scored as misses); "
        f"{len(report.not_in_gold)} run papers without gold ignored.",
        soft_wrap=True,
    )
