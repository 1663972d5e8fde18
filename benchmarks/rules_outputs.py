"""Hashes of the outputs a refactor must not change: the rules backend's on every gold set's
abstracts and the demo, and (``--replay``) the recorded model answers' replayed through the
openai backend.

    python benchmarks/rules_outputs.py [--replay]                 # print one hash per output file
    python benchmarks/rules_outputs.py [--replay] --check FILE    # compare with hashes saved before

Each distinct abstracts input of ``fixtures/gold/sets.json`` (the demo ``fixtures/abstracts``
among them, and SciREX's train abstracts) is run as ``extractor run`` runs it (the library
call, rules backend, no cache) into a temporary directory. With ``--replay``, each gold set with
a recording (``fixtures/recorded/<set>.jsonl``) is run through the openai backend against the
fake server replaying it (``benchmarks/quality.py``'s ``replay_run``). Hashed per run:
``claims.csv`` as written, ``papers.jsonl`` with each line's ``usage`` left out (it is the
run's, not the extraction's), the run's leaderboard as CSV, and every part of its
``leaderboard.xlsx`` but the document properties (they hold the time it was written).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.fake_openai, benchmarks.quality

from extractor.api import run  # noqa: E402
from extractor.config import make_config  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SETS = ROOT / "fixtures" / "gold" / "sets.json"
RECORDED = ROOT / "fixtures" / "recorded"
EXTRA = ("fixtures/abstracts", "fixtures/external/scirex/scirex_train_abstracts.jsonl")
RUN_FIELDS = ("usage",)


def inputs() -> list[str]:
    """Every abstracts input once, in the order the sets first name them."""
    named = [spec["abstracts"] for spec in json.loads(SETS.read_text())] + list(EXTRA)
    return list(dict.fromkeys(named))


def papers_digest(path: Path, scratch: str = "") -> str:
    """The hash of papers.jsonl without the run-specific fields of each line (and the temporary
    directory's name, where the inputs were written there, left out of the sources)."""
    digest = hashlib.sha256()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.replace(scratch, "<scratch>") if scratch else line
        record = {k: v for k, v in json.loads(line).items() if k not in RUN_FIELDS}
        digest.update(json.dumps(record, sort_keys=True, ensure_ascii=False).encode() + b"\n")
    return digest.hexdigest()


def workbook_digest(path: Path, scratch: str = "") -> str:
    """The hash of a workbook's parts, the document properties (a timestamp) and the temporary
    directory's name left out."""
    digest = hashlib.sha256()
    with zipfile.ZipFile(path) as book:
        for name in sorted(book.namelist()):
            if not name.startswith("docProps/"):
                part = book.read(name).replace(scratch.encode(), b"<scratch>") if scratch else book.read(name)
                digest.update(name.encode() + b"\0" + part + b"\0")
    return digest.hexdigest()


def run_digests(label: str, where: Path, scratch: str = "") -> dict[str, str]:
    """The hashes of one run directory's outputs, its leaderboard written as CSV beside it
    (``scratch``: a temporary directory the run's inputs were written in, left out)."""
    from extractor.leaderboard import build_leaderboard, export, load_runs
    from extractor.runs import Run

    board_csv = where.parent / f"{where.name}-leaderboard.csv"
    export(build_leaderboard(*load_runs([Run.open(where)])), board_csv)
    out = {
        f"{label}/claims.csv": hashlib.sha256((where / "claims.csv").read_bytes()).hexdigest(),
        f"{label}/papers.jsonl": papers_digest(where / "papers.jsonl", scratch),
        f"{label}/leaderboard.csv": hashlib.sha256(board_csv.read_bytes().replace(scratch.encode(), b"<scratch>") if scratch else board_csv.read_bytes()).hexdigest(),
    }
    if (where / "leaderboard.xlsx").exists():
        out[f"{label}/leaderboard.xlsx"] = workbook_digest(where / "leaderboard.xlsx", scratch)
    return out


def hashes(scratch: Path) -> dict[str, str]:
    """``{'<input>/claims.csv': sha256, '<input>/papers.jsonl': sha256, ...}``."""
    config = make_config("rules", use_cache=False)
    out: dict[str, str] = {}
    for i, source in enumerate(inputs()):
        where = scratch / str(i)
        run([str(ROOT / source)], where, config, leaderboard=True)
        out.update(run_digests(source, where))
    return out


def replay_hashes(scratch: Path) -> dict[str, str]:
    """The same hashes for each recorded set replayed through the openai backend."""
    from benchmarks.quality import replay_run

    out: dict[str, str] = {}
    for spec in json.loads(SETS.read_text()):
        recording = RECORDED / f"{spec['name']}.jsonl"
        if recording.is_file():
            _, _, where = replay_run(recording, ROOT / spec["abstracts"], ROOT / spec["gold"], scratch / spec["name"])
            out.update(run_digests(f"replay {spec['name']}", where, str(scratch)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", type=Path, help="hashes saved by an earlier run (JSON)")
    parser.add_argument("--replay", action="store_true", help="also the recorded answers, replayed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        now = hashes(Path(scratch) / "rules")
        if args.replay:
            now.update(replay_hashes(Path(scratch) / "replay"))
    if args.check is None:
        print(json.dumps(now, indent=2))
        return
    before = json.loads(args.check.read_text())
    changed = sorted(k for k in before.keys() | now.keys() if before.get(k) != now.get(k))
    for key in changed:
        print(f"changed: {key}")
    print("identical" if not changed else f"{len(changed)} of {len(now)} outputs changed")
    sys.exit(1 if changed else 0)


if __name__ == "__main__":
    main()
