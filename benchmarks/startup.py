"""Start-up time of the command line: ``extractor --help`` (and the help of each command) in new
processes, the median of ``--repeat`` runs, and which heavy libraries ``import extractor.cli.app``
loads (none should: commands import them when they run).

    python benchmarks/startup.py [--repeat 11]

Prints wall and CPU (user + system) seconds per command line; the target is under 0.5 s of wall
time for ``extractor --help`` on an idle machine.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

HEAVY = ("pandas", "numpy", "openpyxl", "matplotlib", "openai", "instructor", "tiktoken", "diskcache", "tenacity", "httpx")
COMMANDS = (["--help"], ["run", "--help"], ["leaderboard", "--help"], ["review", "--help"])


def extractor_command() -> list[str]:
    """The installed console script, else ``python -m extractor``."""
    script = shutil.which("extractor", path=os.path.dirname(sys.executable)) or shutil.which("extractor")
    return [script] if script else [sys.executable, "-m", "extractor"]


def timed(command: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``command`` in a new process."""
    before = os.times()
    wall = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - wall
    after = os.times()
    return wall, (after.children_user - before.children_user) + (after.children_system - before.children_system)


def heavy_modules_loaded() -> list[str]:
    """The heavy libraries that ``import extractor.cli.app`` loads, from a new interpreter."""
    probe = (
        "import json, sys; import extractor.cli.app; "
        f"print(json.dumps(sorted(m for m in {list(HEAVY)!r} if m in sys.modules)))"
    )
    result = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True)
    return json.loads(result.stdout)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=11, help="runs per command line (the median is printed)")
    args = parser.parse_args(argv)
    base = extractor_command()
    timed([sys.executable, "-c", "pass"])  # the interpreter itself, from disk once
    print("| command | wall s (median) | CPU s (median) | runs |")
    print("| --- | ---: | ---: | ---: |")
    for words in ([sys.executable, "-c", "pass"], *(base + list(c) for c in COMMANDS)):
        runs = [timed(words) for _ in range(args.repeat)]
        name = "python -c pass" if words[0] == sys.executable and words[1] == "-c" else "extractor " + " ".join(words[len(base):])
        print(f"| {name} | {statistics.median(w for w, _ in runs):.3f} | {statistics.median(c for _, c in runs):.3f} | {args.repeat} |")
    loaded = heavy_modules_loaded()
    print(f"heavy libraries loaded by `import extractor.cli.app`: {', '.join(loaded) if loaded else 'none'}")


if __name__ == "__main__":
    main()
