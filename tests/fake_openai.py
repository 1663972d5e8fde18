"""A loopback OpenAI-compatible chat-completions server for tests and benchmarks.

It is a real HTTP server (one thread per connection, HTTP/1.1 keep-alive), so the openai SDK,
instructor and the retries run exactly as against a real endpoint. Each request is answered
with a *grounded* extraction computed from the abstract found between ``<abstract>`` tags in
the last user message that has them (:func:`grounded_answer`: every number, name and evidence
is in the text), shaped for the mode the request asks for:

- ``tools`` in the request: a forced tool call whose arguments are the JSON;
- ``response_format`` ``json_schema`` or ``json_object``: the JSON as the message content;
- neither: the JSON inside a markdown ```json block (instructor's md_json mode).

With ``record=PATH`` (``--record-bodies PATH``) every chat-completion request body is appended
to PATH as one JSON line, in the order of arrival (line i is request i of ``/stats``), so a
yardstick (``benchmarks/bare_sdk.py``) can send exactly the bodies a client sent.

With ``replay=`` (:class:`Replay`, ``--replay ANSWERS.jsonl``) each abstract is answered instead
with the answer recorded for it (``fixtures/recorded/``, matched by the abstract's whitespace-
folded text), word for word as the model wrote it, in the same shapes; a re-ask gets the same
answer; an abstract without a recording gets HTTP 404 naming its first words.

Faults are scripted with :class:`Fault` (which requests, how many times) and endpoints that
refuse a mode with ``refuse=``, e.g. ``refuse={"json_schema"}`` answers like llama-cpp-python's
server: HTTP 500 "Input should be 'text' or 'json_object'".

The Batch API is there too (:class:`FakeBatchAPI`, ``server.batch_api``): files (upload,
content) and batches (create, retrieve, list, cancel), each input line answered as it would be
online, faults included, with scripted expiry and validation failure.

Use from tests::

    with FakeOpenAI(latency=0.01, faults=[Fault("rate_limit", match="GANQ")]) as server:
        config = make_config("openai", base_url=server.base_url, api_key="test", model="m")
        ...
        assert server.requests == 3

From the command line (benchmarks)::

    python tests/fake_openai.py --port 8089 --latency 0.2 [--refuse json_schema] [--reask-each] [--batch-seconds 5]
    python tests/fake_openai.py --reask-each --record-bodies bodies.jsonl
    python tests/fake_openai.py --replay fixtures/recorded/dev.jsonl [--name "NAME=ENTRY"]
    python tests/fake_openai.py --run-batch IN.jsonl OUT.jsonl   # answer a batch file as vllm run-batch does, and exit

prints ``fake OpenAI server on http://127.0.0.1:8089/v1`` and serves until interrupted.
``GET /stats`` returns ``{"requests": N}``; ``GET /v1/models`` lists one model.

Usage in responses is approximate: one token per four characters of the request and answer.
"""

from __future__ import annotations

import argparse
import json
import re
import socket
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from email.parser import BytesParser
from email.policy import default as email_policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from extractor.grounding import ground
from extractor.schema import ClaimDraft, ExtractionDraft, Method
from extractor.text.hashing import content_hash, normalize_text
from extractor.text.numbers import find_numbers

HOST = "127.0.0.1"
ABSTRACT_RE = re.compile(r"<abstract>\s*(.*?)\s*</abstract>", re.DOTALL)
NAME_RE = re.compile(r'<name kind="(?:benchmark|metric)">(.*?)</name>', re.DOTALL)
_SENTENCE = re.compile(r"\S.*?(?:[.!?](?=\s|$)|$)", re.DOTALL)  # a decimal point is not an end
_UNIT = re.compile(r"\s?(%|x\b|\u00d7|times|points?\b|pp\b)")
_PROPOSED = re.compile(r"\b(?:propose|introduce|present)s?\s+([A-Z][\w-]*[A-Z][\w-]*)")

FAULT_KINDS = (
    "rate_limit",  # HTTP 429 with a Retry-After header (seconds=)
    "server_error",  # HTTP 500
    "timeout",  # answer only after `seconds` (longer than the client's timeout)
    "drop",  # close the connection without answering
    "outage",  # drop, stop listening for `seconds`, then come back on the same port
    "malformed",  # the JSON is cut in half
    "schema_invalid",  # valid JSON that does not fit ExtractionDraft
    "extra_keys",  # the grounded answer with keys the schema does not define, as small models add
    "invented_number",  # the grounded answer plus a claim whose number is not in the abstract
    "invented_name",  # the grounded answer with its claims credited to a benchmark not in the abstract
    "invented_bound",  # the grounded answer with every claim called an upper bound ('less than')
    "length",  # cut JSON with finish_reason "length"
    "no_choices",  # HTTP 200 with "choices": [] (an OpenAI-compatible server that lost the answer)
    "html",  # HTTP 200 with an HTML page (a proxy's or a captive portal's), not JSON
    "drip",  # the answer's body a byte every `seconds` (a server or proxy that trickles)
    "refusal",  # the model refuses (message.refusal, no content)
    "negative_usage",  # usage with a negative prompt count (a server's bug: a refund of $6,600 at gpt-4o-mini prices)
    "no_usage",  # no usage in the answer (some OpenAI-compatible servers)
)
NEGATIVE_PROMPT_TOKENS = -44_000_000_000

# What llama-cpp-python's server answers to response_format {"type": "json_schema"}.
LLAMA_CPP_JSON_SCHEMA_ERROR = (
    "1 validation error for CreateChatCompletionRequest\nresponse_format.type\n"
    "  Input should be 'text' or 'json_object' [type=literal_error, input_value='json_schema', "
    "input_type=str]\n    For further information visit https://errors.pydantic.dev/2.11/v/literal_error"
)
MODE_REFUSALS: dict[str, tuple[int, str]] = {
    "json_schema": (500, LLAMA_CPP_JSON_SCHEMA_ERROR),
    "tools": (400, "registry.example/fake-model does not support tools"),
    "json": (400, "response_format of type 'json_object' is not supported by this model"),
}
INVENTED_VALUE = 97.3
INVENTED_BENCHMARK = "Zeta-Bench-9000"


@dataclass
class Fault:
    """One scripted fault: applied to the first ``times`` requests whose abstract contains
    ``match`` (any request when ``match`` is None); with ``each_abstract``, to the first
    ``times`` requests of every abstract (``Fault("invented_number", each_abstract=True)``:
    every paper needs one grounding re-ask)."""

    kind: str
    times: int = 1
    match: str | None = None
    seconds: float = 1.0  # Retry-After for rate_limit, delay for timeout, length of an outage
    each_abstract: bool = False
    used: int = field(default=0, init=False)
    used_by: dict[str | None, int] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        if self.kind not in FAULT_KINDS:
            raise ValueError(f"unknown fault {self.kind!r}; choose one of {', '.join(FAULT_KINDS)}")

    def applies(self, abstract: str | None) -> bool:
        used = self.used_by.get(abstract, 0) if self.each_abstract else self.used
        if used >= self.times:
            return False
        return self.match is None or (abstract is not None and self.match in abstract)

    def take(self, abstract: str | None) -> None:
        self.used += 1
        if self.each_abstract:
            self.used_by[abstract] = self.used_by.get(abstract, 0) + 1


@dataclass
class Request:
    """What the server saw: for assertions in tests."""

    abstract: str | None
    mode: str
    fault: str | None
    messages: list[dict]
    at: float
    usage: dict | None = None  # what the response reported, when there was one
    name: str | None = None  # the name a name request asks about (names prompt), else None


def grounded_answer(abstract: str) -> ExtractionDraft:
    """A plausible extraction that grounding accepts: every number written with a result unit
    (``%``, ``x``/``times``, ``points``/``pp``) with its sentence as evidence, and the names
    after "we propose/introduce/present". Self-contained, so benchmarks do not move when the
    rules extractor changes."""
    claims = []
    for sentence in _SENTENCE.finditer(abstract):
        text = sentence.group()
        for mention in find_numbers(text):
            unit = _UNIT.match(text, mention.end)
            if unit:
                symbol = "%" if unit.group(1) == "%" else "points" if unit.group(1)[0] == "p" else "x"
                claims.append(ClaimDraft(value=mention.value, unit=symbol, evidence=text))
    methods = [Method(name=name) for name in _PROPOSED.findall(abstract)]
    extraction, _ = ground(ExtractionDraft(methods=methods, claims=claims), abstract, "fake")
    return ExtractionDraft(
        methods=extraction.methods,
        claims=[ClaimDraft(**c.model_dump(exclude={"id", "span", "value_span"})) for c in extraction.claims],
    )


def request_mode(body: dict) -> str:
    """The structured-output mode a request asks for, named like ``--mode``."""
    if body.get("tools"):
        return "tools"
    kind = (body.get("response_format") or {}).get("type")
    return {"json_schema": "json_schema", "json_object": "json"}.get(kind, "md_json")


def find_abstract(messages: Iterable[dict]) -> str | None:
    """The abstract between <abstract> tags in the last user message that has them."""
    found = None
    for message in messages:
        content = message.get("content")
        if message.get("role") == "user" and isinstance(content, str):
            matches = ABSTRACT_RE.findall(content)
            if matches:
                found = matches[-1]
    return found


def find_name(messages: Iterable[dict]) -> str | None:
    """The benchmark or metric name a name request asks about (``prompts/names-*/user.md``)."""
    for message in messages:
        content = message.get("content")
        if message.get("role") == "user" and isinstance(content, str) and (m := NAME_RE.search(content)):
            return m.group(1)
    return None


def _invented(abstract: str, draft: ExtractionDraft) -> ExtractionDraft:
    """The draft plus a claim whose value is written nowhere in the abstract."""
    value = INVENTED_VALUE
    while any(m.matches(value) for m in find_numbers(abstract)):
        value += 1.1
    evidence = abstract.split(". ")[0][:120]
    claim = ClaimDraft(value=round(value, 2), unit="%", metric="accuracy", evidence=evidence)
    return draft.model_copy(update={"claims": [*draft.claims, claim]})


def _invented_name(draft: ExtractionDraft) -> ExtractionDraft:
    """The draft with every claim's benchmark set to a name no abstract writes."""
    claims = [c.model_copy(update={"benchmark": INVENTED_BENCHMARK}) for c in draft.claims]
    return draft.model_copy(update={"claims": claims})


def _invented_bound(draft: ExtractionDraft) -> ExtractionDraft:
    """The draft with every claim called an upper bound, which no grounded answer's text writes."""
    return draft.model_copy(update={"claims": [c.model_copy(update={"bound": "upper"}) for c in draft.claims]})


def abstract_key(abstract: str) -> str:
    """The content hash a recording files an answer under: the abstract's whitespace-folded
    text, so the line wrapping of a prompt template or an input file does not matter."""
    return content_hash(normalize_text(abstract))


class Replay:
    """Recorded answers (the format of ``fixtures/recorded/README.md``): a header line
    ``{"recording": {...}}``, then one line per paper ``{"id", "abstract_hash", "answer"}``."""

    def __init__(self, header: dict, answers: dict[str, str]) -> None:
        self.header = header
        self.answers = answers  # abstract_key -> the answer JSON text

    @classmethod
    def read(cls, path: str | Path) -> Replay:
        header: dict = {}
        answers: dict[str, str] = {}
        for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            record = json.loads(line)
            if "recording" in record:
                header = record["recording"]
                continue
            try:
                answers[record["abstract_hash"]] = json.dumps(record["answer"], ensure_ascii=False)
            except (KeyError, TypeError) as error:
                raise ValueError(f"{path}:{number}: a recorded answer needs abstract_hash and answer ({error})") from None
        return cls(header, answers)

    def answer(self, abstract: str) -> str | None:
        return self.answers.get(abstract_key(abstract))


def first_words(text: str, count: int = 8) -> str:
    return " ".join(text.split()[:count])


def _tokens(text: str) -> int:
    return max(1, len(text) // 4)


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 512  # many clients connect at once

    def __init__(self, address: tuple[str, int], fake: FakeOpenAI) -> None:
        self.fake = fake
        self.connections: set[socket.socket] = set()
        self.connections_lock = threading.Lock()
        super().__init__(address, _Handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        with self.connections_lock:
            self.connections.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self.connections_lock:
            self.connections.discard(request)
        super().shutdown_request(request)

    def drop_connections(self) -> None:
        with self.connections_lock:
            for connection in list(self.connections):
                try:
                    connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out at once, no 40 ms delayed-ACK stall
    server: _HTTPServer

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (stdlib signature)
        """Quiet: tests and benchmarks read the counters instead."""

    def _send(self, status: int, payload: dict, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except OSError:  # the client gave up (timeout) or the server went away
            self.close_connection = True

    def _send_raw(self, status: int, data: bytes, content_type: str) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except OSError:
            self.close_connection = True

    def _drip(self, seconds: float, data: bytes) -> None:
        """Headers at once, then the body one byte every ``seconds``, until the client leaves."""
        try:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            for i in range(len(data)):
                self.wfile.write(data[i : i + 1])
                self.wfile.flush()
                time.sleep(seconds)
        except OSError:
            self.close_connection = True

    def _send_bytes(self, data: bytes) -> None:
        try:
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except OSError:
            self.close_connection = True

    def _not_found(self) -> None:
        self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})

    def do_GET(self) -> None:  # noqa: N802 (stdlib name)
        path = self.path.split("?")[0].rstrip("/")
        batches = self.server.fake.batch_api
        if path == "/stats":
            self._send(200, {"requests": self.server.fake.requests})
        elif path.endswith("/models"):
            self._send(200, {"object": "list", "data": [{"id": "fake-model", "object": "model"}]})
        elif match := _FILE_CONTENT.search(path):
            data = batches.content(match.group(1))
            self._send_bytes(data) if data is not None else self._not_found()
        elif match := _BATCH.search(path):
            batches.polls += 1
            batch = batches.batch(match.group(1))
            self._send(200, batch) if batch else self._not_found()
        elif path.endswith("/batches") and batches.list_status:
            self._send(batches.list_status, {"error": {"message": "listing batches is not supported", "type": "invalid_request_error"}})
        elif path.endswith("/batches"):
            self._send(200, batches.listing())
        else:
            self._not_found()

    def do_POST(self) -> None:  # noqa: N802 (stdlib name)
        self.server.fake.paths.append(self.path)
        path = self.path.split("?")[0].rstrip("/")
        data = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        batches = self.server.fake.batch_api
        if path.endswith("/files"):
            self._send(200, batches.upload(self.headers.get("Content-Type", ""), data))
            return
        if path.endswith("/batches"):
            status, payload = batches.create(json.loads(data or b"{}"), dict(self.headers))
            self._send(status, payload)
            return
        if match := _BATCH_CANCEL.search(path):
            batch = batches.cancel(match.group(1))
            self._send(200, batch) if batch else self._not_found()
            return
        if not path.endswith("/chat/completions"):
            self._not_found()
            return
        body = json.loads(data or b"{}")
        if self.server.fake.echo is not None:  # an error page that repeats the request
            status, payload = self.server.fake.echo(body, dict(self.headers), self.path)
            self._send(status, payload)
            return
        reply = self.server.fake.answer_request(body)
        if reply is None:  # drop or outage: no answer at all
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        status, payload, headers = reply
        if HTML_PAGE in payload:
            self._send_raw(status, b"<html><body><h1>Gateway</h1><p>Please sign in.</p></body></html>", "text/html")
        elif DRIP in payload:
            self._drip(payload[DRIP], json.dumps(payload["completion"]).encode())
        else:
            self._send(status, payload, headers)


Reply = tuple[int, dict, dict[str, str]]
HTML_PAGE = "__html__"  # a payload key: answer with an HTML page instead of the JSON
DRIP = "__drip__"  # a payload key: send payload["completion"] a byte at a time
_FILE_CONTENT = re.compile(r"/files/([\w-]+)/content$")
_BATCH = re.compile(r"/batches/([\w-]+)$")
_BATCH_CANCEL = re.compile(r"/batches/([\w-]+)/cancel$")
BATCH_ENDPOINT = "/v1/chat/completions"
# the per-request errors of the Batch API, as its error file words them
BATCH_ITEM_ERRORS = {
    "expired": ("batch_expired", "This request could not be executed before the completion window expired."),
    "cancelled": ("batch_cancelled", "This request was not executed because the batch was cancelled."),
}


class FakeBatchAPI:
    """The files and batches endpoints of the Batch API, answering each line of an input file
    as :meth:`FakeOpenAI.answer_request` answers it online (faults included), in a thread.

    A batch is ``validating``, then ``in_progress`` for at least ``seconds`` (lines answered as
    it goes), then ``completed`` with an output file (200 answers) and an error file (other
    answers, and lines that never ran). Scripted outcomes: ``expire_after`` (answer that many
    lines, then the batch expires and the rest are ``batch_expired``), ``fail_next`` (the next
    batches fail validation, as when the enqueued-token limit is reached); ``cancel`` works at
    any time; ``list_status`` (404, 405) answers ``GET /batches`` with that error, as servers
    without the list do; ``damage_output`` rewrites the lines of an output file (a proxy's
    HTML, a body without ``choices``). ``created`` lists every batch ever created and ``polls``
    counts the looks at one, for assertions.
    """

    def __init__(self, fake: FakeOpenAI) -> None:
        self.fake = fake
        self.seconds = 0.0
        self.expire_after: int | None = None
        self.fail_next = 0
        self.list_status: int | None = None
        self.damage_output: Callable[[list[str]], list[str]] | None = None
        self.files: dict[str, tuple[dict, bytes]] = {}
        self.batches: dict[str, dict] = {}
        self.created: list[str] = []
        self.polls = 0  # GET /batches/{id}: a client looking at a batch
        self._lock = threading.Lock()

    def _file(self, data: bytes, filename: str, purpose: str) -> dict:
        with self._lock:
            file_id = f"file-{len(self.files) + 1:04d}"
            meta = {
                "id": file_id, "object": "file", "bytes": len(data), "created_at": int(time.time()),
                "filename": filename, "purpose": purpose, "status": "processed",
            }
            self.files[file_id] = (meta, data)
        return meta

    def upload(self, content_type: str, data: bytes) -> dict:
        """POST /files: a multipart form with ``file`` and ``purpose``."""
        message = BytesParser(policy=email_policy).parsebytes(f"Content-Type: {content_type}\r\n\r\n".encode() + data)
        fields = {part.get_param("name", header="content-disposition"): part for part in message.iter_parts()}
        file = fields["file"]
        purpose = fields["purpose"].get_content().strip()
        return self._file(file.get_payload(decode=True), file.get_filename() or "upload.jsonl", purpose)

    def content(self, file_id: str) -> bytes | None:
        entry = self.files.get(file_id)
        return entry[1] if entry else None

    def batch(self, batch_id: str) -> dict | None:
        with self._lock:
            batch = self.batches.get(batch_id)
            return json.loads(json.dumps(batch)) if batch else None

    def listing(self) -> dict:
        with self._lock:
            data = [json.loads(json.dumps(self.batches[b])) for b in reversed(self.created)]
        return {"object": "list", "data": data, "first_id": None, "last_id": None, "has_more": False}

    def create(self, body: dict, headers: dict[str, str] | None = None) -> tuple[int, dict]:
        """POST /batches; ``headers`` are the request's, for a server that echoes them in errors."""
        if body.get("input_file_id") not in self.files or body.get("endpoint") != BATCH_ENDPOINT:
            return 400, {"error": {"message": f"bad batch request: {body}", "type": "invalid_request_error"}}
        now = int(time.time())
        with self._lock:
            batch_id = f"batch_{len(self.created) + 1:04d}"
            batch = {
                "id": batch_id, "object": "batch", "endpoint": body["endpoint"], "input_file_id": body["input_file_id"],
                "completion_window": body.get("completion_window", "24h"), "status": "validating", "created_at": now,
                "expires_at": now + 86400, "metadata": body.get("metadata"), "output_file_id": None, "error_file_id": None,
                "errors": None, "request_counts": {"total": 0, "completed": 0, "failed": 0},
            }
            self.batches[batch_id] = batch
            self.created.append(batch_id)
        threading.Thread(target=self._work, args=(batch_id, headers or {}), daemon=True).start()
        return 200, json.loads(json.dumps(batch))

    def cancel(self, batch_id: str) -> dict | None:
        with self._lock:
            batch = self.batches.get(batch_id)
            if batch and batch["status"] in ("validating", "in_progress"):
                batch["status"] = "cancelling"
        return self.batch(batch_id)

    def _set(self, batch_id: str, **fields: object) -> None:
        with self._lock:
            self.batches[batch_id].update(fields)

    def _work(self, batch_id: str, headers: dict[str, str]) -> None:
        started = time.monotonic()
        batch = self.batch(batch_id)
        lines = [json.loads(line) for line in self.files[batch["input_file_id"]][1].splitlines() if line.strip()]
        ids = [line.get("custom_id") for line in lines]
        problem = (
            "Enqueued token limit reached for this model. Try again once some in-progress batches have completed."
            if self.fail_next else None
        )
        if self.fail_next:
            self.fail_next -= 1
        elif len(set(ids)) != len(ids) or any(line.get("url") != BATCH_ENDPOINT for line in lines):
            problem = "The input file has a repeated custom_id or a line for another endpoint."
        if problem:
            error = {"code": "token_limit_exceeded" if "token" in problem else "invalid_request", "message": problem, "line": None, "param": None}
            self._set(batch_id, status="failed", failed_at=int(time.time()), errors={"object": "list", "data": [error]})
            return
        self._set(batch_id, status="in_progress", in_progress_at=int(time.time()), request_counts={"total": len(lines), "completed": 0, "failed": 0})
        output, errors, ended = [], [], None
        for n, line in enumerate(lines):
            status = self.batch(batch_id)["status"]
            if status == "cancelling":
                ended = "cancelled"
            elif self.expire_after is not None and n >= self.expire_after:
                ended = "expired"
            if ended:
                code, message = BATCH_ITEM_ERRORS[ended]
                errors.append({"id": f"batch_req_{batch_id}_{n}", "custom_id": line["custom_id"], "response": None, "error": {"code": code, "message": message}})
                continue
            echo = self.fake.echo  # an error that repeats the request, as online
            reply = echo(line["body"], headers, BATCH_ENDPOINT) if echo is not None else self.fake.answer_request(line["body"])
            status_code, payload = (500, {"error": {"message": "The server had an error.", "type": "server_error"}}) if reply is None else reply[:2]
            record = {
                "id": f"batch_req_{batch_id}_{n}", "custom_id": line["custom_id"],
                "response": {"status_code": status_code, "request_id": f"req_{n}", "body": payload}, "error": None,
            }
            (output if status_code == 200 else errors).append(record)
            self._set(batch_id, request_counts={"total": len(lines), "completed": len(output), "failed": len(errors)})
        while ended is None and time.monotonic() - started < self.seconds:
            time.sleep(0.02)
            if self.batch(batch_id)["status"] == "cancelling":  # too late to stop lines already answered
                break
        final = ended or ("cancelled" if self.batch(batch_id)["status"] == "cancelling" else "completed")
        files: dict[str, object] = {"output_file_id": None, "error_file_id": None}
        for key, records in (("output_file_id", output), ("error_file_id", errors)):
            if records:
                lines = [json.dumps(r) + "\n" for r in records]
                if key == "output_file_id" and self.damage_output:
                    lines = self.damage_output(lines)
                text = "".join(lines).encode()
                files[key] = self._file(text, f"{batch_id}_{key[:-8]}.jsonl", "batch_output")["id"]
        self._set(
            batch_id, status=final, **files, **{f"{final}_at": int(time.time())},
            request_counts={"total": len(lines), "completed": len(output), "failed": len(errors)},
        )


class FakeOpenAI:
    """The server. ``with FakeOpenAI(...) as server`` starts it on a free loopback port.

    :param latency: seconds each chat completion takes (requests are served concurrently).
    :param faults: scripted faults, consumed in order of arrival.
    :param refuse: modes this endpoint rejects (``json_schema``, ``tools``, ``json``).
    :param answer: the draft for an abstract (default: :func:`grounded_answer`).
    :param replay: recorded answers, used instead of ``answer`` (only the faults on the text or the transport apply).
    :param names: answers to name requests (``<name kind=...>`` in the user message): name ->
        the ``same_as`` to answer, word for word (an entry outside the request's list too); a
        name not in it is answered "none". Faults match a name request by its name.
    :param port: 0 for a free port.
    :param record: a JSON Lines file every chat-completion request body is appended to.
    """

    def __init__(
        self,
        latency: float = 0.0,
        faults: Iterable[Fault] = (),
        refuse: Iterable[str] = (),
        answer: Callable[[str], ExtractionDraft] = grounded_answer,
        port: int = 0,
        replay: Replay | None = None,
        names: dict[str, str] | None = None,
        record: str | Path | None = None,
    ) -> None:
        self.latency = latency
        self.names = dict(names or {})
        self.faults = list(faults)
        self.refuse = set(refuse)
        unknown = self.refuse - set(MODE_REFUSALS)
        if unknown:
            raise ValueError(f"cannot refuse {sorted(unknown)}; choose from {sorted(MODE_REFUSALS)}")
        self.answer = answer
        self.replay = replay
        self.port = port
        self.log: list[Request] = []
        self.record = Path(record) if record is not None else None
        self.batch_api = FakeBatchAPI(self)
        self.in_flight = 0
        self.most_in_flight = 0  # the most chat completions being answered at one moment
        self.paths: list[str] = []  # every POST's path and query, as sent
        # (body, headers, path) -> (status, payload): answers every chat completion instead, as a
        # server whose error messages repeat the request (its URL, its Authorization header)
        self.echo: Callable[[dict, dict[str, str], str], tuple[int, dict]] | None = None
        self._lock = threading.Lock()
        self._server: _HTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}/v1"

    @property
    def requests(self) -> int:
        """Chat-completion requests received, faulted ones included."""
        return len(self.log)

    def start(self) -> FakeOpenAI:
        server = _HTTPServer((HOST, self.port), self)
        self.port = server.server_address[1]
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop listening and cut every open connection (the server is gone)."""
        server, self._server = self._server, None
        if server is None:
            return
        server.shutdown()
        server.server_close()
        server.drop_connections()

    def outage(self, seconds: float) -> None:
        """Go away now and come back on the same port after ``seconds``."""
        self.stop()
        timer = threading.Timer(seconds, self.start)
        timer.daemon = True
        timer.start()

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- requests ----------------------------------------------------------------------------

    def requests_for(self, text: str) -> list[Request]:
        """The requests whose abstract contains ``text``."""
        return [r for r in self.log if r.abstract and text in r.abstract]

    def _take_fault(self, abstract: str | None) -> Fault | None:
        for fault in self.faults:
            if fault.applies(abstract):
                fault.take(abstract)
                return fault
        return None

    def answer_request(self, body: dict) -> Reply | None:
        """The reply to one chat-completion request, or None to drop the connection."""
        messages = body.get("messages") or []
        abstract = find_abstract(messages)
        name = None if abstract is not None else find_name(messages)
        mode = request_mode(body)
        with self._lock:
            fault = None if mode in self.refuse else self._take_fault(abstract if name is None else name)
            record = Request(abstract, mode, fault.kind if fault else None, messages, time.monotonic(), name=name)
            self.log.append(record)
            if self.record is not None:
                with self.record.open("a", encoding="utf-8") as handle:
                    handle.write(json.dumps(body, ensure_ascii=False) + "\n")
        if mode in self.refuse:
            status, message = MODE_REFUSALS[mode]
            kind = "internal_server_error" if status == 500 else "invalid_request_error"
            return status, {"error": {"message": message, "type": kind, "param": None, "code": None}}, {}
        kind = fault.kind if fault else None
        if kind == "outage":
            self.outage(fault.seconds)
            return None
        if kind == "drop":
            return None
        with self._lock:
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            time.sleep(fault.seconds if kind == "timeout" else self.latency)
        finally:
            with self._lock:
                self.in_flight -= 1
        if kind == "rate_limit":
            error = {"message": "Rate limit reached; please retry later.", "type": "rate_limit_exceeded"}
            return 429, {"error": error}, {"Retry-After": f"{fault.seconds:g}"}
        if kind == "server_error":
            return 500, {"error": {"message": "The server had an error.", "type": "server_error"}}, {}
        if kind == "html":
            return 200, {HTML_PAGE: True}, {}
        if name is not None:
            completion = self._completion(body, mode, json.dumps({"same_as": self.names.get(name, "none")}), kind)
            record.usage = completion.get("usage")
            return 200, completion, {}
        if abstract is None:
            error = {"message": "no <abstract> in the user message", "type": "invalid_request_error"}
            return 400, {"error": error}, {}
        if self.replay and self.replay.answer(abstract) is None:
            message = f"no recorded answer for the abstract beginning {first_words(abstract)!r}"
            return 404, {"error": {"message": message, "type": "not_found_error", "param": None, "code": None}}, {}
        completion = self._completion(body, mode, self._answer_text(abstract, kind), kind)
        record.usage = completion.get("usage")
        if kind == "drip":
            return 200, {DRIP: fault.seconds, "completion": completion}, {}
        return 200, completion, {}

    def run_batch_file(self, source: str | Path, output: str | Path) -> int:
        """Answer a batch input file the way an engine run outside the tool does (``vllm
        run-batch -i SOURCE -o OUTPUT``): every line, ``{custom_id, method, url, body}`` or
        Together's and Mistral's ``{custom_id, body}``, answered as online (faults included),
        one ``{id, custom_id, response: {status_code, request_id, body}, error}`` line each,
        errors in the same file. Returns the lines written."""
        records = []
        for n, text in enumerate(Path(source).read_text(encoding="utf-8").splitlines()):
            if not text.strip():
                continue
            line = json.loads(text)
            reply = self.answer_request(line["body"])
            status, payload = (500, {"error": {"message": "The server had an error.", "type": "server_error"}}) if reply is None else reply[:2]
            records.append({
                "id": f"batch-req-{n}", "custom_id": line["custom_id"],
                "response": {"status_code": status, "request_id": f"req-{n}", "body": payload}, "error": None,
            })
        Path(output).write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        return len(records)

    def _answer_text(self, abstract: str, kind: str | None) -> str:
        """The answer as the model writes it: recorded, or drawn from ``answer`` and the fault."""
        if self.replay:
            return self.replay.answer(abstract) or ""
        draft = self.answer(abstract)
        if kind == "invented_number":
            draft = _invented(abstract, draft)
        elif kind == "invented_name":
            draft = _invented_name(draft)
        elif kind == "invented_bound":
            draft = _invented_bound(draft)
        return draft.model_dump_json(exclude_defaults=True)

    def _completion(self, body: dict, mode: str, text: str, kind: str | None) -> dict:
        if kind in ("malformed", "length"):
            text = text[: len(text) // 2]
        elif kind == "schema_invalid":
            text = json.dumps({"claims": [{"value": "about ninety", "unit": "%"}]})
        elif kind == "extra_keys":
            data = json.loads(text)
            data["title"] = "Extraction"
            for claim in data.get("claims", []):
                claim["description"] = "a result"
            text = json.dumps(data)
        finish = "length" if kind == "length" else "stop"
        message: dict[str, Any] = {"role": "assistant", "content": None}
        if kind == "refusal":
            message["refusal"] = "I'm sorry, but I can't help with that request."
        elif mode == "tools":
            name = (body.get("tool_choice") or {}).get("function", {}).get("name") or body["tools"][0]["function"]["name"]
            call = {"id": f"call_{len(self.log)}", "type": "function", "function": {"name": name, "arguments": text}}
            message["tool_calls"] = [call]
            finish = "length" if kind == "length" else "tool_calls"
        elif mode == "md_json":
            message["content"] = f"```json\n{text}\n```"
        else:
            message["content"] = text
        request_text = json.dumps([body.get("messages"), body.get("tools"), body.get("response_format")])
        prompt, completion = _tokens(request_text), _tokens(text)
        if kind == "negative_usage":
            prompt = NEGATIVE_PROMPT_TOKENS
        usage = {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
        return {
            "id": f"chatcmpl-fake-{len(self.log)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "fake-model"),
            "choices": [] if kind == "no_choices" else [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
            **({} if kind == "no_usage" else {"usage": usage}),
        }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="A loopback OpenAI-compatible server for tests and benchmarks.")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: a free one)")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds per chat completion")
    parser.add_argument("--refuse", action="append", default=[], choices=sorted(MODE_REFUSALS), help="a mode to reject")
    parser.add_argument(
        "--reask-each", action="store_true",
        help="the first answer to each abstract has an invented number: every paper needs one grounding re-ask",
    )
    parser.add_argument("--batch-seconds", type=float, default=0.0, help="each batch stays in progress at least this long")
    parser.add_argument("--replay", metavar="ANSWERS.jsonl", help="answer each abstract with its recorded answer")
    parser.add_argument(
        "--name", action="append", default=[], metavar="NAME=ENTRY",
        help="answer the name request about NAME with ENTRY (other names: none)",
    )
    parser.add_argument("--record-bodies", metavar="BODIES.jsonl", help="append every chat-completion request body to this file")
    parser.add_argument(
        "--run-batch", nargs=2, metavar=("IN.jsonl", "OUT.jsonl"),
        help="answer a batch input file into an output file, as vllm run-batch does, and exit (no server)",
    )
    args = parser.parse_args(argv)
    names = dict(item.split("=", 1) for item in args.name)
    faults = [Fault("invented_number", each_abstract=True)] if args.reask_each else []
    replay = Replay.read(args.replay) if args.replay else None
    server = FakeOpenAI(
        latency=args.latency, faults=faults, refuse=args.refuse, port=args.port, replay=replay, names=names,
        record=args.record_bodies,
    )
    if args.run_batch:
        lines = server.run_batch_file(*args.run_batch)
        print(f"{lines} requests answered into {args.run_batch[1]}")
        return
    server.start()
    server.batch_api.seconds = args.batch_seconds
    print(f"fake OpenAI server on {server.base_url}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()


if __name__ == "__main__":
    main()
