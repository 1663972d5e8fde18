"""Gold from review: the items reviewers checked become gold in the format of ANNOTATION.md,
so a reviewed run grows the gold set (``extractor review export-gold``)."""

from __future__ import annotations

from pathlib import Path

from extractor.atomic import atomic_write_text
from extractor.eval.score import GoldClaim, GoldOptional, GoldPaper
from extractor.review import ReviewMark, load_reviewed
from extractor.review.corrected import item_id
from extractor.runs.run import Run
from extractor.schema import PaperResult


def _gold_paper(paper: PaperResult, marks: dict[str, ReviewMark]) -> GoldPaper | None:
    """Reviewed items become gold; the paper's unreviewed items become optional, so a run is
    neither rewarded nor punished for them. A paper accepted as a whole is gold entirely; a
    paper rejected as a whole is left out."""
    own = {k: m for k, m in marks.items() if m.paper_id == paper.id and not m.stale}
    paper_mark = own.get(paper.id)
    if not own or paper.extraction is None or (paper_mark and paper_mark.decision == "reject"):
        return None
    complete = paper_mark is not None and paper_mark.decision == "accept"
    extraction = paper.extraction

    def checked(target_id: str) -> bool:
        return complete or target_id in own

    claims, values = [], set()
    for claim in extraction.claims:
        if checked(claim.id):
            claims.append(GoldClaim.from_claim(claim))
        else:
            values.update(v for v in (claim.value, claim.value_max) if v is not None)
    methods, optional_methods = [], []
    for method in extraction.methods:
        gold = checked(item_id(paper.id, "method", method.name)) and method.proposed
        (methods if gold else optional_methods).append([method.name, *method.aliases])
    benchmarks, optional_benchmarks = [], []
    for benchmark in extraction.benchmarks:
        gold = checked(item_id(paper.id, "benchmark", benchmark.name))
        (benchmarks if gold else optional_benchmarks).append([benchmark.name])
    sizes, optional_sizes = set(), set()
    for model in extraction.models:
        found = {size for size in (model.params_b, model.active_params_b) if size is not None}
        (sizes if checked(item_id(paper.id, "model", model.name)) else optional_sizes).update(found)
    reviewers = ", ".join(sorted({m.reviewer for m in own.values()}))
    return GoldPaper(
        id=paper.id,
        version=3,
        methods=methods,
        benchmarks=benchmarks,
        params_b=sorted(sizes),
        claims=claims,
        optional=GoldOptional(
            methods=optional_methods, benchmarks=optional_benchmarks, values=sorted(values),
            params_b=sorted(optional_sizes - sizes),
        ),
        notes=f"from review by {reviewers}; "
        + ("whole paper checked" if complete else "unreviewed extracted items are optional"),
    )


def export_gold(run: Run, out: Path) -> int:
    """Write reviewed papers in the gold format of ANNOTATION.md; returns how many."""
    papers, marks = load_reviewed(run)
    golds = [g for g in (_gold_paper(p, marks) for p in papers) if g is not None]
    atomic_write_text(Path(out), "".join(g.model_dump_json() + "\n" for g in golds))
    return len(golds)

