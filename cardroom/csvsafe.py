"""Every CSV the system writes: RFC 4180 rows, and no cell a spreadsheet would run as a
formula, whatever the cell holds (docs/reports.md, "Cells a spreadsheet would run").

A patron named ``=HYPERLINK("http://x", "click")`` or ``Bob\\r=1+2``, or a sign-in typed as
``x\\r=cmd|' /C calc'!A0``, must reach a compliance officer's spreadsheet as text, not as a
live formula. Every CSV of the system (the reports, the fee filing, the playing book) is
written by ``writer`` here; the reports' PostgreSQL COPY path wraps each column in ``sql``
here and passes the server's rows through ``RowEnds`` here, so both paths write the same
bytes.

The format (RFC 4180): rows end with CR LF; a cell holding a comma, a double quote, a CR or
an LF is quoted (``"..."``, a quote inside doubled). PostgreSQL's ``COPY ... CSV`` quotes the
same cells; its rows end with LF alone, which ``RowEnds`` turns into CR LF outside quotes.

The rule, cell by cell (``cell``; ``sql`` is its twin in SQL):

- **the start**: text starting with ``=``, ``+``, ``-``, ``@``, ``|`` or ``%`` gets a
  leading apostrophe (a spreadsheet shows the text and hides the apostrophe) -- unless the
  whole cell is a number (``-12.50``, ``-1250``, ``-1,234.56``: digits, commas between
  them, a decimal part), so money keeps its sign; text starting with a tab, a CR or an LF
  gets the apostrophe too (OWASP);
- **inside the cell, after a line break or a comma**: a spreadsheet that breaks rows at a
  bare CR, or at any line break, quoted or not, starts a row there -- and may read that row
  afresh, its quotes turned inside out, so that a comma inside a quoted cell (this one, or
  a later one on the row) splits it. So each CR, LF or comma followed by ``=``, ``+``,
  ``-``, ``@``, ``|``, ``%``, a tab or a double quote gets an apostrophe after it (numbers
  included: that text is never a cell of its own); a comma before anything else, as in
  ``1,234.56`` or ``Lee, Ann``, is left alone;
- a cell neutralised anywhere has each ``|`` written ``\\|``, so no DDE call survives;
- numbers (int, Decimal, Fraction, bool), empty cells and every other text are written as
  they are; any other value is written as its ``str``.

Plain Python: no Django.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from numbers import Number

LINE_END = "\r\n"
APOSTROPHE = "'"
# A cell starting with one of these is text a spreadsheet would run (unless a number).
FORMULA_STARTS = frozenset("=+-@|%")
# A cell starting with one of these is neutralised whatever follows.
CONTROL_STARTS = frozenset("\t\r\n")
# A whole cell that is a number: digits (commas between them), a decimal part, a sign.
NUMBER = re.compile(r"-?[0-9][0-9,]*(?:\.[0-9]+)?")
# Inside a cell: a line break or a comma followed by what would start a formula (or open a
# quoted cell) on a row read afresh.
_INSIDE = re.compile(r'([\r\n,])(?=[=+@|%\t"-])')
PIPE, ESCAPED_PIPE = "|", "\\|"


def cell(value):
    """``value`` as the writer writes it: a number or None as it is, text neutralised."""
    if value is None or isinstance(value, Number):
        return value
    text = value if isinstance(value, str) else str(value)
    if not text:
        return text
    first = text[0]
    start = first in CONTROL_STARTS or (first in FORMULA_STARTS and not NUMBER.fullmatch(text))
    inside = "," in text or "\r" in text or "\n" in text
    body = _INSIDE.sub(r"\1" + APOSTROPHE, text) if inside else text
    if not start and body == text:
        return text
    body = body.replace(PIPE, ESCAPED_PIPE)
    return APOSTROPHE + body if start else body


class _Writer:
    """A ``csv.writer`` whose cells pass through ``cell``."""

    def __init__(self, file) -> None:
        self._writer = csv.writer(file, lineterminator=LINE_END)

    def writerow(self, row: Iterable):
        return self._writer.writerow([cell(value) for value in row])

    def writerows(self, rows: Iterable[Iterable]) -> None:
        self._writer.writerows([cell(value) for value in row] for row in rows)


def writer(file) -> _Writer:
    """The one CSV writer: RFC 4180 rows (CR LF) of neutralised cells."""
    return _Writer(file)


# --- The COPY path ----------------------------------------------------------------------------

_STARTS_SQL = ", ".join(f"'{c}'" for c in sorted(FORMULA_STARTS)).replace("%", "%%")
# The SQL of ``_INSIDE`` (``%`` doubled): an ARE reads \r, \n and \t in brackets too.
_INSIDE_SQL = r"""'([\r\n,])(?=[=+@|%%\t"-])'"""


def sql(expression: str) -> str:
    """PostgreSQL for ``cell`` applied to ``expression`` (any type, read as text).

    For a statement run with parameters (``%`` doubled for psycopg). NULL stays NULL; a
    number cast to text is a number, so it is written exactly as the number was. The
    regular expressions are PostgreSQL's (AREs): ``$`` matches at the very end only, as
    Python's ``fullmatch``.
    """
    text = f"({expression})::text"
    first = f"left({text}, 1)"
    body = rf"regexp_replace({text}, {_INSIDE_SQL}, '\1''', 'g')"
    neutralised = rf"replace({body}, '|', '\|')"
    # A CASE tries its branches in order: the patterns are matched only for the few cells
    # that start with a formula character or hold a comma or a line break.
    return (
        rf"CASE WHEN {first} IN (E'\t', E'\r', E'\n') "
        f"OR ({first} IN ({_STARTS_SQL}) AND {text} !~ '^-?[0-9][0-9,]*(\\.[0-9]+)?$') "
        f"THEN '''' || {neutralised} "
        rf"WHEN strpos({text}, ',') = 0 AND strpos({text}, E'\n') = 0 "
        rf"AND strpos({text}, E'\r') = 0 THEN {text} "
        f"WHEN {body} <> {text} THEN {neutralised} "
        f"ELSE {text} END"
    )


class RowEnds:
    """PostgreSQL's ``COPY ... CSV`` ends rows with LF; ``writer``'s rows end with CR LF.

    Called on each block of a COPY stream in turn, answers the block with every LF outside
    quotes written CR LF; an LF inside a quoted cell is the cell's own and stays. Whether a
    block starts inside quotes is carried over from the block before (each ``"`` turns
    quoting on or off; a doubled ``""`` inside a quoted cell does both)."""

    def __init__(self) -> None:
        self.quoted = False

    def __call__(self, block: bytes) -> bytes:
        parts = block.split(b'"')
        quoted = self.quoted
        for index, part in enumerate(parts):
            if index:
                quoted = not quoted
            if not quoted and b"\n" in part:
                parts[index] = part.replace(b"\n", b"\r\n")
        self.quoted = quoted
        return b'"'.join(parts)
