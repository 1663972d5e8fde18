"""Throughput of the openai backend against a loopback server with a fixed latency per request.

What it runs: the library's :func:`extractor.run` (the function ``extractor run`` calls, minus
the progress bar) in this process, with the ``openai`` backend, against the test server
``tests/fake_openai.py`` started as a *separate process* so that its work is not counted as
client time. The server answers every request after ``--latency`` seconds with a grounded
extraction of the abstract it was sent. Inputs are N distinct abstracts made from the fixtures
(each fixture abstract with a numbered sentence appended).

What it prints:

1. wall time at each concurrency and its ratio to the ideal N*L/concurrency (cold cache);
2. the re-ask path: a server whose first answer to every abstract has an invented number, so
   each paper costs a request and a grounding re-ask (default L=0.5 s, concurrency 32); the
   requests per second of ``extractor run`` and of the bare openai SDK sending the very request
   bodies that run sent (the server records them) to a server of the same kind, and their ratio;
3. client overhead per paper: this process's CPU time during a run divided by N (HTTP client,
   instructor parsing, pydantic validation, grounding, cache write, run directory), at L=0 and
   concurrency 1, next to the wall time per paper of that run (which adds the server's own
   time and the loopback round trip);
4. a warm-cache rerun of the same papers: requests sent (must be 0) and wall time, through the
   library and through ``extractor run`` in a new process (imports and leaderboard included);
5. the prompt overhead per abstract in each structured-output mode.

Each part first runs 10 papers to warm up (the SDK is imported on the first request), and
repeated measurements print their median. Run ``python benchmarks/llm_throughput.py --quick``
for a short check, without flags for the figures in the README.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bare_sdk import read_bodies, send_all

from extractor import make_config, run
from extractor.backends.openai.pricing import cost_usd
from extractor.backends.openai.options import MODES
from extractor.backends.openai.estimate import prompt_overhead
from extractor.backends.openai.tokens import encoding_for
from extractor.pipeline.ingest import read_inputs

ROOT = Path(__file__).resolve().parent.parent
FAKE_SERVER = ROOT / "tests" / "fake_openai.py"
BARE_SDK = Path(__file__).resolve().parent / "bare_sdk.py"
FIXTURES = ROOT / "fixtures" / "abstracts"
MODEL = "fake-model"


@dataclass
class FakeServer:
    """The loopback server process; ``requests`` reads its counter over HTTP."""

    base_url: str
    process: subprocess.Popen

    @property
    def requests(self) -> int:
        root = self.base_url.removesuffix("/v1")
        with urllib.request.urlopen(f"{root}/stats", timeout=5) as response:
            return json.load(response)["requests"]

    @property
    def cpu(self) -> float:
        """Seconds of CPU the server process has used (Linux /proc), to show what it costs."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def fake_server(latency: float, reask_each: bool = False, record: Path | None = None) -> Iterator[FakeServer]:
    """The server in a process of its own; ``record``: the file it appends every request body to."""
    options = [*(["--reask-each"] * reask_each), *(["--record-bodies", str(record)] if record else [])]
    process = subprocess.Popen(
        [sys.executable, str(FAKE_SERVER), "--port", "0", "--latency", str(latency), *options],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = process.stdout.readline()  # "fake OpenAI server on http://127.0.0.1:P/v1"
        if not line.startswith("fake OpenAI server on "):
            raise RuntimeError(f"the fake server did not start: {line!r}")
        yield FakeServer(line.split()[-1], process)
    finally:
        process.terminate()
        process.wait(timeout=10)


def synthesize(n: int, path: Path, tag: str = "") -> Path:
    """``n`` distinct abstracts as JSON Lines: the fixture abstracts in turn, each with a
    numbered sentence appended (so every one is a new cache key and a new request; a ``tag``
    makes them new to a server that has seen the untagged ones)."""
    papers = [p for p in read_inputs([str(FIXTURES)]) if not p.error]
    with path.open("w", encoding="utf-8") as handle:
        for i in range(n):
            base = papers[i % len(papers)]
            record = {"id": f"bench-{i:05d}", "title": base.title, "abstract": f"{base.abstract} Benchmark copy {i}{tag}."}
            handle.write(json.dumps(record) + "\n")
    return path


@dataclass
class Measure:
    wall: float
    cpu: float  # this process (the client)
    server_cpu: float
    requests: int
    info: dict


def measure(server: FakeServer, inputs: Path, concurrency: int, cache_dir: Path, out: Path) -> Measure:
    """One ``extractor run`` through the library, with its wall and CPU time and requests sent."""
    config = make_config(
        "openai", model=MODEL, base_url=server.base_url, api_key="benchmark-key", concurrency=concurrency, cache_dir=cache_dir
    )
    before, server_cpu = server.requests, server.cpu
    wall, cpu = time.perf_counter(), time.process_time()
    summary = run([str(inputs)], out, config)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    server_cpu = server.cpu - server_cpu
    if summary.failed:
        first = next(r for r in summary.results if r.status == "failed")
        raise RuntimeError(f"{summary.failed} papers failed, e.g. {first.id}: {first.error}")
    return Measure(wall, cpu, server_cpu, server.requests - before, summary.info)


def warm_up(server: FakeServer, work: Path) -> None:
    """One small run first, so that importing the SDK (done on the first request) and opening
    the cache are not counted as per-paper time."""
    inputs, stamp = synthesize(10, work / "warm-up.jsonl"), time.monotonic_ns()
    # A run directory of its own too: a second warm-up into the first's would resume it and send nothing.
    measure(server, inputs, 4, work / f"cache-warm-up-{stamp}", work / f"run-warm-up-{stamp}")


def median(values: list[float]) -> float:
    return statistics.median(values)


def throughput(args: argparse.Namespace, work: Path) -> None:
    print(f"\n## Throughput: N={args.n}, L={args.latency * 1000:.0f} ms per request, cold cache")
    print("| concurrency | N | wall s (median) | ideal s | ratio to ideal | client CPU ms/paper | server CPU ms/request | runs |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    with fake_server(args.latency) as server:
        warm_up(server, work)
        for concurrency in args.concurrency:
            n = args.n1 if concurrency == 1 else args.n
            inputs = synthesize(n, work / f"in-{n}.jsonl")
            runs = 1 if concurrency == 1 else args.repeat
            measures = []
            for r in range(runs):
                cache = work / f"cache-c{concurrency}-{r}"
                m = measure(server, inputs, concurrency, cache, work / f"run-c{concurrency}-{r}")
                assert m.requests == n, f"expected {n} requests, the server saw {m.requests}"
                measures.append(m)
            ideal = n * args.latency / concurrency
            wall = median([m.wall for m in measures])
            client = median([m.cpu for m in measures]) / n * 1000
            served = median([m.server_cpu for m in measures]) / n * 1000
            print(f"| {concurrency} | {n} | {wall:.2f} | {ideal:.2f} | {ideal / wall:.3f} | {client:.2f} | {served:.2f} | {runs} |")
        print(f"(mode {m.info.get('mode')}, {m.info['counts']['claims']} claims from the last run)")


def bare_process(server: FakeServer, bodies: Path, concurrency: int) -> tuple[float, float, int]:
    """``benchmarks/bare_sdk.py`` in a new process: wall (start-up included), CPU, requests."""
    command = [sys.executable, str(BARE_SDK), str(bodies), "--base-url", server.base_url, "--concurrency", str(concurrency)]
    before = server.requests
    wall = time.perf_counter()
    report = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
    return time.perf_counter() - wall, report["cpu"], server.requests - before


def reask(args: argparse.Namespace, work: Path) -> dict[str, float]:
    """``extractor run`` against a server whose first answer to every abstract has an invented
    number (so every paper costs a request and a grounding re-ask), next to the bare SDK sending
    the very bodies that run sent (recorded by the server: first requests and re-asks, in their
    order) to a second server of the same kind, which sees those abstracts for the first time
    and so answers as the first did: requests per second and their ratio, once within a
    warmed-up process and once in new processes (start-up included). Returns each client's CPU
    milliseconds per request (median), by row name."""
    n, concurrency, latency = args.n_reask, args.reask_concurrency, args.reask_latency
    recorded = work / "reask-bodies.jsonl"
    print(f"\n## Re-ask path: N={n} papers, each a request and a grounding re-ask, L={latency * 1000:.0f} ms, concurrency {concurrency}")
    print("| client | requests | wall s (median) | requests/s | client CPU ms/request | runs |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    rates: dict[str, float] = {}
    cpu_ms: dict[str, float] = {}

    def row(name: str, walls: list[float], cpus: list[float]) -> None:
        wall, cpu = median(walls), median(cpus)
        rates[name] = 2 * n / wall
        cpu_ms[name] = cpu / (2 * n) * 1000
        print(f"| {name} | {2 * n} | {wall:.2f} | {2 * n / wall:.1f} | {cpu / (2 * n) * 1000:.2f} | {len(walls)} |")

    with fake_server(latency, reask_each=True, record=recorded) as server, fake_server(latency, reask_each=True) as again:
        warm_up(server, work)
        asyncio.run(send_all(read_bodies(recorded), again.base_url, 4))
        library, bare, cli, bare_new = [], [], [], []
        for r in range(args.repeat):
            tagged = synthesize(n, work / f"in-reask-{r}.jsonl", tag=f" re-ask {r}")
            before = server.requests
            m = measure(server, tagged, concurrency, work / f"cache-reask-{r}", work / f"run-reask-{r}")
            assert m.requests == 2 * n and m.info["usage"]["reasks"] == n, (m.requests, m.info["usage"])
            library.append((m.wall, m.cpu))
            bodies = read_bodies(recorded, before, before + m.requests)
            wall, cpu = time.perf_counter(), time.process_time()
            asyncio.run(send_all(bodies, again.base_url, concurrency))
            bare.append((time.perf_counter() - wall, time.process_time() - cpu))
            tagged = synthesize(n, work / f"in-reask-cli-{r}.jsonl", tag=f" re-ask cli {r}")
            before = server.requests
            wall, cpu, sent = cli_run(server, tagged, work / f"cache-reask-cli-{r}", work / f"run-reask-cli-{r}", concurrency, "--no-leaderboard")
            assert sent == 2 * n, sent
            cli.append((wall, cpu))
            bodies_file = work / f"bodies-cli-{r}.jsonl"
            bodies_file.write_text("".join(json.dumps(b) + "\n" for b in read_bodies(recorded, before, before + sent)), encoding="utf-8")
            wall, cpu, sent = bare_process(again, bodies_file, concurrency)
            assert sent == 2 * n, sent
            bare_new.append((wall, cpu))
        for name, pairs in (
            ("library run(), warm process", library),
            ("bare openai SDK, warm process", bare),
            ("extractor run --no-leaderboard, new process", cli),
            ("bare openai SDK, new process", bare_new),
        ):
            row(name, [w for w, _ in pairs], [c for _, c in pairs])
    names = list(rates)
    print(f"ratio extractor run / bare SDK: {rates[names[2]] / rates[names[3]]:.2f} (new processes); "
          f"library run() / bare SDK: {rates[names[0]] / rates[names[1]]:.2f} (warm); "
          f"ideal rate {concurrency / latency:.0f} requests/s")
    return cpu_ms


def overhead(args: argparse.Namespace, work: Path) -> None:
    n = args.n_overhead
    inputs = synthesize(n, work / f"in-{n}.jsonl")
    print(f"\n## Client overhead per paper: L=0, concurrency 1, N={n}, cold cache")
    cpu, wall = [], []
    with fake_server(0.0) as server:
        warm_up(server, work)
        for r in range(args.repeat):
            m = measure(server, inputs, 1, work / f"cache-l0-{r}", work / f"run-l0-{r}")
            cpu.append(m.cpu / n * 1000)
            wall.append(m.wall / n * 1000)
    print(f"client CPU per paper: {median(cpu):.2f} ms (median of {args.repeat}: {', '.join(f'{v:.2f}' for v in cpu)})")
    print(f"wall per paper, round trip included: {median(wall):.2f} ms")


def cli_run(server: FakeServer, inputs: Path, cache: Path, out: Path, concurrency: int = 8, *options: str) -> tuple[float, float, int]:
    """``extractor run`` as a user types it, in a new process (imports and progress bar
    included): its wall time, its CPU time and the requests the server saw."""
    command = [
        sys.executable, "-m", "extractor", "run", str(inputs), "--out", str(out), "--base-url", server.base_url,
        "--model", MODEL, "--cache-dir", str(cache), "--concurrency", str(concurrency), *options,
    ]
    before, children = server.requests, resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    subprocess.run(command, check=True, env={**os.environ, "OPENAI_API_KEY": "benchmark-key"}, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
    return wall, cpu, server.requests - before


def cli_rerun(server: FakeServer, inputs: Path, cache: Path, out: Path) -> tuple[float, int]:
    """``extractor run`` as a user types it (a new process: imports, progress bar, leaderboard)."""
    wall, _, sent = cli_run(server, inputs, cache, out, 8, "-q")
    return wall, sent


def warm(args: argparse.Namespace, work: Path) -> None:
    n = args.n
    inputs = synthesize(n, work / f"in-{n}.jsonl")
    cache = work / "cache-warm"
    print(f"\n## Warm-cache rerun: N={n}, every paper already in the cache")
    with fake_server(args.latency) as server:
        warm_up(server, work)
        measure(server, inputs, max(args.concurrency), cache, work / "run-warm-cold")
        library = [measure(server, inputs, max(args.concurrency), cache, work / f"run-warm-{r}") for r in range(args.repeat)]
        cli = [cli_rerun(server, inputs, cache, work / f"run-warm-cli-{r}") for r in range(args.repeat)]
    requests = [m.requests for m in library] + [sent for _, sent in cli]
    assert requests == [0] * len(requests), f"a warm rerun sent requests: {requests}"
    print(f"requests sent: {sum(requests)} in {len(requests)} reruns")
    print(f"library run(): wall {median([m.wall for m in library]):.2f} s (median of {args.repeat})")
    print(f"extractor run (new process, leaderboard included): wall {median([w for w, _ in cli]):.2f} s (median of {args.repeat})")


def prompt(args: argparse.Namespace, work: Path) -> None:
    encoding = encoding_for(args.price_model)
    abstracts = [p.abstract for p in read_inputs([str(FIXTURES)]) if not p.error]
    typical = median([len(encoding.encode(a)) for a in abstracts])
    print(f"\n## Prompt overhead per request ({encoding.name} tokens; median fixture abstract: {typical:.0f})")
    print(f"| mode | instructions | few-shot examples | schema and framing | total | x abstract | USD per 1000 papers ({args.price_model}) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for mode in MODES:
        o = prompt_overhead(args.price_model, mode)
        dollars = cost_usd(args.price_model, o.total * 1000, 0)
        print(f"| {mode} | {o.instructions} | {o.examples} | {o.schema} | {o.total} | {o.total / typical:.1f} | {dollars:.3f} |")


PARTS = {"throughput": throughput, "reask": reask, "overhead": overhead, "warm": warm, "prompt": prompt}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1000, help="papers per run")
    parser.add_argument("--n1", type=int, help="papers at concurrency 1 (default: --n; 100 with --quick)")
    parser.add_argument("--latency", type=float, default=0.2, help="seconds per request")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 8, 32, 64])
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (concurrency 1 runs once)")
    parser.add_argument("--n-overhead", type=int, default=300, help="papers in the L=0 overhead run")
    parser.add_argument("--n-reask", type=int, default=1000, help="papers in the re-ask part (two requests each)")
    parser.add_argument("--reask-latency", type=float, default=0.5, help="seconds per request in the re-ask part")
    parser.add_argument("--reask-concurrency", type=int, default=32, help="concurrency in the re-ask part")
    parser.add_argument("--price-model", default="gpt-4o-mini", help="model whose tokenizer and price the prompt part uses")
    parser.add_argument("--quick", action="store_true", help="concurrency 1 on 100 papers only")
    parser.add_argument("--parts", nargs="+", choices=list(PARTS), default=list(PARTS), help="what to measure")
    args = parser.parse_args(argv)
    args.n1 = args.n1 or (min(100, args.n) if args.quick else args.n)
    with tempfile.TemporaryDirectory(prefix="extractor-bench-") as tmp:
        work = Path(tmp)
        for part in args.parts:
            PARTS[part](args, work)


if __name__ == "__main__":
    main()
