"""Batches run by any engine: the request files written for it (:func:`export_requests`), and
the output files it writes read back (:func:`import_answers`), nothing sent by the tool.

One file format reaches most engines: JSON Lines of ``{custom_id, method, url, body}`` in
(``vllm run-batch``, SGLang's and OpenAI's ``/v1/files`` + ``/v1/batches``), and ``{custom_id,
response: {status_code, body}, error}`` out. Together and Mistral take ``{custom_id, body}``
lines, written beside each file (:data:`~extractor.backends.openai.batch_files.TWIN_SUFFIX`).
The bodies are an online run's (:func:`~extractor.backends.openai.exchange.request_body`), and
each answer is judged as online (:func:`~extractor.backends.openai.batch_answers.judge`): a
result, a re-ask written into a follow-up file for the engine to run next, or a failure. A
custom_id names the request's round (:func:`~extractor.backends.openai.batch_files.export_id`),
so a file imported twice, or an earlier round's line, changes nothing once its request is
answered; papers without a line in the files imported so far stay pending.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from extractor.backends.base import BackendResult, BatchPaper, Store
from extractor.backends.openai.batch_answers import Answered, TokenCounter, best, follow_up, judge
from extractor.backends.openai.batch_files import (
    BATCH_DIR,
    EXPORTED,
    BatchState,
    Carry,
    Submission,
    export_id,
    read_outputs,
    twin_name,
)
from extractor.backends.openai.exchange import request_body
from extractor.backends.openai.prompts import Prompt
from extractor.backends.openai.options import OpenAIOptions
from extractor.errors import BackendError, ConfigError
from extractor.schema import Usage
from extractor.text.counting import counted

AGAIN = "export it again (--batch-export) to send it anew"
PENDING = "pending"  # the first word of a pending paper's message


@dataclass(frozen=True)
class ExportedFile:
    """A request file waiting for its answers: the ``{custom_id, method, url, body}`` file and
    its ``{custom_id, body}`` twin, with how many of its requests are still unanswered."""

    path: Path
    twin: Path
    round: int
    requests: int


def _exported(state: BatchState) -> list[Submission]:
    return [s for s in state.submissions if s.status == EXPORTED]


def waiting_files(state: BatchState, wanted: set[str]) -> list[ExportedFile]:
    """The exported files that still hold an unanswered request of ``wanted`` papers."""
    files = []
    for submission in _exported(state):
        count = sum(1 for key in submission.waiting() if key in wanted)
        if count:
            path = state.directory / submission.name
            files.append(ExportedFile(path, path.with_name(twin_name(submission.name)), submission.round, count))
    return files


def export_requests(
    papers: list[BatchPaper], directory: Path, prompt: Prompt, mode: str, config: OpenAIOptions,
) -> list[ExportedFile]:
    """Write the requests of ``papers`` not yet in an exported file (one line each, the online
    body) into ``directory/batch/``; every file still waiting for answers."""
    state = BatchState(directory / BATCH_DIR)
    waiting = {key for s in _exported(state) for key in s.waiting()}
    fresh = [p for p in papers if p.key not in waiting]
    if fresh:
        lines = ((p.key, request_body(mode, prompt.messages(p.abstract, p.title), config)) for p in fresh)
        state.add(1, lines, exported=True)
        state.save()
    return waiting_files(state, {p.key for p in papers})


@dataclass
class ImportReport:
    """What one import did, for run.json and the user."""

    files: list[str]
    taken: int = 0  # answers validated and grounded
    reasked: int = 0  # answers sent back in a follow-up file
    failed: int = 0  # error lines, and answers that cannot be used
    pending: int = 0  # papers with no answer yet
    problems: list[str] = field(default_factory=list)  # lines that are no answer, by file and line
    waiting: list[ExportedFile] = field(default_factory=list)  # files to run and import next

    def summary(self) -> dict:
        return {
            "files": self.files, "taken": self.taken, "reasked": self.reasked, "failed": self.failed,
            "pending": self.pending, "problems": self.problems[:50],
            "waiting": [str(f.path.name) for f in self.waiting],
        }


def answered_by(line: dict) -> str | None:
    """The model an output line says answered it, if it says."""
    response = line.get("response")
    body = response.get("body") if isinstance(response, dict) else None
    model = body.get("model") if isinstance(body, dict) else None
    return model if isinstance(model, str) else None


def asked_for(said: str, model: str | None) -> bool:
    """Whether an answer's model is the one asked for, or a dated snapshot of it
    (``gpt-4o-mini-2024-07-18`` for ``gpt-4o-mini``)."""
    return model is None or said == model or said.startswith(f"{model}-")


def import_answers(
    papers: list[BatchPaper], directory: Path, files: list[Path], prompt: Prompt, mode: str, config: OpenAIOptions,
    store: Store,
) -> tuple[dict[str, BackendResult | BackendError], ImportReport]:
    """Every paper's outcome after reading ``files``: its result (stored with ``store`` the
    moment it is validated), why it failed, or that it is pending."""
    for file in files:
        if not file.is_file():
            shown = str(file).replace("{", "{{").replace("}", "}}")
            raise ConfigError(f"{{batch_import}} {shown}: no such file", ("batch_import",))
    state = BatchState(directory / BATCH_DIR)
    wanted = {p.key: p for p in papers}
    requests = {export_id(key, s.round): (s, key) for s in _exported(state) for key in s.keys}
    report = ImportReport([str(f) for f in files])
    tokens = TokenCounter(prompt, mode, config, f"the lines of {', '.join(f.name for f in files)}")
    found: dict[str, Answered] = {}
    others: dict[tuple[str, str], int] = {}  # (file, model): answers by a model other than the one asked
    unwanted: dict[str, int] = {}  # file: lines answering requests of other papers or options
    for item in read_outputs(files, report.problems):
        hit = requests.get(item.key)
        if hit is None:
            report.problems.append(f"{item.where}: custom_id {item.key[:80]!r} is no request of this run's exported files")
            continue
        submission, key = hit
        if key not in wanted:
            name = item.where.rpartition(":")[0]
            unwanted[name] = unwanted.get(name, 0) + 1
            continue
        if key in submission.answered:
            continue  # answered by an earlier import
        paper = wanted[key]
        carry = replace(submission.carry.get(key) or Carry())
        answer = judge(item, carry, paper.abstract, paper.title, mode, config, item.where, AGAIN, tokens)
        if answer.problem:
            report.problems.append(answer.problem)
        said = answered_by(item.line)
        if answer.result is not None and said is not None and not asked_for(said, config.model):
            place = (item.where.rpartition(":")[0], said)
            others[place] = others.get(place, 0) + 1
        found[item.key] = best(found.get(item.key), answer)
    for name, count in unwanted.items():
        report.problems.append(
            f"{name}: {counted(count, 'line')} answer requests exported for other papers or with other options than "
            "this run's (another --model, --mode or prompt?); not taken: import them with the options of the export"
        )
    for (name, said), count in others.items():
        report.problems.append(
            f"{name}: {counted(count, 'answer')} by model {said!r}, not {config.model} (--model): taken and cached as "
            f"{config.model}'s; if the engine ran another model, export again with --model naming it"
        )

    results: dict[str, BackendResult | BackendError] = {}
    reasks: dict[str, dict[str, Answered]] = {}  # by submission name
    for custom_id, answer in found.items():
        submission, key = requests[custom_id]
        if answer.result is not None:
            store(key, answer.result)
            results[key] = answer.result
            submission.answered.append(key)
            submission.failed.pop(key, None)
            report.taken += 1
        elif answer.reask is not None:
            reasks.setdefault(submission.name, {})[key] = answer
            submission.answered.append(key)
            submission.failed.pop(key, None)
            report.reasked += 1
        else:
            assert answer.error is not None
            submission.failed[key] = answer.error
            results[key] = BackendError(answer.error, answer.carry.usage(config.model))
            report.failed += 1
    for submission in list(_exported(state)):
        follow_up(state, submission, reasks.get(submission.name, {}), mode)
        submission.carry = {k: c for k, c in submission.carry.items() if k not in submission.answered}
    state.save()

    latest = {key: s for s in _exported(state) for key in s.keys}
    for key in wanted.keys() - results.keys():
        submission = latest.get(key)
        if submission is not None and key in submission.failed:
            results[key] = BackendError(submission.failed[key], Usage())
            continue
        if submission is None:
            why = f"{PENDING}: its request is in no exported file; export it (--batch-export)"
        elif key in submission.answered:  # answered, but the answer is in neither cache nor journal
            why = f"the answer imported for it was not kept (no cache); {AGAIN}"
        else:
            why = f"{PENDING}: no answer imported yet for its request in {BATCH_DIR}/{submission.name}"
        report.pending += why.startswith(PENDING)
        results[key] = BackendError(why, Usage())
    report.waiting = waiting_files(state, set(wanted))
    return results, report

