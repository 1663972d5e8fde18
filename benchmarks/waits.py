"""Where a user waits, in one run: each figure as a ratio to its yardstick, by the scripts that measure them.

    python benchmarks/waits.py [--repeat 5] [--papers 2000 20000] [--parts demo board client startup]

1. demo: ``extractor run fixtures/abstracts`` against the same with ``--no-leaderboard`` (median
   wall of ``--repeat`` runs each, alternating; target <= 1.8);
2. board: ``extractor leaderboard RUN --out x.xlsx`` against ``--out x.csv`` on rules runs of
   synthetic abstracts (``scale.py``'s runs and memory sampling), the ratio at the largest size
   (target <= 2) and the xlsx's peak RSS at the largest size against the smallest (target <= 1.2),
   each beside its floor (``board_floor.py``: XlsxWriter alone writing the same cells; the bytes
   the board's frames hold);
3. client: ``llm_throughput.py``'s re-ask part (a request and a re-ask per paper; the bare SDK
   sends the very bodies the run sent, as the server recorded them): client CPU per request
   against the bare SDK's, in a warm process (target <= 1.4);
4. startup: ``extractor --help`` above ``python -c pass`` (``startup.py``).

The machine's load average is printed first and last: on shared cores the wall times move with it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import llm_throughput  # noqa: E402
import scale  # noqa: E402
import startup  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def load() -> str:
    return "load average " + " ".join(Path("/proc/loadavg").read_text().split()[:3])


def demo(args: argparse.Namespace, work: Path) -> None:
    times: dict[str, list[float]] = {"with": [], "without": []}
    for r in range(args.repeat):
        for key, options in (("with", []), ("without", ["--no-leaderboard"])):
            out = work / f"demo-{key}-{r}"
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "extractor", "run", "fixtures/abstracts", "--out", str(out), "-q", *options],
                           check=True, cwd=ROOT, capture_output=True)
            times[key].append(time.perf_counter() - started)
    full, bare = statistics.median(times["with"]), statistics.median(times["without"])
    print(f"demo: extractor run {full:.2f} s, --no-leaderboard {bare:.2f} s (medians of {args.repeat}): x{full / bare:.2f} (target <= 1.8)")


def board(args: argparse.Namespace, work: Path) -> None:
    peaks, walls, floors = {}, {}, {}
    for size in args.papers:
        run = work / f"rules-{size}"
        scale.extractor_run(scale.data(size, work), run, "--backend", "rules")
        for suffix in ("csv", "xlsx"):
            m = scale.measure([sys.executable, "-m", "extractor", "leaderboard", str(run), "--out", str(work / f"b{size}.{suffix}"), "-q"])
            walls[size, suffix] = m.wall
            peaks[size] = m.main_mb
            print(f"board: {size:,} papers to {suffix}: {m.wall:.1f} s ({m.cpu:.1f} s CPU), peak RSS {m.main_mb:,.0f} MB", flush=True)
        found = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "board_floor.py"), str(run), "--json", "--repeat", "3"],
                               check=True, cwd=ROOT, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
        floors[size] = json.loads(found.stdout)
    small, large = min(args.papers), max(args.papers)
    print(f"board: xlsx / csv at {large:,} papers x{walls[large, 'xlsx'] / walls[large, 'csv']:.2f} (target <= 2); "
          f"xlsx peak RSS {large:,} / {small:,} papers x{peaks[large] / peaks[small]:.2f} (target <= 1.2)")
    # xlsx wall <= 2 x csv wall leaves the xlsx writer the CSV command's wall plus the CSV writer's time.
    f = floors[large]
    print(f"board floors at {large:,} papers ({f['cells']:,} non-empty cells, in-process medians of 3): the 2x target "
          f"leaves the xlsx writer {walls[large, 'csv'] + f['csv']:.1f} s; write_xlsx {f['xlsx']:.1f} s, "
          f"XlsxWriter alone writing the cells {f['floor']:.1f} s")
    def ratio(mb: str) -> float:  # the small run's peak plus what these frames grow by, over that peak
        return (peaks[small] + floors[large][mb] - floors[small][mb]) / peaks[small]

    print(f"board floors: the frames the board holds (scores, blocks) {floors[small]['held_mb']:.1f} MB at {small:,} papers, "
          f"{floors[large]['held_mb']:.1f} MB at {large:,}: the RSS ratio x{ratio('held_mb'):.2f} or more; the long tables "
          f"(on disk) would hold {floors[small]['spooled_mb']:.1f} and {floors[large]['spooled_mb']:.1f} MB: held, they alone would make it x{ratio('spooled_mb'):.2f}")


def client(args: argparse.Namespace, work: Path) -> None:
    parsed = argparse.Namespace(n_reask=args.client_papers, reask_latency=0.5, reask_concurrency=32, repeat=args.client_repeat)
    cpu = llm_throughput.reask(parsed, work)
    ours, bare = cpu["library run(), warm process"], cpu["bare openai SDK, warm process"]
    print(f"client: CPU per request {ours:.2f} ms against the bare SDK's {bare:.2f} ms, warm processes: x{ours / bare:.2f} (target <= 1.4)")


def start(args: argparse.Namespace, work: Path) -> None:
    extractor = shutil.which("extractor") or sys.exit("extractor is not on PATH: pip install . first")
    bare = startup.median_seconds([sys.executable, "-c", "pass"], args.repeat)
    help_ = startup.median_seconds([extractor, "--help"], args.repeat)
    print(f"startup: extractor --help {help_:.3f} s, python -c pass {bare:.3f} s: +{help_ - bare:.3f} s (target <= 0.30)")


PARTS = {"demo": demo, "board": board, "client": client, "startup": start}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--papers", type=int, nargs="+", default=[2000, 20000])
    parser.add_argument("--client-papers", type=int, default=300, help="client: papers (two requests each)")
    parser.add_argument("--client-repeat", type=int, default=3)
    parser.add_argument("--parts", nargs="+", choices=list(PARTS), default=list(PARTS))
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores, {load()}")
    with tempfile.TemporaryDirectory(prefix="waits-") as tmp:
        for part in args.parts:
            PARTS[part](args, Path(tmp))
    print(load())


if __name__ == "__main__":
    main()
