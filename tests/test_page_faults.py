"""The review page attacked: requests that its own script never sends (another client with the
token, a buggy extension, a hand-made curl) are refused in one answer that names the problem,
record nothing, and never poison the store for the commands that read it later."""

from __future__ import annotations

import json
import resource
import signal
import socket
import time
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from extractor.cli.app import app
from tests.conftest import ROOT
from extractor.grounding import ground
from extractor.page.serve import listen, serve as serve_page
from extractor.page.session import ReviewSession
from extractor.runs import Run
from extractor.review import export_review
from extractor.schema import ClaimDraft, ExtractionDraft, PaperResult
from extractor.runs.files import PAPERS_FILE, REVIEWED_CLAIMS_FILE, STORE_FILE
from tests.runs import write_run
from tests.test_review import claim_id, drafts, edit, make_run
from tests.test_review_page import CSRF, ORIGIN, TOKEN, client, post, serve, view


@pytest.fixture
def run(tmp_path: Path) -> Path:
    return make_run(tmp_path / "run")


def _nothing_recorded(run: Path) -> None:
    assert Run.open(run).corrections() == []


def _readers_still_work(run: Path, tmp_path: Path) -> None:
    for command in (["review", "status", str(run)], ["review", "export", str(run), "--out", str(tmp_path / "r.xlsx")],
                    ["report", str(run), "--out", str(tmp_path / "r.html")]):
        result = CliRunner().invoke(app, command)
        assert result.exit_code == 0, (command, result.output)


@pytest.mark.parametrize(
    ("sent", "field", "words"),
    [
        ({"decision": ["accept"]}, "decision", "not one of accept, reject, edit"),
        ({"decision": {"a": 1}}, "decision", "not one of accept, reject, edit"),
        ({"decision": "banana"}, "decision", "not one of accept, reject, edit"),
        ({"note": {"a": 1}}, "note", "a note is text"),
        ({"note": "x" * 2001}, "note", "at most 2000 fit"),
        ({"decision": "accept", "view": {"values": [1]}}, "view", "not a view the page showed"),
        ({"decision": "accept", "view": {"values": {}, "decision": ["accept"]}}, "view", "not a view the page showed"),
    ],
)
def test_a_decision_note_or_view_the_page_never_sends_is_refused_and_nothing_is_recorded(
    run: Path, tmp_path: Path, sent: dict, field: str, words: str,
) -> None:
    acc = claim_id(run, "p1", 83.6)
    answer = post(client(run), "/api/decide", {"kind": "claim", "item_id": acc, "paper_id": "p1", "view": view(run, acc), **sent})
    assert answer.status_code == 200
    result = answer.json()
    assert result["status"] == "refused"
    [problem] = result["problems"]
    assert problem["field"] == field and words in problem["message"], problem
    _nothing_recorded(run)
    _readers_still_work(run, tmp_path)


def test_a_paper_takes_accept_or_reject_only(run: Path) -> None:
    answer = post(client(run), "/api/decide", {"kind": "paper", "item_id": "p1", "paper_id": "p1",
                                               "view": view(run, "p1"), "decision": "edit"}).json()
    assert answer["status"] == "refused" and "not one of accept, reject" in answer["problems"][0]["message"]
    _nothing_recorded(run)


@pytest.mark.parametrize("where", ["token", "csrf"])
def test_a_token_with_characters_outside_ascii_is_refused_not_a_server_error(run: Path, where: str) -> None:
    http = client(run)
    if where == "token":
        answer = http.get("/?token=%C3%A9t%C3%A9")
    else:
        answer = http.post(f"/api/undo?token={TOKEN}", json={}, headers={"Origin": ORIGIN, "X-CSRF-Token": "été".encode()})
    assert answer.status_code == 403 and "refused" in answer.text


@pytest.mark.parametrize(
    ("path", "body", "words"),
    [
        ("/api/decide", b"[" * 100_000, "not JSON"),
        ("/api/decide", b'{"kind": "claim", "paper_id": "p1", "item_id": ["x"]}', "item_id must be text"),
        ("/api/decide", b'{"kind": "claim", "paper_id": "p1", "item_id": "x", "view": [1]}', "view must be an object"),
        ("/api/decide", b'{"kind": "claim", "paper_id": "p1", "view": "x"}', "view must be an object"),
        ("/api/decide", b'{"kind": "claim", "paper_id": "p1", "confirm": "false"}', "confirm must be true or false"),
        ("/api/decide", b'{"kind": ["claim"], "paper_id": "p1"}', "kind must be text"),
        ("/api/clear", b"{nope", "not JSON"),
        ("/api/clear", b"[1]", "a JSON object is expected"),
        ("/api/clear", b'{"offers": 5}', "offers must be a list"),
        ("/api/clear", b'{"offers": [{"claim_id": [1], "field": "method"}]}', "claim_id must be text"),
    ],
)
def test_a_malformed_request_is_refused_naming_the_problem_never_a_server_error(
    run: Path, path: str, body: bytes, words: str,
) -> None:
    http = client(run)
    answer = http.post(f"{path}?token={TOKEN}", content=body, headers={"Origin": ORIGIN, "X-CSRF-Token": CSRF,
                                                                        "Content-Type": "application/json"})
    assert answer.status_code == 400, answer.text
    assert words in answer.json()["messages"][0]
    assert not (run / STORE_FILE).exists()


def test_clearing_from_claims_clears_a_name_field_only(run: Path) -> None:
    acc = claim_id(run, "p1", 83.6)
    answer = post(client(run), "/api/clear", {"offers": [{"claim_id": acc, "field": "metric", "name": "accuracy"}]}).json()
    assert answer["status"] == "refused" and "only a name" in answer["messages"][0]
    _nothing_recorded(run)


def _keys(url: str) -> tuple[int, str, str]:
    """The port, the token and the CSRF token of a page served at ``url``, as its script reads them."""
    port = int(url.split(":")[2].split("/")[0])
    page = urllib.request.urlopen(url).read().decode()
    return port, url.split("token=")[1], page.split('name="csrf" content="')[1].split('"')[0]


def test_a_body_declared_larger_than_the_bound_is_refused_before_it_is_sent(run: Path) -> None:
    server = serve(run)
    try:
        port, token, csrf = _keys(server.stdout.readline().strip())
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(
                f"POST /api/decide?token={token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
                f"X-CSRF-Token: {csrf}\r\nContent-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n{{".encode()
            )
            started = time.monotonic()
            head = sock.recv(4096).decode()  # a server that waits for the gigabyte times out here
        assert head.startswith("HTTP/1.1 413") and time.monotonic() - started < 5, head
    finally:
        server.terminate()
        server.communicate(timeout=120)


def test_a_damaged_store_is_said_on_the_page_not_a_server_error(run: Path) -> None:
    acc = claim_id(run, "p1", 83.6)
    http = client(run)
    seen = view(run, acc)
    post(http, "/api/decide", {"kind": "claim", "item_id": acc, "paper_id": "p1", "view": seen, "decision": "accept"})
    store = run / STORE_FILE
    data = bytearray(store.read_bytes())
    data[4096:] = b"\x13" * (len(data) - 4096)  # every page but the schema's overwritten
    store.write_bytes(bytes(data))
    page = http.get(f"/?token={TOKEN}")
    assert page.status_code == 503 and f"{store}: cannot open the correction store" in page.text
    answer = post(http, "/api/decide", {"kind": "claim", "item_id": acc, "paper_id": "p1", "view": seen, "decision": "reject"})
    assert answer.status_code == 503
    assert answer.json()["status"] == "refused" and f"{store}: cannot" in answer.json()["messages"][0]


def _reextract_memory_metric(run: Path, tmp_path: Path) -> None:
    """Another `extractor run` of the directory: p2's 3.2 GiB claim now reads 'peak memory'."""
    changed = drafts()["p2"].model_copy(deep=True)
    changed.claims[0] = changed.claims[0].model_copy(update={"metric": "peak memory"})
    again = make_run(tmp_path / "again", {"p2": changed})
    (run / PAPERS_FILE).write_bytes((again / PAPERS_FILE).read_bytes())


def test_the_page_shows_a_new_extraction_and_an_accept_of_the_old_one_is_a_conflict(run: Path, tmp_path: Path) -> None:
    memory = claim_id(run, "p2", 3.2)
    http = client(run)
    seen = view(run, memory)
    assert "memory" in http.get("/", params={"token": TOKEN, "item": memory}).text
    _reextract_memory_metric(run, tmp_path)
    assert "peak memory" in http.get("/", params={"token": TOKEN, "item": memory}).text  # read again, not the old papers
    answer = post(http, "/api/decide", {"kind": "claim", "item_id": memory, "paper_id": "p2", "view": seen, "decision": "accept"}).json()
    assert answer["status"] == "conflict"
    [conflict] = answer["conflicts"]
    assert (conflict["field"], conflict["seen"], conflict["theirs"]) == ("metric", "memory", "peak memory")
    _nothing_recorded(run)
    (run / PAPERS_FILE).rename(tmp_path / "moved.jsonl")  # the run moved away under the page: what was read stays
    assert "peak memory" in http.get("/", params={"token": TOKEN, "item": memory}).text


def test_an_accept_on_a_sheet_exported_before_a_new_extraction_is_a_conflict(run: Path, tmp_path: Path) -> None:
    memory = claim_id(run, "p2", 3.2)
    book = tmp_path / "review.xlsx"
    export_review(Run.open(run), book)
    edit(book, book, "Claims", memory, decision="accept")
    _reextract_memory_metric(run, tmp_path)
    result = CliRunner().invoke(app, ["review", "apply", str(book), str(run), "--reviewer", "alice"], env={"COLUMNS": "400"})
    assert result.exit_code == 1, result.output
    output = " ".join(result.output.split())
    assert f"conflict on {memory} metric" in output and "'peak memory'" in output and "'memory'" in output, output
    _nothing_recorded(run)


def test_sigterm_with_a_request_stalled_mid_body_still_stops_and_rebuilds(run: Path) -> None:
    server = serve(run)
    try:
        port, token, csrf = _keys(server.stdout.readline().strip())
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(  # a tab whose request stops halfway (a laptop put to sleep, a dropped link)
                f"POST /api/decide?token={token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
                f"X-CSRF-Token: {csrf}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{".encode()
            )
            time.sleep(0.5)
            server.terminate()
            _, err = server.communicate(timeout=60)  # it used to wait for the rest of the body for ever
    finally:
        if server.poll() is None:
            server.kill()
            server.communicate()
    assert server.returncode == 0 and "Traceback" not in err, err
    assert f"-> {run / REVIEWED_CLAIMS_FILE}" in err


class _Choices(HTMLParser):
    """The attributes of each choice of a disagreement, as a browser parses them."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "span" and ("class", "choice") in attrs:
            self.found.append(dict(attrs))


def test_a_disagreement_s_values_reach_the_script_as_written(run: Path) -> None:
    acc = claim_id(run, "p1", 83.6)
    chosen = 'EM" hidden data-x="'  # would end the attribute and add others
    for reviewer, metric in (("alice", chosen), ("bob", "top-1 accuracy")):
        post(client(run, reviewer), "/api/decide", {"kind": "claim", "item_id": acc, "paper_id": "p1", "view": view(run, acc),
                                                    "decision": "edit", "fields": {"metric": metric}, "tab": reviewer})
    parser = _Choices()
    parser.feed(client(run, "carol").get("/", params={"token": TOKEN, "filter": "disagreements", "item": acc}).text)
    assert [set(attrs) for attrs in parser.found] == [{"class", "data-n", "data-field", "data-value"}] * 2
    assert sorted(json.loads(attrs["data-value"]) for attrs in parser.found) == [chosen, "top-1 accuracy"]


def test_a_paper_id_with_a_hash_keeps_one_claim_per_number(tmp_path: Path) -> None:
    abstract = "FooNet reaches 91.2-93.5% accuracy on ImageNet."
    draft = ExtractionDraft(claims=[ClaimDraft(value=91.2, value_max=93.5, unit="%", metric="accuracy", benchmark="ImageNet",
                                               evidence="FooNet reaches 91.2-93.5% accuracy on ImageNet")])
    extraction, _ = ground(draft, abstract, "2401.00001#v2")
    run = write_run(tmp_path / "h", [PaperResult(id="2401.00001#v2", status="ok", abstract=abstract, extraction=extraction)],
                    {"backend": "test"})
    again = {"value": "91.2", "unit": "%", "evidence": "FooNet reaches 91.2-93.5% accuracy"}  # the range's first number
    answer = post(client(run), "/api/decide", {"kind": "claim", "item_id": None, "paper_id": "2401.00001#v2", "view": None,
                                               "fields": again}).json()
    assert answer["status"] == "refused" and "is claim 2401.00001#v2#" in answer["problems"][0]["message"], answer
    _nothing_recorded(run)


def test_a_stop_while_the_page_starts_raises_nothing_and_the_run_is_still_rebuilt(run: Path) -> None:
    # A script that reads the URL may stop the page at once, before uvicorn has installed its own
    # handler: an exception raised then landed inside the event loop's start-up (once in ~80 stops
    # under load: a loop half made, a process that did not exit).
    raised: list[BaseException] = []

    def stop_at_once(url: str) -> None:
        try:
            signal.getsignal(signal.SIGTERM)(signal.SIGTERM, None)
        except BaseException as exc:  # noqa: BLE001 - what the handler raises is the finding
            raised.append(exc)

    before = signal.getsignal(signal.SIGTERM)
    session = ReviewSession(Run.open(run), "alice", rebuild=lambda: ["claims.reviewed.csv"])
    assert serve_page(session, listen(0), stop_at_once) == ["claims.reviewed.csv"]
    assert raised == [] and signal.getsignal(signal.SIGTERM) is before


def test_a_rebuild_that_cannot_be_written_on_stop_names_the_file_not_the_port(run: Path) -> None:
    CliRunner().invoke(app, ["report", str(run)])  # a report.html of 11 KB, rebuilt on the way out
    limit = 4096  # bytes a file may grow to: `ulimit -f 4`, a disk that fills while the page is open
    server = serve(run, preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit)))
    try:
        assert server.stdout.readline().startswith("http://127.0.0.1:")
        server.terminate()
        _, err = server.communicate(timeout=60)
    finally:
        if server.poll() is None:
            server.kill()
    assert server.returncode == 1 and "Traceback" not in err, err
    assert "cannot listen" not in err and "File too large" in err and "report.html" in err, err


def test_a_second_stop_during_the_rebuild_leaves_no_temporary_file(tmp_path: Path) -> None:
    run = tmp_path / "demo"
    assert CliRunner().invoke(app, ["run", str(ROOT / "fixtures" / "abstracts"), "--out", str(run), "-q"]).exit_code == 0
    server = serve(run)
    try:
        server.stdout.readline()
        server.terminate()  # Ctrl-C: the page stops and the run's files are rebuilt
        deadline = time.monotonic() + 60
        while not any(run.glob(".leaderboard.xlsx.*.tmp")) and server.poll() is None and time.monotonic() < deadline:
            time.sleep(0.002)
        server.terminate()  # again, while the leaderboard is being written
        _, err = server.communicate(timeout=60)
    finally:
        if server.poll() is None:
            server.kill()
    assert server.returncode != -signal.SIGTERM and "Traceback" not in err, (server.returncode, err)
    assert not [p.name for p in run.iterdir() if p.name.endswith(".tmp")]
