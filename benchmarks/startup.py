"""How long do the commands that answer at once take to start? Whole processes, as a user runs them.

    python benchmarks/startup.py [--repeat 5] [--run RUN_DIR]

Prints the median wall time of ``python -c pass``, ``extractor --help``, ``extractor --version``
and, given a run directory, ``extractor review status RUN_DIR``, and each one's time above the
bare interpreter. Target: ``extractor --help`` at most 0.30 s above ``python -c pass``.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time


def median_seconds(command: list[str], repeat: int) -> float:
    """The median wall time of ``repeat`` runs (one warm-up run first: the page cache)."""
    subprocess.run(command, check=True, capture_output=True)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--run", help="a run directory, for `review status`")
    args = parser.parse_args()
    extractor = shutil.which("extractor") or sys.exit("extractor is not on PATH: pip install . first")
    commands = {"python -c pass": [sys.executable, "-c", "pass"], "extractor --help": [extractor, "--help"],
                "extractor --version": [extractor, "--version"]}
    if args.run:
        commands["extractor review status RUN"] = [extractor, "review", "status", args.run]
    bare = None
    for label, command in commands.items():
        seconds = median_seconds(command, args.repeat)
        bare = seconds if bare is None else bare
        print(f"{label:32s} {seconds:6.3f} s  (+{seconds - bare:.3f} s over the interpreter)")


if __name__ == "__main__":
    main()
