"""The yardstick of ``llm_throughput.py``'s re-ask part: the openai SDK alone, in a process of
its own that imports nothing else, sends request bodies read from a JSON Lines file.

Each body is sent ``--per-body`` times in a row (a first request and its re-ask), ``--concurrency``
bodies at once; the answers are not even parsed. Prints one JSON line: requests, wall seconds
from the start of the process (imports included) and CPU seconds.

    python benchmarks/bare_sdk.py bodies.jsonl --base-url http://127.0.0.1:8089/v1 --concurrency 32
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time

STARTED = time.perf_counter()


async def send_all(bodies: list[dict], base_url: str, concurrency: int, per_body: int) -> int:
    from openai import AsyncOpenAI

    client = AsyncOpenAI(base_url=base_url, api_key="benchmark-key", max_retries=0)
    semaphore = asyncio.Semaphore(concurrency)

    async def send(body: dict) -> None:
        async with semaphore:
            for _ in range(per_body):
                await client.chat.completions.create(**body)

    try:
        await asyncio.gather(*(send(body) for body in bodies))
    finally:
        await client.close()
    return len(bodies) * per_body


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bodies", help="JSON Lines, one Chat Completions request body a line")
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--per-body", type=int, default=2)
    args = parser.parse_args(argv)
    with open(args.bodies, encoding="utf-8") as handle:
        bodies = [json.loads(line) for line in handle if line.strip()]
    requests = asyncio.run(send_all(bodies, args.base_url, args.concurrency, args.per_body))
    print(json.dumps({"requests": requests, "wall": time.perf_counter() - STARTED, "cpu": time.process_time()}))


if __name__ == "__main__":
    main()
