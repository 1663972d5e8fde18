"""Does ``extractor run`` stay flat as the input grows? Wall time, abstracts per second and peak
memory of whole runs, each in a process of its own, on distinct synthetic abstracts
(``benchmarks/synthetic.py``: the fixtures' sentences recombined, every number redrawn).

    python benchmarks/scale.py rules --sizes 20000 100000 1000000   # rules, all cores
    python benchmarks/scale.py workers --sizes 20000                # rules at --workers 1 and 2
    python benchmarks/scale.py openai --sizes 100000                # loopback server, concurrency 64
    python benchmarks/scale.py leaderboard --run runs/x             # claims of a run to CSV

Peak memory is sampled every 100 ms from /proc: ``main`` is the resident size of the
``extractor run`` process, ``all`` the proportional size (PSS: a page shared by several processes
is split among them) of it and its worker processes (the rules' pool and its fork server). Targets: the
rules' 1M run within 1.3x of the 20k run's peak and under 800 MB; ``--workers 2`` at least 0.8 x 2
x the one-core rate; the openai backend's request rate against the bare openai SDK's in the same
setting (the server answers after ``--latency`` s; ``tests/fake_openai.py`` in its own process).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from llm_throughput import fake_server  # noqa: E402  (the loopback server in its own process)
from synthetic import write as synthesize  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PAGE = os.sysconf("SC_PAGE_SIZE")


TICK = os.sysconf("SC_CLK_TCK")


def _rss(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
    except (OSError, IndexError):
        return 0


def _pss(pid: int) -> int:
    """The process's proportional share of memory: pages shared with its fork server count once."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _cpu(pid: int) -> float | None:
    """User + system seconds of one process so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / TICK


def _tree(root: int) -> list[int]:
    """``root`` and every process below it."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


@dataclass
class Measured:
    wall: float
    cpu: float  # seconds of CPU, the run and its workers
    main_mb: float
    all_mb: float
    returncode: int


def measure(command: list[str], env: dict | None = None) -> Measured:
    """Run ``command`` to the end, sampling the peak memory of it and its children and the CPU
    time of its children (the main process's own comes from wait4)."""
    process = subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)
    peak = {"main": 0, "all": 0}
    cpu: dict[int, float] = {}
    done = threading.Event()

    def sample() -> None:
        tree, samples = [process.pid], 0
        while not done.wait(0.1):
            if samples % 20 == 0:  # walking /proc costs: look for new workers every 2 s
                tree = _tree(process.pid)
            samples += 1
            peak["main"] = max(peak["main"], _rss(process.pid))
            peak["all"] = max(peak["all"], sum(_pss(pid) for pid in tree))
            for pid in tree[1:]:
                cpu[pid] = _cpu(pid) or cpu.get(pid, 0.0)

    sampler = threading.Thread(target=sample, daemon=True)
    started = time.perf_counter()
    sampler.start()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    done.set()
    sampler.join()
    total = usage.ru_utime + usage.ru_stime + sum(cpu.values())
    return Measured(wall, total, peak["main"] / 2**20, peak["all"] / 2**20, process.returncode)


def data(size: int, work: Path) -> Path:
    return synthesize(size, work / f"synthetic-{size}.jsonl")


def extractor_run(source: Path, out: Path, *options: str, env: dict | None = None) -> Measured:
    command = [sys.executable, "-m", "extractor", "run", str(source), "--out", str(out), "--no-leaderboard", "-q", *options]
    measured = measure(command, env)
    if measured.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(command)} exited {measured.returncode}")
    return measured


def rules(args: argparse.Namespace, work: Path) -> None:
    print(f"rules backend, --workers {args.workers or 'default (all cores)'}, --no-leaderboard, distinct abstracts")
    print(f"{'abstracts':>10} {'wall s':>8} {'abstracts/s':>12} {'CPU s':>8} {'peak main MB':>13} {'peak all MB':>12}")
    rows = []
    for size in args.sizes:
        source = data(size, work)
        options = ["--backend", "rules", *(["--workers", str(args.workers)] if args.workers else [])]
        m = extractor_run(source, work / f"rules-{size}", *options)
        rows.append((size, m))
        print(f"{size:>10,} {m.wall:>8.1f} {size / m.wall:>12,.0f} {m.cpu:>8.1f} {m.main_mb:>13,.0f} {m.all_mb:>12,.0f}", flush=True)
    if len(rows) > 1:
        (small, first), (large, last) = rows[0], rows[-1]
        print(
            f"{large:,} vs {small:,}: peak main x{last.main_mb / first.main_mb:.2f}, all x{last.all_mb / first.all_mb:.2f} "
            f"(target <= 1.3, and < 800 MB); rate x{(large / last.wall) / (small / first.wall):.2f}"
        )


def workers(args: argparse.Namespace, work: Path) -> None:
    for size in args.sizes:
        source = data(size, work)
        rates = {}
        for n in (1, 2):
            m = extractor_run(source, work / f"workers-{n}-{size}", "--backend", "rules", "--workers", str(n))
            rates[n] = size / m.wall
            print(
                f"{size:,} abstracts, --workers {n}: {m.wall:.1f} s, {rates[n]:,.0f} abstracts/s "
                f"({m.cpu:.1f} CPU s, {size / m.cpu:,.0f} abstracts per CPU second), peak all {m.all_mb:,.0f} MB",
                flush=True,
            )
        print(f"--workers 2 / --workers 1: x{rates[2] / rates[1]:.2f} (target >= 1.6 = 0.8 x 2)")


BARE = """
import asyncio, json, sys, time
from openai import AsyncOpenAI
from extractor.backends.openai.prompts import load_prompt
from extractor.backends.openai.estimate import render_request
base_url, source, concurrency = sys.argv[1], sys.argv[2], int(sys.argv[3])
prompt = load_prompt()  # the default version, as extractor run sends

async def main():
    client = AsyncOpenAI(base_url=base_url, api_key="benchmark-key", max_retries=0)
    gate = asyncio.Semaphore(concurrency)
    async def one(record):
        async with gate:
            body = render_request(prompt, "json_schema", record["abstract"], record.get("title"))
            reply = await client.chat.completions.create(**{**body, "model": "fake-model"})
            json.loads(reply.choices[0].message.content)
    pending = set()
    with open(source) as handle:
        for line in handle:
            pending.add(asyncio.ensure_future(one(json.loads(line))))
            if len(pending) >= 2 * concurrency:
                _, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
    await asyncio.gather(*pending)
asyncio.run(main())
"""


CLIENTS = ("extractor run", "bare openai SDK")


def openai(args: argparse.Namespace, work: Path) -> None:
    """``extractor run`` and the bare SDK (a request per abstract, the same body, the reply's JSON
    parsed, nothing else), each against a fresh loopback server."""
    for size in args.sizes:
        source = data(size, work)
        rows = {}
        for name in args.clients:
            with fake_server(args.latency) as server:
                before = server.requests
                if name == "extractor run":
                    env = {**os.environ, "EXTRACTOR_CACHE_DIR": str(work / f"cache-{time.monotonic_ns()}")}
                    m = extractor_run(
                        source, work / f"openai-{size}", "--backend", "openai", "--base-url", server.base_url,
                        "--model", "fake-model", "--mode", "json_schema", "--concurrency", str(args.concurrency), env=env,
                    )
                else:
                    m = measure([sys.executable, "-c", BARE, server.base_url, str(source), str(args.concurrency)])
                    if m.returncode != 0:
                        raise RuntimeError(f"the bare SDK client exited {m.returncode}")
                requests = server.requests - before
            rows[name] = (requests / m.wall, 1000 * m.cpu / requests)
            print(
                f"{name:>16}: {size:,} papers, {requests:,} requests in {m.wall:.1f} s = {requests / m.wall:,.1f} requests/s, "
                f"{1000 * m.cpu / requests:.2f} ms of client CPU per request, peak {m.all_mb:,.0f} MB "
                f"(latency {args.latency} s, concurrency {args.concurrency})",
                flush=True,
            )
        if len(rows) < 2:
            continue
        (rate, cpu), (bare_rate, bare_cpu) = rows["extractor run"], rows["bare openai SDK"]
        print(
            f"extractor run / bare SDK: request rate x{rate / bare_rate:.2f}, client CPU per request x{cpu / bare_cpu:.2f} "
            "(on a busy machine the CPU ratio is the steadier figure: the rate also counts what other processes took)"
        )


def leaderboard(args: argparse.Namespace, work: Path) -> None:
    out = work / "claims.csv"
    m = measure([sys.executable, "-m", "extractor", "leaderboard", str(args.run), "--out", str(out), "--no-charts"])
    papers = json.loads((Path(args.run) / "run.json").read_text())["counts"]["papers"]
    print(f"leaderboard of {papers:,} papers to CSV: {m.wall:.1f} s ({m.cpu:.1f} s CPU), peak {m.main_mb:,.0f} MB (target < 60 s for 100,000)")


PARTS = {"rules": rules, "workers": workers, "openai": openai, "leaderboard": leaderboard}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("part", choices=list(PARTS))
    parser.add_argument("--sizes", type=int, nargs="+", default=[20_000, 100_000, 1_000_000])
    parser.add_argument("--workers", type=int, help="rules: --workers (default: all cores)")
    parser.add_argument("--concurrency", type=int, default=64, help="openai: requests in flight")
    parser.add_argument(
        "--clients", nargs="+", choices=CLIENTS, default=list(CLIENTS), help="openai: which clients to measure (default: both)"
    )
    parser.add_argument("--latency", type=float, default=0.05, help="openai: seconds per request at the server")
    parser.add_argument("--run", type=Path, help="leaderboard: the run directory")
    parser.add_argument("--work", type=Path, help="where data and runs go (default: a temporary directory)")
    args = parser.parse_args()
    if args.work:
        args.work.mkdir(parents=True, exist_ok=True)
        PARTS[args.part](args, args.work)
    else:
        with tempfile.TemporaryDirectory() as work:
            PARTS[args.part](args, Path(work))


if __name__ == "__main__":
    main()
