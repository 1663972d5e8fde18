"""The yardstick of ``llm_throughput.py``'s re-ask part: the openai SDK alone, in a process of
its own that imports nothing else, sends the request bodies of a JSON Lines file.

The file is what ``tests/fake_openai.py --record-bodies`` recorded of a client's run (first
requests and re-asks, in the order the server received them), so the SDK sends the very same
bodies: one request per line, in that order, ``--concurrency`` at once; the answers are not
even parsed. Prints one JSON line: requests, wall seconds from the start of the process
(imports included) and CPU seconds.

    python benchmarks/bare_sdk.py bodies.jsonl --base-url http://127.0.0.1:8089/v1 --concurrency 32
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from pathlib import Path

STARTED = time.perf_counter()


def read_bodies(path: str | Path, start: int = 0, stop: int | None = None) -> list[dict]:
    """The request bodies on lines [start, stop) of a JSON Lines file."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()[start:stop]
    return [json.loads(line) for line in lines if line.strip()]


async def send_all(bodies: list[dict], base_url: str, concurrency: int) -> int:
    """Each body sent once, in order, ``concurrency`` at once."""
    from openai import AsyncOpenAI

    client = AsyncOpenAI(base_url=base_url, api_key="benchmark-key", max_retries=0)
    semaphore = asyncio.Semaphore(concurrency)

    async def send(body: dict) -> None:
        async with semaphore:
            await client.chat.completions.create(**body)

    try:
        await asyncio.gather(*(send(body) for body in bodies))
    finally:
        await client.close()
    return len(bodies)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bodies", help="JSON Lines, one Chat Completions request body a line")
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--concurrency", type=int, default=32)
    args = parser.parse_args(argv)
    requests = asyncio.run(send_all(read_bodies(args.bodies), args.base_url, args.concurrency))
    print(json.dumps({"requests": requests, "wall": time.perf_counter() - STARTED, "cpu": time.process_time()}))


if __name__ == "__main__":
    main()
