"""Extract abstracts in a Ray Data pipeline: the library's two halves of one paper's work in
``map_batches`` (the request to send; the grounded result from the model's answer), any
OpenAI-compatible server in the middle (a vLLM replica per actor), and a run directory at the
end that ``extractor leaderboard``, ``review`` and ``report`` read as any other.

    pip install "ray[data]"
    python examples/ray_data.py papers.jsonl --out runs/ray --base-url http://127.0.0.1:8000/v1 --model M

``papers.jsonl`` holds one ``{"id", "abstract", "title"?}`` a line. One round: an answer the
abstract does not support loses those items to ``rejected`` (no re-ask); for re-asks, use
``extractor run --batch-export`` / ``--batch-import`` instead.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from typing import Any

import ray

from extractor import PaperResult, RunConfig, make_config, paper_request, paper_result, write_results


def titles(batch: dict[str, Any]) -> list[str | None]:
    return [t or None for t in batch["title"]] if "title" in batch else [None] * len(batch["abstract"])


def requests(batch: dict[str, Any], config: RunConfig) -> dict[str, Any]:
    """The first half: each paper's Chat Completions request body."""
    batch["request"] = [json.dumps(paper_request(a, t, config)) for a, t in zip(batch["abstract"], titles(batch))]
    return batch


class Engine:
    """The middle, on one server per actor: any engine that answers the request bodies."""

    def __init__(self, base_url: str, api_key: str) -> None:
        from openai import OpenAI

        self.client = OpenAI(base_url=base_url, api_key=api_key)

    def __call__(self, batch: dict[str, Any]) -> dict[str, Any]:
        batch["answer"] = [
            self.client.chat.completions.create(**json.loads(body)).model_dump_json() for body in batch["request"]
        ]
        return batch


def results(batch: dict[str, Any], config: RunConfig) -> dict[str, Any]:
    """The second half: each paper's grounded result from its answer."""
    batch["result"] = [
        paper_result(json.loads(answer), abstract, title, config, id=str(paper)).model_dump_json()
        for answer, abstract, title, paper in zip(batch["answer"], batch["abstract"], titles(batch), batch["id"])
    ]
    return {"result": batch["result"]}


def pipeline(source: str, config: RunConfig, base_url: str, api_key: str, actors: int) -> Iterator[PaperResult]:
    """Every paper's result, in input order, as the pipeline finishes them."""
    ray.data.DataContext.get_current().execution_options.preserve_order = True
    dataset = (
        ray.data.read_json(source)
        .map_batches(requests, fn_kwargs={"config": config}, batch_size=16)
        # the actors wait on the server: a quarter of a CPU each leaves the cores to the halves
        .map_batches(Engine, fn_constructor_args=(base_url, api_key), concurrency=actors, num_cpus=0.25, batch_size=16)
        .map_batches(results, fn_kwargs={"config": config}, batch_size=16)
    )
    for row in dataset.iter_rows():
        yield PaperResult.model_validate_json(row["result"])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("papers", help="JSON Lines: id, abstract, title (optional)")
    parser.add_argument("--out", required=True, help="the run directory to write")
    parser.add_argument("--base-url", required=True, help="the OpenAI-compatible server")
    parser.add_argument("--model", required=True)
    parser.add_argument("--api-key", default="no-key")
    parser.add_argument("--actors", type=int, default=2, help="engine actors, each sending one request at a time")
    args = parser.parse_args(argv)
    config = make_config("openai", model=args.model, base_url=args.base_url, api_key=args.api_key, mode="json_schema")
    ray.init(include_dashboard=False, ignore_reinit_error=True)
    try:
        summary = write_results(args.out, pipeline(args.papers, config, args.base_url, args.api_key, args.actors), config)
    finally:
        ray.shutdown()
    counts = summary.info["counts"]
    print(f"{counts['ok']} ok, {counts['failed']} failed, {counts['claims']} claims -> {args.out}")


if __name__ == "__main__":
    main()
