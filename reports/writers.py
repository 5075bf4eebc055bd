"""Documents to bytes: CSV written incrementally, PDF with reportlab in invariant mode.

Both write into a file object while hashing what they write, so the checksum needs no
second read, and neither holds more than a buffer of rows in memory (the PDF keeps its
pages' content streams until saved: PDFs are for the reports a person reads, a day or a
month, never the audit export).
"""

from __future__ import annotations

import hashlib
import re
import textwrap
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.conf import settings
from django.db import connection
from reportlab.lib.pagesizes import landscape, letter
from reportlab.pdfgen import canvas

from cardroom import csvsafe
from cardroom.money import amount

from .document import Document, cell

FLUSH_AT = 1 << 16


class _HashingSink:
    """A text ``write`` target that encodes, hashes and writes to a binary file in chunks."""

    def __init__(self, raw) -> None:
        self.raw = raw
        self.digest = hashlib.sha256()
        self.size = 0
        self._parts: list[str] = []
        self._buffered = 0

    def write(self, text: str) -> None:
        self._parts.append(text)
        self._buffered += len(text)
        if self._buffered >= FLUSH_AT:
            self.flush()

    def write_bytes(self, data: bytes) -> None:
        self.digest.update(data)
        self.size += len(data)
        self.raw.write(data)

    def flush(self) -> None:
        if self._parts:
            data = "".join(self._parts).encode()
            self._parts.clear()
            self._buffered = 0
            self.digest.update(data)
            self.size += len(data)
            self.raw.write(data)


def _neutralised(select: str, width: int) -> str:
    """``select`` with every one of its ``width`` columns passed through the CSV rule
    (``cardroom.csvsafe.sql``), as the Python path's writer passes every cell.

    The outer SELECT only projects: a subquery with an ORDER BY is never merged into its
    parent, so its rows come out in the subquery's order.
    """
    names = [f"c{index}" for index in range(width)]
    cells = ", ".join(csvsafe.sql(f"q.{name}") for name in names)
    return f"SELECT {cells} FROM ({select}) AS q({', '.join(names)})"


def _copy_csv(select: str, params: list, sink: _HashingSink, width: int) -> int:
    """The server writes the rows as CSV; they stream through in blocks (no rows in Python).

    Times are formatted by the server in the cardroom's zone, set for this statement only.
    """
    select = _neutralised(select, width)
    with connection.cursor() as cursor:
        raw = cursor.cursor  # the psycopg cursor under Django's wrapper
        raw.execute("SELECT set_config('TimeZone', %s, true)", [settings.TIME_ZONE])
        try:
            ends = csvsafe.RowEnds()  # the server ends rows with LF, the writer with CR LF
            with raw.copy(f"COPY ({select}) TO STDOUT WITH (FORMAT csv)", params) as copy:
                for block in copy:
                    sink.write_bytes(ends(bytes(block)))
            return raw.rowcount
        finally:
            raw.execute("SELECT set_config('TimeZone', 'UTC', true)")


class _Counter:
    def __init__(self, rows) -> None:
        self.rows = iter(rows)
        self.count = 0

    def __iter__(self):
        return self

    def __next__(self):
        row = next(self.rows)
        self.count += 1
        return row


@dataclass(frozen=True)
class Written:
    rows: int
    sha256: str
    size: int


def write_csv(document: Document, raw) -> Written:
    """Header rows, then each section: its title row, its columns row, its rows, a blank row."""
    sink = _HashingSink(raw)
    writer = csvsafe.writer(sink)
    writer.writerow(["report", document.title])
    for key, value in document.header:
        writer.writerow([key, value])
    writer.writerow([])
    rows = 0
    for section in document.sections:
        writer.writerow([f"[{section.title}]"])
        writer.writerow(section.columns)
        if section.copy is not None and connection.vendor == "postgresql":
            sink.flush()
            rows += _copy_csv(*section.copy, sink, len(section.columns))
        elif section.plain:
            counter = _Counter(section.rows)
            writer.writerows(counter)
            rows += counter.count
        else:
            for row in section.rows:
                writer.writerow([cell(v) for v in row])
                rows += 1
        writer.writerow([])
    sink.flush()
    return Written(rows, sink.digest.hexdigest(), sink.size)


class _HashingBinary:
    def __init__(self, raw) -> None:
        self.raw = raw
        self.digest = hashlib.sha256()
        self.size = 0

    def write(self, data: bytes) -> int:
        self.digest.update(data)
        self.size += len(data)
        return self.raw.write(data)


FONT, FONT_BOLD, SIZE, LEADING = "Courier", "Courier-Bold", 7, 8.5
MIN_SIZE = 5  # a section too wide for the page is set smaller, never below this
MARGIN = 36
DEFAULT_WIDTH = 12
MONEY_WIDTH = 10  # "999,999.99", "-99,999.99" at least (a report asks more where it needs)
EM = 0.6  # Courier: every glyph is 0.6 of the font size wide
GAP = "  "  # between two columns: an amount never runs into the next cell
PAGE_WIDTH, PAGE_HEIGHT = landscape(letter)


IDENTIFIER = re.compile(r"[a-z]+(?:_[a-z]+)+")


def _is_money(column: str) -> bool:
    return column.endswith("_cents")


def _money_header(column: str) -> str:
    """A column's heading in the PDF, in words: ``player_dealer_fees_cents`` -> ``player
    dealer fees ($)`` (the CSV keeps the machine name)."""
    words = column[: -len("_cents")] + " ($)" if _is_money(column) else column
    return words.replace("_", " ")


def _pdf_text(column: str, value) -> str:
    if _is_money(column) and isinstance(value, int | Decimal) and not isinstance(value, bool):
        return amount(value)  # a fraction of a cent (a theo) to the nearest cent
    if isinstance(value, datetime):
        # Local ISO 8601 with a space for the "T": a narrow column breaks it between the
        # date and the time, never inside the time.
        return cell(value).replace("T", " ", 1)
    if isinstance(value, str) and IDENTIFIER.fullmatch(value):
        # A recorded kind ("player_dealer", "bad_beat") in words; the CSV keeps the value.
        return value.replace("_", " ")
    return cell(value)


def _chars(size: float) -> int:
    """How many characters of a ``size`` line fit between the margins."""
    return int((PAGE_WIDTH - 2 * MARGIN) / (size * EM))


def _wrap(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width, break_on_hyphens=False) or [""]


def _layout(columns, requested: dict[str, int]) -> tuple[list[int], float]:
    """Each column's width in characters and the font size, so that a row fits the page.

    A column is as wide as its report asks (``Section.widths``), an amount at least
    ``MONEY_WIDTH``, and its heading wraps by words. A section wider than the page at ``SIZE``
    first loses the room its headings would take on one line, then is set in a smaller size
    (down to ``MIN_SIZE``), then its widest text columns wrap narrower.
    """
    labels = [_money_header(c) for c in columns]
    floor = [
        max(
            requested.get(c, DEFAULT_WIDTH),
            max(len(word) for word in label.split()),
            MONEY_WIDTH if _is_money(c) else 1,
        )
        for c, label in zip(columns, labels, strict=True)
    ]
    natural = [max(w, len(label)) for w, label in zip(floor, labels, strict=True)]
    gaps = len(GAP) * (len(columns) - 1)
    room = _chars(SIZE) - gaps
    if sum(natural) <= room:
        return natural, SIZE
    if sum(floor) <= room:
        widths = list(floor)
        spare = room - sum(widths)
        # The headings that need the least to stand on one line get it first.
        for index in sorted(range(len(widths)), key=lambda i: natural[i] - floor[i]):
            grant = min(spare, natural[index] - widths[index])
            widths[index] += grant
            spare -= grant
        return widths, SIZE
    size = max(MIN_SIZE, int(SIZE * _chars(SIZE) / (sum(floor) + gaps) * 20) / 20)
    while _chars(size) - gaps < sum(floor) and size > MIN_SIZE:
        size = max(MIN_SIZE, size - 0.05)
    room = _chars(size) - gaps
    widths = list(floor)
    while sum(widths) > room:
        # Narrow the widest column, text before amounts; no column below 4 characters.
        candidates = [i for i, c in enumerate(columns) if not _is_money(c) and widths[i] > 4]
        candidates = candidates or [i for i in range(len(widths)) if widths[i] > 4]
        widths[max(candidates, key=lambda i: widths[i])] -= 1
    return widths, size


class _Pages:
    def __init__(self, pdf: canvas.Canvas, running_title: str) -> None:
        self.pdf = pdf
        self.width, self.height = PAGE_WIDTH, PAGE_HEIGHT
        self.running_title = running_title
        self.page = 0
        self.y = 0.0
        # lines repeated at the top of each page: (font, size, text)
        self.repeat: list[tuple[str, float, str]] = []
        self._new_page(first=True)

    def _new_page(self, first: bool = False) -> None:
        if not first:
            self.pdf.showPage()
        self.page += 1
        footer = f"{self.running_title}  -  page {self.page}"
        if len(footer) > _chars(SIZE):
            footer = f"page {self.page}"
        self.pdf.setFont(FONT, SIZE)
        self.pdf.drawString(MARGIN, MARGIN / 2, footer)
        self.y = self.height - MARGIN
        for font, size, text in self.repeat:
            self._draw(font, size, text)

    def _draw(self, font: str, size: float, text: str) -> None:
        self.pdf.setFont(font, size)
        self.pdf.drawString(MARGIN, self.y, text)
        self.y -= LEADING * size / SIZE

    def line(self, text: str, *, bold: bool = False, keep: int = 1, size: float = SIZE) -> None:
        """One line of the page; a line longer than the page wraps (by words)."""
        for index, part in enumerate(_wrap(text, _chars(size))):
            if self.y - LEADING * size / SIZE * max(keep - index, 1) < MARGIN:
                self._new_page()
            self._draw(FONT_BOLD if bold else FONT, size, part)

    def gap(self) -> None:
        self.y -= LEADING / 2


def _joined(cells: list[list[str]], widths: list[int], money: list[bool], index: int) -> str:
    return GAP.join(
        (lines[index] if index < len(lines) else "").rjust(w)
        if right
        else (lines[index] if index < len(lines) else "").ljust(w)
        for lines, w, right in zip(cells, widths, money, strict=True)
    ).rstrip()


def write_pdf(document: Document, raw) -> Written:
    """Landscape letter, monospaced columns that fit the page: long cells and headings wrap
    within their column, amounts are right-aligned (split only if wider than their column,
    at least ``MONEY_WIDTH``), times break between date and time, and a section too wide for
    the page is set smaller (``_layout``). tests/reports/services/test_pdf_layout.py draws
    every PDF report and checks that no text leaves the page."""
    sink = _HashingBinary(raw)
    pdf = canvas.Canvas(sink, pagesize=landscape(letter), invariant=1, pageCompression=1)
    pdf.setTitle(document.title)
    pdf.setAuthor("Cardroom management system")
    pdf.setCreator("Cardroom management system")
    # Every page's running head names the period and the table by its name (the header's
    # "tables": a table's name, or "all tables"), never an id.
    said = dict(document.header)
    period = " · ".join(v for v in (said.get("period", ""), said.get("tables", "")) if v)
    pages = _Pages(pdf, f"{document.title}  {period}".strip())
    pages.line(document.title, bold=True)
    for key, value in document.header:
        pages.line(f"{key}: {value}")
    rows = 0
    for section in document.sections:
        pages.repeat = []
        pages.gap()
        widths, size = _layout(section.columns, section.widths)
        money = [_is_money(c) for c in section.columns]
        labels = [_wrap(_money_header(c), w) for c, w in zip(section.columns, widths, strict=True)]
        header = [_joined(labels, widths, money, index) for index in range(max(map(len, labels)))]
        pages.line(section.title, bold=True, keep=2 + len(header))
        for text in header:
            pages.line(text, bold=True, size=size, keep=len(header) + 1)
        pages.repeat = [(FONT_BOLD, SIZE, f"{section.title} (continued)")] + [
            (FONT_BOLD, size, text) for text in header
        ]
        for row in section.rows:
            cells = [
                [_pdf_text(c, v)] if m else _wrap(_pdf_text(c, v), w)
                for c, v, w, m in zip(section.columns, row, widths, money, strict=True)
            ]
            cells = [
                _wrap(lines[0], w) if len(lines[0]) > w else lines
                for lines, w in zip(cells, widths, strict=True)
            ]
            height = max(len(lines) for lines in cells)
            for index in range(height):
                pages.line(_joined(cells, widths, money, index), keep=height - index, size=size)
            rows += 1
        pages.repeat = []
    pdf.save()
    return Written(rows, sink.digest.hexdigest(), sink.size)


WRITERS = {"csv": (write_csv, "text/csv", "csv"), "pdf": (write_pdf, "application/pdf", "pdf")}
