"""Attribution of a value-matched claim against its gold claim (docs/ANNOTATION.md, "How a run
is scored"): is the metric, the benchmark, the subject and the kind right? Version-3 gold
also says whether the number is the proposed method's (``proposed``), and the subject must agree.

Pure functions over one claim pair; :mod:`extractor.eval.score` pairs the claims on their value
and sums what these return.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from extractor.catalog.registry import metric_entry
from extractor.eval.matching import MIN_CONTAINED, name_cost
from extractor.text.name_keys import name_key
from extractor.schema import Claim

ATTRIBUTES = ("metric", "benchmark", "subject", "kind")
TUPLE_ATTRIBUTES = ("metric", "benchmark", "subject")  # with the value, a correct tuple
NONE = "(none)"


@dataclass(frozen=True)
class GoldAttribution:
    """A version-2 or -3 gold claim's attribution: acceptable phrasings and alias lists, empty
    when the text gives none; ``proposed`` None for version 2 (not scored)."""

    metric: tuple[str, ...]
    benchmark: tuple[str, ...]
    subject: tuple[tuple[str, ...], ...]
    kind: str | None
    proposed: bool | None = None

    @property
    def leaderboard_ready(self) -> bool:
        """Metric, benchmark and subject all known (a proposed method is a subject, named or
        not): a claim a leaderboard can rank."""
        return bool(self.metric and self.benchmark and (self.subject or self.proposed))


@dataclass(frozen=True)
class WrongAttribute:
    """One wrong attribute of a value-matched claim, for ``--errors``."""

    value: str
    attribute: str
    gold: str
    extracted: str
    evidence: str

    def to_dict(self) -> dict[str, str]:
        return {
            "value": self.value,
            "attribute": self.attribute,
            "gold": self.gold,
            "extracted": self.extracted,
            "evidence": self.evidence,
        }


def _registry_metric(name: str) -> str | None:
    found = metric_entry(name)
    return found[1] if found else None


def metric_right(extracted: str | None, gold: Sequence[str]) -> bool:
    """Both empty; or a gold phrasing and the extracted metric contain one another once
    normalized (the shorter with 3+ characters); or both name the same registry metric."""
    key = name_key(extracted or "")
    if not gold or not key:
        return not gold and not key
    for phrase in gold:
        target = name_key(phrase)
        short, long = sorted((key, target), key=len)
        if len(short) >= MIN_CONTAINED and short in long:
            return True
    canonical = _registry_metric(extracted or "")
    return canonical is not None and any(_registry_metric(p) == canonical for p in gold)


def benchmark_right(extracted: str | None, gold: Sequence[str]) -> bool:
    """Both empty, or the names match as methods do."""
    if not extracted or not gold:
        return not extracted and not gold
    return name_cost([extracted], gold) is not None


def subject_right(method: str | None, model: str | None, gold: Sequence[Sequence[str]]) -> bool:
    """Both empty, or the extracted method or model matches one of the gold alias lists."""
    names = [n for n in (method, model) if n]
    if not names or not gold:
        return not names and not gold
    return any(name_cost([n], aliases) is not None for n in names for aliases in gold)


def subject_right_v3(claim: Claim, gold: GoldAttribution) -> bool:
    """Version 3: the names match and ``proposed`` agrees; a proposed method the paper never
    names is right when the claim says proposed and names no method."""
    if gold.proposed and not gold.subject:
        return claim.proposed and not claim.method
    return claim.proposed == gold.proposed and subject_right(claim.method, claim.model, gold.subject)


def checks(claim: Claim, gold: GoldAttribution) -> dict[str, bool]:
    """Each scored attribute of one value-matched pair: right or not (kind only when the gold
    gives one)."""
    out = {
        "metric": metric_right(claim.metric, gold.metric),
        "benchmark": benchmark_right(claim.benchmark, gold.benchmark),
        "subject": (
            subject_right(claim.method, claim.model, gold.subject)
            if gold.proposed is None
            else subject_right_v3(claim, gold)
        ),
    }
    if gold.kind is not None:
        out["kind"] = claim.kind == gold.kind
    return out


def _extracted(claim: Claim, attribute: str) -> str:
    if attribute == "subject":
        names = " + ".join(n for n in (claim.method, claim.model) if n) or NONE
        return names + (" (proposed)" if claim.proposed else "")
    return str(getattr(claim, attribute) or NONE)


def _gold(gold: GoldAttribution, attribute: str) -> str:
    if attribute == "metric":
        return " / ".join(gold.metric) or NONE
    if attribute == "benchmark":
        return " = ".join(gold.benchmark) or NONE
    if attribute == "subject":
        names = " | ".join(" = ".join(aliases) for aliases in gold.subject) or NONE
        return names + (" (proposed)" if gold.proposed else "")
    return gold.kind or NONE


def wrong_attributes(
    claim: Claim, gold: GoldAttribution, value: str, results: dict[str, bool]
) -> list[WrongAttribute]:
    """What ``--errors`` says about each attribute ``checks`` found wrong."""
    return [
        WrongAttribute(value, attribute, _gold(gold, attribute), _extracted(claim, attribute), claim.evidence)
        for attribute, right in results.items()
        if not right
    ]
