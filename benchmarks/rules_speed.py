"""How fast is the offline rules extractor? Runs it over the fixture abstracts, repeated.

    python benchmarks/rules_speed.py [--abstracts 10000] [--repeat 5]

Prints abstracts per second on one core (the median of the repeats), both by wall clock and by
the process's CPU time: on a busy machine the wall clock also counts the time other processes
held the core. Target: >= 500 abstracts per second. The abstracts are the fixtures
(``fixtures/abstracts``), each with its title as ``extractor run`` passes it, repeated until
there are at least ``--abstracts`` of them; the rules keep no cache, so a repeated abstract
costs what a new one does.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import time
from pathlib import Path

from extractor.pipeline.ingest import read_inputs
from extractor.rules import RULES_VERSION, extract

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "abstracts"
TARGET = 500


def corpus(minimum: int) -> list[tuple[str, str | None]]:
    """The fixture abstracts with their titles, repeated to at least ``minimum``."""
    papers = [(p.abstract, p.title) for p in read_inputs([str(FIXTURES)]) if not p.error]
    return papers * math.ceil(minimum / len(papers))


def measure(papers: list[tuple[str, str | None]]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) to extract every abstract once."""
    wall, cpu = time.perf_counter(), time.process_time()
    for abstract, title in papers:
        extract(abstract, title)
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--abstracts", type=int, default=10_000, help="at least this many abstracts per repeat"
    )
    parser.add_argument("--repeat", type=int, default=5, help="repeats; the median is reported")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    papers = corpus(args.abstracts)
    extract(*papers[0])  # load the registry and compile the patterns outside the timing
    runs = [measure(papers) for _ in range(args.repeat)]
    wall = statistics.median(len(papers) / w for w, _ in runs)
    cpu = statistics.median(len(papers) / c for _, c in runs)
    print(f"rules {RULES_VERSION}: {len(papers):,} abstracts x {args.repeat} repeats on one core")
    print(f"  wall clock: {wall:,.0f} abstracts/s (median)")
    print(f"  CPU time:   {cpu:,.0f} abstracts/s (median)")
    print(f"  target:     {TARGET:,} abstracts/s -> {'met' if wall >= TARGET else 'NOT met'} by wall clock")


if __name__ == "__main__":
    main()
