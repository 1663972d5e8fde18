"""Input files a hostile or unlucky user gives (docs/faults.md, "Input files and workbooks"): a
file name that is not UTF-8, one huge paragraph, a FIFO or a link to /dev/zero in an input
directory, and a run directory inside the input directory."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from typer.testing import CliRunner

from extractor.cli.app import app
from extractor.pipeline.ingest import count_records, read_inputs
from tests.runs import read_papers
from tests.conftest import ROOT

GOOD = "FooNet achieves 80.1% top-1 accuracy on ImageNet."


def _run(*args: str):
    return CliRunner().invoke(app, ["run", *args, "--backend", "rules", "-q", "--no-leaderboard"])


def test_a_file_name_that_is_not_utf8_is_read_and_shown_escaped(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    raw = os.path.join(os.fsencode(folder), b"caf\xe9.jsonl")
    with open(raw, "w") as handle:
        handle.write(json.dumps({"abstract": GOOD}) + "\n")
    bad = os.fsencode(folder / "bad.csv").replace(b"bad", b"b\xffd")
    with open(bad, "w") as handle:
        handle.write("id,text\n1,x\n")
    result = _run(str(folder), "-o", str(tmp_path / "run"))
    assert result.exit_code == 1 and result.exception is None or isinstance(result.exception, SystemExit), result.output
    failed, good = read_papers(tmp_path / "run")
    assert good.status == "ok" and good.source.file == f"{folder}/caf\\xe9.jsonl"
    assert failed.id == "input:b\\xffd.csv:1" and failed.error.startswith(f"{folder}/b\\xffd.csv:1: CSV header")
    alone = _run(os.fsdecode(raw), "-o", str(tmp_path / "alone"))  # named on the command line
    assert alone.exit_code == 0, alone.output
    assert json.loads((tmp_path / "alone" / "run.json").read_text())["inputs"] == [os.fsdecode(raw)]


def _peak_bytes(paths: list[str], max_chars: int) -> tuple[list, int]:
    tracemalloc.start()
    try:
        papers = list(read_inputs(paths, max_chars))
        return papers, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("shape", ["one line", "many lines", "a listing entry"])
def test_a_huge_paragraph_is_over_the_budget_while_it_is_read(tmp_path: Path, shape: str) -> None:
    """Tested smaller: 8 MB of text under a 1,000-character budget is never held."""
    sentence = "We measure 80.1% accuracy on ImageNet with a long run-on clause that goes on and on. "
    huge = sentence * (8_000_000 // len(sentence))
    body = {"one line": huge, "many lines": huge.replace(". ", ".\n"), "a listing entry": huge}[shape]
    if shape == "a listing entry":
        text = f"#01Oct 22, 2026\ncs.LG\nA Title\nAnn Author\n{body}\n#02Oct 22, 2026\ncs.LG\nT\nA\n{GOOD}\n"
    else:
        text = f"Daily Papers\n\n{body}\n\n{GOOD}\n"
    path = tmp_path / "pasted.txt"
    path.write_text(text)
    papers, peak = _peak_bytes([str(path)], 1_000)
    assert peak < 1_000_000, f"{peak:,} bytes held"
    over, good = papers
    line = 1 if shape == "a listing entry" else 3  # the entry's header, the paragraph's first line
    assert over.error == f"{path}:{line}: abstract is over the 1,000 budget (more than 1,000 characters; the rest of it was read past, not kept)"
    assert good.error is None and good.abstract == GOOD
    assert count_records([str(path)]) == 2


_RUN_LIMITED = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))  # a regression fails, not the machine
from extractor.cli.app import main
sys.argv = ["extractor", "run", *sys.argv[1:]]
main()
"""


def test_a_fifo_or_a_link_to_dev_zero_in_an_input_directory_is_not_read(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.jsonl").write_text(json.dumps({"id": "a", "abstract": GOOD}) + "\n")
    os.mkfifo(folder / "pipe.jsonl")
    (folder / "zero.txt").symlink_to("/dev/zero")
    out = tmp_path / "run"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", _RUN_LIMITED, str(folder), "-o", str(out), "--backend", "rules", "-q", "--no-leaderboard"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_CPU, (60, 60)),
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    papers = {p.id: p for p in read_papers(out)}
    assert papers["a"].status == "ok"
    assert papers["input:pipe.jsonl"].error == f"{folder}/pipe.jsonl: a FIFO (named pipe), not a regular file: only regular files are read (give - to read stdin)"
    assert papers["input:zero.txt"].error == f"{folder}/zero.txt: a device, not a regular file: only regular files are read (give - to read stdin)"


def test_a_run_directory_inside_the_input_directory_is_not_read_as_input(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.jsonl").write_text(json.dumps({"id": "a", "abstract": GOOD}) + "\n")
    out = folder / "run"
    for _ in range(2):  # the rerun resumes: the first run's papers.jsonl and claims.csv are not inputs
        result = _run(str(folder), "-o", str(out))
        assert result.exit_code == 0, result.output
        assert [p.id for p in read_papers(out)] == ["a"]
    assert CliRunner().invoke(app, ["review", "export", str(out), "-o", str(out / "review.xlsx"), "-q"]).exit_code == 0
    assert _run(str(folder), "-o", str(out)).exit_code == 0 and [p.id for p in read_papers(out)] == ["a"]
    [named] = read_inputs([str(out)])  # a run directory named as input
    assert named.error.startswith(f"{out}: a run directory (it holds run.json or journal.tsv)")
