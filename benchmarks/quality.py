"""The quality tables (docs/quality.md): every gold set of ``fixtures/gold/sets.json``, run and
scored as a user runs and scores it, plus the held-out sets pooled; held-out rows first.

    python benchmarks/quality.py [--backend rules] [--json] [--role in-sample --role tuning]

Each set's abstracts go through ``extractor run`` (the library call behind it, no cache) into
a temporary run directory, scored by ``extractor eval``'s own scoring. The pooled row sums the
held-out sets' counts (micro-average), so a set with more claims weighs more.

Two tables: the leaderboard figures of contract v3 (leaderboard-ready recall, named-benchmark
accuracy, and for the sets drawn from SciREX, leaderboard reconstruction and cross-paper pairs
against SciREX's results, plus all SciREX train abstracts) beside tuple recall; then the
per-field table.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from extractor.api import run
from extractor.config import make_config
from extractor.eval.reconstruction import Leaderboards, evaluate_leaderboards
from extractor.eval.score import Report, evaluate_run
from extractor.rules import RULES_VERSION

ROOT = Path(__file__).resolve().parent.parent
SETS = ROOT / "fixtures" / "gold" / "sets.json"
SCIREX = "fixtures/external/scirex/scirex_train_abstracts.jsonl"
ROLE_ORDER = {"held-out": 0, "pooled": 1, "tuning": 2, "in-sample": 3}
ATTRIBUTES = ("metric", "benchmark", "subject", "kind")


def _f(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def held_out_first(rows: list[dict]) -> list[dict]:
    return sorted(rows, key=lambda r: ROLE_ORDER.get(r["role"], len(ROLE_ORDER)))


def row(name: str, role: str, report: Report, leaderboards: Leaderboards | None = None) -> dict:
    """One set's figures, as plain numbers for ``--json`` and the table."""
    attribution = report.attribution
    assert attribution is not None, f"{name}: the gold has no claims"
    totals = report.totals
    return {
        "set": name,
        "role": role,
        "papers": len(report.papers),
        "gold_claims": attribution.attributed,
        "tuples": attribution.tuples.to_dict(),
        "leaderboard_ready_recall": attribution.ready.to_dict(),
        "named_benchmark_accuracy": attribution.named_benchmark.to_dict(),
        "leaderboards": leaderboards.to_dict() if leaderboards else None,
        "accuracy": {a: attribution.accuracy[a].to_dict() for a in ATTRIBUTES},
        "claims_f1": totals["claims"].f1,
        "methods": totals["methods"].to_dict(),
        "benchmarks_f1": totals["benchmarks"].f1,
        "sizes_f1": totals["model_sizes"].f1,
    }


def _of(figure: dict, share: str, right: str, of: str) -> str:
    return f"{_f(figure[share])} ({figure[right]} of {figure[of]})"


def leaderboard_markdown(rows: list[dict], scirex: Leaderboards | None = None) -> str:
    """The leaderboard figures beside tuple recall; a '—' is 0 of 0, not a success."""
    lines = [
        "| set | tuple recall | leaderboard-ready recall | named-benchmark accuracy "
        "| SciREX reconstruction | cross-paper pairs in one block (both ranked / in gold) | blocks per gold leaderboard |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    board_rows = [(f"{r['set']} ({r['role']})", r, r["leaderboards"]) for r in rows]
    if scirex is not None:
        board_rows.append(("all SciREX train abstracts (tuning text)", None, scirex.to_dict()))
    for name, r, boards in board_rows:
        cells = ["", "", ""]
        if r is not None:
            t = r["tuples"]
            cells = [
                f"{_f(t['recall'])} ({t['tp']} of {t['tp'] + t['fn']})",
                _of(r["leaderboard_ready_recall"], "accuracy", "right", "of"),
                _of(r["named_benchmark_accuracy"], "accuracy", "right", "of"),
            ]
        if boards:
            p, b = boards["pairs"], boards["blocks_per_leaderboard"]
            cells += [
                _of(boards["reconstruction"], "share", "right", "of"),
                f"{_f(p['one_block_share'])} ({p['one_block']} of {p['both_ranked']} / {p['in_gold']})",
                f"{_f(b['mean'])} ({b['leaderboards']} leaderboards)",
            ]
        else:
            cells += ["", "", ""]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def markdown(rows: list[dict]) -> str:
    lines = [
        (
            "| set | papers (claims) | tuples P / R / **F1** | metric / benchmark / subject / kind accuracy (matched) "
            "| claims F1 | methods P / R / **F1** | benchmarks F1 | sizes F1 |"
        ),
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        t, m, acc = r["tuples"], r["methods"], r["accuracy"]
        matched = acc["metric"]["of"]
        lines.append(
            f"| {r['set']} ({r['role']}) | {r['papers']} ({r['gold_claims']}) "
            f"| {_f(t['precision'])} / {_f(t['recall'])} / **{_f(t['f1'])}** "
            f"| {' / '.join(_f(acc[a]['accuracy']) for a in ATTRIBUTES)} ({matched}) "
            f"| {_f(r['claims_f1'])} | {_f(m['precision'])} / {_f(m['recall'])} / **{_f(m['f1'])}** "
            f"| {_f(r['benchmarks_f1'])} | {_f(r['sizes_f1'])} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="rules", help="rules, or openai (OPENAI_API_KEY / OPENAI_BASE_URL as for extractor run)")
    parser.add_argument("--model", default=None, help="the model, for --backend openai")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--role",
        action="append",
        choices=("in-sample", "tuning", "held-out"),
        help="only the sets of this role (repeatable): leave the held-out sets out while tuning",
    )
    args = parser.parse_args()
    config = make_config(args.backend, args.model, use_cache=False)  # key and base URL as for a run
    rows, held_out = [], []
    with tempfile.TemporaryDirectory() as scratch:
        runs: dict[str, Path] = {}  # one run per abstracts file, shared by the sets it serves
        for spec in json.loads(SETS.read_text(encoding="utf-8")):
            if args.role and spec["role"] not in args.role:
                continue
            abstracts = spec["abstracts"]
            if abstracts not in runs:
                runs[abstracts] = Path(scratch) / f"run-{len(runs)}"
                run([str(ROOT / abstracts)], runs[abstracts], config)
            report = evaluate_run(runs[abstracts], ROOT / spec["gold"])
            boards = None
            if abstracts == SCIREX:  # SciREX's own results tuples, for this set's papers
                boards = evaluate_leaderboards(runs[abstracts], ROOT / SCIREX, [p.id for p in report.papers])
            rows.append(row(spec["name"], spec["role"], report, boards))
            if spec["role"] == "held-out":
                held_out.append(report)
        scirex = evaluate_leaderboards(runs[SCIREX], ROOT / SCIREX) if SCIREX in runs else None
    if held_out:
        pooled = Report(held_out[0].fields, [p for r in held_out for p in r.papers], [])
        rows.append(row("all held-out", "pooled", pooled))
    rows = held_out_first(rows)
    if args.json:
        out = {"backend": args.backend, "rules_version": RULES_VERSION, "sets": rows}
        out["scirex_train"] = scirex.to_dict() if scirex else None
        print(json.dumps(out, indent=2))
    else:
        print(f"backend {args.backend}" + (f", rules {RULES_VERSION}" if args.backend == "rules" else ""))
        print(leaderboard_markdown(rows, scirex))
        print()
        print(markdown(rows))


if __name__ == "__main__":
    main()
