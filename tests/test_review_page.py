"""The review page over HTTP, without a browser: who may talk to it, what it shows, and that
its decisions go through the review core into the store (the browser test is in
test_review_browser.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from extractor.cli.app import app
from extractor.grounding import ground
from extractor.page.app import make_app
from extractor.leaderboard import build_leaderboard, load_runs
from extractor.leaderboard.build import CONFIGURATIONS_DIFFER, ONE_PAPER
from extractor.page.session import FIELD_KEYS, NOTE_KEY, WORD_KEYS, ReviewSession, parse_field
from extractor.review import apply_review, export_review, load_state
from extractor.review.agreement import agreement
from extractor.runs import Run
from extractor.runs.corrections import CorrectionStore
from extractor.runs.files import STORE_FILE
from extractor.runs.names import ALIAS_FIELDS
from extractor.schema import ClaimDraft, ExtractionDraft, PaperResult
from tests.runs import write_run
from tests.test_review import claim_id, edit, make_run
from tests.test_review_aliases import result as name_result
from tests.test_review_aliases import runs as name_runs
from tests.test_review_conditions import scene_runs, squad_runs

PORT = 8765
TOKEN, CSRF = "t0ken-for-tests", "csrf-for-tests"
ORIGIN = f"http://127.0.0.1:{PORT}"


@pytest.fixture
def run(tmp_path: Path) -> Path:
    return make_run(tmp_path / "run")


def client(run_dir: Path, reviewer: str = "alice") -> TestClient:
    app, _ = make_app(ReviewSession(Run.open(run_dir), reviewer), PORT, TOKEN, CSRF)
    return TestClient(app, base_url=f"http://127.0.0.1:{PORT}")


def serve(run_dir: Path, **popen: object) -> subprocess.Popen:
    """``extractor review serve`` started as a user starts it (``popen``: more of Popen's options);
    its URL is its first line of output."""
    return subprocess.Popen(
        [sys.executable, "-m", "extractor", "review", "serve", str(run_dir), "--reviewer", "alice", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen,
    )


def post(http: TestClient, path: str, data: dict, **headers: str):
    sent = {"Origin": ORIGIN, "X-CSRF-Token": CSRF, **headers}
    return http.post(f"{path}?token={TOKEN}", json=data, headers=sent)


def view(run_dir: Path, item_id: str) -> dict:
    from extractor.review.apply import view_of

    state = load_state(Run.open(run_dir))
    target = state.targets[item_id]
    abstract = next(p.abstract for p in state.papers if p.id == target.target.paper_id)
    return view_of(target, abstract)


def test_every_request_needs_the_token_and_this_host(run: Path) -> None:
    http = client(run)
    assert http.get("/").status_code == 403
    assert http.get("/?token=wrong").status_code == 403
    assert http.get(f"/static/review.js?token={TOKEN}").status_code == 200
    assert http.get("/static/review.js").status_code == 403
    rebound = http.get(f"/?token={TOKEN}", headers={"Host": "evil.example:8765"})
    assert rebound.status_code == 403 and "Host" in rebound.text
    page = http.get(f"/?token={TOKEN}")
    assert page.status_code == 200
    assert "default-src 'none'" in page.headers["content-security-policy"]
    assert page.headers["referrer-policy"] == "no-referrer"


def test_a_change_needs_the_csrf_token_and_this_origin(run: Path) -> None:
    http = client(run)
    acc = claim_id(run, "p1", 83.6)
    data = {"kind": "claim", "item_id": acc, "paper_id": "p1", "view": view(run, acc), "decision": "accept"}
    assert post(http, "/api/decide", data, Origin="http://evil.example").status_code == 403
    assert post(http, "/api/decide", data, **{"X-CSRF-Token": "nope"}).status_code == 403
    no_origin = http.post(f"/api/decide?token={TOKEN}", json=data, headers={"X-CSRF-Token": CSRF})
    assert no_origin.status_code == 403
    assert not (run / STORE_FILE).exists()
    answer = post(http, "/api/decide", data)
    assert answer.status_code == 200 and answer.json()["status"] == "applied"
    assert load_state(Run.open(run)).targets[acc].decision == "accept"


def test_text_from_the_run_is_escaped(tmp_path: Path) -> None:
    abstract = "<script>alert(1)</script> FooNet reaches 91.2% accuracy on <b>ImageNet</b>."
    draft = ExtractionDraft(claims=[ClaimDraft(value=91.2, unit="%", metric="<img src=x onerror=alert(2)>",
                                               evidence="FooNet reaches 91.2% accuracy")])
    extraction, rejected = ground(draft, abstract, "x1")
    paper = PaperResult(id="x1", title="<i>t</i>", status="ok", abstract=abstract, extraction=extraction, rejected=rejected)
    write_run(tmp_path / "x", [paper], {"backend": "test"})
    html = client(tmp_path / "x").get(f"/?token={TOKEN}").text
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<img src=x" not in html and "<i>t</i>" not in html and "&lt;b&gt;ImageNet" in html


def test_the_page_shows_the_claim_its_number_boxed_and_what_it_lacks(run: Path) -> None:
    acc = claim_id(run, "p1", 83.6)
    html = client(run).get("/", params={"token": TOKEN, "item": acc}).text
    assert '<span class="ev num">83.6</span>' in html
    assert "Unranked: missing subject." in html
    assert html.index('data-field="value"') < html.index('data-field="metric"') < html.index('data-field="evidence"')
    # Another claim's number is faint, and a number no claim holds starts one.
    assert '<span class="free"' in html and 'data-value="27"' in html


def test_a_stale_view_is_answered_with_both_values(run: Path) -> None:
    acc = claim_id(run, "p1", 83.6)
    seen = view(run, acc)
    alice, bob = client(run, "alice"), client(run, "bob")
    ask = {"kind": "claim", "item_id": acc, "paper_id": "p1", "view": seen}
    assert post(alice, "/api/decide", {**ask, "fields": {"metric": "EM accuracy"}, "tab": "1"}).json()["status"] == "applied"
    answer = post(bob, "/api/decide", {**ask, "fields": {"metric": "top-1 accuracy"}, "tab": "2"}).json()
    assert answer["status"] == "conflict"
    [conflict] = answer["conflicts"]
    assert (conflict["theirs"], conflict["yours"], conflict["by"]) == ("EM accuracy", "top-1 accuracy", "alice")
    chosen = post(bob, "/api/decide", {**ask, "view": answer["view"], "fields": {"metric": "top-1 accuracy"}, "tab": "2"}).json()
    assert chosen["status"] == "applied"
    with CorrectionStore(run / STORE_FILE) as db:
        assert [c.new_value for c in db.history() if c.field == "metric"] == ["EM accuracy", "top-1 accuracy"]


def test_a_refused_edit_says_why_at_its_field(run: Path) -> None:
    acc = claim_id(run, "p1", 83.6)
    data = {"kind": "claim", "item_id": acc, "paper_id": "p1", "view": view(run, acc), "fields": {"value": "91.2"}}
    answer = post(client(run), "/api/decide", data).json()
    assert answer["status"] == "refused"
    assert answer["problems"] == [{"field": "value", "message": "value 91.2 is not written in the evidence", "confirm": False}]


def test_undo_and_disagreements_settled_with_a_choice(run: Path) -> None:
    acc = claim_id(run, "p1", 83.6)
    ask = {"kind": "claim", "item_id": acc, "paper_id": "p1"}
    alice, bob = client(run, "alice"), client(run, "bob")
    post(alice, "/api/decide", {**ask, "view": view(run, acc), "decision": "accept"})
    post(bob, "/api/decide", {**ask, "view": view(run, acc), "decision": "reject"})
    result = agreement(load_state(Run.open(run)))
    [disagreement] = result.disagreements
    assert disagreement.field == "decision" and not disagreement.settled
    assert "reviewers disagree" in bob.get(f"/?token={TOKEN}&filter=disagreements").text
    settled = post(bob, "/api/decide", {**ask, "view": view(run, acc), "decision": "accept", "settle": True}).json()
    assert settled["status"] == "applied"
    assert agreement(load_state(Run.open(run))).disagreements[0].settled
    undone = post(bob, "/api/undo", {}).json()
    assert undone["status"] == "applied" and undone["view"]["id"] == acc
    assert load_state(Run.open(run)).targets[acc].decision == "reject"


def test_agreement_per_field(run: Path) -> None:
    acc, memory = claim_id(run, "p1", 83.6), claim_id(run, "p2", 3.2)
    # alice fixes the metric, bob accepts it as it then reads, carol changes it again.
    for reviewer, change in (("alice", {"fields": {"metric": "EM accuracy"}}), ("bob", {"decision": "accept"}),
                             ("carol", {"fields": {"metric": "top-1 accuracy"}})):
        http = client(run, reviewer)
        post(http, "/api/decide", {"kind": "claim", "item_id": acc, "paper_id": "p1", "view": view(run, acc),
                                   **change, "tab": reviewer})
        post(http, "/api/decide", {"kind": "claim", "item_id": memory, "paper_id": "p2", "view": view(run, memory),
                                   "decision": "accept", "tab": reviewer})
    result = agreement(load_state(Run.open(run)))
    fields = {f.field: f for f in result.fields}
    assert (fields["metric"].items, fields["metric"].pairs, fields["metric"].agreeing) == (2, 6, 4)
    assert fields["decision"].percent == 100 and fields["decision"].alpha is None  # one value: undefined
    # By hand: values EM, EM, top-1 on one claim and memory x3 on the other; observed
    # disagreement 2/6, expected 22/30.
    assert fields["metric"].alpha == pytest.approx(1 - (2 / 6) / (22 / 30))
    [disagreement] = result.disagreements
    assert disagreement.field == "metric" and disagreement.said == {
        "alice": "EM accuracy", "bob": "EM accuracy", "carol": "top-1 accuracy"}


@pytest.mark.parametrize(
    ("name", "typed", "parsed"),
    [("value", "83.6%", 83.6), ("value", "1,552", 1552.0), ("value", "abc", "abc"), ("proposed", "yes", True),
     ("aliases", "A; B", ["A", "B"]), ("setting", "1/2", "1/2"), ("metric", "", None), ("metric", " ", " ")],
)
def test_typed_fields_are_parsed_as_the_schema_takes_them(name: str, typed: str, parsed: object) -> None:
    assert parse_field(name, typed) == parsed


def test_words_with_a_number_in_words_start_a_claim(tmp_path: Path) -> None:
    abstract = "FooNet runs three times faster than BarNet."
    write_run(tmp_path / "w", [PaperResult(id="w1", status="ok", abstract=abstract, extraction=None)], {"backend": "test"})
    http = client(tmp_path / "w")
    html = http.get(f"/?token={TOKEN}&mode=paper").text
    assert 'data-value="3"' in html and 'data-evidence="FooNet runs three times faster than BarNet."' in html
    fields = {"value": "3", "unit": "x", "kind": "change", "evidence": "runs three times faster than BarNet"}
    answer = post(http, "/api/decide", {"kind": "claim", "item_id": None, "paper_id": "w1", "view": None, "fields": fields}).json()
    assert answer["status"] == "applied" and answer["view"]["values"]["value"] == 3


def test_an_item_is_shown_where_the_abstract_writes_it(run: Path) -> None:
    html = client(run).get("/", params={"token": TOKEN, "mode": "item", "item": "p2/benchmark/mmlu"}).text
    # MMLU sits in a claim's evidence too: highlighted as this item's all the same.
    assert '<span class="ev oev">MMLU</span>' in html and 'data-field="name"' in html


def test_serve_prints_its_url_at_once_and_rebuilds_the_runs_files_on_sigterm(run: Path) -> None:
    import signal
    import urllib.request

    from extractor.runs.files import REPORT_FILE, REVIEWED_CLAIMS_FILE

    CliRunner().invoke(app, ["report", str(run)])
    assert (run / REPORT_FILE).exists()  # the report's default place: the run directory
    before = {name: (run / name).stat().st_mtime_ns for name in (REPORT_FILE,)}
    server = serve(run)
    try:
        url = server.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and "?token=" in url
        assert urllib.request.urlopen(url).status == 200  # listening as soon as it is printed
    finally:
        server.send_signal(signal.SIGTERM)
        _, err = server.communicate(timeout=120)
    assert server.returncode == 0, err
    assert f"-> {run / REVIEWED_CLAIMS_FILE}" in err and f"-> {run / REPORT_FILE}" in err
    assert (run / REPORT_FILE).stat().st_mtime_ns > before[REPORT_FILE]


def test_review_agreement_command(run: Path) -> None:
    acc = claim_id(run, "p1", 83.6)
    for reviewer, decision in (("alice", "accept"), ("bob", "reject")):
        post(client(run, reviewer), "/api/decide", {"kind": "claim", "item_id": acc, "paper_id": "p1",
                                                     "view": view(run, acc), "decision": decision, "tab": reviewer})
    result = CliRunner().invoke(app, ["review", "agreement", str(run)])
    assert result.exit_code == 0, result.output
    assert "1 item judged by two reviewers or more (alice, bob)" in result.output
    assert "decision: 0% of 1 pair agree on 1 item" in result.output
    assert f"{acc} decision: 'keep' (alice) vs 'reject' (bob)" in result.output


def test_a_decision_about_an_item_of_another_paper_is_refused(run: Path) -> None:
    acc = claim_id(run, "p1", 83.6)
    answer = post(client(run), "/api/decide", {"kind": "claim", "item_id": acc, "paper_id": "p2", "view": view(run, acc),
                                               "decision": "reject"}).json()
    assert answer["status"] == "refused" and "is not an item of paper p2" in answer["messages"][0]
    assert not (run / STORE_FILE).exists()


def test_filters_list_the_unreviewed_the_benchmarks_from_context_and_the_unranked(run: Path) -> None:
    acc, speed = claim_id(run, "p1", 83.6), claim_id(run, "p1", 2.57)
    session = ReviewSession(Run.open(run), "alice")
    http = client(run)
    post(http, "/api/decide", {"kind": "claim", "item_id": speed, "paper_id": "p1", "view": view(run, speed),
                               "fields": {"benchmark": "GSM8K"}})  # written in the abstract, not in its evidence
    post(http, "/api/decide", {"kind": "claim", "item_id": acc, "paper_id": "p1", "view": view(run, acc), "decision": "accept"})
    state = session.state()
    listed = {name: [s.target.id for s in session.listed(state, "claim", name)] for name in ("all", "unreviewed", "context", "unranked")}
    assert len(listed["all"]) == 6 and acc not in listed["unreviewed"] and speed not in listed["unreviewed"]
    assert listed["context"] == [speed]
    assert acc in listed["unranked"] and speed not in listed["unranked"]  # a change is never ranked, nor unranked
    page = session.page("claim", "unreviewed", None)
    assert page["progress"]["listed"] == 4 and page["progress"]["reviewed"] == 2


def test_serve_on_a_port_in_use_is_one_line(run: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = CliRunner().invoke(app, ["review", "serve", str(run), "--reviewer", "alice", "--port", str(port)])
    assert result.exit_code == 2 and f"cannot listen on 127.0.0.1:{port}" in result.output and "--port 0" in result.output


def _alias_rows(run_dir: Path) -> list[tuple]:
    with CorrectionStore(run_dir / STORE_FILE) as db:
        return [(c.target_id, c.field, c.old_value, c.new_value, c.base_value) for c in db.history()]


def _block_line(http: TestClient, item: str) -> str:
    html = http.get("/", params={"token": TOKEN, "item": item}).text
    return html[html.index('<p class="block"') : html.index("</p>", html.index('<p class="block"'))]


def _board_title(run_dir: Path, item: str) -> str:
    """The title of the leaderboard block a claim is ranked in, without what only the whole
    board knows (whether its rows' configurations differ, or all come from one paper)."""
    scores = build_leaderboard(*load_runs([Run.open(run_dir)])).scores
    [title] = scores.loc[scores["claim_id"] == item, "block_title"]
    extras = {CONFIGURATIONS_DIFFER, f"all from {ONE_PAPER}"}
    return " \u00b7 ".join(part for part in title.split(" \u00b7 ") if part not in extras)


def _scene(tmp: Path) -> Path:
    return scene_runs(tmp)[0]


def _names(tmp: Path) -> Path:
    return name_runs(tmp)[0]


@pytest.mark.parametrize(
    ("make", "column", "at", "word", "before", "after", "bad_at", "bad", "reason"),
    [
        (_names, "benchmark_same_as", ("a1", 84.2), "SemEval-2010 Task 8", "RelBench X \u00b7 official score \u2191",
         "SemEval-2010 Task 8 \u00b7 official score \u2191", ("a2", 12.5), "RelBench X",
         "this claim has no benchmark to merge; fill its benchmark first"),
        (_names, "metric_same_as", ("a1", 84.2), "macro-F1", "RelBench X \u00b7 official score \u2191",
         "RelBench X \u00b7 macro-F1 \u2191 (%)", ("a2", 12.5), "macro-F1",
         "this claim has no metric to merge; fill its metric first"),
        (_scene, "setting_condition", ("glow", 40.1), "predicate classification", "SceneSet \u00b7 recall \u2191 (%)",
         "SceneSet \u00b7 recall \u2191 (%) \u00b7 predicate classification", ("glow", 40.1), "object detection",
         "'object detection' is not written in this claim's setting ('predicate classification')"),
        (squad_runs, "block_same_as", ("kite", 77.0), "test", "SQuAD \u00b7 F1 \u2191 (%) \u00b7 dev",
         "SQuAD \u00b7 F1 \u2191 (%)", ("kite", 77.0), "the other one", "'the other one' names no evaluation condition"),
    ],
)
def test_the_boards_words_are_decided_on_the_page_as_on_the_sheet(
    tmp_path: Path, make, column: str, at: tuple, word: str, before: str, after: str, bad_at: tuple, bad: str, reason: str,
) -> None:
    run = make(tmp_path / "page")
    twin = make(tmp_path / "sheet")  # the same run, reviewed through the sheet instead
    item, bad_item = claim_id(run, *at), claim_id(run, *bad_at)
    http = client(run)
    assert f"Block: <b>{before}</b>" in _block_line(http, item)
    ask = {"kind": "claim", "item_id": bad_item, "paper_id": bad_at[0], "view": view(run, bad_item), "fields": {column: bad}}
    refused = post(http, "/api/decide", ask).json()
    assert refused["status"] == "refused" and [p["field"] for p in refused["problems"]] == [column]
    assert refused["problems"][0]["message"].startswith(reason)
    assert _alias_rows(run) == []

    ask = {"kind": "claim", "item_id": item, "paper_id": at[0], "view": view(run, item), "fields": {column: word}}
    assert post(http, "/api/decide", ask).json()["status"] == "applied"
    book = tmp_path / "review.xlsx"
    export_review(Run.open(twin), book)
    edit(book, book, "Claims", item, **{column: word})
    assert not apply_review(book, Run.open(twin), "alice").refused
    [row] = _alias_rows(run)
    assert row[:2] == (item, column) and row[3] == word
    assert _alias_rows(run) == _alias_rows(twin)  # the row the sheet stores
    line = _block_line(http, item)
    assert f"Block: <b>{after}</b>" in line and f"{column}</th><td class=\"value\">{word}</td>" in http.get(
        "/", params={"token": TOKEN, "item": item}).text
    assert _board_title(run, item) == after

    undone = post(http, "/api/undo", {}).json()
    assert undone["status"] == "applied" and undone["view"]["id"] == item
    assert _alias_rows(run)[-1][1:4:2] == (column, None)
    assert f"Block: <b>{before}</b>" in _block_line(http, item)
    assert _board_title(run, item) == before


def test_the_block_line_says_what_the_claim_left_to_its_benchmarks_usual_condition(tmp_path: Path) -> None:
    """A COCO AP that names no split is on the test split, a convention readers take both ways:
    the card says so, and says nothing where the split is written. Made-up abstract."""
    text = "Kite reaches 50.1 AP on COCO and 48.2 AP on COCO test-dev."
    run = tmp_path / "run"
    write_run(run, [name_result("kite", text, [
        dict(value=50.1, metric="AP", benchmark="COCO", method="Kite", evidence="Kite reaches 50.1 AP on COCO"),
        dict(value=48.2, metric="AP", benchmark="COCO", method="Kite", setting="test-dev", evidence="48.2 AP on COCO test-dev"),
    ])], {"backend": "test"})
    http = client(run)
    assert "not stated, taken as the benchmark's usual: split test" in _block_line(http, claim_id(run, "kite", 50.1))
    assert "not stated" not in _block_line(http, claim_id(run, "kite", 48.2))


def test_the_block_line_of_a_number_naming_no_measure_is_the_boards_one_measure(tmp_path: Path) -> None:
    """Two papers report F1 on a benchmark the registry does not know and a third writes a bare
    number: the board ranks it in the F1 block, and the page says so, as the sheet does.
    Made-up abstracts."""
    run = tmp_path / "run"
    write_run(run, [
        name_result(name, f"{name.title()} reaches {written} on Receipt-KIE.", [dict(
            value=value, metric=metric, benchmark="Receipt-KIE", method=name.title(),
            evidence=f"{name.title()} reaches {written} on Receipt-KIE")])
        for name, value, written, metric in (("kite", 91.2, "91.2 F1", "F1"), ("lark", 89.5, "89.5 F1", "F1"),
                                             ("wren", 0.9524, "0.9524", None))
    ], {"backend": "test"})
    http = client(run)
    line = _block_line(http, claim_id(run, "wren", 0.9524))
    assert "Block: <b>Receipt-KIE \u00b7 F1 \u2191 (%)</b>" in line
    assert "not stated, taken as the benchmark's usual: metric F1" in line
    assert _board_title(run, claim_id(run, "wren", 0.9524)) == "Receipt-KIE \u00b7 F1 \u2191 (%)"


def test_the_block_line_says_what_a_reviewer_merged_and_what_no_condition_reads(tmp_path: Path) -> None:
    scene, squad = scene_runs(tmp_path / "scene")[0], squad_runs(tmp_path / "squad")
    assert "not read: predicate classification" in _block_line(client(scene), claim_id(scene, "glow", 40.1))
    kite = claim_id(squad, "kite", 77.0)
    post(client(squad), "/api/decide", {"kind": "claim", "item_id": kite, "paper_id": "kite", "view": view(squad, kite),
                                        "fields": {"block_same_as": "test"}})
    assert "merged in by a reviewer from dev" in _block_line(client(squad), kite)
    # A change is never in a block; the page's key sheet names the four keys.
    run = make_run(tmp_path / "run")
    html = client(run).get("/", params={"token": TOKEN, "item": claim_id(run, "p1", 2.57)}).text
    assert 'id="block"' not in html
    for name, key in WORD_KEYS:
        assert f'data-field="{name}" data-key="{key}"' in html and f"<kbd>{key}</kbd> {name}" in html
    assert set(dict(WORD_KEYS)) == set(ALIAS_FIELDS)
    taken = {key for pairs in FIELD_KEYS.values() for _, key in pairs} | {NOTE_KEY, "a", "x", "A", "I", "P", "U"}
    assert not taken & set(dict(WORD_KEYS).values())
