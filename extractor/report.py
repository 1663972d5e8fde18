"""``extractor report``: one self-contained HTML page to read a run.

Each paper shows its abstract with the evidence of every claim highlighted in place (``<mark>``
at the grounded spans, the number itself in bold), the extracted fields beside it, reviewed
items marked with who and when, rejected items with their reasons, and failures. Each claim
shows its id as review.xlsx does (the paper id in the heading, ``#`` and the claim's part in the
row). A search box and checkboxes (failures, rejected items, reviewed, unreviewed, with claims;
each one checked narrows the list) pick papers. The layout holds from a phone (390 px: one
column, claim rows as cards) to a desktop without sideways scrolling. The page needs no
network: CSS and script are inline and a Content-Security-Policy forbids loading anything.
Abstracts are untrusted, so every text taken from a run goes through
:func:`~extractor.text.safe.html_text` (escaped, control characters made visible).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path

from extractor.atomic import atomic_write_text
from extractor.progress import Step, silent, tracked
from extractor.review import ReviewState, load_state
from extractor.review.corrected import ReviewMark, item_id
from extractor.runs.run import Run
from extractor.schema import Claim, PaperResult, Rejection
from extractor.text.safe import html_text

CLAIM_FIELDS = ("value", "bound", "unit", "metric", "benchmark", "method", "model", "baseline", "setting", "kind")
ALWAYS = ("value", "unit", "metric", "kind")

STYLE = """
:root { --ink:#1f2328; --muted:#656d76; --line:#d0d7de; --mark:#fff3b0; --num:#9a3412;
        --ok:#1a7f37; --bad:#cf222e; --rev:#0969da; --stale:#9a6700; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink);
       margin: 0; background: #f6f8fa; }
header { position: sticky; top: 0; z-index: 2; background: #fff; border-bottom: 1px solid var(--line);
         padding: .6rem 1.2rem; }
@media (max-width: 700px), (max-height: 600px) { header { position: static; } }
h1 { font-size: 1.2rem; margin: 0 0 .3rem; }
.run { color: var(--muted); font-size: .85rem; }
.counts { display: flex; flex-wrap: wrap; gap: .4rem 1.2rem; list-style: none; padding: 0; margin: .4rem 0; }
.counts b { font-size: 1.1rem; }
.filters { display: flex; flex-wrap: wrap; gap: .3rem 1rem; align-items: center; font-size: .9rem; }
.filters label { cursor: pointer; white-space: nowrap; }
#search { font: inherit; padding: .2rem .5rem; border: 1px solid var(--line); border-radius: 4px;
          width: 18rem; max-width: 100%; }
#shown { color: var(--muted); margin-left: auto; }
main { padding: 1rem 1.2rem; display: grid; grid-template-columns: minmax(0, 1fr); gap: 1rem; }
article { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .8rem 1rem;
          min-width: 0; overflow-wrap: anywhere; }
article.hidden { display: none; }
article.failed { border-left: 4px solid var(--bad); }
h2 { font-size: 1rem; margin: 0 0 .4rem; }
.pid { color: var(--muted); font: .8rem ui-monospace, monospace; margin-left: .4rem; }
.cols { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1.1fr); gap: 1rem; }
@media (max-width: 900px) { .cols { grid-template-columns: minmax(0, 1fr); } }
@media (max-width: 600px) {
  body { font-size: 14px; } header, main { padding-left: .6rem; padding-right: .6rem; }
  article { padding: .6rem; } .counts { gap: .2rem .8rem; font-size: .85rem; } #shown { margin-left: 0; }
}
.abstract { margin: 0; white-space: pre-wrap; }
mark { background: var(--mark); border-radius: 2px; padding: 0 1px; }
mark.on { outline: 2px solid var(--rev); }
mark .num { color: var(--num); }
sup.ref { color: var(--rev); font-size: .7rem; margin-left: 1px; }
table { border-collapse: collapse; width: 100%; font-size: .85rem; }
th, td { border-bottom: 1px solid var(--line); padding: .2rem .35rem; text-align: left; vertical-align: top;
         overflow-wrap: anywhere; }
.cid { display: block; color: var(--muted); font: .7rem ui-monospace, monospace; }
@media (max-width: 1100px) {
  /* The claim table as cards: one field a line, its name beside it. */
  table.claims thead { display: none; }
  table.claims, table.claims tbody, table.claims tr, table.claims td { display: block; width: 100%; }
  table.claims tr { border: 1px solid var(--line); border-radius: 4px; margin: 0 0 .4rem; }
  table.claims td { display: flex; gap: .5rem; border: 0; padding: .1rem .4rem; }
  table.claims td::before { content: attr(data-label); color: var(--muted); flex: 0 0 5.5rem; }
  table.claims .cid { display: inline; margin-left: .4rem; }
}
th { color: var(--muted); font-weight: 600; }
tr.on td { background: #ddf4ff; }
td.corrected { background: #ddf4ff; font-weight: 600; }
.badge { display: inline-block; border-radius: 10px; padding: 0 .45rem; font-size: .75rem; margin-left: .3rem;
         border: 1px solid currentColor; }
.badge.failed, .badge.rejected { color: var(--bad); }
.badge.reviewed { color: var(--rev); }
.badge.stale { color: var(--stale); }
.items { margin: .5rem 0 0; font-size: .85rem; }
.items dt { color: var(--muted); float: left; clear: left; width: 6.5rem; }
.items dd { margin: 0 0 .15rem 6.5rem; }
.error { color: var(--bad); font-family: ui-monospace, monospace; font-size: .85rem; }
details.rejections { margin-top: .5rem; font-size: .85rem; }
details.rejections li { margin: .15rem 0; }
.reason { color: var(--bad); }
.empty { color: var(--muted); font-style: italic; }
"""

SCRIPT = """
(function () {
  var papers = Array.prototype.slice.call(document.querySelectorAll('article.paper'));
  var boxes = Array.prototype.slice.call(document.querySelectorAll('.filters input[data-filter]'));
  var search = document.getElementById('search');
  var shown = document.getElementById('shown');
  var texts = papers.map(function (p) { return p.textContent.toLowerCase(); });
  function apply() {
    var on = boxes.filter(function (b) { return b.checked; }).map(function (b) { return b.dataset.filter; });
    var words = search.value.toLowerCase().split(/\\s+/).filter(Boolean);
    var n = 0;
    papers.forEach(function (p, i) {
      var keep = on.every(function (f) { return p.dataset[f] === '1'; }) &&
        words.every(function (w) { return texts[i].indexOf(w) >= 0; });
      p.classList.toggle('hidden', !keep);
      if (keep) { n++; }
    });
    shown.textContent = 'showing ' + n + ' of ' + papers.length + ' papers';
  }
  boxes.forEach(function (b) {
    if (location.hash.slice(1).split(',').indexOf(b.dataset.filter) >= 0) { b.checked = true; }
    b.addEventListener('change', apply);
  });
  search.addEventListener('input', apply);
  function light(claim, on) {
    document.querySelectorAll('[data-claims~="' + claim + '"], tr[data-claim="' + claim + '"]')
      .forEach(function (el) { el.classList.toggle('on', on); });
  }
  document.querySelectorAll('tr[data-claim]').forEach(function (row) {
    row.addEventListener('mouseenter', function () { light(row.dataset.claim, true); });
    row.addEventListener('mouseleave', function () { light(row.dataset.claim, false); });
  });
  apply();
})();
"""

CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'"


_e = html_text


def highlight(abstract: str, claims: list[Claim], refs: dict[str, int]) -> str:
    """The abstract as HTML with each claim's evidence in ``<mark>`` and its number in bold.

    Evidence spans may overlap (two numbers of one sentence), so the text is cut at every span
    boundary and each piece is marked with the claims that cover it; a reference number follows
    the end of each claim's evidence.
    """
    cuts = {0, len(abstract)}
    for claim in claims:
        cuts.update((*claim.span, *claim.value_span))
    points = sorted(c for c in cuts if 0 <= c <= len(abstract))

    def covering(start: int, end: int) -> tuple[str, ...]:
        return tuple(c.id for c in claims if c.span[0] <= start and end <= c.span[1])

    pieces = [(start, end, covering(start, end)) for start, end in zip(points, points[1:])]
    out = []
    for ids, group in groupby(pieces, key=lambda piece: piece[2]):
        inner = []
        for start, end, _ in group:
            text = _e(abstract[start:end])
            if any(c.value_span[0] <= start and end <= c.value_span[1] for c in claims if c.id in ids):
                text = f'<b class="num">{text}</b>'
            inner.append(text)
            ending = [refs[c.id] for c in claims if c.span[1] == end and c.id in ids]
            if ending and ids:
                inner.append(f'<sup class="ref">{",".join(map(str, ending))}</sup>')
        if ids:
            label = "claim " + ", ".join(str(refs[i]) for i in ids)
            out.append(f'<mark data-claims="{_e(" ".join(ids))}" title="{_e(label)}">{"".join(inner)}</mark>')
        else:
            out.append("".join(inner))
    return "".join(out)


def _badge(mark: ReviewMark | None) -> str:
    if mark is None:
        return ""
    title = mark.at + (f": {mark.note}" if mark.note else "")
    badge = f'<span class="badge reviewed" title="{_e(title)}">{_e(mark.verb)} by {_e(mark.reviewer)}</span>'
    if mark.stale:
        badge += f'<span class="badge stale" title="{_e(mark.stale)}">stale</span>'
    return badge


def _claims_table(claims: list[Claim], refs: dict[str, int], marks: dict[str, ReviewMark]) -> str:
    if not claims:
        return '<p class="empty">no claims</p>'
    # Only the columns this paper's claims fill, so the table fits beside the abstract.
    fields = [f for f in CLAIM_FIELDS if f in ALWAYS or any(getattr(c, f) for c in claims)]
    head = "".join(f"<th>{name}</th>" for name in ("#", *fields, "review"))
    rows = []
    for claim in claims:
        mark = marks.get(claim.id)
        corrected = mark.fields if mark else {}
        # The id as review.xlsx shows it: the paper id (in the heading), '#', the claim's part.
        own = "#" + claim.id.rpartition("#")[2]
        cells = [f'<td data-label="#">{refs[claim.id]}<span class="cid" title="{_e(claim.id)}">{_e(own)}</span></td>']
        for name in fields:
            value = getattr(claim, name)
            if name == "value":
                value = f"{claim.value:g}" + (f"–{claim.value_max:g}" if claim.value_max is not None else "")
            elif name == "kind" and claim.direction:
                value = f"{claim.kind} ({claim.direction})"
            stamp = corrected.get(name) or (corrected.get("value_max") if name == "value" else None)
            if stamp:
                title = f"set by {stamp.reviewer} {stamp.at}"
                cells.append(f'<td data-label="{name}" class="corrected" title="{_e(title)}">{_e(value)}</td>')
            else:
                cells.append(f'<td data-label="{name}">{_e(value)}</td>')
        cells.append(f'<td data-label="review">{_badge(mark)}</td>')
        rows.append(f'<tr data-claim="{_e(claim.id)}" id="{_e(claim.id)}">{"".join(cells)}</tr>')
    return f'<table class="claims"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def _items(paper: PaperResult, marks: dict[str, ReviewMark]) -> str:
    extraction = paper.extraction
    if extraction is None:
        return ""
    lists = []
    for kind, items in (("method", extraction.methods), ("model", extraction.models), ("benchmark", extraction.benchmarks)):
        shown = []
        for item in items:
            text = _e(item.name)
            if kind == "method" and item.aliases:
                text += " (" + _e(", ".join(item.aliases)) + ")"
            if kind == "method" and not item.proposed:
                text += " <small>baseline</small>"
            if kind == "model" and item.params_b is not None:
                text += f" <small>{item.params_b:g}B" + (f", {item.active_params_b:g}B active" if item.active_params_b else "") + "</small>"
            shown.append(text + _badge(marks.get(item_id(paper.id, kind, item.name))))
        lists.append(f"<dt>{kind}s</dt><dd>{', '.join(shown) if shown else '<span class=empty>none</span>'}</dd>")
    return f'<dl class="items">{"".join(lists)}</dl>'


def _rejection(rejection: Rejection) -> str:
    item = rejection.item
    what = item.get("name")
    if what is None:
        value = item.get("value")
        what = f"{value:g}" if isinstance(value, (int, float)) else str(value)
        if item.get("evidence"):
            what += f" “{item['evidence']}”"
    return f"<li><b>{_e(rejection.field)}</b> {_e(what)}: <span class=\"reason\">{_e(rejection.reason)}</span></li>"


def _paper(paper: PaperResult, marks: dict[str, ReviewMark]) -> str:
    claims = paper.extraction.claims if paper.extraction else []
    refs = {c.id: n for n, c in enumerate(claims, start=1)}
    failed = paper.status == "failed"
    reviewed = any(m.paper_id == paper.id for m in marks.values())
    flags = " ".join(
        f'data-{name}="{int(bool(on))}"'
        for name, on in (("failed", failed), ("rejected", paper.rejected), ("reviewed", reviewed),
                         ("unreviewed", not reviewed), ("claims", claims))
    )
    badges = ""
    if failed:
        badges += '<span class="badge failed">failed</span>'
    if paper.rejected:
        badges += f'<span class="badge rejected">{len(paper.rejected)} rejected</span>'
    badges += _badge(marks.get(paper.id))
    title = _e(paper.title or "(untitled)")
    parts = [f'<h2>{title}<span class="pid">{_e(paper.id)}</span>{badges}</h2>']
    if paper.error:
        parts.append(f'<p class="error">{_e(paper.error)}</p>')
    abstract = highlight(paper.abstract, claims, refs) if paper.abstract else '<span class="empty">no abstract</span>'
    side = _claims_table(claims, refs, marks) + _items(paper, marks)
    if paper.rejected:
        items = "".join(_rejection(r) for r in paper.rejected)
        side += f'<details class="rejections" open><summary>{len(paper.rejected)} rejected</summary><ul>{items}</ul></details>'
    parts.append(f'<div class="cols"><p class="abstract">{abstract}</p><div>{side}</div></div>')
    classes = "paper failed" if failed else "paper"
    return f'<article class="{classes}" id="paper-{_e(paper.id)}" {flags}>{"".join(parts)}</article>'


@dataclass(frozen=True)
class Counts:
    papers: int
    failed: int
    claims: int
    rejected: int
    reviewed: int
    stale: int

    @classmethod
    def of(cls, state: ReviewState) -> Counts:
        return cls(
            papers=len(state.papers),
            failed=sum(p.status == "failed" for p in state.papers),
            claims=sum(len(p.extraction.claims) for p in state.papers if p.extraction),
            rejected=sum(len(p.rejected) for p in state.papers),
            reviewed=len(state.marks),
            stale=len(state.stale),
        )


def _counts(counts: Counts) -> str:
    items = [(name, getattr(counts, name)) for name in ("papers", "failed", "claims", "rejected", "reviewed", "stale")]
    labels = {"reviewed": "reviewed items", "rejected": "rejected items"}
    return '<ul class="counts" id="counts">' + "".join(
        f'<li data-count="{name}"><b>{n}</b> {labels.get(name, name)}</li>' for name, n in items
    ) + "</ul>"


FILTERS = (
    ("failed", "failures"),
    ("rejected", "rejected items"),
    ("claims", "has claims"),
    ("reviewed", "reviewed"),
    ("unreviewed", "unreviewed"),
)


def render(state: ReviewState, title: str, run_info: dict, step: Step = silent) -> str:
    """The whole page as one string."""
    about = ", ".join(
        f"{k} {run_info[k]}" for k in ("backend", "model", "finished") if run_info.get(k)
    )
    filters = "".join(
        f'<label><input type="checkbox" data-filter="{key}"> {label}</label>' for key, label in FILTERS
    )
    papers: Iterable[str] = (_paper(p, state.marks) for p in tracked(state.papers, "rendering papers", step))
    return (
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)}</title><style>{STYLE}</style></head><body>"
        f'<header><h1>{_e(title)}</h1><div class="run">{_e(about)}</div>{_counts(Counts.of(state))}'
        '<div class="filters"><input type="search" id="search" placeholder="search ids, names, text" '
        f'aria-label="search papers"> Show only papers with: {filters}<span id="shown"></span></div></header>'
        f"<main>{''.join(papers)}</main><script>{SCRIPT}</script></body></html>\n"
    )


def write_report(run: Run, out: Path, step: Step = silent) -> Counts:
    """Write the report of a run (with its corrections) to ``out``; returns its counts."""
    state = load_state(run)
    title = f"extractor report: {run.path.resolve().name}"
    atomic_write_text(Path(out), render(state, title, run.info(), step))
    return Counts.of(state)
