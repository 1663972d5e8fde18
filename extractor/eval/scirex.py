"""Method and dataset gold from SciREX (Jain et al., ACL 2020), for scoring on abstracts the
team never annotated.

The input is ``scirex_train_abstracts.jsonl`` (see ``fixtures/external/scirex/SOURCE.md``):
one record per paper with ``doc_id``, ``title``, ``abstract`` (tokens joined by spaces),
``abstract_mentions`` (the SciREX entity mentions inside the abstract) and ``n_ary_relations``
(the paper's results tuples, with flags telling which entities the abstract mentions). The
same file is the input of the run: ``extractor run`` reads it as JSON Lines (``doc_id`` and the
annotations land in metadata; a backend sees only title and abstract), so each gold line takes
the id that ingest gives the record and the two always agree.

SciREX ``Method`` mentions include generic ones ("CNN", "dropout", "pooling") and baselines,
while ANNOTATION.md gold holds the methods a paper proposes. The closest SciREX has is
salience: the entities of the paper's own results tuples. So the gold is:

- required: each salient method (dataset) the abstract mentions, with its SciREX name
  (underscores as spaces) and the abstract's mentions that match it under the scoring rule as
  aliases; salient entities sharing a mention are one;
- optional: every other ``Method`` (``Material``) mention: naming it is neither rewarded nor
  punished, naming something SciREX does not tag at all is an error.
"""

from __future__ import annotations

from pathlib import Path

from extractor.eval.matching import name_cost
from extractor.text.name_keys import name_key
from extractor.pipeline.ingest import read_inputs

_TYPES = {"methods": "Method", "benchmarks": "Material"}


def _mentions(metadata: dict, kind: str) -> list[str]:
    """Distinct (under name_key) mention texts of one SciREX type, in text order."""
    seen: set[str] = set()
    out = []
    for mention in metadata.get("abstract_mentions", []):
        key = name_key(mention["text"])
        if mention["type"] == kind and key and key not in seen:
            seen.add(key)
            out.append(mention["text"])
    return out


def _salient(metadata: dict, kind: str) -> list[str]:
    """Names of the results-tuple entities of one type that the abstract mentions."""
    names = {
        " ".join(relation[kind].replace("_", " ").split())
        for relation in metadata.get("n_ary_relations", [])
        if relation.get(f"{kind}_in_abstract") and relation.get(kind)
    }
    return sorted(names)


def gold_names(metadata: dict, kind: str) -> tuple[list[list[str]], list[list[str]]]:
    """(required alias lists, optional alias lists) of one SciREX type for one record."""
    mentions = _mentions(metadata, kind)
    groups: list[list[str]] = []
    for name in _salient(metadata, kind):
        aliases = [name, *(m for m in mentions if name_cost([m], [name]) is not None)]
        keys = {name_key(a) for a in aliases}
        group = next((g for g in groups if keys & {name_key(a) for a in g}), None)
        if group is None:
            group = []
            groups.append(group)
        for alias in aliases:
            if name_key(alias) not in {name_key(a) for a in group}:
                group.append(alias)
    used = {name_key(a) for g in groups for a in g}
    optional = [[m] for m in mentions if name_key(m) not in used]
    return groups, optional


def gold_lines(path: Path) -> list[dict]:
    """One ANNOTATION.md gold line per SciREX record that has an abstract (records without
    one fail in the run and are left out here)."""
    lines = []
    for paper in read_inputs([str(path)]):
        if paper.error:
            continue
        line: dict = {"id": paper.id, "doc_id": paper.metadata.get("doc_id"), "optional": {}}
        for field, kind in _TYPES.items():
            line[field], line["optional"][field] = gold_names(paper.metadata, kind)
        lines.append(line)
    return lines

