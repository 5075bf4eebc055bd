"""A CSV the system wrote, read back as spreadsheets read it (cardroom/csvsafe.py).

Two readers: RFC 4180 (``csv``), and a spreadsheet that breaks a row at every CR or LF,
even inside quotes, and reads each row afresh (its commas split cells, a quote opens one
only at a cell's start). ``live_cells`` answers every cell and line either would start as
a formula: a test of a CSV asserts it is empty.
"""

from __future__ import annotations

import csv
import io
import re

# A cell that starts a formula: a formula character first, and not a plain number; a tab,
# a CR or an LF first.
LIVE = re.compile(r"[=+@|%\t\r\n]|-(?!-?[0-9][0-9,]*(\.[0-9]+)?$)")
# A physical line a spreadsheet would start with a formula (a negative number is a number).
LIVE_LINE = re.compile(r"[=+@|%\t]|-(?![0-9])")
BREAK = re.compile(r"\r\n|\r|\n")


def _text(data: bytes | str) -> str:
    return data.decode() if isinstance(data, bytes) else data


def cells(data: bytes | str) -> list[str]:
    """Every cell, as RFC 4180 reads it."""
    return [cell for row in csv.reader(io.StringIO(_text(data), newline="")) for cell in row]


def spreadsheet_cells(data: bytes | str) -> list[str]:
    """Every cell, as a spreadsheet that breaks rows at any CR or LF reads it."""
    found = []
    for line in BREAK.split(_text(data)):
        found.extend(next(csv.reader([line]), [""]))
    return found


def live_cells(data: bytes | str) -> list[str]:
    """The cells and lines either reader would start as a formula."""
    text = _text(data)
    return [
        *(cell for cell in cells(text) if LIVE.match(cell)),
        *(cell for cell in spreadsheet_cells(text) if LIVE.match(cell)),
        *(line for line in BREAK.split(text) if LIVE_LINE.match(line)),
    ]
