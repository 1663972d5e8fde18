"""The HTML report: highlights at the grounded spans, escaped text, no network, and the page
as a real browser renders it (headless Chromium, slow)."""

from __future__ import annotations

import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from extractor.runs import Run
from extractor.cli.app import app
from tests.runs import write_run
from extractor.review import apply_review, export_review, load_state
from extractor.report import highlight, render, write_report
from extractor.schema import ClaimDraft, ExtractionDraft, PaperResult

from .test_review import claim_id, drafts, edit, make_run, paper

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "tests" / "artifacts"

HOSTILE = (
    "<script>alert('x')</script> We report 41.5% accuracy and a 2x speedup & more, "
    "while <img src=x onerror=alert(1)> stays text."
)


class _Collector(HTMLParser):
    """Tags, attributes and text of the abstract paragraphs (without the reference numbers)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.abstracts: list[str] = []
        self._depth = 0
        self._in_sup = False

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        if tag == "p" and attributes.get("class") == "abstract":
            self._depth = 1
            self.abstracts.append("")
        elif self._depth and tag == "sup":
            self._in_sup = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "sup":
            self._in_sup = False
        elif tag == "p":
            self._depth = 0

    def handle_data(self, data: str) -> None:
        if self._depth and not self._in_sup:
            self.abstracts[-1] += data


def parse(page: str) -> _Collector:
    collector = _Collector()
    collector.feed(page)
    return collector


@pytest.fixture
def reviewed_run(tmp_path: Path) -> Path:
    """The review test run plus a failed paper and a hostile abstract, with one edit, one
    rejection and one added claim recorded by a reviewer."""
    run = make_run(tmp_path / "run", failed=True)
    hostile = ExtractionDraft(
        claims=[
            ClaimDraft(value=41.5, unit="%", metric="accuracy", evidence="We report 41.5% accuracy and a 2x speedup"),
            ClaimDraft(value=2, unit="x", kind="change", evidence="a 2x speedup & more"),
        ]
    )
    papers = [paper(pid, d) for pid, d in drafts().items()]
    papers.append(PaperResult(id="p3", title="broken <b>", status="failed", error="BackendError: timeout", abstract="Some text."))
    evil = paper("p4", hostile, HOSTILE)
    papers.append(evil.model_copy(update={"title": "<i>hostile</i>"}))
    write_run(run, papers, {"backend": "rules", "finished": "2026-01-01T00:00:00+00:00"})
    book = tmp_path / "review.xlsx"
    export_review(Run.open(run), book)
    edit(book, book, "Claims", claim_id(run, "p1", 83.6), metric="EM accuracy")
    edit(book, book, "Claims", claim_id(run, "p1", 2.57), decision="reject", note="a bound, not a result")
    edit(book, book, "Claims", "new", paper_id="p2", value=13, evidence="Llama-2-13B", metric="size")
    assert apply_review(book, Run.open(run), "alice").counts["applied"] == 3
    return run


def test_highlight_keeps_the_text_and_marks_overlapping_spans() -> None:
    result = paper("p4", ExtractionDraft(claims=[
        ClaimDraft(value=41.5, evidence="We report 41.5% accuracy and a 2x speedup"),
        ClaimDraft(value=2, evidence="a 2x speedup & more"),
    ]), HOSTILE)
    claims = result.extraction.claims
    html = highlight(HOSTILE, claims, {c.id: n for n, c in enumerate(claims, 1)})
    assert "<script>" not in html and "&lt;script&gt;" in html and "&lt;img src=x" in html
    collected = parse(f'<p class="abstract">{html}</p>')
    assert collected.abstracts == [HOSTILE]
    marks = [attrs["data-claims"].split() for tag, attrs in collected.tags if tag == "mark"]
    # Three pieces: the first claim alone, both (the overlap "a 2x speedup"), the second alone.
    assert marks == [[claims[0].id], [claims[0].id, claims[1].id], [claims[1].id]]
    assert re.findall(r'<b class="num">([^<]*)</b>', html) == ["41.5", "2"]
    assert re.findall(r'<sup class="ref">([^<]*)</sup>', html) == ["1", "2"]


def test_report_lists_papers_counts_reviews_rejections_and_failures(reviewed_run: Path) -> None:
    state = load_state(Run.open(reviewed_run))
    page = render(state, "t", {"backend": "rules"})
    collected = parse(page)
    # Every abstract is rendered whole, whatever it contains.
    assert collected.abstracts == [p.abstract for p in state.papers]
    articles = {a["id"]: a for tag, a in collected.tags if tag == "article"}
    assert articles["paper-p3"]["data-failed"] == "1"
    assert articles["paper-p1"]["data-rejected"] == "1" and articles["paper-p1"]["data-reviewed"] == "1"
    assert articles["paper-p4"]["data-failed"] == articles["paper-p4"]["data-rejected"] == "0"
    marked = {i for tag, a in collected.tags if tag == "mark" for i in a["data-claims"].split()}
    claims = {c.id for p in state.papers if p.extraction for c in p.extraction.claims}
    assert marked == claims and len(claims) == 8  # 6 - 1 rejected + 1 added + 2 hostile
    counts = dict(re.findall(r'<li data-count="(\w+)"><b>(\d+)</b>', page))
    assert counts == {"papers": "4", "failed": "1", "claims": "8", "rejected": "1", "reviewed": "3", "stale": "0"}
    assert "rejected by alice" in page and "a bound, not a result" in page
    assert 'class="corrected" title="set by alice' in page and ">EM accuracy<" in page
    assert "added by alice" in page and "BackendError: timeout" in page
    # Untrusted text is escaped everywhere, and nothing is loaded from anywhere.
    assert "<i>hostile</i>" not in page and "&lt;i&gt;hostile&lt;/i&gt;" in page
    assert "<script>alert" not in page and page.count("<script>") == 1
    assert not re.search(r"\b(src|href)\s*=", page.split("<main>")[0] + page.split("</main>")[1])
    assert not any("src" in attrs or "href" in attrs for _, attrs in collected.tags)


def test_report_command(reviewed_run: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    steps: list[tuple[str, int, int]] = []
    write_report(Run.open(reviewed_run), out, step=lambda *s: steps.append(s))
    assert steps[0] == ("rendering papers", 0, 4) and steps[-1] == ("rendering papers", 4, 4)
    result = CliRunner().invoke(app, ["report", str(reviewed_run), "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    assert "4 papers (1 failed), 8 claims, 1 rejected, 3 reviewed" in result.output
    assert out.read_text(encoding="utf-8").startswith("<!doctype html>")


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _chromium(url: str, profile: Path, *args: str) -> str:
    command = [
        CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
        *args, url,
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
    return done.stdout


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install -y chromium)")
def test_report_in_headless_chromium(reviewed_run: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    write_report(Run.open(reviewed_run), out)
    url = out.resolve().as_uri()
    dom = _chromium(url, tmp_path / "profile", "--dump-dom")
    # The script ran: it filled the counter; the highlights and counts are in the live DOM.
    assert 'id="shown">showing 4 of 4 papers<' in dom
    assert len(re.findall(r"<mark ", dom)) >= 8
    assert '<li data-count="claims"><b>8</b> claims</li>' in dom
    assert "<script>alert" not in dom
    # The filter, set from the address, hides the papers without failures.
    filtered = _chromium(url + "#failed", tmp_path / "profile", "--dump-dom")
    assert 'id="shown">showing 1 of 4 papers<' in filtered
    hidden = set(re.findall(r'<article class="paper(?: failed)? hidden" id="([^"]+)"', filtered))
    assert hidden == {"paper-p1", "paper-p2", "paper-p4"}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shot = ARTIFACTS / "report.png"
    shot.unlink(missing_ok=True)
    _chromium(url, tmp_path / "profile", f"--screenshot={shot}", "--window-size=1400,1400", "--hide-scrollbars")
    assert shot.stat().st_size > 10_000 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
