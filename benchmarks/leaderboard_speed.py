"""How fast is the leaderboard on a large merged run? Builds boards from synthetic claims.

    python benchmarks/leaderboard_speed.py [--claims 100000] [--repeat 3]

Prints the median wall time of build + CSV, build + wide CSV and build + XLSX (no charts) on
one core. Targets: CSV <= 3 s and XLSX <= 30 s for 100,000 claims. The claims are built directly
(not through a backend) with realistic names: registry benchmarks written in alias spellings,
models with sizes, a few settings, scores and changes, and evidence sentences of abstract length.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from extractor.catalog.registry import load_registry
from extractor.leaderboard import build_leaderboard
from extractor.leaderboard.tables import write_csv
from extractor.leaderboard.xlsx import write_xlsx
from extractor.schema import Claim, Extraction, Model, PaperResult

CLAIMS_PER_PAPER = 10
# Each benchmark is reported with its usual metrics, as on a real merged board.
TASKS = {
    "GSM8K": [("accuracy", "%")], "MATH-500": [("accuracy", "%")], "MMLU": [("accuracy", "%")],
    "MMLU-Pro": [("accuracy", "%")], "GPQA Diamond": [("accuracy", "%")], "ARC-Challenge": [("accuracy", "%")],
    "HellaSwag": [("accuracy", "%")], "WinoGrande": [("accuracy", "%")], "PIQA": [("accuracy", "%")],
    "BoolQ": [("accuracy", "%")], "TruthfulQA": [("accuracy", "%")], "BBH": [("accuracy", "%")],
    "AIME 2024": [("pass@1", "%")], "HumanEval": [("pass@1", "%")], "MBPP": [("pass@1", "%")],
    "LiveCodeBench": [("pass@1", "%")], "SWE-bench Verified": [("resolve rate", "%")],
    "WikiText-2": [("perplexity", None)], "C4": [("perplexity", None)], "The Pile": [("perplexity", None)],
    "SQuAD": [("F1", "%"), ("EM", "%")], "Natural Questions": [("EM", "%")], "TriviaQA": [("EM", "%")],
    "HotpotQA": [("F1", "%")], "WMT14": [("BLEU", None)], "CNN/DailyMail": [("ROUGE-L", None)],
    "LibriSpeech": [("WER", "%")], "ImageNet": [("top-1 accuracy", "%")], "CIFAR-100": [("accuracy", "%")],
    "COCO": [("mAP", "%")], "ADE20K": [("mIoU", "%")], "Cityscapes": [("mIoU", "%")],
    "RULER": [("accuracy", "%")], "LongBench": [("score", None)], "MT-Bench": [("score", None)],
    "AlpacaEval": [("win rate", "%")], "IFEval": [("accuracy", "%")], "ShareGPT": [("latency", "ms"), ("throughput", "tokens/s")],
}
SETTINGS = [None, None, None, "5-shot", "0-shot", "4-bit"]
MODELS = [f"{family}-{size}B" for family in ("Llama-3", "Qwen2.5", "Mistral", "Gemma-2") for size in (1, 7, 8, 70)]


def synthetic_results(n_claims: int, seed: int = 0) -> list[PaperResult]:
    """Papers of ten claims each: eight scores and two changes, spans consistent with the text;
    benchmarks written in their registry spellings, so normalization has work to do."""
    rng = random.Random(seed)
    registry = {b.name: b for b in load_registry().benchmarks}
    spellings = {name: (name, *registry[name].aliases) for name in TASKS}
    methods = [f"Method{i}" for i in range(2000)]
    results = []
    for p in range(n_claims // CLAIMS_PER_PAPER):
        paper_id = f"{2400 + p // 10000:04d}.{p % 10000:05d}"
        model = rng.choice(MODELS)
        sentences, claims = [], []
        offset = 0
        for c in range(CLAIMS_PER_PAPER):
            canonical = rng.choice(list(TASKS))
            benchmark = rng.choice(spellings[canonical])
            metric, unit = rng.choice(TASKS[canonical])
            method = methods[(p * 7 + c) % len(methods)]
            change = c >= 8
            value = round(rng.uniform(1, 95), 1)
            number = f"{value}{'%' if unit == '%' else ''}"
            sentence = (
                f"With {model}, {method} {'improves ' + metric + ' by' if change else 'reaches ' + metric + ' of'} "
                f"{number} on {benchmark}, outperforming strong baselines under the standard evaluation protocol."
            )
            at = offset + sentence.index(number)
            claims.append(Claim(
                value=value, unit=unit, metric=metric, benchmark=benchmark, method=method, model=model,
                setting=rng.choice(SETTINGS), kind="change" if change else "score",
                direction="increase" if change else None, baseline="the baseline" if change else None,
                evidence=sentence, id=f"{paper_id}#{c:08x}", span=(offset, offset + len(sentence)),
                value_span=(at, at + len(str(value))),
            ))  # fmt: skip
            sentences.append(sentence)
            offset += len(sentence) + 1
        results.append(PaperResult(
            id=paper_id, title=f"Synthetic paper {p}", status="ok", abstract=" ".join(sentences),
            extraction=Extraction(models=[Model(name=model)], claims=claims),
        ))  # fmt: skip
    return results


def timed(action, repeat: int) -> tuple[float, float]:
    """Median wall time and median CPU time of ``repeat`` runs (CPU time is what one core
    spends; it differs from wall time when other work shares the machine)."""
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        action()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claims", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    results = synthetic_results(args.claims)
    board = build_leaderboard(results)
    print(f"{len(board.claims):,} claims, {len(board.scores):,} ranked scores in {len(board.blocks):,} blocks, "
          f"{len(board.changes):,} changes, {board.scores['conflict'].notna().sum():,} conflict-flagged; "
          f"median of {args.repeat} runs, one core")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        rows = [
            ("build", lambda: build_leaderboard(results), None),
            ("build + CSV", lambda: write_csv(build_leaderboard(results), out / "b.csv"), 3),
            ("build + wide CSV", lambda: write_csv(build_leaderboard(results), out / "w.csv", wide=True), None),
            ("build + XLSX", lambda: write_xlsx(build_leaderboard(results), out / "b.xlsx"), 30),
        ]
        print(f"{'':18}{'wall s':>8}{'cpu s':>8}  target")
        for name, action, target in rows:
            wall, cpu = timed(action, args.repeat)
            goal = f"<= {target} s" if target else ""
            print(f"{name:18}{wall:8.2f}{cpu:8.2f}  {goal}")
        print(f"XLSX size {(out / 'b.xlsx').stat().st_size / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()
