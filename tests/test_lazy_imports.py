"""The command line starts without the heavy libraries: each command imports what it uses when
it runs (``benchmarks/startup.py`` times it; this only checks which modules get loaded)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("pandas", "numpy", "openpyxl", "xlsxwriter", "openai", "instructor", "tiktoken", "diskcache", "tenacity")


def loaded_after(statement: str) -> list[str]:
    probe = f"import json, sys; {statement}; print(json.dumps(sorted(m for m in {list(HEAVY)!r} if m in sys.modules)))"
    result = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True, timeout=60)
    return json.loads(result.stdout)


@pytest.mark.parametrize("statement", ["import extractor.cli.app", "import extractor", "from extractor import RunConfig"])
def test_the_command_line_loads_no_heavy_library(statement: str) -> None:
    assert loaded_after(statement) == []


def test_the_front_door_still_gives_every_name() -> None:
    import extractor

    for name in extractor.__all__:
        assert getattr(extractor, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        extractor.nothing  # noqa: B018 (the access is the test)


def test_the_leaderboard_loads_no_openpyxl() -> None:
    """The run's leaderboard is written by XlsxWriter: openpyxl (about 0.15 s to import) is for
    review sheets and workbook inputs only, so `extractor run` does not pay for it."""
    assert "openpyxl" not in loaded_after("from extractor.leaderboard import write_run_leaderboard; import extractor.api")
