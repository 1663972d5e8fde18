"""Files written whole or not at all: a temporary file beside the target, moved into place.

A process killed at any moment leaves the old file or the new one, never half of one. Every
output of the tool (the run's files, leaderboards, review sheets, reports, schemas) is written
this way.
"""

from __future__ import annotations

import atexit
import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from extractor.errors import OutputError
from extractor.text.safe import path_text


def _umask() -> int:
    """The process umask. Linux shows it in /proc; elsewhere reading it means setting it and
    setting it straight back (a moment in which another thread's new file gets 022)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except OSError:
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def kind_of(mode: int) -> str:
    """What a path that is not a regular file is, in words ('a FIFO (named pipe)')."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a socket" if stat.S_ISSOCK(mode) else "not a file"


def _replaceable(path: Path) -> None:
    """Refuse a target the rename would replace but that is no file, or a link to no file: a
    device (``/dev/full``, as root), a FIFO, a directory, ``/dev/stdout``. A link to a file is
    replaced, never written through."""
    try:
        mode = path.stat().st_mode
    except OSError:  # nothing there (or a dangling link): a new file
        return
    if not stat.S_ISREG(mode):
        raise OutputError(
            f"{path_text(path)}: {kind_of(mode)}, not a regular file: an output is written whole to a new file "
            "moved into place, which would replace it; give the name of a file"
        )


@contextmanager
def atomic_file(path: Path, binary: bool = False) -> Iterator[IO]:
    """A file written beside ``path`` and renamed into place only when the block ends without an
    error (else removed): readers see the old file or the new one, never half of one. It gets the
    mode a plain ``open(path, "w")`` would give (0666 less the umask), not mkstemp's 0600, so a
    teammate or a web server can read a shared run."""
    _replaceable(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp, handle = temporary(path.parent, path.name, binary)
    try:
        with writing(path), handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    finally:
        _MADE.pop(tmp, None)


def naming(error: OSError, path: Path) -> OSError:
    """The error naming the file being written: a full disk, or a file grown past ``ulimit -f``,
    says only 'No space left on device' or 'File too large'."""
    return OSError(error.errno, error.strerror or str(error), str(path))


@contextmanager
def writing(path: Path) -> Iterator[None]:
    """An OSError of the block that names no file names ``path`` (:func:`naming`): a buffered
    file's write fails at a later flush or close, a temporary file has no name to give."""
    try:
        yield
    except OSError as exc:
        if exc.filename is not None:
            raise
        raise naming(exc, path) from exc


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (:func:`atomic_file`)."""
    with atomic_file(path, binary=True) as handle:
        handle.write(data)


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


#: The temporary files made and not yet moved into place or removed, with the process that made
#: each (a forked child inherits the table, not the files to remove).
_MADE: dict[str, int] = {}


@atexit.register
def _remove_left() -> None:
    """No temporary outlives its process (but for a kill): a stop can come between making one
    and the code that removes it on a stop (a second Ctrl-C while the review page rebuilds)."""
    for tmp, pid in list(_MADE.items()):
        if pid == os.getpid():
            Path(tmp).unlink(missing_ok=True)


def temporary(directory: Path, name: str, binary: bool = False) -> tuple[str, IO]:
    """A new temporary file beside ``directory / name`` (text unless ``binary``), to be moved into
    place whole, readable like any new file; removed at the latest when the process exits."""
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{name}.", suffix=".tmp")
    _MADE[tmp] = os.getpid()
    os.fchmod(fd, 0o666 & ~_umask())
    return tmp, (os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8", newline=""))
