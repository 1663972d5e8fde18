"""The review page in a real browser: Debian's Chromium driven by Playwright (its own browser
download is not used; each launch gets a new, empty profile). Slow: run by .ci/run.

On a run of 10 claims, a keyboard-only pass leaves exactly its rows in the store and in
claims.reviewed.csv; typed text round-trips byte for byte; two tabs on one claim show the
conflict and lose nothing; a digit settles a disagreement with the value chosen; the page fits
1366x768 without sideways scrolling; a request without the token, or from another origin, is
refused.
"""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from extractor.api import write_leaderboard
from extractor.grounding import ground
from extractor.runs.corrections import CorrectionStore
from extractor.runs import Run
from extractor.runs.files import REVIEWED_CLAIMS_FILE, RUN_LEADERBOARD, STORE_FILE
from extractor.schema import ClaimDraft, ExtractionDraft, Method, PaperResult
from tests.runs import write_run
from tests.test_review_conditions import squad_runs
from tests.test_review_page import serve

pytestmark = pytest.mark.slow

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]
A = (
    "We fine-tune LLaMA with 1/2 of the data. TinyTune reaches 93--96% accuracy on MMLU and 71.0% on GSM8K, "
    "and is 2.5x faster than LoRA. Peak memory drops to 12 GB."
)
B = (
    "BarNet reaches 88.5 F1 on SQuAD 2.0 and 80.1 EM. It runs three times faster than BERT and uses 30% less memory."
)
C = "FooNet scores 45.2 BLEU on WMT14 and 38.1 BLEU on WMT16, a gain of 1.7 points over the Transformer."


def papers() -> list[PaperResult]:
    drafts = {
        "a1": (A, ExtractionDraft(methods=[Method(name="TinyTune")], claims=[
            ClaimDraft(value=93, value_max=96, unit="%", metric="accuracy", benchmark="MMLU",
                       evidence="TinyTune reaches 93--96% accuracy on MMLU"),
            ClaimDraft(value=71.0, unit="%", benchmark="GSM8K", evidence="71.0% on GSM8K"),
            ClaimDraft(value=2.5, unit="x", kind="change", baseline="LoRA", evidence="2.5x faster than LoRA"),
            ClaimDraft(value=12, unit="GB", metric="memory", evidence="Peak memory drops to 12 GB"),
        ])),
        "b1": (B, ExtractionDraft(claims=[
            ClaimDraft(value=88.5, metric="F1", evidence="BarNet reaches 88.5 F1"),
            ClaimDraft(value=80.1, metric="EM", evidence="80.1 EM"),
            ClaimDraft(value=30, unit="%", kind="change", direction="decrease", evidence="uses 30% less memory"),
        ])),
        "c1": (C, ExtractionDraft(claims=[
            ClaimDraft(value=45.2, metric="BLEU", benchmark="WMT14", evidence="FooNet scores 45.2 BLEU on WMT14"),
            ClaimDraft(value=38.1, metric="BLEU", benchmark="WMT16", evidence="38.1 BLEU on WMT16"),
            ClaimDraft(value=1.7, unit="points", kind="change", baseline="Transformer", evidence="a gain of 1.7 points over the Transformer"),
        ])),
    }
    out = []
    for paper_id, (abstract, draft) in drafts.items():
        extraction, rejected = ground(draft, abstract, paper_id)
        assert not rejected, rejected
        out.append(PaperResult(id=paper_id, title=f"Paper {paper_id}", status="ok", abstract=abstract,
                               extraction=extraction, rejected=rejected))
    return out


@pytest.fixture
def run(tmp_path: Path) -> Path:
    run_dir = tmp_path / "run"
    write_run(run_dir, papers(), {"backend": "test"})
    return run_dir


@contextmanager
def serving(run_dir: Path) -> Iterator[tuple[subprocess.Popen, str]]:
    """``extractor review serve`` as a user starts it; yields it and its URL; stopped with SIGTERM."""
    process = serve(run_dir, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    url = process.stdout.readline().strip()
    assert url.startswith("http://127.0.0.1:"), process.stderr.read()
    try:
        yield process, url
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=120)


@pytest.fixture
def server(run: Path):
    with serving(run) as started:
        yield started


@pytest.fixture
def browser():
    playwright = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    with playwright.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield chromium
        chromium.close()


def open_page(browser, url: str):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.goto(url)
    return page


def press(page, key: str) -> None:
    """A key that leaves the page (next item, or the same one reloaded)."""
    with page.expect_navigation():
        page.keyboard.press(key)


def type_field(page, key: str, text: str) -> None:
    page.keyboard.press(key)
    page.wait_for_selector("td.value input")
    page.keyboard.press("Control+a")
    page.keyboard.type(text)
    press(page, "Enter")


def current(page) -> str:
    return page.get_attribute("#main", "data-item")


def claim_ids(run: Path) -> dict[float, str]:
    from tests.runs import read_papers

    return {c.value: c.id for p in read_papers(run) for c in p.extraction.claims}


def store_rows(run: Path) -> list[tuple]:
    with CorrectionStore(run / STORE_FILE) as db:
        return [(c.target_id, c.field, c.new_value) for c in db.history()]


def test_a_keyboard_only_pass_leaves_exactly_its_rows(run: Path, server, browser, tmp_path: Path) -> None:
    process, url = server
    ids = claim_ids(run)
    page = open_page(browser, url)
    assert current(page) == ids[93]
    # Fix by typing: two fields, each its key, the text and Enter; then on to the next claim.
    type_field(page, "s", "1/2")
    type_field(page, "o", "LLaMA")
    press(page, "ArrowRight")
    assert current(page) == ids[71.0]
    press(page, "a")  # accept, next
    press(page, "x")  # reject, next; a digit right after gives the reason
    page.keyboard.press("1")
    page.wait_for_selector("#messages p")
    assert current(page) == ids[12]
    type_field(page, "m", "peak memory")
    press(page, "ArrowDown")  # the next paper
    assert current(page) == ids[88.5]
    # Fix by selecting words: the benchmark is exactly the words selected.
    page.evaluate("""() => {
        const node = [...document.querySelectorAll('#abstract')][0];
        const text = node.textContent, at = text.indexOf('SQuAD 2.0');
        const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
        let seen = 0, start = null, end = null;
        while (walker.nextNode()) {
            const t = walker.currentNode, n = t.textContent.length;
            if (start === null && at < seen + n) start = [t, at - seen];
            if (at + 9 <= seen + n) { end = [t, at + 9 - seen]; break; }
            seen += n;
        }
        const range = document.createRange();
        range.setStart(...start); range.setEnd(...end);
        getSelection().removeAllRanges(); getSelection().addRange(range);
    }""")
    press(page, "b")
    assert page.inner_text('tr[data-field="benchmark"] td.value') == "SQuAD 2.0"
    # A new claim from a number: '+' walks the numbers no claim holds, Enter starts one.
    for _ in range(6):
        page.keyboard.press("+")
        if page.evaluate("document.activeElement.textContent") == "three":
            break
    page.keyboard.press("Enter")
    page.wait_for_selector("#newclaim:not([hidden])")
    page.keyboard.type("x")  # the unit; value and evidence came from the number
    for _ in range(7):
        page.keyboard.press("Tab")
    page.keyboard.type("change")  # kind
    press(page, "Enter")
    added = current(page)
    assert added not in ids.values()
    press(page, "ArrowLeft")  # an added claim comes after its paper's extracted ones
    assert current(page) == ids[30]
    press(page, "a")
    with page.expect_navigation():
        page.keyboard.press("Backspace")  # undo: the accept just made
    assert current(page) == ids[30]

    rows = store_rows(run)
    reason = "not a result of this paper"
    expected = [
        (ids[93], "setting", "1/2"), (ids[93], "decision", "edit"), (ids[93], "model", "LLaMA"),
        (ids[71.0], "decision", "accept"),
        (ids[2.5], "decision", "reject"), (ids[2.5], "note", reason),
        (ids[12], "metric", "peak memory"), (ids[12], "decision", "edit"),
        (ids[88.5], "benchmark", "SQuAD 2.0"), (ids[88.5], "decision", "edit"),
        (added, "added", rows[10][2]),
        (ids[30], "decision", "accept"), (ids[30], "decision", None),
    ]
    assert rows == expected
    assert rows[10][2]["value"] == 3 and rows[10][2]["unit"] == "x" and rows[10][2]["kind"] == "change"

    process.send_signal(signal.SIGTERM)  # stops, rebuilding the run's files
    assert process.wait(timeout=120) == 0
    raw = (run / REVIEWED_CLAIMS_FILE).read_bytes()
    with (run / REVIEWED_CLAIMS_FILE).open(encoding="utf-8", newline="") as handle:
        reviewed = {row["claim_id"]: row for row in csv.DictReader(handle)}
    assert set(reviewed) == (set(ids.values()) - {ids[2.5]}) | {added}
    assert reviewed[ids[93]]["model"] == "LLaMA" and reviewed[ids[93]]["setting"] == "1/2"
    assert "93--96" in reviewed[ids[93]]["evidence"]
    assert b"LLaMA" in raw and b",1/2," in raw and b"93--96" in raw  # byte for byte, as typed
    assert reviewed[ids[12]]["metric"] == "peak memory" and reviewed[ids[88.5]]["benchmark"] == "SQuAD 2.0"


def test_two_tabs_on_one_claim_show_the_conflict_and_lose_nothing(run: Path, server, browser) -> None:
    _, url = server
    first, second = open_page(browser, url), open_page(browser, url)
    assert current(first) == current(second)
    type_field(first, "m", "top-1 accuracy")
    second.keyboard.press("m")
    second.keyboard.press("Control+a")
    second.keyboard.type("accuracy (5 runs)")
    second.keyboard.press("Enter")
    panel = second.wait_for_selector("#conflict:not([hidden])")
    text = panel.inner_text()
    assert "top-1 accuracy" in text and "accuracy (5 runs)" in text
    with second.expect_navigation():
        second.keyboard.press("2")  # keep mine
    assert second.inner_text('tr[data-field="metric"] td.value') == "accuracy (5 runs)"
    metrics = [value for _, field, value in store_rows(run) if field == "metric"]
    assert metrics == ["top-1 accuracy", "accuracy (5 runs)"]


def board_rows(run_dir: Path) -> list[dict]:
    """The Leaderboard sheet of the run's leaderboard.xlsx, a dict per row."""
    from openpyxl import load_workbook

    sheet = load_workbook(run_dir / RUN_LEADERBOARD)["Leaderboard"]
    header = [c.value for c in sheet[2]]
    return [dict(zip(header, (c.value for c in row))) for row in sheet.iter_rows(min_row=3)]


def test_two_blocks_made_one_by_keys_are_one_in_the_leaderboard_rebuilt_on_exit(tmp_path: Path, browser) -> None:
    run = squad_runs(tmp_path)  # SQuAD F1 on the dev set (Kite) and on the test set (Lark)
    write_leaderboard(Run.open(run))
    assert sorted(r["Conditions"] or "" for r in board_rows(run)) == ["", "dev"]
    with serving(run) as (process, url):
        page = open_page(browser, url)
        kite = claim_ids(run)[77.0]
        assert current(page) == kite
        assert "SQuAD \u00b7 F1 \u2191 (%) \u00b7 dev" in page.inner_text("#block")
        page.keyboard.press("?")
        assert "block_same_as" in page.inner_text("#keys")
        page.keyboard.press("Escape")
        page.keyboard.press("J")
        page.wait_for_selector("td.value input")
        page.keyboard.type("the other one")
        page.keyboard.press("Enter")  # refused: the reason under the field, the text kept
        problem = page.wait_for_selector('tr.problem[data-for="block_same_as"]:not([hidden])')
        assert "'the other one' names no evaluation condition" in problem.inner_text()
        assert page.input_value("td.value input") == "the other one"
        page.keyboard.press("Control+a")
        page.keyboard.type("test")
        press(page, "Enter")
        assert page.inner_text('tr[data-field="block_same_as"] td.value') == "test"
        assert "merged in by a reviewer from dev" in page.inner_text("#block")
        process.send_signal(signal.SIGTERM)  # stops, rebuilding the run's files
        assert process.wait(timeout=120) == 0
    rows = board_rows(run)
    assert [r["Conditions"] or "" for r in rows] == ["", ""] and [r["Rank"] for r in rows] == [1, 2]
    assert rows[0]["Block"] == rows[1]["Block"] and "1 of 2 rows merged in by a reviewer" in rows[0]["Block"]
    assert [f for _, f, _ in store_rows(run)] == ["block_same_as"]


def test_the_page_fits_a_laptop_screen(server, browser, tmp_path: Path) -> None:
    _, url = server
    page = open_page(browser, url)
    shot = Path(os.environ.get("REVIEW_SCREENSHOT", tmp_path / "review-1366x768.png"))
    page.screenshot(path=str(shot))
    width, client = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width <= client == 1366
    assert page.is_visible("span.num") and page.is_visible('tr[data-field="evidence"]')


def test_requests_without_the_token_or_from_another_origin_are_refused(server, run: Path) -> None:
    _, url = server
    base = url.split("?")[0]
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(base)
    assert refused.value.code == 403
    claim = next(iter(claim_ids(run).values()))
    body = json.dumps({"kind": "claim", "item_id": claim, "paper_id": "a1", "view": None, "decision": "reject"}).encode()
    token = url.split("token=")[1]
    request = urllib.request.Request(
        f"{base}api/decide?token={token}", data=body, method="POST",
        headers={"Origin": "http://evil.example", "Content-Type": "application/json", "X-CSRF-Token": "guess"},
    )
    with pytest.raises(urllib.error.HTTPError) as foreign:
        urllib.request.urlopen(request)
    assert foreign.value.code == 403
    assert not (run / STORE_FILE).exists()


def _disagree(run: Path, claim: str, values: dict[str, str]) -> None:
    """Reviewers each set the claim's metric, from the view each was shown."""
    from extractor.review import load_state
    from extractor.review.apply import view_of
    from extractor.review.record import decide
    from extractor.runs import Run

    for reviewer, metric in values.items():
        state = load_state(Run.open(run))
        target = state.targets[claim]
        abstract = next(p.abstract for p in state.papers if p.id == target.target.paper_id)
        decide(Run.open(run), reviewer, kind="claim", item_id=claim, paper_id=target.target.paper_id,
               view=view_of(target, abstract), decision="edit", fields={"metric": metric})


def test_a_digit_settles_a_disagreement_with_the_value_chosen_as_written(run: Path, server, browser) -> None:
    _, url = server
    claim = claim_ids(run)[45.2]
    chosen = 'BLEU" hidden data-x="'  # a reviewer's value that would break out of an attribute
    _disagree(run, claim, {"bob": chosen, "carol": "sacreBLEU"})
    page = open_page(browser, url + "&filter=disagreements")
    assert current(page) == claim and page.is_visible("#disagree .choice[data-n='1']")
    with page.expect_navigation():
        page.keyboard.press("1")
    assert [value for _, field, value in store_rows(run) if field == "metric"][-1] == chosen
