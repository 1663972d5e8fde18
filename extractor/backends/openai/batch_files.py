"""The files of a batch, whoever runs it: the request lines (JSON Lines of ``{custom_id,
method, url, body}``, split at the Batch API's limits; for an export also ``{custom_id, body}``
beside them, the lines Together and Mistral take), ``state.json``, which records each input
file, the papers in it and what each paper's earlier rounds left to the next, and the reader
of the output files an engine writes back."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from extractor.atomic import atomic_write_bytes
from extractor.backends.openai.exchange import GROUNDING_REASKS
from extractor.backends.openai.pricing import cost_usd
from extractor.errors import OutputError
from extractor.schema import Usage

BATCH_DIR = "batch"
STATE_FILE = "state.json"
ENDPOINT = "/v1/chat/completions"
MAX_LINES = 50_000  # the Batch API's limit per file
MAX_BYTES = 190_000_000  # under its 200 MB limit per file
EXPORTED = "exported"  # a submission's status when another engine runs its file
TWIN_SUFFIX = "-together-mistral.jsonl"  # the {custom_id, body} copy of an exported file
MAX_LINE = 16_000_000  # bytes of one output line: an answer of any max_tokens fits many times over
ID_CHARS = 56  # of the cache key's digest in an exported custom_id: "r1-" + 56 = 59, under Together's 64


@dataclass
class Carry:
    """What one paper's earlier rounds leave to the next: re-asks used and tokens spent."""

    reasks: int = 0
    grounding_left: int = GROUNDING_REASKS
    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def usage(self, model: str | None) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens,
            completion_tokens=self.completion_tokens,
            requests=self.requests,
            reasks=self.reasks,
            cost_usd=cost_usd(model, self.prompt_tokens, self.completion_tokens, batch=True),
        )


@dataclass
class Submission:
    """One input file and the batch made of it, as recorded in ``state.json``."""

    name: str  # the input file, in the batch directory
    round: int
    keys: list[str]
    carry: dict[str, Carry] = field(default_factory=dict)  # follow-ups only
    file_id: str | None = None
    batch_id: str | None = None
    status: str = "written"
    taken: bool = False  # its answers were read, cached and followed up
    answered: list[str] = field(default_factory=list)  # exported: keys whose answer was imported
    failed: dict[str, str] = field(default_factory=dict)  # exported: keys whose line was an error, and why

    def waiting(self) -> list[str]:
        """Exported: the keys with no answer imported yet."""
        done = {*self.answered, *self.failed}
        return [key for key in self.keys if key not in done]

    def to_json(self) -> dict:
        data = {k: v for k, v in vars(self).items() if k != "carry"}
        data["carry"] = {key: vars(c) for key, c in self.carry.items()}
        return data

    @classmethod
    def from_json(cls, data: dict) -> Submission:
        carry = {key: Carry(**c) for key, c in data.pop("carry", {}).items()}
        return cls(**data, carry=carry)


class BatchState:
    """``RUN_DIR/batch/state.json``: the submissions, written atomically after every step."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.path = directory / STATE_FILE
        try:
            data = json.loads(self.path.read_bytes().decode("utf-8")) if self.path.exists() else {}
            self.submissions = [Submission.from_json(dict(s)) for s in data.get("submissions", [])]
        except (ValueError, TypeError, AttributeError, RecursionError) as exc:  # not JSON, not UTF-8, not its shape
            raise OutputError(
                f"{self.path}: cannot be read ({type(exc).__name__}: {' '.join(str(exc).split())[:120]}); it records "
                "which requests were exported and answered: restore it, or move its directory away to export again"
            ) from exc

    def save(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        text = json.dumps({"submissions": [s.to_json() for s in self.submissions]}, indent=1)
        atomic_write_bytes(self.path, text.encode("utf-8"))

    def open(self) -> list[Submission]:
        return [s for s in self.submissions if not s.taken]

    def add(
        self, round_: int, lines: Iterable[tuple[str, dict]], carry: dict[str, Carry] | None = None, exported: bool = False,
    ) -> list[Submission]:
        """Write ``(key, body)`` lines as input files (split at the API's limits) and list them
        as submissions; the caller saves the state. An exported file's lines carry
        :func:`export_id` and get a ``{custom_id, body}`` twin (:data:`TWIN_SUFFIX`)."""
        added = []
        naming = (lambda key: export_id(key, round_)) if exported else None
        for part, chunk in enumerate(_chunks(lines, naming), start=1):
            name = f"input-{len(self.submissions) + 1:03d}-round{round_}-part{part}.jsonl"
            atomic_write_bytes(self.directory / name, b"".join(text for _, text, _ in chunk))
            if exported:
                atomic_write_bytes(self.directory / twin_name(name), b"".join(body_line(custom_id, text) for _, text, custom_id in chunk))
            keys = [key for key, _, _ in chunk]
            carried = {key: carry[key] for key in keys if carry and key in carry}
            submission = Submission(name=name, round=round_, keys=keys, carry=carried, status=EXPORTED if exported else "written")
            self.submissions.append(submission)
            added.append(submission)
        return added


def batch_line(key: str, body: dict) -> bytes:
    return (json.dumps({"custom_id": key, "method": "POST", "url": ENDPOINT, "body": body}) + "\n").encode("utf-8")


def export_id(key: str, round_: int) -> str:
    """An exported request's custom_id: its round and the cache key's digest, at most 64
    characters (Together's limit), so a line of an earlier round is never taken for a later one."""
    return f"r{round_}-{key.rpartition(':')[2][:ID_CHARS]}"


def twin_name(name: str) -> str:
    return name.removesuffix(".jsonl") + TWIN_SUFFIX


def body_line(custom_id: str, line: bytes) -> bytes:
    """The ``{custom_id, body}`` line of a request line (Together and Mistral set the endpoint
    per job, not per line)."""
    return (json.dumps({"custom_id": custom_id, "body": json.loads(line)["body"]}) + "\n").encode("utf-8")


def _chunks(
    lines: Iterable[tuple[str, dict]], naming: Callable[[str], str] | None = None,
) -> Iterator[list[tuple[str, bytes, str]]]:
    """``(key, line, custom_id)`` in files of at most :data:`MAX_LINES` lines and :data:`MAX_BYTES`."""
    chunk: list[tuple[str, bytes, str]] = []
    size = 0
    for key, body in lines:
        custom_id = naming(key) if naming else key
        text = batch_line(custom_id, body)
        if chunk and (len(chunk) >= MAX_LINES or size + len(text) > MAX_BYTES):
            yield chunk
            chunk, size = [], 0
        chunk.append((key, text, custom_id))
        size += len(text)
    if chunk:
        yield chunk


def read_jsonl(path: Path) -> Iterator[dict]:
    if not path.exists():
        return
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


@dataclass(frozen=True)
class OutputLine:
    """One line of a batch output (or error) file that names the request it answers."""

    where: str  # "FILE:LINE", for messages
    key: str  # its custom_id
    line: dict


def _lines(handle: BinaryIO) -> Iterator[bytes | None]:
    """Each line of ``handle``; None for a line longer than :data:`MAX_LINE`, read past in
    pieces and never held (a line of 300 MB took 15 GB as an answer: parsed, counted, re-asked)."""
    while raw := handle.readline(MAX_LINE + 1):
        if len(raw) <= MAX_LINE or raw.endswith(b"\n"):
            yield raw
            continue
        while raw and not raw.endswith(b"\n"):
            raw = handle.readline(1 << 20)
        yield None


def read_outputs(paths: Iterable[Path], problems: list[str]) -> Iterator[OutputLine]:
    """The lines of batch output files (``{custom_id, response: {status_code, body}, error}``),
    whoever wrote them, one at a time. A line that names no request (not JSON, not an object,
    no custom_id, or one that is not a string) is added to ``problems`` by file and line and
    skipped: each line stands alone, a bad one never loses the others. A line that is not UTF-8
    is named and skipped too: read with replacement characters, its answer's names would change."""
    for path in paths:
        with path.open("rb") as handle:
            for number, raw in enumerate(_lines(handle), 1):
                where = f"{path.name}:{number}"
                if raw is None:
                    problems.append(f"{where} is longer than {MAX_LINE:,} bytes, more than any answer holds; the line is not read")
                    continue
                if not raw.strip():
                    continue
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    problems.append(f"{where} is not UTF-8 (byte 0x{raw[exc.start]:02x} at column {exc.start + 1}); the line is not read")
                    continue
                try:
                    line = json.loads(text)
                except (ValueError, RecursionError):
                    problems.append(f"{where} is not JSON")
                    continue
                key = line.get("custom_id") if isinstance(line, dict) else None
                if key is None:
                    problems.append(f"{where} has no custom_id")
                elif not isinstance(key, str):
                    problems.append(f"{where} has a custom_id that is not a string ({type(key).__name__})")
                else:
                    yield OutputLine(where, key, line)
