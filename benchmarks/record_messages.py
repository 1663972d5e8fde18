"""Write, for a gold set, exactly what `extractor run --backend openai` sends for each paper, so a
capable model (or an annotator agent acting as one) can answer it with nothing else in view.

    python benchmarks/record_messages.py SET --out DIR [--prompt-version v3]

DIR gets ``schema.json`` (the JSON Schema the answer is bound to, as the request carries it),
``prompt.json`` (prompt version and content hash, schema hash) and one ``<n>.json`` per paper:
``{"id", "messages": [system, user]}``, built by the project's own prompt code. The prompt's own
example papers are left out (they are in the dev gold). Sets are named in fixtures/gold/sets.json.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from extractor.backends.openai.prompts import load_prompt
from extractor.backends.openai.request_schema import draft_schema_text, schema_hash
from extractor.config import DEFAULT_PROMPT_VERSION
from extractor.pipeline.ingest import read_inputs
from extractor.pipeline.rundir import atomic_write_text

ROOT = Path(__file__).resolve().parent.parent
SETS = {s["name"]: s for s in json.loads((ROOT / "fixtures" / "gold" / "sets.json").read_text(encoding="utf-8"))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", choices=sorted(SETS))
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--prompt-version", default=DEFAULT_PROMPT_VERSION)
    args = parser.parse_args()
    spec = SETS[args.set]
    prompt = load_prompt(args.prompt_version)
    gold_ids = {json.loads(line)["id"] for line in (ROOT / spec["gold"]).read_text(encoding="utf-8").splitlines() if line.strip()}
    examples = {e.id for e in prompt.examples}
    args.out.mkdir(parents=True, exist_ok=True)
    atomic_write_text(args.out / "schema.json", json.dumps(json.loads(draft_schema_text()), indent=2) + "\n")
    info = {"set": args.set, "prompt_version": prompt.version, "prompt_hash": prompt.hash, "schema_hash": schema_hash()}
    atomic_write_text(args.out / "prompt.json", json.dumps(info, indent=2) + "\n")
    written, seen = 0, set(examples)  # a paper in two listings is one paper
    for paper in read_inputs([str(ROOT / spec["abstracts"])]):
        if paper.error or paper.id not in gold_ids or paper.id in seen:
            continue
        seen.add(paper.id)
        written += 1
        record = {"id": paper.id, "messages": prompt.messages(paper.abstract, paper.title)}
        atomic_write_text(args.out / f"{written:03d}.json", json.dumps(record, indent=2, ensure_ascii=False) + "\n")
    print(f"{written} papers of {args.set} -> {args.out} (prompt {prompt.version}, {info['prompt_hash']})")


if __name__ == "__main__":
    main()
