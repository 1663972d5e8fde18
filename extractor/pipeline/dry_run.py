"""A dry run: what ``extractor run`` would send and cost, sending nothing.

The pipeline reads the inputs as a run reads them and finds the distinct abstracts the cache
does not hold yet, exactly as the runner would send them; the backend prices them (its optional
``estimate`` step, :class:`~extractor.backends.base.EstimatingBackend`).
"""

from __future__ import annotations

from dataclasses import dataclass

from extractor.backends.base import Estimate, EstimatingBackend
from extractor.backends.by_name import get_backend
from extractor.backends.cache import ExtractionCache, cache_key
from extractor.config import RunConfig
from extractor.errors import ConfigError
from extractor.pipeline.guard import check_inputs
from extractor.pipeline.runner import abstract_groups, load_papers


@dataclass(frozen=True)
class DryRun:
    papers: int  # records read
    unreadable: int  # records with an input error: never sent
    distinct: int  # distinct abstracts
    cached: int  # distinct abstracts already in the cache
    estimate: Estimate  # the backend's: requests, tokens, cost

    def rows(self) -> list[tuple[str, str]]:
        """The dry run as (what, how much) lines for a table."""
        unreadable = f" ({self.unreadable:,} unreadable, not sent)" if self.unreadable else ""
        return [
            ("papers read", f"{self.papers:,}{unreadable}"),
            ("distinct abstracts", f"{self.distinct:,}"),
            ("already in the cache", f"{self.cached:,}"),
            *self.estimate.rows(),
        ]


def dry_run(inputs: list[str], config: RunConfig) -> DryRun:
    """Count what a run of ``inputs`` with ``config`` would send; sends nothing."""
    check_inputs(inputs)
    backend = get_backend(config, sending=False)
    if not isinstance(backend, EstimatingBackend):
        raise ConfigError(f"a dry run counts the requests a backend sends; backend {config.backend} sends none")
    papers = load_papers(inputs, config.max_chars)
    groups = abstract_groups(papers)
    firsts = [papers[indices[0]] for indices in groups.values()]
    identity = backend.identity()  # type: ignore[attr-defined]
    cache = ExtractionCache(config.cache_dir) if config.use_cache else None
    try:
        found = [cache.get(cache_key(identity, p.abstract, p.title)) if cache else None for p in firsts]
        pending = [(p.abstract, p.title) for p, hit in zip(firsts, found) if hit is None]
        estimate = backend.estimate(pending, [hit.draft for hit in found if hit is not None], cache)
    finally:
        if cache is not None:
            cache.close()
    return DryRun(
        papers=len(papers),
        unreadable=sum(1 for p in papers if p.error),
        distinct=len(groups),
        cached=len(firsts) - len(pending),
        estimate=estimate,
    )
