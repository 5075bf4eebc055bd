"""Every CSV the system writes: no cell a spreadsheet would run as a formula (docs/reports.md).

A patron named ``=HYPERLINK("http://x", "click")`` must reach a compliance officer's
spreadsheet as text, not as a live formula. Every CSV writer of the system (the reports,
the fee filing, the playing book) is made by ``writer`` here, and the reports' PostgreSQL
COPY path wraps each column in ``sql`` here, so both paths neutralise the same cells the
same way, byte for byte.

The rule (OWASP's CSV injection guidance, as defusedcsv 3.0 applies it):

- a text cell starting with ``=``, ``+``, ``-``, ``@``, ``|`` or ``%`` gets a leading
  apostrophe (a spreadsheet shows it as text and hides the apostrophe), and each ``|`` in it
  becomes ``\\|`` (no DDE call survives) -- unless the whole cell is a number: ``-12.50``,
  ``-1250`` and ``1,234.56`` stay numbers, so money columns keep their sign;
- a text cell starting with a tab or a carriage return (OWASP lists both; defusedcsv does
  not) gets the leading apostrophe too;
- numbers (int, Decimal), empty cells and everything else are written as they are.

defusedcsv's writer does the first part; this module adds the second and states the SQL
twin. Plain Python apart from the defusedcsv import: no Django.
"""

from __future__ import annotations

from collections.abc import Iterable

from defusedcsv import csv as defusedcsv

# Cells starting with one of these are prefixed with an apostrophe, whatever follows.
CONTROL_STARTS = ("\t", "\r")
APOSTROPHE = "'"


def _control(value):
    if isinstance(value, str) and value.startswith(CONTROL_STARTS):
        return APOSTROPHE + value
    return value


class _Writer:
    """A ``csv.writer`` whose cells pass through the rule above."""

    def __init__(self, writer) -> None:
        self._writer = writer

    def writerow(self, row: Iterable):
        return self._writer.writerow([_control(value) for value in row])

    def writerows(self, rows: Iterable[Iterable]) -> None:
        self._writer.writerows([_control(value) for value in row] for row in rows)


def writer(file, **fmtparams) -> _Writer:
    """``csv.writer(file, **fmtparams)`` that writes no formula: the one CSV writer."""
    return _Writer(defusedcsv.writer(file, **fmtparams))


def sql(expression: str) -> str:
    """PostgreSQL for the same rule applied to ``expression`` (any type, read as text).

    For a statement run with parameters (``%`` doubled for psycopg). NULL stays NULL; a
    number cast to text is left alone, so it is written exactly as the number was. Python's
    ``re.match`` lets ``$`` match before a final newline; ``\\n?$`` matches the same cells.
    """
    text = f"({expression})::text"
    first = f"left({text}, 1)"
    # A CASE tries its branches in order: the pattern is matched only for the few cells
    # that start with a formula character.
    return (
        f"CASE WHEN {first} IN (E'\\t', E'\\r') THEN '''' || {text} "
        f"WHEN {first} NOT IN ('=', '+', '-', '@', '|', '%%') THEN {text} "
        f"WHEN {text} ~ '^-?[0-9,.]+\\n?$' THEN {text} "
        f"ELSE '''' || replace({text}, '|', '\\|') END"
    )
