"""``extractor eval``: precision, recall and F1 of a run against gold."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from extractor.cli.common import console as make_console
from extractor.cli.common import line
from extractor.text.safe import printable

if TYPE_CHECKING:
    from extractor.eval.boards import BoardFigures
    from extractor.eval.reconstruction import Leaderboards
    from extractor.eval.score import Accuracy, Attribution, Counts, Report

EVAL_EXAMPLES = """
Examples:

  extractor run fixtures/abstracts --out runs/dev && extractor eval runs/dev --gold fixtures/gold/dev.jsonl

  extractor eval runs/dev --gold fixtures/gold/dev.jsonl --errors     # missed, extra, wrong attributes

  extractor eval runs/dev --gold fixtures/gold/dev.jsonl --json       # for scripts

  extractor run scirex_train_abstracts.jsonl --out runs/scirex        # the SciREX file is also the input
  extractor eval runs/scirex --gold scirex_train_abstracts.jsonl --gold-format scirex

  extractor eval runs/cross --boards cross-boards.jsonl               # which rows share a leaderboard
"""


def _figure(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _table(report: Report, attribution: Attribution | None) -> Table:
    table = Table(title="micro-averaged over gold papers")
    for column in ("field", "precision", "recall", "F1", "tp", "fp", "fn"):
        table.add_column(column, justify="left" if column == "field" else "right")
    rows: dict[str, Counts] = dict(report.totals)
    if attribution is not None and attribution.attributed:
        rows = {"tuples (value, metric, benchmark, subject)": attribution.tuples, **rows}
    for name, counts in rows.items():
        table.add_row(
            name.replace("_", " "),
            _figure(counts.precision),
            _figure(counts.recall),
            _figure(counts.f1),
            str(counts.tp),
            str(counts.fp),
            str(counts.fn),
            style="bold" if name.startswith("tuples") else None,
        )
    return table


def _attribute_table(attribution: Attribution) -> Table:
    table = Table(title="attribute accuracy")
    for column in ("attribute", "accuracy", "right", "of"):
        table.add_column(column, justify="left" if column == "attribute" else "right")
    for name, accuracy in attribution.accuracy.items():
        table.add_row(name, _figure(accuracy.value), str(accuracy.right), str(accuracy.total))
    # Contract v3's leaderboard figures (docs/ANNOTATION.md, "How a run is scored").
    for name, accuracy in (("leaderboard-ready recall", attribution.ready), ("named-benchmark accuracy", attribution.named_benchmark)):
        table.add_row(name, _figure(accuracy.value), str(accuracy.right), str(accuracy.total), style="bold")
    return table


def _share(accuracy: Accuracy) -> str:
    return f"{_figure(accuracy.value)} ({accuracy.right} of {accuracy.total})"


def leaderboard_lines(attribution: Attribution) -> list[str]:
    """The contract-v3 leaderboard figures of a gold set, as printed (0 of 0 shows '-')."""
    return [
        f"leaderboard-ready recall (metric, benchmark and subject known): {_share(attribution.ready)}",
        f"named-benchmark accuracy (value-matched gold naming a benchmark): {_share(attribution.named_benchmark)}",
    ]


def reconstruction_lines(figures: Leaderboards) -> list[str]:
    """Leaderboard reconstruction and cross-paper pairs against SciREX, as printed."""
    d = figures.to_dict()
    pairs, blocks = d["pairs"], d["blocks_per_leaderboard"]
    return [
        f"leaderboard reconstruction: {_figure(d['reconstruction']['share'])} "
        f"({figures.reconstructed} of {figures.entries} SciREX entries with score and dataset in the abstract)",
        f"cross-paper pairs in one block: {_figure(pairs['one_block_share'])} ({figures.pairs_one_block} of "
        f"{figures.pairs_ranked} both ranked; {figures.pairs} pairs in the gold)",
        f"blocks per gold leaderboard: {_figure(blocks['mean'])} (over {figures.boards} leaderboards "
        "with ranked entries of two or more papers)",
        f"wrong merges: {len(figures.wrong)} (two papers' entries on two gold leaderboards, "
        "after the registry's normalization of their names, in one block)",
    ]


def board_lines(figures: BoardFigures) -> list[str]:
    """Cross-paper pairs and wrong merges against board labels, as printed."""
    d = figures.to_dict()
    return [
        f"board-label pairs in one block: {_figure(d['pairs']['one_block_share'])} ({figures.together} of {figures.pairs} "
        f"pairs of two papers' rows with one board label); of the {figures.pairs_ranked} both ranked: "
        f"{_figure(d['pairs']['one_block_share_of_ranked'])}",
        f"wrong merges: {len(figures.wrong)} (two papers' rows in one block whose board labels differ); "
        f"{len(figures.unboarded)} more pairs in one block with a row the labels put on no board",
        f"labelled rows: {figures.rows} ({figures.found} in the run, {figures.ranked} ranked)",
    ]


def _version_note(attribution: Attribution) -> str | None:
    """Say plainly when gold claims carry no attribution (version-1 gold)."""
    if not attribution.unattributed:
        return None
    if not attribution.attributed:
        return (
            f"Version-1 gold: none of its {attribution.unattributed} claims carries attribution, "
            "so claims are scored on their values only (no tuple or attribute figures)."
        )
    return (
        f"{attribution.unattributed} of {attribution.unattributed + attribution.attributed} gold "
        "claims carry no attribution (version-1 gold): scored on their values only and left out "
        "of the tuple and attribute figures."
    )


def _print_errors(console: Console, report: Report) -> None:
    for paper in report.papers:
        lines = [
            f"  {name} {kind}: {item}"
            for name, score in paper.fields.items()
            for kind, items in (("missed", score.missed), ("extra", score.extra))
            for item in items
        ]
        lines += [
            f"  {w.attribute} wrong on {w.value}: gold {w.gold!r}, extracted {w.extracted!r} ({w.evidence!r})"
            for w in (paper.attribution.wrong if paper.attribution else [])
        ]
        if lines:
            status = ("", "") if paper.status == "ok" else (f" ({paper.status} in the run)", "red")
            console.print(line((printable(paper.id), "bold"), status))
            for text in lines:
                console.print(line(text))


def eval_command(
    run_dir: Annotated[Path, typer.Argument(help="Run directory (or its papers.jsonl) from any backend.")],
    gold: Annotated[Path | None, typer.Option("--gold", help="Gold JSON Lines file.")] = None,
    gold_format: Annotated[str, typer.Option(help="annotation (ANNOTATION.md gold) or scirex (methods and datasets of scirex_train_abstracts.jsonl); default: annotation.", show_default=False)] = "annotation",
    boards: Annotated[Path | None, typer.Option("--boards", help="Board labels (JSON Lines: paper_id, claim_id, value, board): which of the run's rows belong on one leaderboard.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print scores as JSON.")] = False,
    errors: Annotated[bool, typer.Option("--errors", help="List, per paper, what was missed, what was extra and each wrong attribute (gold vs extracted); with --boards, the pairs split and the wrong merges.")] = False,
) -> None:
    """Score a run against gold with the rules of docs/ANNOTATION.md ("How a run is scored").

    Headline: tuples (value, metric, benchmark and subject all right), precision and recall.
    Then precision, recall and F1 of claims (values), methods, benchmarks and model sizes,
    micro-averaged over papers, and the accuracy of each attribute over value-matched claims.
    The leaderboard figures (contract v3): leaderboard-ready recall and named-benchmark
    accuracy; with --gold-format scirex, leaderboard reconstruction against SciREX's results,
    the cross-paper pairs ranked in one block and the wrong merges. With --boards (alone or
    beside --gold), the pairs of two papers' rows with one board label that share a block, and
    the wrong merges: rows of two papers in one block whose labels differ. Version-1 gold
    (claims without attribution) is scored on values only; version-3 subjects must agree on proposed.
    """
    from pydantic import ValidationError

    from extractor.eval.boards import evaluate_boards
    from extractor.eval.reconstruction import evaluate_leaderboards
    from extractor.eval.score import GOLD_FORMATS, evaluate_run

    if gold is None and boards is None:
        raise typer.BadParameter("give --gold, --boards or both", param_hint="--gold")
    if gold_format not in GOLD_FORMATS:
        raise typer.BadParameter(f"choose one of {', '.join(GOLD_FORMATS)}", param_hint="--gold-format")
    try:
        report = evaluate_run(run_dir, gold, gold_format) if gold is not None else None
        figures = evaluate_leaderboards(run_dir, gold) if gold is not None and gold_format == "scirex" else None
        labelled, unread = evaluate_boards(run_dir, boards) if boards is not None else (None, [])
    except FileNotFoundError as exc:
        raise typer.BadParameter(f"no such file: {exc.filename}") from exc
    except ValidationError as exc:
        raise typer.BadParameter(f"not a run or gold file of the expected format: {exc}") from exc
    for problem in unread:
        make_console(stderr=True).print(line((f"skipped {problem}", "yellow")), soft_wrap=True)
    if as_json:
        out = report.to_dict(errors) if report is not None else {}
        if figures is not None:
            out["leaderboards"] = figures.to_dict()
        if labelled is not None:
            out["boards"] = labelled.to_dict()
        typer.echo(json.dumps(out, indent=2))
        return
    console = make_console(stderr=False)
    if report is not None:
        _print_report(console, report, figures, errors)
    if labelled is not None:
        for text in board_lines(labelled):
            console.print(text, soft_wrap=True)
        if errors:
            d = labelled.to_dict()
            for title, pairs in (("split", d["split_pairs"]), ("wrong merge", d["wrong_merged_pairs"])):
                for pair in pairs:
                    console.print(line(f"  {title}: {pair}"), soft_wrap=True)


def _print_report(console: Console, report: Report, figures: Leaderboards | None, errors: bool) -> None:
    """The gold's tables and lines, as printed."""
    if errors:
        _print_errors(console, report)
    attribution = report.attribution
    console.print(_table(report, attribution))
    if attribution is not None and attribution.attributed:
        console.print(_attribute_table(attribution))
        for text in leaderboard_lines(attribution):
            console.print(text, soft_wrap=True)
    for text in reconstruction_lines(figures) if figures is not None else []:
        console.print(text, soft_wrap=True)
    note = _version_note(attribution) if attribution is not None else None
    if note:
        console.print(note, soft_wrap=True)
    missing, failed = report.ids_with("missing"), report.ids_with("failed")
    console.print(
        f"{len(report.papers)} gold papers: {len(missing)} missing from the run and "
        f"{len(failed)} failed in it (scored as misses); "
        f"{len(report.not_in_gold)} run papers without gold ignored."
    )
