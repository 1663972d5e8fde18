"""Tables kept on disk rather than in memory: chunks pickled into an anonymous temporary file
(removed by the OS when it is closed or the process dies) and read back in order.

A board's long tables grow with its claims; spooled, what stays in memory is a chunk at a time.
Reads seek to each chunk's recorded offset first, so two iterations of one spool can interleave
(a writer streaming a table while a library user assembles it) and appends may come between.
The file is the process's own (``tempfile.TemporaryFile``: unlinked, mode 0600), so no other
process can plant a pickle in it."""

from __future__ import annotations

import heapq
import pickle
import tempfile
import weakref
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from extractor.atomic import writing

#: Rows a run of a :class:`SortedSpool` is read in at a time: a merge holds this many per run.
PIECE_ROWS = 64


class Spool:
    """Chunks (any picklable objects) appended to a temporary file and read back in order."""

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile()
        self._offsets: list[int] = []
        weakref.finalize(self, self._file.close)  # closed with the spool, not left to warn at exit

    def __len__(self) -> int:
        return len(self._offsets)

    def append(self, chunk: object) -> None:
        self._file.seek(0, 2)
        offset = self._file.tell()
        with writing(Path(tempfile.gettempdir())):  # a full disk says only 'No space left on device'
            pickle.dump(chunk, self._file, protocol=pickle.HIGHEST_PROTOCOL)
        self._offsets.append(offset)

    def read(self, index: int) -> Any:
        """The chunk appended ``index``-th."""
        self._file.seek(self._offsets[index])
        return pickle.load(self._file)

    def __iter__(self) -> Iterator[Any]:
        """The chunks in order, up to the last one appended (also while this reads)."""
        index = 0
        while index < len(self._offsets):
            yield self.read(index)
            index += 1


class SortedSpool:
    """Rows appended a chunk at a time that come back in one stable order by ``key`` (equal keys
    in the order they were appended): each chunk is sorted and stored as a run of pieces of
    :data:`PIECE_ROWS` rows, and reading merges the runs (:func:`heapq.merge`), holding one
    piece of each run, never all the rows."""

    def __init__(self, key: Callable[[Any], Any], piece_rows: int = PIECE_ROWS) -> None:
        self.key = key
        self.piece_rows = piece_rows
        self._pieces = Spool()
        self._runs: list[range] = []  # each run's pieces, by index in the spool

    def append(self, rows: Iterable[Any]) -> None:
        """One chunk of rows, sorted into a run of its own."""
        ordered = sorted(rows, key=self.key)  # stable: equal keys keep their order
        start = len(self._pieces)
        for at in range(0, len(ordered), self.piece_rows):
            self._pieces.append(ordered[at : at + self.piece_rows])
        self._runs.append(range(start, len(self._pieces)))

    def _run(self, pieces: range) -> Iterator[Any]:
        for index in pieces:
            yield from self._pieces.read(index)

    def __iter__(self) -> Iterator[Any]:
        # merge yields equal keys in the order of its inputs: the runs' order, the rows' own
        return heapq.merge(*(self._run(pieces) for pieces in self._runs), key=self.key)
