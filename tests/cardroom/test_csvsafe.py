"""The one CSV writer (cardroom/csvsafe.py): RFC 4180 rows, no cell a spreadsheet would run
as a formula, whatever it holds.

A spreadsheet is read two ways (``tests.spreadsheet``): as RFC 4180 says, and as one that
breaks a row at every CR or LF, quoted or not, and reads each row afresh. Neither may find a
cell or a line that starts a formula. The Python writer and its SQL twin
(the reports' COPY path) must write the same bytes: on PostgreSQL the same values go
through both.
"""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from fractions import Fraction

import pytest
from django.db import connection
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom import csvsafe
from tests.spreadsheet import live_cells

# (value, the cell as written)
CELLS = [
    ('=HYPERLINK("http://x.example","click")', '"\'=HYPERLINK(""http://x.example"",\'""click"")"'),
    ("=1+2", "'=1+2"),
    ("+1+2", "'+1+2"),
    ("-1+2", "'-1+2"),
    ("@SUM(A1:A9)", "'@SUM(A1:A9)"),
    ("=cmd|' /C calc'!A0", "'=cmd\\|' /C calc'!A0"),
    ("|cmd", "'\\|cmd"),
    ("%0A", "'%0A"),
    ("\t=1+2", "'\t=1+2"),
    ("\r=1+2", "\"'\r'=1+2\""),
    ("\n@x", "\"'\n'@x\""),
    ("-", "'-"),
    ("-.", "'-."),
    ("-12\n", '"\'-12\n"'),
    # The two: a line break inside the cell, then a formula.
    ("x\r=cmd|' /C calc'!A0", "\"x\r'=cmd\\|' /C calc'!A0\""),
    ("Bob\r=1+2", '"Bob\r\'=1+2"'),
    ("Bob\r\n+1", '"Bob\r\n\'+1"'),
    ("a\n\t=1", '"a\n\'\t=1"'),
    ("a\n-5", '"a\n\'-5"'),
    # A row read afresh after a break splits at commas and opens quotes: in any cell.
    ("a\nb,=1", '"a\nb,\'=1"'),
    ('a\n"=1', '"a\n\'""=1"'),
    ("a,=1\nb", '"a,\'=1\nb"'),
    ("a,=1", '"a,\'=1"'),
    ('a,"b"', '"a,\'""b"""'),
    ("Lee, Ann", '"Lee, Ann"'),  # a comma before anything else is left alone
    # Numbers stay numbers: money keeps its sign.
    ("-12.50", "-12.50"),
    ("-1250", "-1250"),
    ("1,234.56", '"1,234.56"'),
    ("-1,234.56", '"-1,234.56"'),
    (-1250, "-1250"),
    (Decimal("-12.50"), "-12.50"),
    (Fraction(-1, 2), "-1/2"),
    # Nothing to neutralise.
    ("Day table", "Day table"),
    ("a=b", "a=b"),
    ("x|y", "x|y"),
    ("a\nb", '"a\nb"'),
    ("a\rb", '"a\rb"'),
    ("backline-1", "backline-1"),
    ("2026-11-20T19:10:00-08:00", "2026-11-20T19:10:00-08:00"),
    ("", '""'),  # a row of one empty cell (csv's own rule)
    (None, '""'),
]


def written(value) -> str:
    out = io.StringIO()
    csvsafe.writer(out).writerow([value])
    text = out.getvalue()
    assert text.endswith("\r\n")
    return text.removesuffix("\r\n")


@pytest.mark.parametrize(("value", "cell"), CELLS)
def test_formula_cells_are_written_as_text(value, cell):
    assert written(value) == cell


def test_rows_end_with_cr_lf_and_read_back():
    out = io.StringIO()
    csvsafe.writer(out).writerows([["=1+2", "-12.50", 7], ["@x", None, "ok"]])
    assert out.getvalue() == "'=1+2,-12.50,7\r\n'@x,,ok\r\n"
    assert list(csv.reader(io.StringIO(out.getvalue()))) == [
        ["'=1+2", "-12.50", "7"],
        ["'@x", "", "ok"],
    ]


# --- Any text, read back as a spreadsheet would ---------------------------------------------

TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)
# Text built from the characters that matter, so the hostile cases come up often.
HOSTILE = st.text(alphabet=st.sampled_from("=+-@|%\t\r\n,\"' 1a."), max_size=16)
VALUE = st.one_of(HOSTILE, TEXT, st.integers(), st.none())


# 400: in memory, microseconds an example; hostile cells are built from a few characters,
# so a wide search meets every way a cell can start.
@settings(max_examples=400)
@given(rows=st.lists(st.lists(VALUE, min_size=1, max_size=4), min_size=1, max_size=4))
def test_no_cell_or_line_of_any_text_starts_a_formula(rows):
    out = io.StringIO()
    csvsafe.writer(out).writerows(rows)
    data = out.getvalue()

    parsed = list(csv.reader(io.StringIO(data, newline="")))
    assert parsed == [["" if v is None else str(csvsafe.cell(v)) for v in row] for row in rows]
    # Whatever a row break inside a cell does to a spreadsheet, nothing starts a formula.
    assert live_cells(data) == []


@given(text=TEXT)
def test_the_text_is_kept_readable(text):
    """Only apostrophes are added and pipes escaped: the text reads back as it was."""
    cell = csvsafe.cell(text)
    if cell != text:
        assert cell.replace("\\|", "|").replace("'", "") == text.replace("'", "")


# --- The COPY path: the same bytes ----------------------------------------------------------


def by_sql(texts: list[str]) -> list[str | None]:
    select = f"SELECT {csvsafe.sql('v')} FROM unnest(%s::text[]) WITH ORDINALITY AS t(v, i)"
    with connection.cursor() as cursor:
        cursor.execute(f"{select} ORDER BY i", [texts])
        return [row[0] for row in cursor.fetchall()]


@pytest.mark.requires_postgres
@pytest.mark.django_db
def test_the_sql_rule_neutralises_what_the_python_writer_neutralises():
    """The COPY path's rule, run by the server on every value above, gives the same text."""
    texts = [value for value, _ in CELLS if isinstance(value, str)]
    assert by_sql(texts) == [csvsafe.cell(text) for text in texts]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {csvsafe.sql('v')} FROM (VALUES (%s::bigint), (%s::numeric), (NULL)) AS t(v)",
            [-1250, Decimal("-12.50")],
        )
        numbers = [row[0] for row in cursor.fetchall()]
    assert numbers == ["-1250", "-12.50", None]


# PostgreSQL's text holds no NUL character.
PG_TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\0"))


@pytest.mark.requires_postgres
@pytest.mark.django_db
# 60: each example is a round trip to PostgreSQL; the hostile alphabet is small.
@settings(max_examples=60)
@given(texts=st.lists(st.one_of(HOSTILE, PG_TEXT), min_size=1, max_size=12))
def test_the_sql_rule_is_the_python_rule_for_any_text(texts):
    assert by_sql(texts) == [csvsafe.cell(text) for text in texts]


def copied(rows: list[tuple[str, str]], block: int) -> bytes:
    """The rows as the server writes them by COPY, through ``RowEnds`` in blocks of
    ``block`` bytes (the stream's blocks fall anywhere)."""
    select = (
        f"SELECT {csvsafe.sql('a')}, {csvsafe.sql('b')}"
        " FROM unnest(%s::text[], %s::text[]) WITH ORDINALITY AS t(a, b, i) ORDER BY i"
    )
    firsts, seconds = [a for a, _ in rows], [b for _, b in rows]
    statement = f"COPY ({select}) TO STDOUT WITH (FORMAT csv)"
    data = b""
    with connection.cursor() as cursor, cursor.cursor.copy(statement, [firsts, seconds]) as copy:
        for part in copy:
            data += bytes(part)
    ends = csvsafe.RowEnds()
    return b"".join(ends(data[i : i + block]) for i in range(0, len(data), block))


@pytest.mark.requires_postgres
@pytest.mark.django_db
# 60: each example is a round trip to PostgreSQL; the hostile alphabet is small.
@settings(max_examples=60)
@given(
    # An empty text is quoted by COPY and not by csv (the reports write NULL for nothing).
    rows=st.lists(
        st.tuples(st.one_of(HOSTILE, PG_TEXT), st.one_of(HOSTILE, PG_TEXT)).filter(all),
        min_size=1,
        max_size=8,
    ),
    block=st.integers(min_value=1, max_value=64),
)
def test_the_copy_path_writes_the_python_writers_bytes(rows, block):
    out = io.StringIO()
    csvsafe.writer(out).writerows(rows)
    assert copied(rows, block) == out.getvalue().encode()
