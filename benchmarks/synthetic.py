"""Distinct synthetic abstracts for scale tests: the fixture abstracts' sentences, recombined,
with every number redrawn and a coined name per abstract, so no two abstracts are the same and
each still reads (and extracts) like the real ones.

    python benchmarks/synthetic.py 100000 --out /tmp/synthetic-100k.jsonl

The same count gives the same file (seeded by position), so runs are comparable.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import string
from collections.abc import Iterator
from pathlib import Path

from extractor.pipeline.ingest import read_inputs

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "abstracts"
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _fixture_sentences() -> list[list[str]]:
    """Each readable fixture abstract as its list of sentences."""
    return [_SENTENCE.split(p.abstract) for p in read_inputs([str(FIXTURES)]) if not p.error]


def _redraw(rng: random.Random, match: re.Match[str]) -> str:
    """A number of the same shape (digits before and after the point), drawn anew."""
    whole, _, fraction = match.group().partition(".")
    digits = str(rng.randint(1, 9)) + "".join(rng.choice(string.digits) for _ in whole[1:])
    if fraction:
        digits += "." + "".join(rng.choice(string.digits) for _ in fraction)
    return digits


def _coined(index: int) -> str:
    """A method name unique to ``index`` ('QxaNet', 'QxbNet', ...)."""
    letters = string.ascii_lowercase
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = letters[rest] + name
    return "Qx" + name + "Net"


def abstracts(count: int) -> Iterator[dict]:
    """``count`` distinct records (``id``, ``abstract``) in a fixed order."""
    pool = _fixture_sentences()
    for index in range(count):
        rng = random.Random(index)
        base = pool[index % len(pool)]
        sentences = list(base)
        for _ in range(rng.randint(0, 2)):  # swap in sentences from other abstracts
            donor = rng.choice(pool)
            sentences[rng.randrange(len(sentences))] = rng.choice(donor)
        text = " ".join(sentences)
        text = _NUMBER.sub(lambda m: _redraw(rng, m), text)
        text = f"We propose {_coined(index)}. {text}"
        yield {"id": f"syn-{index:07d}", "abstract": text}


def write(count: int, out: Path) -> Path:
    """Write ``count`` records as JSON Lines to ``out`` (kept when it already has them)."""
    if out.exists() and sum(1 for _ in out.open("rb")) == count:
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.name + ".partial")
    with partial.open("w", encoding="utf-8") as handle:
        for record in abstracts(count):
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    partial.replace(out)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", type=int)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    print(write(args.count, args.out))


if __name__ == "__main__":
    main()
