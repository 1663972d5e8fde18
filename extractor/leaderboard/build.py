"""The leaderboard: normalized claims from one or more runs, ranked and exported.

:func:`build_leaderboard` is the one entry point (the ``leaderboard`` command, ``extractor run``
and the review tools all call it): it merges papers, counts each claim once, normalizes names,
units and settings, ranks absolute scores within blocks of comparable numbers (the
``comparability_key`` of :mod:`extractor.catalog.normalize`: same benchmark, metric, unit,
setting and model size) by the metric's direction, sends changes over a baseline to their own
table with a verdict, and flags conflicts (the same entry, ``identity_key``, reported with
different values by different papers; never averaged).

A score is ranked only when its metric, benchmark and subject (method or model) are all known
and it is one comparable, measured number (not a range, not a bound such as 'less than 10%');
every other score is listed as unranked with what it lacks.
The writers are :mod:`.tables` (CSV), :mod:`.xlsx` and :mod:`.charts`; :mod:`.export` picks
one by the output's name.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from extractor.catalog.normalize import (
    Aliases,
    NormalizedClaim,
    arxiv_id,
    entity_key,
    normalize_claim,
)
from extractor.text.names import name_in_text
from extractor.pipeline.dedupe import abstract_hash
from extractor.pipeline.names_table import runs_model_aliases
from extractor.progress import Step, silent, tracked
from extractor.review import Stamp, reviewed_papers
from extractor.review.aliases import store_aliases
from extractor.review.store import store_path
from extractor.schema import Claim, PaperResult
from extractor.text.labels import paper_label

NO_METRIC = "metric not stated"
PROPOSED = " (proposed)"  # after a method the paper itself proposes
FROM_CONTEXT = "from context"  # a benchmark not written in the claim's own evidence
ONE_PAPER = "one paper"

#: Review marks: {claim id or paper id: {field: who, when, the value before and after}}.
Marks = Mapping[str, Mapping[str, Stamp]]

_ARROWS = {"higher": "\u2191", "lower": "\u2193"}
_BOUND_REASONS = {"upper": "an upper bound, not a measured value", "lower": "a lower bound, not a measured value"}


@dataclass
class Leaderboard:
    """Everything the exports show; DataFrames so a library user can query them too."""

    claims: pd.DataFrame  # every claim, long form, with the original text
    scores: pd.DataFrame  # complete absolute scores in blocks, ranked; ordered by block then rank
    unranked: pd.DataFrame  # the other scores, each with what it lacks ('missing metric, subject')
    changes: pd.DataFrame  # changes over a baseline (improvements, reductions, speedups)
    papers: pd.DataFrame
    blocks: pd.DataFrame = field(init=False)  # one row per block: id, title, entries, papers

    def __post_init__(self) -> None:
        if self.scores.empty:
            self.blocks = pd.DataFrame(columns=["block", "title", "entries", "papers", "ranked"])
            return
        grouped = self.scores.groupby("block", sort=True)
        self.blocks = pd.DataFrame(
            {
                "title": grouped["block_title"].first(),
                "entries": grouped.size(),
                "papers": grouped["paper"].nunique(),
                "ranked": grouped["rank"].count() > 0,
            }
        ).reset_index()


def load_runs(
    run_dirs: Iterable[Path | str], store: Path | None = None, step: Step = silent
) -> tuple[Iterable[PaperResult], Marks, Aliases]:
    """The papers of several run directories, in order (duplicates are merged later), with
    their reviewers' corrections applied, the review marks of what was corrected, and the
    names reviewers merged in any of the runs' stores, over those the runs' model mapped
    (``names.json``; a reviewer's word wins), applied to every paper of the board.

    The papers are read as they are iterated, one at a time, so a board of a million papers
    never holds them all; the marks fill in as they go (complete once the papers are read)."""
    marks: dict[str, Mapping[str, Stamp]] = {}
    directories = [Path(run_dir) for run_dir in run_dirs]
    aliases = store_aliases((store_path(run_dir, store) for run_dir in directories), runs_model_aliases(directories))

    def papers() -> Iterator[PaperResult]:
        for run_dir in tracked(directories, "reading runs", step):
            for paper, found in reviewed_papers(run_dir, store):
                marks.update((target, mark.fields) for target, mark in found.items())
                yield paper

    return papers(), marks, aliases


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
    "change_direction", "evidence", "arxiv_id", "setting_label", "setting_key", "method_key",
    "model_key", "metric_label", "proposed", "comparability", "identity", "unranked",
    "title", "paper_label", "benchmark_source", "setting_shown",
]  # fmt: skip
# Fields whose texts repeat across claims (each claim's parse made its own copy of 'accuracy'):
# the board keeps one copy of each, not one per claim. Ids, evidence and per-paper texts are not.
_REPEATED = frozenset({
    "kind", "benchmark", "benchmark_as_written", "metric", "metric_as_written", "better", "method", "model",
    "bound", "unit", "comparable_unit", "setting", "baseline", "change_direction", "setting_label",
    "setting_key", "method_key", "model_key", "metric_label", "unranked", "benchmark_source", "setting_shown",
})  # fmt: skip
_REPEATS = [name in _REPEATED for name in _ROW_FIELDS]


def _claim_frame(
    results: Iterable[PaperResult], marks: Marks, aliases: Aliases | None = None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The long claims table (each (paper, claim id) once) and the per-paper table.

    The table is gathered column by column (a list per field, repeated texts shared), not as a
    row tuple per claim: those would be garbage scattered through memory once the frame is made."""
    columns: list[list] = [[] for _ in _ROW_FIELDS]
    shared: dict[object, object] = {}
    papers: dict[str, dict] = {}
    seen: set[tuple[str, str]] = set()
    # normalize's keys, numbered: pandas groups small integers far faster than tuples
    comparability: dict[tuple, int] = {}
    identity: dict[tuple, int] = {}
    for result in results:
        paper = papers.get(result.id)
        if paper is None or (paper["status"] != "ok" and result.status == "ok"):
            source = f"{result.source.file}:{result.source.line}" if result.source else None
            papers[result.id] = paper = {
                "paper_id": result.id,
                "arxiv_id": arxiv_id(result.id, result.metadata),
                "title": result.title,
                "status": result.status,
                "error": result.error,
                "source": source,
                "rejected": len(result.rejected),
                "rejections": "; ".join(sorted({r.reason for r in result.rejected})[:3]) or None,
                "reviewed": _review_text(marks.get(result.id)),
                "abstract_hash": abstract_hash(result.abstract) if result.abstract else None,
            }
        if result.extraction is None:
            continue
        abstract = result.abstract or ""
        label = paper_label(result.title, result.id)
        models = result.extraction.models
        proposed = {entity_key(name) for m in result.extraction.methods if m.proposed for name in (m.name, *m.aliases)}
        for claim in result.extraction.claims:
            if (result.id, claim.id) in seen:
                continue
            seen.add((result.id, claim.id))
            n = normalize_claim(claim, models, aliases)
            metric_label = (n.metric or NO_METRIC) + (f" {_ARROWS[n.direction]}" if n.direction else "")
            row = (
                result.id, claim.id, claim.kind,
                n.benchmark, claim.benchmark if claim.benchmark != n.benchmark else None,
                n.benchmark_known if n.benchmark else None,
                n.metric, claim.metric if claim.metric != n.metric else None, n.direction,
                claim.method, claim.model, n.size_b,
                abstract[claim.value_span[0] : claim.value_span[1]] or None,
                claim.value, claim.value_max, claim.bound, n.unit, n.comparable, n.comparable_unit,
                claim.setting, claim.baseline, claim.direction, claim.evidence,
                paper["arxiv_id"], n.setting.label or None, n.setting.key, n.method_key, n.model_key,
                metric_label, claim.proposed or (bool(n.method_key) and n.method_key in proposed),
                comparability.setdefault(n.comparability_key, len(comparability)),
                identity.setdefault(n.identity_key, len(identity)), _unranked_reason(n),
                result.title, label, _benchmark_source(claim), n.setting.shown or None,
            )  # fmt: skip
            for values, value, repeats in zip(columns, row, _REPEATS):
                values.append(shared.setdefault(value, value) if repeats else value)
    claims = pd.DataFrame(dict(zip(_ROW_FIELDS, columns)), dtype=None if columns[0] else object)  # no claims: untyped
    del columns, shared  # copied into the frame: freed before it grows
    claims["reviewed"] = [_review_text(marks.get(c)) for c in claims["claim_id"]] if marks else None
    claims["paper"] = claims["paper_id"].map(same_paper(papers.values())) if len(claims) else None
    claims["method_name"] = _display_names(claims, "method", "method_key")
    claims["model_name"] = _display_names(claims, "model", "model_key")
    return claims, pd.DataFrame(list(papers.values()))


def same_paper(papers: Iterable[Mapping]) -> dict[str, str]:
    """Each paper id -> the paper it is: its id, or all the ids one abstract came under, listed
    together ('2401.00001 = p-3f2a'), so a paper in two sources counts once in a block and never
    agrees with itself."""
    ids: dict[str, list[str]] = {}
    for paper in papers:
        ids.setdefault(paper["abstract_hash"] or paper["paper_id"], []).append(paper["paper_id"])
    return {paper_id: " = ".join(group) for group in ids.values() for paper_id in group}


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


def _unranked_reason(n: NormalizedClaim) -> str | None:
    """Why a score stays off the board ('missing metric, subject', 'a range', 'an upper bound',
    'value not comparable'); '' for a score that is ranked, None for a change (never ranked)."""
    claim = n.claim
    if claim.kind != "score":
        return None
    single = claim.value_max is None and claim.bound is None
    # A subject is a named method or model, or the paper's own proposed method, named or not.
    subject = bool(n.method_key or n.model_key or claim.proposed)
    if n.metric and n.benchmark and subject and single and n.comparable is not None:
        return ""
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
    return "; ".join(reasons)


def _benchmark_source(claim: Claim) -> str | None:
    """'from context' when the claim's benchmark is not written in its own evidence (contract
    v3: an earlier sentence scoped it, or the paper evaluates on that one benchmark), so a
    reviewer can check it."""
    if claim.benchmark and not name_in_text(claim.benchmark, claim.evidence):
        return FROM_CONTEXT
    return None


def _display_names(frame: pd.DataFrame, name: str, key: str) -> pd.Series:
    """One spelling per identity (the most frequent one), so 'Llama 3.2-3B' and 'Llama-3.2-3B'
    read as one entry across papers."""
    named = frame.loc[frame[key] != "", [key, name]]
    if named.empty:
        return frame[name]
    counts = named.value_counts(sort=True).reset_index().drop_duplicates(key)
    spelling = dict(zip(counts[key], counts[name]))
    return frame[key].map(spelling).where(frame[key] != "", frame[name])


def _block_title(row: pd.Series) -> str:
    parts = [row["benchmark"], row["metric_label"] + (f" ({row['comparable_unit']})" if row["comparable_unit"] else "")]
    if row["setting_label"]:
        parts.append(row["setting_label"])
    if pd.notna(row["size_b"]):
        size = row["size_b"]
        parts.append(f"{size:g}B models" if size >= 1 else f"{size * 1000:g}M models")
    if row["block_papers"] == ONE_PAPER and row["block_entries"] > 1:
        parts.append(f"all from {ONE_PAPER}")
    return " \u00b7 ".join(parts)


def _rank_scores(scores: pd.DataFrame) -> pd.DataFrame:
    """Complete single-number scores in blocks of comparable numbers, ranked by the metric's
    direction (blocks whose direction is unknown are listed without ranks)."""
    scores = scores.copy()
    if scores.empty:
        return scores.assign(
            block=pd.Series(dtype=int), rank=pd.Series(dtype=float), best=False, block_title="",
            block_papers="", method_label=None,
        )
    scores["setting_label"] = scores["setting_label"].fillna("")
    scores["_order"] = scores["benchmark"].str.casefold()
    scores["_signed"] = scores["comparable"].where(scores["better"] == "lower", -scores["comparable"])
    scores = scores.sort_values(["_order", "metric_label", "setting_label", "size_b", "_signed"], na_position="first")
    scores["block"] = scores.groupby("comparability", sort=False).ngroup() + 1
    ranked = scores["better"].notna()
    scores["rank"] = scores.loc[ranked].groupby("block")["_signed"].rank(method="min")
    scores["best"] = scores["rank"] == 1
    by_block = scores.groupby("block")["paper"]
    papers = by_block.nunique()
    scores["block_papers"] = scores["block"].map(papers.map(lambda n: ONE_PAPER if n == 1 else f"{n} papers"))
    scores["block_entries"] = scores["block"].map(by_block.size())
    firsts = scores.drop_duplicates("block").set_index("block")
    scores["block_title"] = scores["block"].map(firsts.apply(_block_title, axis=1))
    scores["method_label"] = _method_labels(scores)
    scores = scores.sort_values(["block", "_signed"], kind="stable").drop(columns=["_order", "_signed", "block_entries"])
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
    reviewers merged (see :mod:`extractor.review.aliases`)."""
    claims, papers = _claim_frame(results, {} if marks is None else marks, aliases)  # filled as results are read
    scores = _rank_scores(_one_copy(claims.loc[claims["unranked"] == ""]))
    unranked = claims.loc[claims["unranked"].fillna("") != ""].copy()
    unranked["method_label"] = _method_labels(unranked)
    scores["conflict"] = _conflicts(scores)
    if not scores.empty:
        conflict_of = dict(zip(scores["claim_id"], scores["conflict"]))
        claims["conflict"] = claims["claim_id"].map(conflict_of)
    else:
        claims["conflict"] = None
    changes = claims.loc[claims["kind"] == "change"].copy()
    changes["verdict"] = _verdict(changes)
    changes["method_label"] = _method_labels(changes)
    changes["_order"] = changes["benchmark"].fillna("\uffff").str.casefold()
    changes = changes.sort_values(["_order", "metric_label", "value"], ascending=[True, True, False])
    changes = changes.drop(columns="_order").reset_index(drop=True)
    if not papers.empty:
        counts = claims.groupby("paper_id")["kind"].value_counts().unstack(fill_value=0)
        counts = counts.reindex(columns=["score", "change"], fill_value=0)
        papers["scores"] = papers["paper_id"].map(counts["score"]).fillna(0).astype(int)
        papers["changes"] = papers["paper_id"].map(counts["change"]).fillna(0).astype(int)
        papers["claims"] = papers["scores"] + papers["changes"]
    return Leaderboard(claims=claims, scores=scores, unranked=unranked.reset_index(drop=True), changes=changes, papers=papers)
