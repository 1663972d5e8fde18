"""Open a workbook someone gave us (an input, a returned review sheet) without trusting its size.

An .xlsx is a zip: a 400 KB file can unpack to gigabytes (a zip bomb in its shared strings,
which openpyxl holds in memory whole). Every workbook the package reads is opened here, and one
that would unpack to more than :data:`MAX_UNPACKED` bytes is refused before anything is
unpacked. The sizes are the zip's own declarations: Python's zipfile never unpacks more of a
member than its declared size, so the check bounds what reading it can unpack.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING
from zipfile import ZipFile

from extractor.errors import InputError

if TYPE_CHECKING:
    from openpyxl import Workbook

#: The most a workbook may unpack to, all its parts together. openpyxl holds the shared strings
#: in memory: 100 MB of them took 150 MB to read as abstract-long strings, 580 MB (and 130 s) as
#: one-character ones, so reading any workbook within the bound stays under about 1.5 GB. An
#: input workbook of abstracts takes about 1.5 KB a row, a review sheet about 9 KB a paper:
#: the bound holds some 150,000 abstracts, or a review sheet of some 28,000 papers.
MAX_UNPACKED = 256_000_000


class WorkbookTooLarge(InputError):
    """A workbook whose parts would unpack to more than :data:`MAX_UNPACKED` bytes."""


def unpacked_size(path: Path) -> int:
    """What the workbook's zip says its parts unpack to, in bytes, read off its directory."""
    with ZipFile(path) as archive:
        return sum(info.file_size for info in archive.infolist())


def open_workbook(path: Path, data_only: bool = False) -> Workbook:
    """The workbook at ``path``, streamed (openpyxl's read-only mode): close it when done.
    ``data_only`` gives a formula cell's stored value rather than its formula. Raises
    :class:`WorkbookTooLarge` for a workbook over the bound, and what zipfile and openpyxl raise
    for one that is not a workbook."""
    from openpyxl import load_workbook  # slow to import: only for workbooks

    size = unpacked_size(path)
    if size > MAX_UNPACKED:
        raise WorkbookTooLarge(
            str(path), None,
            f"the workbook unpacks to {size / 1e6:,.0f} MB, over the {MAX_UNPACKED / 1e6:,.0f} MB "
            "a workbook may unpack to (a zip bomb?); nothing of it was read",
        )
    return load_workbook(path, read_only=True, data_only=data_only)
