"""The leaderboard: normalized claims from one or more runs, ranked and exported.

:func:`build_leaderboard` is the one entry point (the ``leaderboard`` command, ``extractor run``
and the review tools all call it): it merges papers, counts each claim once, normalizes names,
units and settings, ranks absolute scores within blocks of comparable numbers (the
``comparability_key`` of :mod:`extractor.catalog.normalize`: same benchmark, metric, unit and
evaluation conditions, joined as :mod:`extractor.catalog.blocks` says) by the metric's
direction, sends changes over a baseline to their own table with a verdict, and flags
conflicts (the same entry, ``identity_key``, reported with different values by different
papers; never averaged). A model's size and the rest of a setting (a configuration, a cost)
are shown on the row, never a block of their own; a block says which conditions it holds,
and when its rows' configurations, or their setting words no condition reads, differ.

A score is ranked only when its metric, benchmark and subject (method or model) are all known
and it is one comparable, measured number (not a range, not a bound such as 'less than 10%');
every other score is listed as unranked with what it lacks. A score that names no metric takes
its benchmark's one measure, the registry's or, where the registry knows none, the one the
board's ranked scores on it are in (:class:`BoardMeasures`, read once every score is).
The writers are :mod:`.tables` (CSV), :mod:`.xlsx` and :mod:`.charts`; :mod:`.export` picks
one by the output's name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import NamedTuple

import pandas as pd

from extractor.catalog.blocks import Joined, join_keys, reviewer_merges
from extractor.catalog.conditions import by_name
from extractor.catalog.registry import is_cost
from extractor.leaderboard.spool import SortedSpool, Spool
from extractor.catalog.normalize import (
    Aliases,
    NormalizedClaim,
    arxiv_id,
    entity_key,
    key_label,
    may_name_a_part,
    normalize_claim,
)
from extractor.text.name_keys import name_in_text
from extractor.pipeline.dedupe import abstract_hash
from extractor.progress import Step, silent, tracked
from extractor.review import Stamp, reviewed_papers
from extractor.runs.run import Run
from extractor.runs.names import ALIAS_FIELDS, model_aliases, name_aliases
from extractor.schema import Claim, Model, PaperResult
from extractor.text.counting import counted
from extractor.text.labels import paper_label

NO_METRIC = "metric not stated"
PROPOSED = " (proposed)"  # after a method the paper itself proposes
FROM_CONTEXT = "from context"  # a benchmark not written in the claim's own evidence
ONE_PAPER = "one paper"

#: Review marks: {claim id or paper id: {field: who, when, the value before and after}}.
Marks = Mapping[str, Mapping[str, Stamp]]

_ARROWS = {"higher": "\u2191", "lower": "\u2193"}
_BOUND_REASONS = {"upper": "an upper bound, not a measured value", "lower": "a lower bound, not a measured value"}


#: The long tables a board spools to disk (see :class:`Leaderboard`).
TABLES = ("claims", "unranked", "changes", "papers")
#: Rows of a long table gathered before they go to disk: the three tables' buffers (their rows
#: shared) are the most of them held while the results are read.
SPOOL_ROWS = 1024
#: Rows a long table is read in at a time (:meth:`Leaderboard.chunks`).
CHUNK_ROWS = 1024


@dataclass
class _Table:
    """One long table on disk: its rows spooled a chunk at a time as they are gathered, its
    length and longest paper or claim id (the sheet's id column fits it) known without reading it."""

    spool: Spool | SortedSpool
    length: int = 0
    id_width: int = 0
    buffer: list[tuple] = field(default_factory=list)

    def add(self, row: tuple, id_width: int) -> None:
        self.buffer.append(row)
        self.length += 1
        self.id_width = max(self.id_width, id_width)
        if len(self.buffer) >= SPOOL_ROWS:
            self.flush()

    def flush(self) -> None:
        if self.buffer:
            self.spool.append(self.buffer)
            self.buffer = []

    def rows(self) -> Iterator[tuple]:
        """The rows in the table's order, read from disk as they are consumed."""
        if isinstance(self.spool, SortedSpool):
            return iter(self.spool)
        return (row for chunk in self.spool for row in chunk)


@dataclass
class Leaderboard:
    """Everything the exports show; DataFrames so a library user can query them too.

    The ranked ``scores`` (and ``blocks``) are held in memory. The long tables (``claims``,
    ``unranked``, ``changes``, ``papers``: they grow with the claims) are on disk: the writers
    stream them with :meth:`chunks`, :meth:`length` and :meth:`id_width` read nothing, and the
    properties assemble a whole frame on demand (a library user who asks for one pays for it)."""

    scores: pd.DataFrame  # complete absolute scores in blocks, ranked; ordered by block then rank
    _tables: dict[str, _Table] = field(repr=False)
    _finish: Callable[[str, list[tuple]], pd.DataFrame] = field(repr=False)  # a table's rows -> its frame
    blocks: pd.DataFrame = field(init=False)  # one row per block: id, title, entries, papers, note, unread words

    def __post_init__(self) -> None:
        if self.scores.empty:
            self.blocks = pd.DataFrame(columns=["block", "title", "entries", "papers", "ranked", "note", "unread"])
            return
        grouped = self.scores.groupby("block", sort=True)
        self.blocks = pd.DataFrame(
            {
                "title": grouped["block_title"].first(),
                "entries": grouped.size(),
                "papers": grouped["paper"].nunique(),
                "ranked": grouped["rank"].count() > 0,
                "note": grouped["block_note"].first(),
                "unread": grouped["setting_unread"].agg(_unread),
            }
        ).reset_index()

    @property
    def unread(self) -> pd.DataFrame:
        """The blocks whose rows differ in setting words no condition reads (block, title, the
        distinct words, '' for none): where a condition the list lacks would be merged unseen."""
        return self.blocks.loc[self.blocks["unread"].map(len) > 1, ["block", "title", "unread"]]

    def unread_note(self, shown: int = 3) -> str | None:
        """The line that tells a user which blocks :attr:`unread` lists, so a condition word the
        list does not know is found rather than merged unseen; None when there is none."""
        blocks = self.unread
        if blocks.empty:
            return None
        titles = "; ".join(blocks["title"].head(shown)) + ("; ..." if len(blocks) > shown else "")
        return (
            f"{counted(len(blocks), 'block')} {'holds' if len(blocks) == 1 else 'hold'} rows whose settings differ in words no condition reads ({titles}): "
            "the Block column lists the words; if one names an evaluation condition, write it in setting_condition "
            "(the review page's key S, or the review sheet's column)"
        )

    def chunks(self, table: str, rows: int = CHUNK_ROWS) -> Iterator[pd.DataFrame]:
        """``table`` (one of :data:`TABLES`) as frames of up to ``rows`` rows, in order, read
        from disk as they are consumed; iterations may interleave."""
        found = self._tables[table].rows()
        while chunk := list(islice(found, rows)):
            yield self._finish(table, chunk)

    def length(self, table: str) -> int:
        """The rows of ``table``, nothing read."""
        return self._tables[table].length

    def id_width(self, table: str) -> int:
        """The longest paper or claim id in ``table``, nothing read."""
        return self._tables[table].id_width

    def _whole(self, table: str) -> pd.DataFrame:
        return self._finish(table, list(self._tables[table].rows()))

    @property
    def claims(self) -> pd.DataFrame:
        """Every claim, long form, with the original text."""
        return self._whole("claims")

    @property
    def unranked(self) -> pd.DataFrame:
        """The scores not ranked, each with what it lacks ('missing metric, subject')."""
        return self._whole("unranked")

    @property
    def changes(self) -> pd.DataFrame:
        """Changes over a baseline (improvements, reductions, speedups), by benchmark, metric, value."""
        return self._whole("changes")

    @property
    def papers(self) -> pd.DataFrame:
        """One row per paper, with its counts of scores, changes and claims."""
        return self._whole("papers")


def load_runs(runs: Iterable[Run], step: Step = silent) -> tuple[Iterable[PaperResult], Marks, Aliases]:
    """The papers of several runs, in order (duplicates are merged later), with their reviewers'
    corrections applied, the review marks of what was corrected, and the names reviewers merged
    in any of the runs' stores, over those the runs' model mapped (``names.json``; a reviewer's
    word wins), applied to every paper of the board.

    The papers are read as they are iterated, one at a time, so a board of a million papers
    never holds them all; the marks fill in as they go (complete once the papers are read)."""
    marks: dict[str, Mapping[str, Stamp]] = {}
    runs = list(runs)
    aliases = board_aliases(runs)

    def papers() -> Iterator[PaperResult]:
        for run in tracked(runs, "reading runs", step):
            for paper, found in reviewed_papers(run):
                marks.update((target, mark.fields) for target, mark in found.items())
                yield paper

    return papers(), marks, aliases


def board_aliases(runs: Iterable[Run]) -> Aliases:
    """The words reviewers said in any of the runs' stores (names merged, setting phrases that
    are conditions, blocks that are one), over the names the runs' model mapped: what every
    paper of a board of these runs is read with."""
    runs = list(runs)
    stores = {run.store_path: run for run in runs}  # a store shared by several runs is read once
    history = [c for run in stores.values() for c in run.corrections() if c.field in ALIAS_FIELDS]
    return name_aliases(history, model_aliases(answer for run in runs for answer in run.names()))


def _review_text(fields: Mapping[str, Stamp] | None) -> str | None:
    """'alice 2025-05-01T10:00: metric “accuracy” → “EM accuracy”, decision edit': who
    changed what from what to what, and when."""
    if not fields:
        return None
    by_mark: dict[tuple[str, str], list[str]] = {}
    for name, stamp in sorted(fields.items()):
        by_mark.setdefault((stamp.reviewer, stamp.at), []).append(stamp.change(name))
    marks = sorted(by_mark.items(), key=lambda item: item[0][1])
    return "; ".join(f"{who} {when}: {', '.join(changes)}" for (who, when), changes in marks)


# The fields of one row of the claims frame, in the order _claim_frame builds them.
_ROW_FIELDS = [
    "paper_id", "claim_id", "kind", "benchmark", "benchmark_as_written", "benchmark_known",
    "metric", "metric_as_written", "better", "method", "model", "size_b", "value_as_written",
    "value", "value_max", "bound", "unit", "comparable", "comparable_unit", "setting", "baseline",
    "change_direction", "evidence", "arxiv_id", "conditions", "setting_key", "method_key",
    "model_key", "metric_label", "proposed", "comparability", "identity", "unranked",
    "title", "paper_label", "benchmark_source", "setting_shown", "configuration", "setting_unread", "setting_assumed",
]  # fmt: skip
# Fields whose texts repeat across claims (each claim's parse made its own copy of 'accuracy'):
# the board keeps one copy of each, not one per claim. Ids, evidence and per-paper texts are not.
_REPEATED = frozenset({
    "kind", "benchmark", "benchmark_as_written", "metric", "metric_as_written", "better", "method", "model",
    "bound", "unit", "comparable_unit", "setting", "baseline", "change_direction", "conditions",
    "setting_key", "method_key", "model_key", "metric_label", "unranked", "benchmark_source", "setting_shown",
    "configuration", "setting_unread", "setting_assumed",
})  # fmt: skip
_REPEATS = [name in _REPEATED for name in _ROW_FIELDS]


_PAPER_FIELDS = [
    "paper_id", "arxiv_id", "title", "status", "error", "source", "rejected", "rejections", "reviewed", "abstract_hash",
]  # fmt: skip
_BENCHMARK, _METRIC_LABEL, _VALUE, _COMPARABLE, _COMPARABILITY, _IDENTITY, _UNRANKED = (
    _ROW_FIELDS.index(f) for f in ("benchmark", "metric_label", "value", "comparable", "comparability", "identity", "unranked")
)
_NO_MEASURE = "missing metric"  # a score's one lack: a measure the board may know (see BoardMeasures)


def _change_order(row: tuple) -> tuple:
    """The Improvements table's order: benchmark (casefolded, missing last), metric label,
    value descending (missing last); equal ones as the claims come."""
    benchmark, value = row[_BENCHMARK], row[_VALUE]
    descending = (1, 0.0) if value is None or value != value else (0, -value)
    return ("\uffff" if benchmark is None else benchmark.casefold(), row[_METRIC_LABEL], descending)


@dataclass(slots=True)
class _PaperSeen:
    """What a board keeps of each paper while the runs are read: enough to merge a later copy
    of it (its status, arXiv id, abstract hash and claim ids) and its counts."""

    ok: bool
    arxiv_id: str | None
    abstract_hash: str | None
    claim_ids: str = ""  # joined by newlines (an id is one line: ingest.paper_id), not a set per paper
    scores: int = 0
    changes: int = 0


@dataclass
class _Gathered:
    """One pass over the results: the long tables spooled, the scores to rank in memory, and
    what the tables' rows lack until every result is read, gathered small."""

    tables: dict[str, _Table]
    scores: list[tuple] = field(default_factory=list)  # the rows of ranked scores, before ranking
    keys: dict[tuple, int] = field(default_factory=dict)  # normalize's comparability keys, numbered
    identities: dict[tuple, int] = field(default_factory=dict)  # and its identity keys
    # (paper id, claim id) -> its row as settled once every score is read: ranked in the measure
    # the board reports its benchmark in, or one of several numbers for one entry (unranked)
    settled: dict[tuple[str, str], tuple] = field(default_factory=dict)
    papers: dict[str, _PaperSeen] = field(default_factory=dict)
    replaced: dict[str, tuple] = field(default_factory=dict)  # a later ok record, shown in a failed one's place
    spellings: dict[str, Counter[tuple[str, str]]] = field(default_factory=lambda: {"method": Counter(), "model": Counter()})


def _paper_row(result: PaperResult, marks: Marks) -> tuple:
    """The paper's row of the Papers table, in :data:`_PAPER_FIELDS` order."""
    return (
        result.id, arxiv_id(result.id, result.metadata), result.title, result.status, result.error,
        f"{result.source.file}:{result.source.line}" if result.source else None,
        len(result.rejected), "; ".join(sorted({r.reason for r in result.rejected})[:3]) or None,
        _review_text(marks.get(result.id)), abstract_hash(result.abstract) if result.abstract else None,
    )  # fmt: skip


def _gather(results: Iterable[PaperResult], marks: Marks, aliases: Aliases | None = None) -> _Gathered:
    """Read the results once: each (paper, claim id) once into the long tables, a paper seen
    again merged into its first place (a later ok record replaces a failed one).

    Rows are tuples with their repeated texts shared (each claim's parse made its own copy of
    'accuracy'; one copy is also pickled once per chunk); they go to disk a chunk at a time."""
    gathered = _Gathered({
        "claims": _Table(Spool()), "unranked": _Table(Spool()),
        "changes": _Table(SortedSpool(_change_order)), "papers": _Table(Spool()),
    })  # fmt: skip
    tables, papers = gathered.tables, gathered.papers
    shared: dict[object, object] = {}
    # normalize's keys, numbered: pandas groups small integers far faster than tuples
    comparability, identity = gathered.keys, gathered.identities
    board = BoardMeasures()
    open_measures: list[tuple[_Source, Claim, str | None, str]] = []  # scores naming no measure
    for result in results:
        paper = papers.get(result.id)
        if paper is None or (not paper.ok and result.status == "ok"):
            row = _paper_row(result, marks)
            if paper is None:
                papers[result.id] = paper = _PaperSeen(result.status == "ok", row[1], row[-1])
                tables["papers"].add(row, len(result.id))
            else:
                gathered.replaced[result.id] = row
                paper.ok, paper.arxiv_id, paper.abstract_hash = result.status == "ok", row[1], row[-1]
        if result.extraction is None:
            continue
        abstract = result.abstract or ""
        models = result.extraction.models
        source = _Source(
            result.id, paper.arxiv_id, result.title, paper_label(result.title, result.id), models,
            frozenset(entity_key(name) for m in result.extraction.methods if m.proposed for name in (m.name, *m.aliases)),
        )  # fmt: skip
        seen = set(paper.claim_ids.split("\n")) if paper.claim_ids else set()
        new: list[str] = []
        for claim in result.extraction.claims:
            if claim.id in seen:
                continue
            seen.add(claim.id)
            new.append(claim.id)
            n = normalize_claim(claim, models, aliases, result.title)
            written = abstract[claim.value_span[0] : claim.value_span[1]] or None
            row = _interned(_claim_row(source, claim, n, written, comparability, identity), shared)
            board.add(n, row[_UNRANKED] == "")
            if row[_UNRANKED] == _NO_MEASURE and n.benchmark_key:
                open_measures.append((source, claim, written, n.benchmark_key))
            width = max(len(result.id), len(claim.id))
            tables["claims"].add(row, width)
            if not tables["claims"].buffer:  # spooled: the next chunk shares texts of its own
                shared.clear()
            reason = row[_UNRANKED]
            if reason == "":
                gathered.scores.append(row)
            elif reason is not None:
                tables["unranked"].add(row, width)
            if claim.kind == "change":
                tables["changes"].add(row, width)
                paper.changes += 1
            else:
                paper.scores += 1
            for name, key in (("method", n.method_key), ("model", n.model_key)):
                spelled = getattr(claim, name)
                if key and spelled is not None:
                    gathered.spellings[name][key, spelled] += 1
        if new:
            paper.claim_ids = "\n".join([paper.claim_ids, *new] if paper.claim_ids else new)
    _take_measures(gathered, open_measures, board.only(), aliases)
    _apart(gathered)
    for table in tables.values():
        table.flush()
    return gathered


def _take_measures(
    gathered: _Gathered,
    open_measures: list[tuple[_Source, Claim, str | None, str]],
    reported_in: dict[str, str],
    aliases: Aliases | None,
) -> None:
    """Rank the scores that named no measure on a benchmark the board's other scores report in
    one (:class:`BoardMeasures`), now that every score is read: their rows join the scores, and
    the long tables show them ranked (``settled``) in their places."""
    comparability, identity = gathered.keys, gathered.identities
    for source, claim, written, benchmark_key in open_measures:
        if benchmark_key not in reported_in:
            continue
        n = normalize_claim(claim, source.models, aliases, source.title, reported_in)
        if _unranked_reason(n) == "":
            row = _claim_row(source, claim, n, written, comparability, identity)
            gathered.scores.append(row)
            gathered.settled[source.paper_id, claim.id] = row
    gathered.tables["unranked"].length -= len(gathered.settled)


class BoardMeasures:
    """The measures a board's ranked scores report each benchmark in (by its key), so that a
    score naming none on a benchmark reported in one alone takes it, as a registry's one measure
    is taken (``reported_in`` of :func:`~extractor.catalog.normalize.normalize_claim`): '0.9524
    on SROIE', beside other papers' F1 on SROIE, is an F1. A benchmark reported in several
    measures, or in one where lower is better (a bare number is a score, seldom an error rate, a
    loss or a time), decides nothing; nor does one whose rows write words no condition reads that
    may name a part of it ('RE' on FUNSD: on which part a bare number is, is not known)."""

    def __init__(self) -> None:
        self._seen: dict[str, dict[str, str | None]] = {}  # benchmark key -> {measure: direction}
        self._parts: set[str] = set()  # benchmark keys whose rows may name parts

    @staticmethod
    def told(n: NormalizedClaim, ranked: bool) -> Told | None:
        """What one score tells of its benchmark's measures: none unless it is ranked, nor when it
        is a cost ('11% parameters' on ImageNet: a bare number there is still an accuracy)."""
        if ranked and n.benchmark_key and n.metric and not is_cost(n.metric):
            return Told(n.benchmark_key, n.metric, n.direction, may_name_a_part(n.setting))
        return None

    def add(self, n: NormalizedClaim, ranked: bool) -> None:
        self.count(self.told(n, ranked))

    def count(self, told: Told | None) -> None:
        if told is not None:
            self._seen.setdefault(told.benchmark, {})[told.measure] = told.direction
            if told.part:
                self._parts.add(told.benchmark)

    def only(self) -> dict[str, str]:
        """{benchmark key: the one measure it is reported in}, where that one is a score."""
        return {
            key: measure
            for key, seen in self._seen.items()
            if len(seen) == 1 and key not in self._parts
            for measure, direction in seen.items()
            if direction == "higher"
        }


class Told(NamedTuple):
    """What one ranked score tells of its benchmark's measures (:class:`BoardMeasures`)."""

    benchmark: str  # its key
    measure: str
    direction: str | None
    part: bool  # its setting may name a part of the benchmark


def board_measures(
    results: Iterable[PaperResult], aliases: Aliases | None = None, memo: dict[int, tuple[Claim, Told | None]] | None = None
) -> dict[str, str]:
    """:meth:`BoardMeasures.only` of these papers' scores, read as the board reads them, for a
    reader of one claim at a time (the review page, the evaluation) to see what the board ranks.
    ``memo`` keeps what each claim told, by the claim object, for a caller that asks again with
    mostly the same claims and the same ``aliases`` (the review page, after each correction:
    only the corrected claims are new objects, and only they are read again)."""
    measures = BoardMeasures()
    memo = {} if memo is None else memo
    for result in results:
        for claim in result.extraction.claims if result.extraction else ():
            if claim.kind != "score":
                continue
            known = memo.get(id(claim))
            if known is None or known[0] is not claim:
                n = normalize_claim(claim, result.extraction.models, aliases, result.title)
                known = memo[id(claim)] = (claim, BoardMeasures.told(n, _unranked_reason(n) == ""))
            measures.count(known[1])
    return measures.only()


def several_numbers(entries: Iterable[tuple[Hashable, float | None, Hashable]]) -> dict[Hashable, int]:
    """The ranked rows of entries a paper gives several numbers in one block, from (its entry in
    its block, its comparable value, the row): {row: how many numbers}. A paper gives one entry
    one number under one block's conditions; two that differ were measured under something its
    claims do not state ('0.537%, 0.569% and 1.180% EER on the three official trials of
    VoxCeleb1'), so which is which is not known, and none is ranked until a reviewer says."""
    listed = list(entries)
    values: dict[Hashable, set[float | None]] = {}
    for entry, value, _ in listed:
        values.setdefault(entry, set()).add(value)
    return {row: len(values[entry]) for entry, _, row in listed if len(values[entry]) > 1}


def _untold(several: int) -> str:
    return f"one of {several} numbers for one entry that no condition tells apart"


def _apart(gathered: _Gathered) -> None:
    """Take off the ranked scores the rows of entries their paper gives several numbers in one
    block (:func:`several_numbers`): listed as unranked, with why, in the long tables too."""
    rows = gathered.scores
    several = several_numbers(((row[0], row[_COMPARABILITY], row[_IDENTITY]), row[_COMPARABLE], i) for i, row in enumerate(rows))
    if not several:
        return
    for i, count in several.items():
        row = rows[i][:_UNRANKED] + (_untold(count),) + rows[i][_UNRANKED + 1 :]
        gathered.tables["unranked"].add(row, max(len(row[0]), len(row[1])))
        gathered.settled[row[0], row[1]] = row
    gathered.scores = [row for i, row in enumerate(rows) if i not in several]


@dataclass(frozen=True)
class _Source:
    """What a claim's row takes from its paper."""

    paper_id: str
    arxiv_id: str | None
    title: str | None
    label: str
    models: list[Model]
    proposed: frozenset[str]  # the identity keys of the methods the paper proposes


def _claim_row(
    source: _Source, claim: Claim, n: NormalizedClaim, written: str | None, comparability: dict[tuple, int], identity: dict[tuple, int]
) -> tuple:
    """A claim's row of the long tables (:data:`_ROW_FIELDS`), its keys numbered."""
    return (
        source.paper_id, claim.id, claim.kind,
        n.benchmark, claim.benchmark if claim.benchmark != n.benchmark else None,
        n.benchmark_known if n.benchmark else None,
        n.metric, claim.metric if claim.metric != n.metric else None, n.direction,
        claim.method, claim.model, n.size_b, written,
        claim.value, claim.value_max, claim.bound, n.unit, n.comparable, n.comparable_unit,
        claim.setting, claim.baseline, claim.direction, claim.evidence,
        source.arxiv_id, n.setting.label or None, n.setting.key, n.method_key, n.model_key,
        _metric_label(n), claim.proposed or (bool(n.method_key) and n.method_key in source.proposed),
        comparability.setdefault(n.comparability_key, len(comparability)),
        identity.setdefault(n.identity_key, len(identity)), _unranked_reason(n),
        source.title, source.label, _benchmark_source(claim), n.setting.shown or None,
        n.setting.entry or None, n.setting.other, n.setting.assumed,
    )  # fmt: skip


def _interned(row: tuple, shared: dict[object, object]) -> tuple:
    """The row with its repeated texts (:data:`_REPEATED`) one shared copy each."""
    return tuple(shared.setdefault(value, value) if repeats else value for value, repeats in zip(row, _REPEATS))


def same_paper(papers: Mapping[str, str | None]) -> dict[str, str]:
    """The paper ids {id: abstract hash} of an abstract that came under several -> all of them,
    listed together ('2401.00001 = p-3f2a'), so a paper in two sources counts once in a block
    and never agrees with itself. A paper under one id is that id (not listed)."""
    ids: dict[str, list[str]] = {}
    for paper_id, digest in papers.items():
        ids.setdefault(digest or paper_id, []).append(paper_id)
    return {paper_id: " = ".join(group) for group in ids.values() if len(group) > 1 for paper_id in group}


@dataclass
class _Derived:
    """What the long tables' rows lack until every result is read, applied to each chunk as it
    is read (and to the scores before they are ranked): review texts, the paper each id is,
    display names, conflicts, and the per-paper counts."""

    marks: Marks
    papers: dict[str, _PaperSeen]
    replaced: dict[str, tuple]  # see _Gathered
    paper_of: dict[str, str]  # see same_paper
    spelling: dict[str, dict[str, str]]  # 'method', 'model' -> identity key -> its display name
    settled: dict[tuple[str, str], tuple]  # see _Gathered
    conflict_of: dict[str, str | None] | None = None  # by claim id; None: no ranked scores

    def frame(self, table: str, rows: list[tuple]) -> pd.DataFrame:
        """The rows of ``table`` (one of :data:`TABLES`) as the board shows them."""
        if table == "papers":
            return self._papers(rows)
        if self.settled and table == "claims":
            rows = [self.settled.get((row[0], row[1]), row) for row in rows]
        elif self.settled and table == "unranked":  # a row as first gathered, where it settled otherwise
            rows = [row for row in rows if self.settled.get((row[0], row[1]), row)[_UNRANKED] == row[_UNRANKED]]
        frame = self.claims(rows)
        if table == "unranked":
            frame["method_label"] = _method_labels(frame)
            return frame
        frame["conflict"] = None if self.conflict_of is None else frame["claim_id"].map(self.conflict_of)
        if table == "changes":
            frame["verdict"] = _verdict(frame)
            frame["method_label"] = _method_labels(frame)
        return frame

    def claims(self, rows: list[tuple]) -> pd.DataFrame:
        """Claim rows with their review text, paper and display names."""
        columns = [list(values) for values in zip(*rows)] if rows else [[] for _ in _ROW_FIELDS]
        frame = pd.DataFrame(dict(zip(_ROW_FIELDS, columns)), dtype=None if rows else object)  # no claims: untyped
        frame["reviewed"] = [_review_text(self.marks.get(c)) for c in frame["claim_id"]] if self.marks else None
        frame["paper"] = [self.paper_of.get(p, p) for p in frame["paper_id"]] if rows else None
        frame["method_name"] = _display_names(frame, "method", "method_key", self.spelling["method"])
        frame["model_name"] = _display_names(frame, "model", "model_key", self.spelling["model"])
        return frame

    def _papers(self, rows: list[tuple]) -> pd.DataFrame:
        if not rows:
            return pd.DataFrame()
        frame = pd.DataFrame.from_records([self.replaced.get(row[0], row) for row in rows], columns=_PAPER_FIELDS)
        seen = [self.papers[paper_id] for paper_id in frame["paper_id"]]
        frame["scores"] = [paper.scores for paper in seen]
        frame["changes"] = [paper.changes for paper in seen]
        frame["claims"] = frame["scores"] + frame["changes"]
        return frame


def _spellings(counts: Counter[tuple[str, str]]) -> dict[str, str]:
    """Each identity key -> its most frequent spelling; of equally frequent ones, the first seen."""
    best: dict[str, tuple[str, int]] = {}
    for (key, spelled), count in counts.items():  # in the order first seen
        if key not in best or count > best[key][1]:
            best[key] = (spelled, count)
    return {key: spelled for key, (spelled, _) in best.items()}


def _one_copy(scores: pd.DataFrame) -> pd.DataFrame:
    """The scores of an abstract that came under several ids, once, under all its ids: the
    copies are one paper, not papers agreeing with each other."""
    if scores.empty:
        return scores
    copies = scores["paper"] != scores["paper_id"]
    if not copies.any():
        return scores
    same = ["paper", "comparability", "method_key", "model_key", "comparable", "value_as_written"]
    return scores.drop_duplicates(same).assign(paper_id=lambda frame: frame["paper"])


def _unranked_reason(n: NormalizedClaim, several: int = 0) -> str | None:
    """Why a score stays off the board ('missing metric, subject', 'a range', 'an upper bound',
    'value not comparable', 'input not stated (LRS3 is reported under several)', 'one of 3
    numbers for one entry that no condition tells apart': ``several``, see
    :func:`several_numbers`); '' for a score that is ranked, None for a change (never ranked)."""
    claim = n.claim
    if claim.kind != "score":
        return None
    single = claim.value_max is None and claim.bound is None
    # A subject is a named method or model, or the paper's own proposed method, named or not.
    subject = bool(n.method_key or n.model_key or claim.proposed)
    if n.metric and n.benchmark and subject and single and n.comparable is not None and not n.unstated:
        return _untold(several) if several > 1 else ""
    missing = [
        name
        for name, absent in (("metric", n.metric is None), ("benchmark", n.benchmark is None), ("subject", not subject))
        if absent
    ]  # fmt: skip
    reasons = ["missing " + ", ".join(missing)] if missing else []
    if claim.value_max is not None:
        reasons.append("a range")
    elif claim.bound is not None:
        reasons.append(_BOUND_REASONS[claim.bound])
    elif n.comparable is None:
        reasons.append("value not comparable")
    if n.unstated:  # LRS3: lip reading, audio-only or audio-visual?
        reasons.append(f"{' and '.join(n.unstated)} not stated ({n.benchmark} is reported under several)")
    return "; ".join(reasons)


def _benchmark_source(claim: Claim) -> str | None:
    """'from context' when the claim's benchmark is not written in its own evidence (contract
    v3: an earlier sentence scoped it, or the paper evaluates on that one benchmark), so a
    reviewer can check it."""
    if claim.benchmark and not name_in_text(claim.benchmark, claim.evidence):
        return FROM_CONTEXT
    return None


def standing(
    claim: Claim,
    models: list[Model] | None = None,
    aliases: Aliases | None = None,
    title: str | None = None,
    reported_in: Mapping[str, str] | None = None,
    paper: Sequence[Claim] = (),
) -> tuple[str | None, str | None]:
    """What the board does with one claim of a paper (its models, title and claims; ``reported_in``
    the board's :func:`board_measures`), told to a reviewer: why a score is not ranked ('' when
    it is, None for a change, which is never ranked), and 'from context' for a benchmark its
    evidence does not write."""
    others = [c for c in paper if c.id != claim.id]
    return paper_standings([claim, *others], models, aliases, title, reported_in)[claim.id]


def paper_standings(
    claims: Sequence[Claim],
    models: list[Model] | None = None,
    aliases: Aliases | None = None,
    title: str | None = None,
    reported_in: Mapping[str, str] | None = None,
) -> dict[str, tuple[str | None, str | None]]:
    """:func:`standing` of every claim of one paper, each normalized once: a reader of many
    claims (the review page's filters) asks once per paper."""
    normalized = {c.id: normalize_claim(c, models, aliases, title, reported_in) for c in claims}
    reasons = {claim_id: _unranked_reason(n) for claim_id, n in normalized.items()}
    several = several_numbers(
        ((n.comparability_key, n.identity_key), n.comparable, claim_id) for claim_id, n in normalized.items() if reasons[claim_id] == ""
    )
    return {
        claim_id: (_unranked_reason(n, several[claim_id]) if claim_id in several else reasons[claim_id], _benchmark_source(n.claim))
        for claim_id, n in normalized.items()
    }


def _display_names(frame: pd.DataFrame, name: str, key: str, spelling: Mapping[str, str]) -> pd.Series:
    """One spelling per identity (``spelling``: the board's most frequent one, see
    :func:`_spellings`), so 'Llama 3.2-3B' and 'Llama-3.2-3B' read as one entry across papers."""
    if not spelling:
        return frame[name]
    return frame[key].map(spelling).where(frame[key] != "", frame[name])


CONFIGURATIONS_DIFFER = "configurations differ"
TITLE_SEPARATOR = " \u00b7 "


def _metric_label(n: NormalizedClaim) -> str:
    """The metric as a block's header names it, with an arrow for the better direction."""
    return (n.metric or NO_METRIC) + (f" {_ARROWS[n.direction]}" if n.direction else "")


def _heading(benchmark: str, metric_label: str, unit: str | None, conditions: str) -> list[str]:
    """What names a block: benchmark, metric (with its comparable unit) and the conditions it holds."""
    return [benchmark, metric_label + (f" ({unit})" if unit else ""), *([conditions] if conditions else [])]


@dataclass(frozen=True)
class ClaimBlock:
    """The block one claim's score lands in, as the board reads it, for a reviewer: its title
    (the header's benchmark, metric and conditions), the setting words no condition reads (the
    entry's own: they never split a block), and the conditions the claim's own block had where
    a reviewer's merge moved it into this one; and what it did not state that the board took as
    the benchmark's usual (an unstated COCO split is its test split: readers take it both ways)."""

    title: str
    unread: str
    merged_from: str | None
    assumed: str = ""  # what the claim did not state and took as its benchmark's usual ('split test')


def claim_block(
    claim: Claim,
    models: list[Model] | None = None,
    aliases: Aliases | None = None,
    title: str | None = None,
    reported_in: Mapping[str, str] | None = None,
) -> ClaimBlock | None:
    """The block a claim's score lands in (None without a benchmark or a metric: no block has
    it), read as :func:`build_leaderboard` reads it: names, measure, unit and conditions
    normalized with the reviewers' words, its paper's models and title and the board's
    :func:`board_measures`, and their merges of blocks followed."""
    n = normalize_claim(claim, models, aliases, title, reported_in)
    if n.benchmark is None or n.metric is None:
        return None
    key = n.comparability_key
    joined = join_keys([key], reviewer_merges(aliases))[key]
    title = TITLE_SEPARATOR.join(_heading(n.benchmark, _metric_label(n), n.comparable_unit, key_label(joined.key)))
    merged_from = (key_label(key) or "no condition") if joined.key != key else None
    return ClaimBlock(title, n.setting.other, merged_from, _taken_as_usual(n))


def _taken_as_usual(n: NormalizedClaim) -> str:
    """What a claim did not state and the board took as its benchmark's usual, with the value
    taken ('split test', 'metric accuracy')."""
    def value(condition: str) -> str | None:
        return n.metric if condition == "metric" else n.setting.get(condition) or by_name()[condition].default
    return ", ".join(f"{c} {value(c)}" for c in n.setting.assumed)


def _block_title(row: pd.Series) -> str:
    """The block's header: benchmark, metric, the conditions it holds, and whether its rows'
    configurations differ or all come from one paper."""
    parts = _heading(row["benchmark"], row["metric_label"], row["comparable_unit"], row["block_conditions"])
    if row["block_configurations"] > 1:
        parts.append(CONFIGURATIONS_DIFFER)
    if row["block_papers"] == ONE_PAPER and row["block_entries"] > 1:
        parts.append(f"all from {ONE_PAPER}")
    return TITLE_SEPARATOR.join(parts)


_MAX_WORDS = 6  # the unread settings a block's note lists


def _distinct(texts: pd.Series) -> list[str]:
    """The distinct texts of a block's rows, case aside, each as first written ('' is none)."""
    return sorted({t.casefold(): t for t in reversed(texts.fillna("").tolist())}.values(), key=str.casefold)


def _unread(words: pd.Series) -> list[str]:
    """The distinct setting words no condition reads, as a block's rows have them ('' is none)."""
    return _distinct(words)


def _block_note(rows: pd.DataFrame) -> str | None:
    """What a block's rows do not share, in words: conditions some rows did not state and took as
    the benchmark's usual ones, rows a reviewer merged in, configurations that differ, and setting
    words no condition reads that differ (a condition the list lacks would show here first)."""
    notes = []
    total = len(rows)
    for condition in sorted({c for taken in rows["setting_assumed"] for c in taken} if total > 1 else ()):
        count = sum(condition in taken for taken in rows["setting_assumed"])
        notes.append(f"{condition} not stated by {count} of {total} rows: the benchmark's usual one")
    if merged := sum(bool(m) for m in rows["_merged"]):
        notes.append(f"{merged} of {total} rows merged in by a reviewer")
    unread = _unread(rows["setting_unread"])
    if len(unread) > 1:
        shown = ", ".join(f"'{w}'" if w else "none" for w in unread[:_MAX_WORDS]) + (", ..." if len(unread) > _MAX_WORDS else "")
        notes.append(f"setting words no condition reads differ: {shown}")
    elif len(_distinct(rows["configuration"])) > 1:
        notes.append(CONFIGURATIONS_DIFFER)
    return "; ".join(notes) or None


def _join_blocks(scores: pd.DataFrame, keys: Mapping[tuple, int], aliases: Aliases | None) -> pd.DataFrame:
    """The scores with their keys joined into blocks (:func:`~extractor.catalog.blocks.join_keys`):
    ``comparability`` numbers the block, ``block_conditions`` says its conditions."""
    if scores.empty:
        return scores.assign(block_conditions="", _merged=None)
    by_number = {number: key for key, number in keys.items()}
    joined: dict[tuple, Joined] = join_keys((by_number[n] for n in scores["comparability"].unique()), reviewer_merges(aliases))
    numbers = dict(keys)
    to = {n: numbers.setdefault(joined[by_number[n]].key, len(numbers)) for n in scores["comparability"].unique()}
    place = {n: joined[by_number[n]] for n in to}
    return scores.assign(
        comparability=scores["comparability"].map(to),
        block_conditions=scores["comparability"].map({n: key_label(p.key) for n, p in place.items()}),
        _merged=scores["comparability"].map({n: p.merged for n, p in place.items()}),
    )


def _rank_scores(scores: pd.DataFrame) -> pd.DataFrame:
    """Complete single-number scores in blocks of comparable numbers, ranked by the metric's
    direction (blocks whose direction is unknown are listed without ranks)."""
    scores = scores.copy()
    if scores.empty:
        return scores.assign(
            block=pd.Series(dtype=int), rank=pd.Series(dtype=float), best=False, block_title="",
            block_papers="", block_note=None, block_about="", method_label=None,
        ).drop(columns=["_merged"])
    scores["_order"] = scores["benchmark"].str.casefold()
    scores["_signed"] = scores["comparable"].where(scores["better"] == "lower", -scores["comparable"])
    scores = scores.sort_values(["_order", "metric_label", "block_conditions", "_signed"], na_position="first")
    scores["block"] = scores.groupby("comparability", sort=False).ngroup() + 1
    ranked = scores["better"].notna()
    scores["rank"] = scores.loc[ranked].groupby("block")["_signed"].rank(method="min")
    scores["best"] = scores["rank"] == 1
    by_block = scores.groupby("block")
    papers = by_block["paper"].nunique()
    scores["block_papers"] = scores["block"].map(papers.map(lambda n: ONE_PAPER if n == 1 else f"{n} papers"))
    scores["block_entries"] = scores["block"].map(by_block.size())
    scores["block_configurations"] = scores["block"].map(by_block["configuration"].agg(lambda c: len(_distinct(c))))
    scores["block_note"] = scores["block"].map({block: _block_note(rows) for block, rows in by_block})
    scores["block_about"] = scores["block_papers"] + ("; " + scores["block_note"]).fillna("")
    firsts = scores.drop_duplicates("block").set_index("block")
    scores["block_title"] = scores["block"].map(firsts.apply(_block_title, axis=1))
    scores["method_label"] = _method_labels(scores)
    scores = scores.sort_values(["block", "_signed"], kind="stable")
    scores = scores.drop(columns=["_order", "_signed", "block_entries", "block_configurations", "_merged"])
    return scores.reset_index(drop=True)


def _method_labels(frame: pd.DataFrame) -> pd.Series:
    """The method as shown on a board: 'GANQ (proposed)' when the paper proposes it; the
    paper's short label, '(proposed)', for a proposed method the paper never names."""
    proposed = frame["proposed"].astype(bool)
    named = frame["method_name"].fillna("").astype(str) != ""
    shown = frame["method_name"].where(named, frame["paper_label"].where(proposed))
    return shown.where(~proposed, shown + PROPOSED)


def _conflicts(scores: pd.DataFrame) -> pd.Series:
    """For each score of a named entry that other papers report with a different value, the
    values and their sources ('conflict: 84.1 % in 2401.00002 vs 83.6 % in 2401.00001')."""
    out = pd.Series(None, index=scores.index, dtype=object)
    identity = ["identity"]  # normalize's identity_key, numbered
    named = scores.loc[(scores["method_key"] != "") | (scores["model_key"] != ""), [*identity, "comparable", "comparable_unit", "paper_id", "paper"]]
    if named.empty:
        return out
    named = named.assign(_v=named["comparable"].round(6))
    grouped = named.groupby(identity, dropna=False, sort=False)
    flagged = named[(grouped["paper"].transform("nunique") > 1).to_numpy() & (grouped["_v"].transform("nunique") > 1).to_numpy()]
    if flagged.empty:
        return out
    sources: dict[int, dict[tuple[float, str], str]] = {}
    group_ids = flagged.groupby(identity, dropna=False, sort=False).ngroup().tolist()
    for gid, value, rounded, unit, paper in zip(
        group_ids, flagged["comparable"], flagged["_v"], flagged["comparable_unit"], flagged["paper_id"]
    ):
        sources.setdefault(gid, {}).setdefault((rounded, paper), f"{value:g}{' ' + unit if unit else ''} in {paper}")
    texts = {gid: "conflict: " + " vs ".join(found.values()) for gid, found in sources.items()}
    out.loc[flagged.index] = [texts[gid] for gid in group_ids]
    return out


def _verdict(changes: pd.DataFrame) -> pd.Series:
    """The change's direction with the metric's: 'improvement' when it goes the metric's better
    way (a memory decrease, a speedup increase), 'regression' when not (a latency increase),
    'unknown' when either direction is."""
    known = changes["better"].notna() & changes["change_direction"].notna()
    good = (changes["change_direction"] == "increase") == (changes["better"] == "higher")
    return pd.Series("unknown", index=changes.index, dtype=object).mask(known & good, "improvement").mask(
        known & ~good, "regression"
    )


def build_leaderboard(
    results: Iterable[PaperResult], marks: Marks | None = None, aliases: Aliases | None = None
) -> Leaderboard:
    """The board for these papers. ``marks`` are review marks {claim or paper id: {field:
    :class:`~extractor.review.Stamp`}}, shown in a 'reviewed' column; ``aliases`` the names
    reviewers merged (see :mod:`extractor.review.aliases`). The results are read once; the
    long tables go to disk as they are (see :class:`Leaderboard`)."""
    marks = {} if marks is None else marks
    gathered = _gather(results, marks, aliases)  # the marks fill in as the results are read
    papers = gathered.papers
    derived = _Derived(
        marks, papers, gathered.replaced, same_paper({paper_id: paper.abstract_hash for paper_id, paper in papers.items()}),
        {name: _spellings(counts) for name, counts in gathered.spellings.items()}, gathered.settled,
    )
    scores = derived.claims(gathered.scores)
    gathered.scores.clear()  # the frame holds their cells now
    scores = _rank_scores(_one_copy(_join_blocks(scores, gathered.keys, aliases)))
    scores["conflict"] = _conflicts(scores)
    if not scores.empty:
        derived.conflict_of = dict(zip(scores["claim_id"], scores["conflict"]))
    return Leaderboard(scores, gathered.tables, derived.frame)
