"""``extractor run``: batch extraction into a run directory."""

from __future__ import annotations

import gc
from pathlib import Path
from shlex import quote
from typing import TYPE_CHECKING, Annotated, Optional

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from extractor.cli.common import console as make_console
from extractor.cli.common import line, progress_bars
from extractor.backends.openai.options import MODES, OpenAIOptions
from extractor.config import make_config, parse_shard, resolve_backend
from extractor.text.counting import counted

if TYPE_CHECKING:
    from extractor.backends.openai.batch import BatchProgress
    from extractor.pipeline.runner import ExportSummary

EXIT_OK = 0
EXIT_SOME_FAILED = 1
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report Ctrl-C


def _default(option: str) -> object:
    """The openai backend's default for an option, as its help shows it."""
    return OpenAIOptions.model_fields[option].default

RUN_EXAMPLES = """
Examples:

  extractor run fixtures/abstracts --out runs/demo            # offline rules backend

  OPENAI_API_KEY=... extractor run papers.jsonl --out runs/gpt --model gpt-4o-mini --concurrency 16

  extractor run papers.jsonl --out runs/local --base-url http://127.0.0.1:8080/v1 --model any

  extractor run papers.jsonl --out runs/batch --backend openai --batch --dry-run   # price it (batch prices)
  extractor run papers.jsonl --out runs/batch --backend openai --batch             # rerun to resume polling

  extractor run papers.jsonl --out runs/vllm --backend openai --model M --batch-export          # files for vLLM, SGLang, ...
  extractor run papers.jsonl --out runs/vllm --backend openai --model M --batch-import out.jsonl

Exit status: 0 when every paper is ok, 1 when at least one failed (see papers.jsonl) or the work
could not be done (disk full, read-only, another run writing into --out), 2 for bad options,
missing or empty inputs, or an --out holding a different run (see --overwrite).
"""


class _Progress:
    """A rich progress bar with ok / failed / tokens counters."""

    def __init__(self, console: Console, disable: bool = False) -> None:
        self.ok = self.failed = self.tokens = 0
        self.progress = Progress(
            TextColumn("[bold]extracting"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("[green]{task.fields[ok]} ok[/] [red]{task.fields[failed]} failed[/] {task.fields[tokens]:,} tokens"),
            TimeElapsedColumn(),
            TextColumn("eta"),
            TimeRemainingColumn(),
            console=console,
            transient=False,
            disable=disable,
        )
        self.task = None
        self.last_batch_line = ""

    def start(self, total: int | None) -> None:
        self.progress.start()
        self.task = self.progress.add_task("run", total=total, ok=0, failed=0, tokens=0)

    def update(self, done: dict) -> None:
        """One finished paper: its journal header (``ok``, ``usage``)."""
        if done["ok"]:
            self.ok += 1
        else:
            self.failed += 1
        self.tokens += done["usage"]["prompt_tokens"] + done["usage"]["completion_tokens"]
        self.progress.update(self.task, advance=1, ok=self.ok, failed=self.failed, tokens=self.tokens)

    def batch(self, status: BatchProgress) -> None:
        """One line each time a batch's status or counts change."""
        line = status.line()
        if line != self.last_batch_line and not self.progress.disable:
            self.last_batch_line = line
            self.progress.console.print(line, highlight=False)

    def stop(self, finished: bool = True) -> None:
        """Close the bar: a finished run's total is what was done (repeats and resumed ones drop
        out); an interrupted one is left where it stopped."""
        if self.task is not None:  # a run refused before any work drew no bar to close
            if finished:
                done = self.ok + self.failed
                self.progress.update(self.task, total=done, completed=done)
            self.progress.stop()
            self.task = None


def run_command(
    inputs: Annotated[list[str], typer.Argument(help="Files or directories of abstracts (JSONL, CSV, XLSX, arXiv listing, pasted text), or - for stdin.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Run directory to write.")],
    backend: Annotated[Optional[str], typer.Option(help="rules or openai (default: openai when a key or base URL is set, else rules).")] = None,
    model: Annotated[Optional[str], typer.Option(help="Model name for the openai backend.")] = None,
    base_url: Annotated[Optional[list[str]], typer.Option(metavar="URL", help="OpenAI-compatible endpoint (or OPENAI_BASE_URL); give it more than once for a fleet of servers sharing the requests.")] = None,
    mode: Annotated[Optional[str], typer.Option(help=f"Structured-output mode: {'|'.join(MODES)} (default: chosen for the endpoint).")] = None,
    concurrency: Annotated[Optional[int], typer.Option(min=1, help=f"Requests in flight at once (default: {_default('concurrency')}).")] = None,
    timeout: Annotated[Optional[float], typer.Option(min=0.1, help=f"Seconds to wait for one answer (default: {_default('timeout'):g}).")] = None,
    max_retries: Annotated[Optional[int], typer.Option(min=0, help=f"Retries of a request after 429, 5xx, timeouts (default: {_default('max_retries')}).")] = None,
    max_tokens: Annotated[Optional[int], typer.Option(min=1, help=f"Longest answer, in tokens (default: {_default('max_tokens')}).")] = None,
    rpm: Annotated[Optional[float], typer.Option(help="At most this many requests per minute.")] = None,
    max_cost: Annotated[Optional[float], typer.Option(help="Stop sending new requests once this many USD are spent.")] = None,
    cache_dir: Annotated[Optional[Path], typer.Option(help="Cache directory (default: the user cache dir).")] = None,
    cache: Annotated[Optional[bool], typer.Option("--cache/--no-cache", show_default=False, help="Read and write the response cache (default: --cache).")] = None,
    max_chars: Annotated[Optional[int], typer.Option(help="Longest abstract accepted, in characters.")] = None,
    prompt_version: Annotated[Optional[str], typer.Option(help=f"Prompt templates to use, prompts/<version>/ (default: {_default('prompt_version')}).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar (the summary and failures are still printed).")] = False,
    workers: Annotated[Optional[int], typer.Option(min=1, help="Processes for the rules backend (default: this machine's cores).")] = None,
    shard: Annotated[Optional[str], typer.Option(help="K/N: extract only the K-th of N shares of the papers (by abstract), for N machines; merge with `extractor leaderboard`.")] = None,
    leaderboard: Annotated[bool, typer.Option("--leaderboard/--no-leaderboard", show_default=False, help="Write leaderboard.xlsx into the run directory (default: --leaderboard).")] = True,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Count the requests, tokens and cost of the openai backend; send nothing.")] = False,
    batch: Annotated[Optional[bool], typer.Option("--batch", show_default=False, help="Send the requests through the OpenAI Batch API (half price, answers within 24 h); rerun the same command to resume.")] = None,
    batch_poll: Annotated[Optional[float], typer.Option(min=0.01, help=f"Seconds between two looks at a pending batch (default: {_default('batch_poll'):g}).")] = None,
    batch_export: Annotated[Optional[bool], typer.Option("--batch-export", show_default=False, help="Write the requests into RUN_DIR/batch/ for any batch engine (vLLM run-batch, SGLang, OpenAI, Together, Mistral) and stop: nothing sent, no key needed; --mode defaults to json_schema.")] = None,
    batch_import: Annotated[Optional[list[Path]], typer.Option("--batch-import", metavar="FILE", help="A batch engine's output file for the exported requests (repeatable): the answers are validated and grounded as online; re-asks go to a follow-up file to run and import next.")] = None,
    map_names: Annotated[Optional[bool], typer.Option("--map-names/--no-map-names", show_default=False, help="openai: after extraction, map each benchmark or metric name the registry does not know to a registry entry or none, one cached request per name (default: --map-names).")] = None,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace the run in --out even when it was made from other inputs (its corrections are kept).")] = False,
) -> None:
    """Extract methods, models, benchmarks and grounded claims from abstracts."""
    console = make_console()
    _, reason = resolve_backend(backend, base_url[0] if base_url else None, None)
    config = make_config(
        backend, model=model, base_url=(base_url[0] if len(base_url) == 1 else tuple(base_url)) if base_url else None,
        mode=mode, concurrency=concurrency, rpm=rpm, max_cost=max_cost,
        timeout=timeout, max_retries=max_retries, max_tokens=max_tokens,
        cache_dir=cache_dir, use_cache=cache, max_chars=max_chars, prompt_version=prompt_version,
        batch=batch, batch_poll=batch_poll, batch_export=batch_export, batch_import=tuple(batch_import) if batch_import else None,
        map_names=map_names,
        workers=workers, shard=parse_shard(shard) if shard else None,
    )
    chosen = getattr(config.options, "model", None)
    console.print(line((reason, "bold"), f", model {chosen}" if chosen else ""))
    if dry_run:
        from extractor.pipeline.dry_run import dry_run as count  # loads openai, instructor and tiktoken

        table = Table("dry run: nothing sent", "estimate", show_header=True)
        for row in count(inputs, config).rows():
            table.add_row(*row)
        make_console(stderr=False).print(table)
        raise typer.Exit(EXIT_OK)
    if batch_export:
        from extractor.pipeline.runner import export_batch

        _say_how(export_batch(inputs, out, config, overwrite=overwrite), inputs, console)
        raise typer.Exit(EXIT_OK)
    from extractor.api import run, write_leaderboard

    progress = _Progress(console, disable=quiet)
    try:
        summary = run(
            inputs, out, config, on_start=progress.start, on_result=progress.update, on_batch=progress.batch, overwrite=overwrite
        )
    except KeyboardInterrupt:
        progress.stop(finished=False)
        console.print(line(
            ("interrupted", "yellow"), f": {counted(progress.ok + progress.failed, 'paper')} done and kept in "
            f"{out}/journal.tsv; rerun the same command to resume"
        ))
        raise typer.Exit(EXIT_INTERRUPTED) from None
    finally:
        progress.stop()
    counts = summary.info["counts"]
    imported = summary.info.get("batch_import")
    pending = imported["pending"] if imported else 0
    resumed = f", {counts['resumed']} from the journal of an earlier run" if counts["resumed"] else ""
    console.print(line(
        f"{counts['ok']} ok, {counts['failed'] - pending} failed, " + (f"{pending} pending, " if imported else "")
        + f"{counted(counts['claims'], 'claim')} ({counts['rejected']} rejected{resumed}) -> {out}"
    ))
    if imported:
        _say_imported(imported, inputs, out, chosen, console)
    if leaderboard:
        # The run's objects (modules, the rules' tables) live until the process ends: frozen, the
        # full collections that importing pandas and building the board set off do not walk
        # them again (one such collection took 53-67 ms of the demo's leaderboard step).
        gc.freeze()
        with progress_bars(quiet) as step:
            summary.notes.extend(write_leaderboard(summary.run, step))
    for note in summary.notes:
        console.print(line(note))
    from extractor.pipeline.ingest import INPUT_ID_PREFIX

    for paper, error in summary.failures:  # an input's failure names its place already: not twice
        if imported and error.startswith(PENDING_ERROR):
            continue  # pending, not failed: counted above
        console.print(line(("failed", "red"), f" {error}" if paper.startswith(INPUT_ID_PREFIX) else f" {paper}: {error}"))
    if summary.failed > len(summary.failures):
        console.print(line(f"... and {counted(summary.failed - len(summary.failures), 'more failed paper')}: see {out}/papers.jsonl"))
    raise typer.Exit(EXIT_SOME_FAILED if summary.failed > pending else EXIT_OK)  # pending is not failed: import on


PENDING_ERROR = "BackendError: pending"


def _rerun(inputs: list[str], out: Path, model: str | None, option: str) -> str:
    """The command to type next, each path quoted as a shell needs it (a folder 'my papers')."""
    return f"extractor run {' '.join(map(quote, inputs))} --out {quote(str(out))} --backend openai --model {quote(str(model))} {option}"


def _say_how(export: ExportSummary, inputs: list[str], console: Console) -> None:
    """The files an export wrote and how to run them with each engine."""
    files, model = export.files, export.identity.get("model")
    if not files:
        console.print(line("nothing to export: every paper is done or cached"))
        return
    console.print(line(
        f"{counted(export.requests, 'request')} in {counted(len(files), 'file')}, nothing sent "
        f"(mode {export.identity.get('mode')}, model {model}):"
    ))
    for file in files:
        console.print(line(f"  {file.path}  ({counted(file.requests, 'request')}, round {file.round}); Together, Mistral: {file.twin}"))
    first = files[0].path
    console.print(line("Run each file with a batch engine, for example:"))
    console.print(line(f"  vLLM:    vllm run-batch -i {quote(str(first))} -o {quote(str(first.with_suffix('.out.jsonl')))} --model {quote(str(model))}"))
    console.print(line(f"  SGLang, OpenAI: upload {first.name} to /v1/files (purpose batch), create a batch on /v1/chat/completions, download its output"))
    console.print(line(f"  Together, Mistral: upload {files[0].twin.name} (purpose batch), endpoint /v1/chat/completions"))
    console.print(line("then import the output files (docs/scale.md):"))
    console.print(line(f"  {_rerun(inputs, export.out_dir, model, '--batch-import OUTPUT.jsonl')}"))


def _say_imported(imported: dict, inputs: list[str], out: Path, model: str | None, console: Console) -> None:
    """What an import left to do: the lines that were no answer, and the files to run next."""
    for problem in imported["problems"][:10]:
        console.print(line(("warning", "yellow"), f": {problem}"))
    if len(imported["problems"]) > 10:
        console.print(line(f"... and {len(imported['problems']) - 10} more lines that are no answer (run.json: batch_import)"))
    for name in imported["waiting"]:
        path = out / "batch" / name
        console.print(line(f"waiting for answers: {path}; run it (vllm run-batch -i {quote(str(path))} -o OUTPUT.jsonl --model {quote(str(model))}) and import OUTPUT.jsonl"))
    if imported["waiting"]:
        console.print(line(f"  {_rerun(inputs, out, model, '--batch-import OUTPUT.jsonl')}"))
