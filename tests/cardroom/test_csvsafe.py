"""The one CSV rule (cardroom/csvsafe.py): no cell a spreadsheet would run as a formula.

The Python writer and its SQL twin (the reports' COPY path) must neutralise the same cells
the same way; on PostgreSQL the second test runs every value below through both.
"""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.db import connection

from cardroom import csvsafe

# (value, the cell as written)
CELLS = [
    ('=HYPERLINK("http://x.example","click")', '"\'=HYPERLINK(""http://x.example"",""click"")"'),
    ("=1+2", "'=1+2"),
    ("+1+2", "'+1+2"),
    ("-1+2", "'-1+2"),
    ("@SUM(A1:A9)", "'@SUM(A1:A9)"),
    ("=cmd|' /C calc'!A0", "'=cmd\\|' /C calc'!A0"),
    ("|cmd", "'\\|cmd"),
    ("%0A", "'%0A"),
    ("\t=1+2", "'\t=1+2"),
    ("\r=1+2", "'\r=1+2"),
    ("-", "'-"),
    ("-12\n", '"-12\n"'),
    # Numbers stay numbers: money keeps its sign.
    ("-12.50", "-12.50"),
    ("-1250", "-1250"),
    ("1,234.56", '"1,234.56"'),
    ("-1,234.56", '"-1,234.56"'),
    (-1250, "-1250"),
    (Decimal("-12.50"), "-12.50"),
    # Nothing to neutralise.
    ("Day table", "Day table"),
    ("a=b", "a=b"),
    ("x|y", "x|y"),
    ("backline-1", "backline-1"),
    ("2026-11-20T19:10:00-08:00", "2026-11-20T19:10:00-08:00"),
    ("", '""'),  # a row of one empty cell (csv's own rule)
    (None, '""'),
]


def written(value) -> str:
    out = io.StringIO()
    csvsafe.writer(out, lineterminator="\n").writerow([value])
    return out.getvalue().removesuffix("\n")


@pytest.mark.parametrize(("value", "cell"), CELLS)
def test_formula_cells_are_written_as_text(value, cell):
    assert written(value) == cell


def test_a_spreadsheet_reads_the_neutralised_text_back():
    out = io.StringIO()
    csvsafe.writer(out).writerows([["=1+2", "-12.50", 7], ["@x", None, "ok"]])
    assert list(csv.reader(io.StringIO(out.getvalue()))) == [
        ["'=1+2", "-12.50", "7"],
        ["'@x", "", "ok"],
    ]


def read_back(values) -> list[str]:
    """Each value as a spreadsheet reads it from the writer's CSV."""
    out = io.StringIO()
    csvsafe.writer(out).writerows([v] for v in values)
    return [row[0] for row in csv.reader(io.StringIO(out.getvalue()))]


@pytest.mark.requires_postgres
@pytest.mark.django_db
def test_the_sql_rule_neutralises_what_the_python_writer_neutralises():
    """The COPY path's rule, run by the server on every value above, gives the same text."""
    texts = [value for value, _ in CELLS if isinstance(value, str)]
    select = f"SELECT {csvsafe.sql('v')} FROM unnest(%s::text[]) WITH ORDINALITY AS t(v, i)"
    with connection.cursor() as cursor:
        cursor.execute(f"{select} ORDER BY i", [texts])
        by_sql = [row[0] for row in cursor.fetchall()]
        cursor.execute(
            f"SELECT {csvsafe.sql('v')} FROM (VALUES (%s::bigint), (%s::numeric), (NULL)) AS t(v)",
            [-1250, Decimal("-12.50")],
        )
        numbers = [row[0] for row in cursor.fetchall()]
    assert by_sql == read_back(texts)
    assert numbers == ["-1250", "-12.50", None]
