"""The writers on their own: values as text, CSV layout, PDF determinism and paging."""

from __future__ import annotations

import io
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest

from reports.document import Document, Section, cell
from reports.writers import _pdf_text, write_csv, write_pdf


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, ""),
        (True, "true"),
        (False, "false"),
        (0, "0"),
        (-1250, "-1250"),
        (Decimal("0.000000"), "0"),
        (Decimal("0.500000"), "0.5"),
        (["As", "Kd"], "As Kd"),
        ([], ""),
        (date(2026, 11, 20), "2026-11-20"),
        (datetime(2026, 11, 21, 3, 10, tzinfo=UTC), "2026-11-20T19:10:00-08:00"),
        (datetime(2026, 7, 1, 3, 10, 0, 5, tzinfo=UTC), "2026-06-30T20:10:00.000005-07:00"),
    ],
    ids=["none", "true", "false", "zero", "negative", "decimal-zero", "decimal", "cards",
         "no-cards", "date", "pacific-winter", "pacific-summer-microseconds"],
)  # fmt: skip
def test_cell(value, text):
    assert cell(value) == text


@pytest.mark.parametrize(
    ("column", "value", "text"),
    [
        ("bank_cents", 123_456, "1,234.56"),
        ("bank_cents", -5, "-0.05"),
        ("bank_cents", 0, "0.00"),
        ("bank_cents", None, ""),
        ("seat", 6, "6"),
    ],
)
def test_pdf_shows_cents_as_dollars(column, value, text):
    assert _pdf_text(column, value) == text


def document(rows: int) -> Document:
    return Document(
        "Test report",
        [("period", "gaming day 2026-11-20"), ("period status", "closed")],
        iter(
            [
                Section("Numbers", ["n", "amount_cents", "note"],
                        ((n, n * 100, "x" * (n % 50)) for n in range(rows)),
                        {"note": 20}),
                Section("Empty", ["a"], iter(())),
            ]
        ),
    )  # fmt: skip


def test_csv_layout():
    """RFC 4180 rows: each ends with CR LF (cardroom/csvsafe.py)."""
    out = io.BytesIO()
    written = write_csv(document(3), out)
    assert out.getvalue().decode() == (
        "report,Test report\r\n"
        "period,gaming day 2026-11-20\r\n"
        "period status,closed\r\n"
        "\r\n"
        "[Numbers]\r\n"
        "n,amount_cents,note\r\n"
        "0,0,\r\n"
        "1,100,x\r\n"
        "2,200,xx\r\n"
        "\r\n"
        "[Empty]\r\n"
        "a\r\n"
        "\r\n"
    )
    assert written.rows == 3 and written.size == len(out.getvalue())


def test_pdf_is_deterministic_and_pages_long_sections():
    first, second = io.BytesIO(), io.BytesIO()
    written = write_pdf(document(400), first)
    write_pdf(document(400), second)
    assert first.getvalue() == second.getvalue()
    assert first.getvalue().startswith(b"%PDF")
    assert written.rows == 400
    # 400 rows, some wrapped over two lines, at about 60 lines a page: several pages.
    assert first.getvalue().count(b"/Type /Page\n") >= 7
    short = io.BytesIO()
    write_pdf(document(3), short)
    assert short.getvalue().count(b"/Type /Page\n") == 1
