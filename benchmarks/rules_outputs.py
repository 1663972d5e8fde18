"""Hashes of the rules backend's outputs on every gold set's abstracts and the demo, so a
refactor of ``extractor/rules`` can show it changed nothing.

    python benchmarks/rules_outputs.py                  # print one hash per output file
    python benchmarks/rules_outputs.py --check FILE     # compare with hashes saved before

Each distinct abstracts input of ``fixtures/gold/sets.json`` (the demo ``fixtures/abstracts``
among them, and SciREX's train abstracts) is run as ``extractor run`` runs it (the library
call, rules backend, no cache) into a temporary directory; ``claims.csv`` is hashed as written
and ``papers.jsonl`` with each line's ``usage`` left out (it is the run's, not the rules').
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from pathlib import Path

from extractor.api import run
from extractor.config import make_config

ROOT = Path(__file__).resolve().parent.parent
SETS = ROOT / "fixtures" / "gold" / "sets.json"
EXTRA = ("fixtures/abstracts", "fixtures/external/scirex/scirex_train_abstracts.jsonl")
RUN_FIELDS = ("usage",)


def inputs() -> list[str]:
    """Every abstracts input once, in the order the sets first name them."""
    named = [spec["abstracts"] for spec in json.loads(SETS.read_text())] + list(EXTRA)
    return list(dict.fromkeys(named))


def papers_digest(path: Path) -> str:
    """The hash of papers.jsonl without the run-specific fields of each line."""
    digest = hashlib.sha256()
    for line in path.read_text(encoding="utf-8").splitlines():
        record = {k: v for k, v in json.loads(line).items() if k not in RUN_FIELDS}
        digest.update(json.dumps(record, sort_keys=True, ensure_ascii=False).encode() + b"\n")
    return digest.hexdigest()


def hashes(scratch: Path) -> dict[str, str]:
    """``{'<input>/claims.csv': sha256, '<input>/papers.jsonl': sha256, ...}``."""
    config = make_config("rules", use_cache=False)
    out: dict[str, str] = {}
    for i, source in enumerate(inputs()):
        where = scratch / str(i)
        run([str(ROOT / source)], where, config)
        out[f"{source}/claims.csv"] = hashlib.sha256((where / "claims.csv").read_bytes()).hexdigest()
        out[f"{source}/papers.jsonl"] = papers_digest(where / "papers.jsonl")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", type=Path, help="hashes saved by an earlier run (JSON)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        now = hashes(Path(scratch))
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
