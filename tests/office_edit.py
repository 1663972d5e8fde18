"""Edit a review workbook through LibreOffice itself, as a reviewer would (Python-UNO).

Run with the Python that has LibreOffice's ``uno`` module (Debian: ``/usr/bin/python3`` with
``python3-uno``), not the project's venv:

    python3 tests/office_edit.py IN.xlsx OUT.xlsx EDITS.json

EDITS.json: ``{"sort": {"sheet": "Claims", "column": "value"}, "cells": [[sheet, row id, column,
typed text], ...]}``. The sheet is first sorted by that column (descending), as a reviewer
sorting a column would; then each text is typed into its cell the way the keyboard enters it
(``.uno:EnterString``: the cell's number format decides what it becomes, unlike the API's
``setFormula``, which ignores a text format), in the row whose id column holds ``row id``
(``new``: the first blank new row). The workbook is saved as xlsx by LibreOffice.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import uno  # type: ignore[import-not-found]
from com.sun.star.beans import PropertyValue  # type: ignore[import-not-found]


def _props(**values: object) -> tuple:
    out = []
    for name, value in values.items():
        prop = PropertyValue()
        prop.Name, prop.Value = name, value
        out.append(prop)
    return tuple(out)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _connect(profile: Path, port: int):
    office = subprocess.Popen(
        ["soffice", "--headless", "--invisible", "--nologo", "--norestore",
         f"-env:UserInstallation={profile.as_uri()}",
         f"--accept=socket,host=127.0.0.1,port={port};urp;StarOffice.ComponentContext"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    for _ in range(120):
        try:
            context = resolver.resolve(f"uno:socket,host=127.0.0.1,port={port};urp;StarOffice.ComponentContext")
            return office, context, context.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", context)
        except Exception:  # noqa: BLE001 - the office is still starting
            time.sleep(0.5)
    office.kill()
    raise SystemExit("LibreOffice did not accept a connection within 60 s")


def _columns(sheet) -> dict[str, int]:
    header = {}
    for index in range(64):
        name = sheet.getCellByPosition(index, 0).getString()
        if not name:
            break
        header[name] = index
    return header


def _used_rows(sheet) -> int:
    cursor = sheet.createCursor()
    cursor.gotoEndOfUsedArea(False)
    return cursor.getRangeAddress().EndRow + 1


def _sort(sheet, column: int) -> None:
    """Sort the rows under the header by one column, descending (Data > Sort in the menu)."""
    last_column = len(_columns(sheet)) - 1
    rows = sheet.getCellRangeByPosition(0, 1, last_column, _used_rows(sheet) - 1)
    field = uno.createUnoStruct("com.sun.star.table.TableSortField")
    field.Field, field.IsAscending = column, False
    rows.sort(_props(SortFields=uno.Any("[]com.sun.star.table.TableSortField", (field,)), ContainsHeader=False))


def _row(sheet, header: dict[str, int], row_id: str) -> int:
    for row in range(1, _used_rows(sheet)):
        if sheet.getCellByPosition(header["id"], row).getString() != row_id:
            continue
        if row_id != "new" or not sheet.getCellByPosition(header["paper_id"], row).getString():
            return row
    raise SystemExit(f"no row {row_id!r} in sheet {sheet.getName()}")


def main(source: Path, target: Path, edits: dict) -> None:
    with tempfile.TemporaryDirectory() as profile:
        office, desktop_context, desktop = _connect(Path(profile), _free_port())
        try:
            document = desktop.loadComponentFromURL(source.resolve().as_uri(), "_blank", 0, _props(Hidden=False))
            sheets = document.getSheets()
            sort = edits.get("sort")
            if sort:
                sheet = sheets.getByName(sort["sheet"])
                _sort(sheet, _columns(sheet)[sort["column"]])
            rows: dict[tuple[str, str], int] = {}  # found before typing: 'new' stays the same row
            for sheet_name, row_id, _, _ in edits["cells"]:
                sheet = sheets.getByName(sheet_name)
                rows.setdefault((sheet_name, row_id), _row(sheet, _columns(sheet), row_id))
            controller = document.getCurrentController()
            dispatcher = desktop_context.ServiceManager.createInstanceWithContext("com.sun.star.frame.DispatchHelper", desktop_context)
            for sheet_name, row_id, column, text in edits["cells"]:
                sheet = sheets.getByName(sheet_name)
                cell = sheet.getCellByPosition(_columns(sheet)[column], rows[sheet_name, row_id])
                # Typed as at the keyboard (the cell's number format decides what it becomes).
                controller.setActiveSheet(sheet)
                controller.select(cell)
                dispatcher.executeDispatch(controller.getFrame(), ".uno:EnterString", "", 0, _props(StringName=text))
            document.storeToURL(target.resolve().as_uri(), _props(FilterName="Calc MS Excel 2007 XML"))
            document.close(True)
        finally:
            try:
                desktop.terminate()
            except Exception:  # noqa: BLE001 - the bridge goes down with the office
                pass
            try:
                office.wait(timeout=30)
            except subprocess.TimeoutExpired:
                office.kill()


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), json.loads(Path(sys.argv[3]).read_text()))
