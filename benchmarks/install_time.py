"""How long does ``pip install . --no-cache-dir`` take into a fresh venv, before and after a change?

    python benchmarks/install_time.py BEFORE_REV [--after REV] [--repeat 3]

Each revision is exported with ``git archive`` (a clean copy, as a user's checkout is) and
installed ``--repeat`` times, before and after alternating, each time into a new venv made by
``python -m venv`` (not timed) with that venv's own pip, as the README's quickstart does. Prints
per run the wall time, its phases read off pip's progress lines (build environment, the project's
metadata, resolving and downloading, building the project's wheel, installing), the venv's size
and file count and the load average; then the medians and after / before. The network and the
package index are part of what is timed, so runs vary: compare medians of alternated runs.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The line that opens each phase of a non-interactive `pip install` (pip 23 to 25), in order.
PHASE_STARTS = (
    ("build env", "Installing build dependencies"),
    ("metadata", "Getting requirements to build wheel"),
    ("resolve+download", "Preparing metadata (pyproject.toml): finished"),
    ("build wheel", "Building wheels for collected packages"),
    ("install", "Installing collected packages"),
)


@dataclass(frozen=True)
class Install:
    """One timed install: wall seconds, seconds per phase, the venv's size."""

    rev: str
    wall: float
    phases: dict[str, float]
    megabytes: float
    files: int
    load: str


def phase_seconds(lines: list[tuple[float, str]], wall: float) -> dict[str, float]:
    """Seconds per phase from pip's output lines stamped with their arrival time: a phase runs
    from the first line that opens it to the next phase's opening line (the last one to ``wall``)."""
    starts: list[tuple[str, float]] = []
    for name, marker in PHASE_STARTS:
        stamp = next((t for t, text in lines if marker in text), None)
        if stamp is not None:
            starts.append((name, stamp))
    ends = [stamp for _, stamp in starts[1:]] + [wall]
    return {name: end - start for (name, start), end in zip(starts, ends)}


def export(rev: str, into: Path) -> Path:
    """The tree of ``rev`` written under ``into`` by git archive (symlinks kept)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev],
                             check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="tar")
    return into


def tree_size(path: Path) -> tuple[float, int]:
    """Megabytes and number of files below ``path`` (symlinks not followed)."""
    total = count = 0
    for dirpath, _, files in os.walk(path):
        for name in files:
            total += os.lstat(os.path.join(dirpath, name)).st_size
            count += 1
    return total / 1e6, count


def load_average() -> str:
    """The 1-minute load average, as /proc/loadavg gives it."""
    return Path("/proc/loadavg").read_text().split()[0]


def timed_install(rev: str, source: Path, scratch: Path) -> Install:
    """``pip install SOURCE --no-cache-dir`` into a new venv under ``scratch``, timed."""
    venv = scratch / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    load = load_average()
    lines: list[tuple[float, str]] = []
    start = time.perf_counter()
    with subprocess.Popen([str(venv / "bin" / "pip"), "install", str(source), "--no-cache-dir"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as pip:
        assert pip.stdout is not None
        for line in pip.stdout:
            lines.append((time.perf_counter() - start, line))
    wall = time.perf_counter() - start
    if pip.returncode:
        sys.exit(f"pip install of {rev} failed ({pip.returncode}):\n" + "".join(t for _, t in lines[-20:]))
    megabytes, files = tree_size(venv)
    install = Install(rev, wall, phase_seconds(lines, wall), megabytes, files, f"{load} -> {load_average()}")
    shutil.rmtree(venv)
    return install


def report(install: Install) -> str:
    """One line per run: wall, phases, size, load."""
    phases = ", ".join(f"{name} {seconds:.1f}" for name, seconds in install.phases.items())
    return (f"{install.rev:>12s} {install.wall:6.1f} s  ({phases})  {install.megabytes:.0f} MB, "
            f"{install.files} files, load {install.load}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", help="the revision before the change")
    parser.add_argument("--after", default="HEAD", help="the revision after it (default HEAD)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    runs: dict[str, list[Install]] = {args.before: [], args.after: []}
    with tempfile.TemporaryDirectory(prefix="install-time-") as tmp:
        sources = {rev: export(rev, Path(tmp) / f"src{i}") for i, rev in enumerate(runs)}
        for n in range(args.repeat):
            for rev in runs:
                install = timed_install(rev, sources[rev], Path(tmp))
                runs[rev].append(install)
                print(f"run {n + 1}: {report(install)}", flush=True)
    medians = {rev: statistics.median(i.wall for i in done) for rev, done in runs.items()}
    for rev, done in runs.items():
        phases = {name: statistics.median(i.phases.get(name, 0.0) for i in done) for name, _ in PHASE_STARTS}
        print(f"median {rev:>12s} {medians[rev]:6.1f} s  ("
              + ", ".join(f"{name} {seconds:.1f}" for name, seconds in phases.items())
              + f")  {statistics.median(i.megabytes for i in done):.0f} MB")
    ratio = medians[args.after] / medians[args.before]
    print(f"after / before: {ratio:.2f} ({(1 - ratio) * 100:.0f}% less time)")


if __name__ == "__main__":
    main()
