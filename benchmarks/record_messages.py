"""Record a capable model's answers for a gold set or an abstracts file: write the messages, then assemble the answers.

    python benchmarks/record_messages.py messages dev /tmp/rec-dev [--prompt v2]
    python benchmarks/record_messages.py messages crosspaper /tmp/rec-cp --abstracts fixtures/crosspaper/abstracts.jsonl
    python benchmarks/record_messages.py assemble /tmp/rec-dev --model "NAME" [--out fixtures/recorded/dev.jsonl]
    python benchmarks/record_messages.py rejections fixtures/recorded/dev.jsonl

``messages`` writes, for each paper of a gold set (names in ``fixtures/gold/sets.json``), or with
``--abstracts FILE`` for each paper of an abstracts file that has no gold (in file order, under
the name given, which must not be a gold set's), always without the prompt's own example papers
(dev holds two), ``<id>.messages.json``: exactly what ``extractor run --backend openai`` sends
(the system and user messages of the project's prompt code, and the JSON Schema the answer is
bound to), so whoever answers sees nothing else, and ``recording.json`` (set, prompt version and
hash, schema hash). The answerer writes ``<id>.answer.json`` beside each: the JSON object, as the
model wrote it.

``rejections`` grounds a recording's answers in their abstracts and counts what grounding drops:
"of N recorded claims, M rejected; K of those were right" (right: the paper's gold has a claim of
that value), each drop listed with its reason; clearings of an attribution are counted apart. It
needs the set's gold, so it reads recordings of gold sets only.

``assemble`` validates every answer against the schema (the pydantic model the schema is made
from) and writes the recording (format in ``fixtures/recorded/README.md``) atomically; a missing
or invalid answer is named and left out, and the command exits 1 when there was one.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path

from pydantic import ValidationError

from extractor.backends.openai.prompts import load_prompt
from extractor.backends.openai.request_schema import draft_schema_text, schema_hash
from extractor.backends.openai.options import DEFAULT_PROMPT_VERSION
from extractor.pipeline.ingest import Paper, read_inputs
from extractor.atomic import atomic_write_text
from extractor.eval.score import read_gold
from extractor.grounding import ground
from extractor.schema import ExtractionDraft

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the fake server's recording key: one definition for both sides
from tests.fake_openai import abstract_key  # noqa: E402
SETS = ROOT / "fixtures" / "gold" / "sets.json"
RECORDED = ROOT / "fixtures" / "recorded"
HEADER = "recording.json"


def gold_sets() -> dict[str, dict]:
    return {spec["name"]: spec for spec in json.loads(SETS.read_text(encoding="utf-8"))}


def gold_set(name: str) -> dict:
    specs = gold_sets()
    if name not in specs:
        raise SystemExit(f"unknown gold set {name!r}; choose one of {', '.join(specs)}")
    return specs[name]


def set_papers(name: str, prompt_version: str) -> list[Paper]:
    """The set's papers in gold order, without the prompt's example papers."""
    spec = gold_set(name)
    gold_ids = [json.loads(line)["id"] for line in (ROOT / spec["gold"]).read_text(encoding="utf-8").splitlines() if line.strip()]
    papers = {p.id: p for p in read_inputs([str(ROOT / spec["abstracts"])]) if not p.error}
    missing = [i for i in gold_ids if i not in papers]
    if missing:
        raise SystemExit(f"{name}: gold papers without an abstract in {spec['abstracts']}: {', '.join(missing)}")
    return not_shown([papers[i] for i in gold_ids], prompt_version)


def file_papers(path: Path, prompt_version: str) -> list[Paper]:
    """An abstracts file's papers in file order, for a set with no gold: every paper must read
    and have its own id; the prompt's example papers are left out as for a gold set."""
    papers = list(read_inputs([str(path)]))
    unread = [f"{p.id} ({p.error})" for p in papers if p.error]
    if unread:
        raise SystemExit(f"{path}: papers that cannot be read: {', '.join(unread)}")
    ids = [p.id for p in papers]
    if len(set(ids)) != len(ids):
        raise SystemExit(f"{path}: ids used twice: {', '.join(sorted({i for i in ids if ids.count(i) > 1}))}")
    return not_shown(papers, prompt_version)


def not_shown(papers: list[Paper], prompt_version: str) -> list[Paper]:
    """The papers without the prompt's example papers (a model shown a paper's answer in its
    prompt would be scored on a copy)."""
    examples = load_prompt(prompt_version).examples
    shown = {e.id for e in examples} | {abstract_key(e.abstract) for e in examples}
    return [p for p in papers if p.id not in shown and abstract_key(p.abstract) not in shown]


def write_messages(name: str, directory: Path, prompt_version: str, abstracts: Path | None = None) -> int:
    prompt = load_prompt(prompt_version)
    schema = json.loads(draft_schema_text())
    if abstracts and name in gold_sets():
        raise SystemExit(f"{name!r} is a gold set's name; give the abstracts file's recording a name of its own")
    papers = file_papers(abstracts, prompt_version) if abstracts else set_papers(name, prompt_version)
    directory.mkdir(parents=True, exist_ok=True)
    for paper in papers:
        record = {
            "id": paper.id,
            "abstract_hash": abstract_key(paper.abstract),
            "messages": prompt.messages(paper.abstract, paper.title),
            "response_schema": schema,
        }
        atomic_write_text(directory / f"{paper.id}.messages.json", json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    header = {
        "set": name, "prompt_version": prompt.version, "prompt_hash": prompt.hash,
        "schema_hash": schema_hash(), "papers": [p.id for p in papers],
    }
    atomic_write_text(directory / HEADER, json.dumps(header, indent=1) + "\n")
    return len(papers)


def read_answer(path: Path) -> tuple[dict | None, str | None]:
    """The answer as written, or why it cannot be recorded."""
    if not path.is_file():
        return None, "no answer file"
    text = path.read_text(encoding="utf-8").strip().removeprefix("```json").removesuffix("```")
    try:
        answer = json.loads(text)
        ExtractionDraft.model_validate(answer)
    except json.JSONDecodeError as error:
        return None, f"not JSON: {error}"
    except ValidationError as error:
        return None, f"does not fit the schema: {error.error_count()} errors, first {error.errors()[0]['loc']}: {error.errors()[0]['msg']}"
    return answer, None


def assemble(directory: Path, model: str, out: Path | None, date: str | None) -> int:
    """Write the recording; 1 when an answer was missing or invalid (it is named and left out)."""
    header = json.loads((directory / HEADER).read_text(encoding="utf-8"))
    if header["prompt_hash"] != load_prompt(header["prompt_version"]).hash or header["schema_hash"] != schema_hash():
        print(f"warning: prompt {header['prompt_version']} or the schema changed since the messages were written", file=sys.stderr)
    lines, failed = [], 0
    for paper_id in header["papers"]:
        messages = json.loads((directory / f"{paper_id}.messages.json").read_text(encoding="utf-8"))
        answer, problem = read_answer(directory / f"{paper_id}.answer.json")
        if problem:
            print(f"{paper_id}: {problem}", file=sys.stderr)
            failed += 1
            continue
        lines.append({"id": paper_id, "abstract_hash": messages["abstract_hash"], "answer": answer})
    recording = {
        "set": header["set"], "prompt_version": header["prompt_version"], "prompt_hash": header["prompt_hash"],
        "schema_hash": header["schema_hash"], "model": model,
        "date": date or datetime.date.today().isoformat(), "papers": len(lines),
    }
    target = out or RECORDED / f"{header['set']}.jsonl"
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in [{"recording": recording}, *lines])
    atomic_write_text(target, text)
    print(f"{target}: {len(lines)} answers, {failed} missing or invalid")
    return 1 if failed else 0


def count_rejections(recording: Path) -> str:
    """What grounding drops of a recording's claims, and how many of those the gold has."""
    lines = [json.loads(line) for line in recording.read_text(encoding="utf-8").splitlines() if line.strip()]
    header = lines[0]["recording"]
    spec = gold_set(header["set"])
    papers = {abstract_key(p.abstract): p for p in set_papers(header["set"], header["prompt_version"])}
    gold = {g.id: g for g in read_gold(ROOT / spec["gold"])}
    total = rejected = right = cleared = 0
    out = []
    for line in lines[1:]:
        draft = ExtractionDraft.model_validate(line["answer"])
        total += len(draft.claims)
        paper = papers[line["abstract_hash"]]
        _, rejections = ground(draft, paper.abstract, line["id"], paper.title)  # as the run grounds it
        golden = [(c.value, c.value_max) for c in gold[line["id"]].claims] if line["id"] in gold else []
        for r in rejections:
            if r.field == "attribution":
                cleared += 1
                out.append(f"  cleared  {line['id']}: {r.reason}")
            elif r.field == "claims":
                rejected += 1
                good = (r.item["value"], r.item.get("value_max")) in golden
                right += good
                out.append(f"  rejected {line['id']} ({'in gold' if good else 'not in gold'}): {r.item['value']:g} {r.item['evidence'][:70]!r}: {r.reason}")
    head = f"{recording.name}: of {total} recorded claims, {rejected} rejected; {right} of those were right; {cleared} attributions cleared"
    return "\n".join([head, *out])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    write = commands.add_parser("messages", help="write each paper's messages into a directory")
    write.add_argument("set", help="a gold set's name in fixtures/gold/sets.json, or with --abstracts the recording's name")
    write.add_argument("directory", type=Path)
    write.add_argument("--abstracts", type=Path, help="an abstracts file with no gold: its papers, under the name SET")
    write.add_argument("--prompt", default=DEFAULT_PROMPT_VERSION, help="prompt version (prompts/<version>/)")
    build = commands.add_parser("assemble", help="validate the answers and write fixtures/recorded/<set>.jsonl")
    build.add_argument("directory", type=Path)
    build.add_argument("--model", required=True, help="the model that wrote the answers, as the README should name it")
    build.add_argument("--out", type=Path, help="default: fixtures/recorded/<set>.jsonl")
    build.add_argument("--date", help="the recording's date (default: today)")
    drops = commands.add_parser("rejections", help="count and list the recorded claims grounding drops")
    drops.add_argument("recording", type=Path)
    args = parser.parse_args(argv)
    if args.command == "rejections":
        print(count_rejections(args.recording))
        return 0
    if args.command == "messages":
        count = write_messages(args.set, args.directory, args.prompt, args.abstracts)
        print(f"{args.directory}: {count} papers' messages; answer each in <id>.answer.json")
        return 0
    return assemble(args.directory, args.model, args.out, args.date)


if __name__ == "__main__":
    sys.exit(main())
