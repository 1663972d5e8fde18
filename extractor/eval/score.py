"""Score a run against gold with the matching rules of ANNOTATION.md ("How a run is scored").

- claims: one-to-one greedy matching on ``value`` (and ``value_max`` for a range) within 0.5 %
  relative to the gold number, sign included; a percent may also be given as a fraction
  (83.6 % = 0.836). Among pairs equally close in value, those agreeing on more attributes are
  paired first. A claim that matches no gold claim but matches the gold's optional values
  leaves both counts: ANNOTATION.md calls it correct, and also says extracting an optional
  item is neither rewarded nor punished, which only leaving it out achieves.
- attribution (version-2 and -3 gold claims, ``extractor.eval.attribution``): per-attribute
  accuracy over the value-matched claims, and tuples (value, metric, benchmark and subject
  all right): recall over gold claims, precision over extracted claims. The leaderboard figures
  (contract v3): leaderboard-ready recall, the share of gold claims with metric, benchmark and
  subject known (a proposed claim has a subject) extracted as a correct tuple; named-benchmark
  accuracy, the benchmark's accuracy over value-matched gold claims that name one. A
  version-3 subject must also agree on ``proposed``. A version-1 gold claim
  (no ``benchmark``/``subject`` keys) is scored on its value only; extracted claims that match
  it, or that match nothing in a paper with such claims, leave the tuple counts.
- methods (only those the run marks ``proposed``) and benchmarks: one-to-one matching of names,
  case-, space- and punctuation-insensitive, against any alias; one name containing the other
  counts when the contained one has three or more characters. Exact matches are paired first.
  A name matching only an optional name is neither rewarded nor punished.
- model sizes: the set of parameter counts (total and active) against ``params_b``.

Counts are summed over papers (micro-average). Scoring is pure; :func:`evaluate_run` is the
I/O edge that reads a run directory and a gold file, either ANNOTATION.md gold or SciREX
(``extractor.eval.scirex``: methods and datasets only).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, model_validator

from extractor.errors import InputError
from extractor.eval.attribution import (
    ATTRIBUTES,
    TUPLE_ATTRIBUTES,
    GoldAttribution,
    WrongAttribute,
    checks,
    wrong_attributes,
)
from extractor.eval.matching import name_cost
from extractor.runs.run import Run
from extractor.schema import Claim, Direction, Extraction, Kind, PaperResult

Cost = float | tuple[float, int]  # lower pairs first
FIELDS = ("claims", "methods", "benchmarks", "model_sizes")
RELATIVE_TOLERANCE = 0.005


class GoldClaim(BaseModel):
    """A gold number and, in version-2 gold, its attribution (keys in the order of the gold
    files); other keys the annotators kept are carried along.

    A version-1 claim has no ``benchmark`` and ``subject`` keys (its ``metric``, if any, is one
    string): it is scored on its value only. The keys given, not their values, tell the two
    apart, so a version-1 claim stays one only when dumped with ``exclude_unset``.
    """

    model_config = ConfigDict(extra="allow")
    value: float
    value_max: float | None = None
    unit: str | None = None
    metric: list[str] | str | None = None
    benchmark: list[str] | None = None
    subject: list[list[str]] | None = None
    proposed: bool | None = None  # version 3: the proposed method's number (subject may be null)
    kind: Kind | None = None
    direction: Direction | None = None
    baseline: list[str] | None = None
    setting: str | None = None
    evidence: str | None = None

    @classmethod
    def from_claim(cls, claim: Claim) -> GoldClaim:
        """An extracted claim taken as gold as it stands (a reviewer accepted it), attribution
        included, in the version-3 format."""
        subject = [[name] for name in (claim.method, claim.model) if name]
        return cls(
            value=claim.value,
            value_max=claim.value_max,
            unit=claim.unit,
            metric=[claim.metric.lower()] if claim.metric else [],
            benchmark=[claim.benchmark] if claim.benchmark else None,
            subject=subject or None,
            kind=claim.kind,
            direction=claim.direction,
            baseline=[claim.baseline] if claim.baseline else None,
            setting=claim.setting,
            evidence=claim.evidence,
            proposed=claim.proposed,
        )

    @property
    def attribution(self) -> GoldAttribution | None:
        """None for a version-1 claim."""
        if not {"benchmark", "subject"} <= self.model_fields_set:
            return None
        metric = [self.metric] if isinstance(self.metric, str) else self.metric or []
        return GoldAttribution(
            metric=tuple(metric),
            benchmark=tuple(self.benchmark or ()),
            subject=tuple(tuple(aliases) for aliases in self.subject or ()),
            kind=self.kind,
            proposed=self.proposed,
        )


class GoldOptional(BaseModel):
    model_config = ConfigDict(extra="forbid")
    methods: list[list[str]] = Field(default_factory=list)
    benchmarks: list[list[str]] = Field(default_factory=list)
    values: list[float] = Field(default_factory=list)
    params_b: list[float] = Field(default_factory=list)


class GoldPaper(BaseModel):
    """One line of a gold file (ANNOTATION.md, "Gold file format"); notes and sources are kept."""

    model_config = ConfigDict(extra="allow")
    id: str
    version: int | None = None  # 3 for contract-v3 records; absent before
    methods: list[list[str]] = Field(default_factory=list)
    benchmarks: list[list[str]] = Field(default_factory=list)
    params_b: list[float] = Field(default_factory=list)
    claims: list[GoldClaim] = Field(default_factory=list)
    optional: GoldOptional = Field(default_factory=GoldOptional)

    @model_validator(mode="after")
    def _v3_claims_say_proposed(self) -> GoldPaper:
        """A version-3 record without ``proposed`` on a claim would be scored as version 2."""
        if self.version == 3:
            unsaid = [str(i) for i, c in enumerate(self.claims) if c.proposed is None]
            if unsaid:
                raise ValueError(f"{self.id}: version-3 claims {', '.join(unsaid)} lack 'proposed'")
        return self


@dataclass(frozen=True)
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn)

    @property
    def precision(self) -> float | None:
        """None when nothing was extracted (undefined, not zero)."""
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        """None when the gold holds nothing."""
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    @property
    def f1(self) -> float | None:
        total = 2 * self.tp + self.fp + self.fn
        return 2 * self.tp / total if total else None

    def to_dict(self) -> dict:
        return {
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
        }


@dataclass(frozen=True)
class Accuracy:
    right: int = 0
    total: int = 0

    def __add__(self, other: Accuracy) -> Accuracy:
        return Accuracy(self.right + other.right, self.total + other.total)

    @property
    def value(self) -> float | None:
        return self.right / self.total if self.total else None

    def to_dict(self) -> dict:
        return {"accuracy": self.value, "right": self.right, "of": self.total}


@dataclass(frozen=True)
class Attribution:
    """The attribution scores of one paper's claims (or of a whole run, summed)."""

    tuples: Counts = Counts()
    accuracy: dict[str, Accuracy] = field(default_factory=lambda: {a: Accuracy() for a in ATTRIBUTES})
    attributed: int = 0  # gold claims with version-2 or -3 attribution
    unattributed: int = 0  # version-1 gold claims: values only
    wrong: list[WrongAttribute] = field(default_factory=list)
    ready: Accuracy = Accuracy()  # leaderboard-ready recall: right tuples of ready gold claims
    named_benchmark: Accuracy = Accuracy()  # benchmark right, over matched gold naming one

    def __add__(self, other: Attribution) -> Attribution:
        return Attribution(
            self.tuples + other.tuples,
            {a: self.accuracy[a] + other.accuracy[a] for a in ATTRIBUTES},
            self.attributed + other.attributed,
            self.unattributed + other.unattributed,
            self.wrong + other.wrong,
            self.ready + other.ready,
            self.named_benchmark + other.named_benchmark,
        )

    def to_dict(self) -> dict:
        return {
            "tuples": self.tuples.to_dict(),
            "leaderboard_ready_recall": self.ready.to_dict(),
            "named_benchmark_accuracy": self.named_benchmark.to_dict(),
            "attributes": {a: c.to_dict() for a, c in self.accuracy.items()},
            "attributed_gold_claims": self.attributed,
            "unattributed_gold_claims": self.unattributed,
        }


@dataclass(frozen=True)
class FieldScore:
    """One field of one paper: counts, and what was missed or extra (for ``--errors``)."""

    counts: Counts
    missed: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class PaperScore:
    id: str
    status: str  # "ok", "failed" (the run failed it) or "missing" (not in the run)
    fields: dict[str, FieldScore]
    attribution: Attribution | None = None  # None when claims are not scored


@dataclass(frozen=True)
class Report:
    fields: tuple[str, ...]
    papers: list[PaperScore]
    not_in_gold: list[str]

    @property
    def totals(self) -> dict[str, Counts]:
        return {f: sum((p.fields[f].counts for p in self.papers), Counts()) for f in self.fields}

    @property
    def attribution(self) -> Attribution | None:
        """Summed over papers; None when claims are not scored."""
        scored = [p.attribution for p in self.papers if p.attribution is not None]
        return sum(scored, Attribution()) if scored else None

    def ids_with(self, status: str) -> list[str]:
        return [p.id for p in self.papers if p.status == status]

    def to_dict(self, errors: bool = False) -> dict:
        out: dict = {
            "scores": {f: c.to_dict() for f, c in self.totals.items()},
            "gold_papers": len(self.papers),
            "missing_from_run": self.ids_with("missing"),
            "failed_in_run": self.ids_with("failed"),
            "not_in_gold": len(self.not_in_gold),
        }
        attribution = self.attribution
        if attribution is not None:
            out["attribution"] = attribution.to_dict()
        if errors:
            out["errors"] = [
                {
                    "id": p.id,
                    "status": p.status,
                    **{f: {"missed": s.missed, "extra": s.extra} for f, s in p.fields.items()},
                    "attributes": [w.to_dict() for w in p.attribution.wrong] if p.attribution else [],
                }
                for p in self.papers
                if any(s.missed or s.extra for s in p.fields.values())
                or (p.attribution and p.attribution.wrong)
            ]
        return out


# --- numbers ---------------------------------------------------------------------------------


def close(value: float, gold: float) -> bool:
    """Within 0.5 % of the gold number (exact for a gold zero, up to float noise)."""
    return abs(value - gold) <= RELATIVE_TOLERANCE * abs(gold) + 1e-12


def _scales(unit: str | None, gold_unit: str | None) -> tuple[float, ...]:
    """Factors to try on an extracted value: a percent may be given as a fraction (either side)."""
    return (1.0, 100.0, 0.01) if "%" in (unit, gold_unit) else (1.0,)


def value_matches(
    value: float, value_max: float | None, unit: str | None, gold: GoldClaim
) -> float | None:
    """The relative error of the match, or None when the claim does not match the gold claim."""
    if (value_max is None) != (gold.value_max is None):
        return None
    for scale in _scales(unit, gold.unit):
        if not close(value * scale, gold.value):
            continue
        if value_max is not None and not close(value_max * scale, gold.value_max):
            continue
        return abs(value * scale - gold.value) / max(abs(gold.value), 1e-12)
    return None


def _optional_value(claim: Claim, values: Sequence[float]) -> bool:
    ends = [claim.value] if claim.value_max is None else [claim.value, claim.value_max]
    scales = _scales(claim.unit, None)
    return all(any(close(v * s, o) for o in values for s in scales) for v in ends)


def _greedy(pairs: Iterable[tuple[Cost, int, int]]) -> dict[int, int]:
    """One-to-one pairing, best (lowest cost) pairs first: extracted index -> gold index."""
    taken_gold: set[int] = set()
    matched: dict[int, int] = {}
    for _, pred, gold in sorted(pairs):
        if pred not in matched and gold not in taken_gold:
            matched[pred] = gold
            taken_gold.add(gold)
    return matched


def _describe_claim(value: float, value_max: float | None, unit: str | None, evidence: str | None) -> str:
    number = f"{value:g}" + (f"-{value_max:g}" if value_max is not None else "")
    text = number + (f" {unit}" if unit else "")
    return text + (f" ({evidence!r})" if evidence else "")


def match_claims(claims: Sequence[Claim], gold: Sequence[GoldClaim]) -> dict[int, int]:
    """Extracted index -> gold index: closest values first, then most attributes agreeing."""
    pairs = []
    for i, claim in enumerate(claims):
        for j, target in enumerate(gold):
            error = value_matches(claim.value, claim.value_max, claim.unit, target)
            if error is not None:
                attribution = target.attribution
                agree = sum(checks(claim, attribution).values()) if attribution else 0
                pairs.append(((error, -agree), i, j))
    return _greedy(pairs)


def score_claims(
    claims: Sequence[Claim], gold: Sequence[GoldClaim], optional_values: Sequence[float] = ()
) -> FieldScore:
    matched = match_claims(claims, gold)
    extra = [
        c for i, c in enumerate(claims) if i not in matched and not _optional_value(c, optional_values)
    ]
    found = set(matched.values())
    missed = [g for j, g in enumerate(gold) if j not in found]
    return FieldScore(
        Counts(tp=len(matched), fp=len(extra), fn=len(missed)),
        missed=[_describe_claim(g.value, g.value_max, g.unit, getattr(g, "evidence", None)) for g in missed],
        extra=[_describe_claim(c.value, c.value_max, c.unit, c.evidence) for c in extra],
    )


def score_attribution(
    claims: Sequence[Claim], gold: Sequence[GoldClaim], optional_values: Sequence[float] = ()
) -> Attribution:
    """Attribute accuracy over the value-matched claims and tuple counts (see the module doc)."""
    matched = match_claims(claims, gold)
    attributions = [g.attribution for g in gold]
    every_claim_attributed = all(a is not None for a in attributions)
    accuracy = {a: Accuracy() for a in ATTRIBUTES}
    wrong: list[WrongAttribute] = []
    tp = fp = 0
    right_tuples: set[int] = set()  # gold indices extracted as a correct tuple
    named_benchmark = Accuracy()
    for i, claim in enumerate(claims):
        j = matched.get(i)
        if j is None:
            if every_claim_attributed and not _optional_value(claim, optional_values):
                fp += 1
            continue
        attribution = attributions[j]
        if attribution is None:
            continue
        results = checks(claim, attribution)
        for name, right in results.items():
            accuracy[name] += Accuracy(int(right), 1)
        value = _describe_claim(claim.value, claim.value_max, claim.unit, None)
        wrong += wrong_attributes(claim, attribution, value, results)
        if attribution.benchmark:
            named_benchmark += Accuracy(int(results["benchmark"]), 1)
        if all(results[a] for a in TUPLE_ATTRIBUTES):
            tp += 1
            right_tuples.add(j)
        else:
            fp += 1
    attributed = sum(a is not None for a in attributions)
    ready = [j for j, a in enumerate(attributions) if a is not None and a.leaderboard_ready]
    return Attribution(
        Counts(tp=tp, fp=fp, fn=attributed - tp),
        accuracy,
        attributed=attributed,
        unattributed=len(gold) - attributed,
        wrong=wrong,
        ready=Accuracy(sum(j in right_tuples for j in ready), len(ready)),
        named_benchmark=named_benchmark,
    )


# --- names -----------------------------------------------------------------------------------


def score_names(
    names: Sequence[Sequence[str]],
    gold: Sequence[Sequence[str]],
    optional: Sequence[Sequence[str]] = (),
) -> FieldScore:
    """``names``: one list per extracted item (its name and aliases); ``gold``: alias lists."""
    pairs = []
    for i, item in enumerate(names):
        for j, aliases in enumerate(gold):
            cost = name_cost(item, aliases)
            if cost is not None:
                pairs.append((cost, i, j))
    matched = _greedy(pairs)
    extra = [
        item
        for i, item in enumerate(names)
        if i not in matched and not any(name_cost(item, o) is not None for o in optional)
    ]
    found = set(matched.values())
    missed = [aliases for j, aliases in enumerate(gold) if j not in found]
    return FieldScore(
        Counts(tp=len(matched), fp=len(extra), fn=len(missed)),
        missed=[" = ".join(a) for a in missed],
        extra=[" = ".join(item) for item in extra],
    )


# --- model sizes -----------------------------------------------------------------------------


def _distinct(values: Iterable[float]) -> list[float]:
    out: list[float] = []
    for value in values:
        if not any(close(value, seen) for seen in out):
            out.append(value)
    return out


def score_sizes(sizes: Iterable[float], gold: Iterable[float], optional: Iterable[float] = ()) -> FieldScore:
    """Sets of parameter counts in billions, equal within the claim tolerance; an extracted size
    matching only an optional one is neither rewarded nor punished."""
    extracted, target, allowed = _distinct(sizes), _distinct(gold), _distinct(optional)
    extracted = [s for s in extracted if any(close(s, g) for g in target) or not any(close(s, o) for o in allowed)]
    extra = [s for s in extracted if not any(close(s, g) for g in target)]
    missed = [g for g in target if not any(close(s, g) for s in extracted)]
    tp = len(extracted) - len(extra)
    return FieldScore(
        Counts(tp=tp, fp=len(extra), fn=len(missed)),
        missed=[f"{g:g}B" for g in missed],
        extra=[f"{s:g}B" for s in extra],
    )


# --- papers and runs -------------------------------------------------------------------------


def _model_sizes(extraction: Extraction) -> list[float]:
    """The paper's model sizes: its named models' and those it states without a name."""
    named = [size for model in extraction.models for size in (model.params_b, model.active_params_b) if size is not None]
    return named + extraction.unnamed_sizes_b


_SCORERS: dict[str, Callable[[Extraction, GoldPaper], FieldScore]] = {
    "claims": lambda e, g: score_claims(e.claims, g.claims, g.optional.values),
    "methods": lambda e, g: score_names(
        [[m.name, *m.aliases] for m in e.methods if m.proposed], g.methods, g.optional.methods
    ),
    "benchmarks": lambda e, g: score_names(
        [[b.name] for b in e.benchmarks], g.benchmarks, g.optional.benchmarks
    ),
    "model_sizes": lambda e, g: score_sizes(_model_sizes(e), g.params_b, g.optional.params_b),
}


def score_paper(
    result: PaperResult | None, gold: GoldPaper, fields: Sequence[str] = FIELDS
) -> PaperScore:
    """A paper absent from the run, or failed in it, scores as an empty extraction."""
    if result is None:
        status, extraction = "missing", Extraction()
    else:
        status, extraction = result.status, result.extraction or Extraction()
    attribution = (
        score_attribution(extraction.claims, gold.claims, gold.optional.values) if "claims" in fields else None
    )
    return PaperScore(gold.id, status, {f: _SCORERS[f](extraction, gold) for f in fields}, attribution)


def evaluate(
    results: Iterable[PaperResult], gold: Iterable[GoldPaper], fields: Sequence[str] = FIELDS
) -> Report:
    """Score every gold paper; run papers without gold are only counted."""
    by_id: dict[str, PaperResult] = {}
    for result in results:
        by_id.setdefault(result.id, result)
    gold_ids: set[str] = set()
    papers = []
    for paper in gold:
        if paper.id in gold_ids:
            continue
        gold_ids.add(paper.id)
        papers.append(score_paper(by_id.get(paper.id), paper, fields))
    return Report(tuple(fields), papers, [i for i in by_id if i not in gold_ids])


def read_gold(path: Path) -> list[GoldPaper]:
    """The papers of a gold JSONL file (ANNOTATION.md format); a line that is not UTF-8 is an
    :class:`InputError` naming the file and the line."""
    papers = []
    with Path(path).open("rb") as handle:
        for number, raw in enumerate(handle, 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                problem = f"not UTF-8 (byte 0x{raw[exc.start]:02x} at column {exc.start + 1}); save the gold file as UTF-8"
                raise InputError(str(path), number, problem) from None
            if line.strip():
                papers.append(GoldPaper.model_validate_json(line))
    return papers


def read_scirex_gold(path: Path) -> list[GoldPaper]:
    # Imported here: the adapter builds its gold with this module's name matching.
    from extractor.eval.scirex import gold_lines

    return [GoldPaper.model_validate(line) for line in gold_lines(path)]


# Gold file formats: how to read one, and which fields it can score.
GOLD_FORMATS: dict[str, tuple[Callable[[Path], list[GoldPaper]], tuple[str, ...]]] = {
    "annotation": (read_gold, FIELDS),
    "scirex": (read_scirex_gold, ("methods", "benchmarks")),
}


def evaluate_run(run_dir: Path, gold_path: Path, gold_format: str = "annotation") -> Report:
    """Score the run directory (any backend) against a gold file of the given format."""
    read, fields = GOLD_FORMATS[gold_format]
    return evaluate(list(Run.open(run_dir).papers()), read(gold_path), fields)
