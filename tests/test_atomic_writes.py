"""Run-directory files: written atomically, with the mode a plain file create would give."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from extractor.atomic import atomic_write_bytes, atomic_write_text


@pytest.fixture
def umask() -> Iterator[None]:
    saved = os.umask(0o022)
    os.umask(saved)
    yield
    os.umask(saved)


@pytest.mark.parametrize(("mask", "mode"), [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600), (0o002, 0o664)])
def test_atomic_writes_honour_the_umask(tmp_path: Path, umask: None, mask: int, mode: int) -> None:
    os.umask(mask)
    atomic_write_text(tmp_path / "claims.csv", "a,b\n")
    atomic_write_bytes(tmp_path / "sub" / "board.xlsx", b"PK")
    assert stat.S_IMODE((tmp_path / "claims.csv").stat().st_mode) == mode
    assert stat.S_IMODE((tmp_path / "sub" / "board.xlsx").stat().st_mode) == mode
    assert [p.name for p in tmp_path.rglob(".*")] == []  # no temporary file left behind
