"""The quality tables (docs/quality.md): every gold set of ``fixtures/gold/sets.json``, run and
scored as a user runs and scores it, plus the held-out sets pooled; held-out rows first.

    python benchmarks/quality.py [--backend rules] [--json] [--role in-sample --role tuning]
    python benchmarks/quality.py --backend replay   # recorded LLM answers beside the rules

With ``--backend replay`` each set that has a recording (``fixtures/recorded/<set>.jsonl``, see
docs/llm.md) is run twice on the recorded papers: by the rules, and by ``extractor run --backend
openai`` against the fake server answering with the recorded answers (:func:`replay_run`).

Each set's abstracts go through ``extractor run`` (the library call behind it, no cache) into
a temporary run directory, scored by ``extractor eval``'s own scoring. The pooled row sums the
held-out sets' counts (micro-average), so a set with more claims weighs more.

Two tables: the leaderboard figures of contract v3 (leaderboard-ready recall, named-benchmark
accuracy, and for the sets drawn from SciREX, leaderboard reconstruction, cross-paper pairs and
wrong merges against SciREX's results, plus all SciREX train abstracts) beside tuple recall; then
the per-field table. With ``--backend replay``, the sets of board labels
(``fixtures/gold/board-sets.json``: the cross-paper sets' labels, docs/merging.md)
get their pairs in one block and wrong merges on their recording's replayed run, in a third table.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from extractor.api import run
from extractor.config import make_config
from extractor.eval.boards import BoardFigures, evaluate_boards
from extractor.eval.reconstruction import Leaderboards, evaluate_leaderboards, leaderboards
from extractor.eval.score import Report, evaluate_run
from extractor.pipeline.ingest import read_inputs
from extractor.runs import Run
from extractor.rules import RULES_VERSION

ROOT = Path(__file__).resolve().parent.parent
SETS = ROOT / "fixtures" / "gold" / "sets.json"
BOARD_SETS = ROOT / "fixtures" / "gold" / "board-sets.json"
SCIREX = "fixtures/external/scirex/scirex_train_abstracts.jsonl"
ROLE_ORDER = {"held-out": 0, "pooled": 1, "tuning": 2, "in-sample": 3}
ATTRIBUTES = ("metric", "benchmark", "subject", "kind")
RECORDED = ROOT / "fixtures" / "recorded"
SCIREX_ROW = "all SciREX train abstracts (tuning text)"
sys.path.insert(0, str(ROOT))  # the fake server of tests/, for --backend replay


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


def leaderboard_markdown(rows: list[dict], boards_only: Sequence[tuple[str, Leaderboards]] = ()) -> str:
    """The leaderboard figures beside tuple recall, then rows of SciREX figures alone
    (``boards_only``: a run over several sets' papers); a '—' is 0 of 0, not a success."""
    lines = [
        "| set | tuple recall | leaderboard-ready recall | named-benchmark accuracy "
        "| SciREX reconstruction | cross-paper pairs in one block (both ranked / in gold) | blocks per gold leaderboard "
        "| wrong merges |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    board_rows = [(f"{r['set']} ({r['role']})", r, r["leaderboards"]) for r in rows]
    board_rows += [(name, None, boards.to_dict()) for name, boards in boards_only]
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
                str(boards["wrong_merges"]),
            ]
        else:
            cells += ["", "", "", ""]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def split_pairs_markdown(named: Sequence[tuple[str, dict | None]]) -> str:
    """Each cross-paper pair both ranked but in two blocks, and each wrong merge (``Leaderboards.to_dict()``
    of each named row), with both rows' block keys: what splits or joins it can be read off."""
    out = []
    for title, key in (("both ranked but in two blocks", "split_pairs"), ("of two gold leaderboards in one block", "wrong_merged_pairs")):
        lines = [f"- {name}: {pair['description']}" for name, boards in named if boards for pair in boards[key]]
        out += [f"Cross-paper pairs {title} (benchmark key, metric key, unit, conditions):", *(lines or ["- none"])]
    return "\n".join(out)


def board_labels_markdown(named: Sequence[tuple[str, BoardFigures]]) -> str:
    """The figures of the sets with board labels, on their replayed runs."""
    lines = [
        "| set | board-label pairs in one block (of all pairs) | ... of the pairs both ranked | wrong merges "
        "| pairs in one block with an unboarded row |",
        "| --- | --- | --- | --- | --- |",
    ]
    for name, figures in named:
        p = figures.to_dict()["pairs"]
        lines.append(
            f"| {name} | {_f(p['one_block_share'])} ({figures.together} of {figures.pairs}) "
            f"| {_f(p['one_block_share_of_ranked'])} ({figures.together} of {figures.pairs_ranked}) "
            f"| {len(figures.wrong)} | {len(figures.unboarded)} |"
        )
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


def replay_run(recording: Path, abstracts: Path, gold: Path, scratch: Path, cache_dir: Path | None = None) -> tuple[Path, Path, Path]:
    """Run the recorded papers of ``abstracts`` through the openai backend against the fake
    server answering with ``recording``, as ``extractor run --backend openai`` does (SDK,
    instructor, grounding and its re-asks, cache). Returns (inputs, gold, run directory): the
    recorded papers and their gold, so the rules can be run and scored on the same papers.
    The names step is off: the server would answer every name "none", which is not the model's word."""
    from tests.fake_openai import FakeOpenAI, Replay, abstract_key

    replay = Replay.read(recording)
    papers = [p for p in read_inputs([str(abstracts)]) if not p.error and abstract_key(p.abstract) in replay.answers]
    ids = {p.id for p in papers}
    inputs, gold_part, out = scratch / "inputs.jsonl", scratch / "gold.jsonl", scratch / "replay"
    scratch.mkdir(parents=True, exist_ok=True)
    inputs.write_text("".join(json.dumps({"id": p.id, "title": p.title, "abstract": p.abstract}) + "\n" for p in papers), encoding="utf-8")
    lines = gold.read_text(encoding="utf-8").splitlines()
    gold_part.write_text("".join(line + "\n" for line in lines if line.strip() and json.loads(line)["id"] in ids), encoding="utf-8")
    with FakeOpenAI(replay=replay) as server:
        config = make_config(
            "openai", model=replay.header.get("model") or "recorded", base_url=server.base_url, api_key="replay",
            prompt_version=replay.header.get("prompt_version"),
            cache_dir=cache_dir or scratch / "cache", use_cache=cache_dir is not None, timeout=30.0,
            map_names=False,  # a recording holds the model's extractions, not its answers about names
        )
        run([str(inputs)], out, config, leaderboard=True)
    return inputs, gold_part, out


def board_rows(roles: list[str] | None, scratch: Path) -> list[tuple[str, BoardFigures]]:
    """Each set of board labels (``fixtures/gold/board-sets.json``) against its recording's
    replayed run (each recording replayed once)."""
    found: list[tuple[str, BoardFigures]] = []
    runs: dict[tuple[str, str], Path] = {}
    empty = Path(scratch) / "no-gold.jsonl"  # the labels are the gold: no claims gold to score
    empty.parent.mkdir(parents=True, exist_ok=True)
    empty.write_text("", encoding="utf-8")
    for spec in json.loads(BOARD_SETS.read_text(encoding="utf-8")):
        if roles and spec["role"] not in roles:
            continue
        source = (spec["recording"], spec["abstracts"])
        if source not in runs:
            runs[source] = replay_run(ROOT / spec["recording"], ROOT / spec["abstracts"], empty, Path(scratch) / f"boards-{len(runs)}")[2]
        found.append((f"{spec['name']} replay ({spec['role']})", evaluate_boards(runs[source], ROOT / spec["boards"])[0]))
    return found


def replay_rows(
    roles: list[str] | None, scratch: Path, recorded: Path = RECORDED
) -> tuple[list[dict], list[tuple[str, Leaderboards]]]:
    """For each set with a recording in ``recorded``: the rules' row and the replayed answers'
    row, on the recorded papers; for the sets drawn from SciREX, their leaderboard figures, and
    per backend those of all recorded SciREX papers as one run (so pairs across sets count)."""
    rows = []
    held_out: dict[str, list[Report]] = {"rules": [], "replay": []}
    scirex_runs: dict[str, list[tuple[str, Path, list[str]]]] = {"rules": [], "replay": []}
    for spec in json.loads(SETS.read_text(encoding="utf-8")):
        recording = recorded / f"{spec['name']}.jsonl"
        if (roles and spec["role"] not in roles) or not recording.is_file():
            continue
        where = Path(scratch) / spec["name"]
        inputs, gold, replayed = replay_run(recording, ROOT / spec["abstracts"], ROOT / spec["gold"], where)
        run([str(inputs)], where / "rules", make_config("rules", use_cache=False))
        for backend, out in (("rules", where / "rules"), ("replay", replayed)):
            report = evaluate_run(out, gold)
            boards = None
            if spec["abstracts"] == SCIREX:  # as for the rules rows: SciREX's tuples, this set's papers
                ids = [p.id for p in report.papers]
                boards = evaluate_leaderboards(out, ROOT / SCIREX, ids)
                scirex_runs[backend].append((spec["name"], out, ids))
            rows.append(row(f"{spec['name']} {backend}", spec["role"], report, boards))
            if spec["role"] == "held-out":
                held_out[backend].append(report)
    for backend, reports in held_out.items():
        if len(reports) > 1:
            pooled = Report(reports[0].fields, [p for r in reports for p in r.papers], [])
            rows.append(row(f"all held-out {backend}", "pooled", pooled))
    pooled_boards = []
    for backend, parts in scirex_runs.items():
        if len(parts) > 1:
            results = [paper for _, out, _ in parts for paper in list(Run.open(out).papers())]
            ids = [i for _, _, part in parts for i in part]
            names = " + ".join(name for name, _, _ in parts)
            boards = leaderboards(results, read_inputs([str(ROOT / SCIREX)]), ids)
            pooled_boards.append((f"all recorded SciREX papers {backend} ({names}, one run)", boards))
    return held_out_first(rows), pooled_boards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--backend", default="rules",
        help="rules, openai (OPENAI_API_KEY / OPENAI_BASE_URL as for extractor run), or replay (fixtures/recorded/ beside the rules)",
    )
    parser.add_argument("--model", default=None, help="the model, for --backend openai")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--recorded", type=Path, default=RECORDED, help="for --backend replay: the directory of <set>.jsonl recordings")
    parser.add_argument(
        "--role",
        action="append",
        choices=("in-sample", "tuning", "held-out"),
        help="only the sets of this role (repeatable): leave the held-out sets out while tuning",
    )
    args = parser.parse_args()
    if args.backend == "replay":
        with tempfile.TemporaryDirectory() as scratch:
            rows, pooled_boards = replay_rows(args.role, Path(scratch), args.recorded)
            labelled = board_rows(args.role, Path(scratch))
        if not rows:
            raise SystemExit(f"no recording in {args.recorded} for the sets asked")
        if args.json:
            pooled = {name: boards.to_dict() for name, boards in pooled_boards}
            boards = {name: figures.to_dict() for name, figures in labelled}
            print(json.dumps({"backend": "replay", "rules_version": RULES_VERSION, "sets": rows, "scirex_pooled": pooled,
                              "board_labels": boards}, indent=2))
        else:
            print(f"recorded answers replayed (backend openai against the replaying fake) beside rules {RULES_VERSION}, on the recorded papers")
            print(leaderboard_markdown(rows, pooled_boards))
            print()
            print(markdown(rows))
            print()
            print(split_pairs_markdown([(r["set"], r["leaderboards"]) for r in rows] + [(n, b.to_dict()) for n, b in pooled_boards]))
            if labelled:
                print()
                print(board_labels_markdown(labelled))
        return
    config = make_config(args.backend, model=args.model, use_cache=False)  # key and base URL as for a run
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
        scirex_row = [(SCIREX_ROW, scirex)] if scirex else []
        print(leaderboard_markdown(rows, scirex_row))
        print()
        print(markdown(rows))
        print()
        print(split_pairs_markdown([(r["set"], r["leaderboards"]) for r in rows] + [(n, b.to_dict()) for n, b in scirex_row]))


if __name__ == "__main__":
    main()
