"""Documents to bytes: CSV written incrementally, PDF with reportlab in invariant mode.

Both write into a file object while hashing what they write, so the checksum needs no
second read, and neither holds more than a buffer of rows in memory (the PDF keeps its
pages' content streams until saved: PDFs are for the reports a person reads, a day or a
month, never the audit export).
"""

from __future__ import annotations

import hashlib
import textwrap
from dataclasses import dataclass

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
            with raw.copy(f"COPY ({select}) TO STDOUT WITH (FORMAT csv)", params) as copy:
                for block in copy:
                    sink.write_bytes(bytes(block))
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
    writer = csvsafe.writer(sink, lineterminator="\n")
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
MARGIN = 36
DEFAULT_WIDTH = 12


def _money_header(column: str) -> str:
    return column[: -len("_cents")] + " ($)" if column.endswith("_cents") else column


def _pdf_text(column: str, value) -> str:
    if column.endswith("_cents") and isinstance(value, int) and not isinstance(value, bool):
        return amount(value)
    return cell(value)


class _Pages:
    def __init__(self, pdf: canvas.Canvas, running_title: str) -> None:
        self.pdf = pdf
        self.width, self.height = landscape(letter)
        self.running_title = running_title
        self.page = 0
        self.y = 0.0
        self.repeat: list[tuple[str, str]] = []  # lines repeated at the top of each page
        self._new_page(first=True)

    def _new_page(self, first: bool = False) -> None:
        if not first:
            self.pdf.showPage()
        self.page += 1
        self.pdf.setFont(FONT, SIZE)
        self.pdf.drawString(MARGIN, MARGIN / 2, f"{self.running_title}  -  page {self.page}")
        self.y = self.height - MARGIN
        for font, text in self.repeat:
            self._draw(font, text)

    def _draw(self, font: str, text: str) -> None:
        self.pdf.setFont(font, SIZE)
        self.pdf.drawString(MARGIN, self.y, text)
        self.y -= LEADING

    def line(self, text: str, *, bold: bool = False, keep: int = 1) -> None:
        if self.y - LEADING * keep < MARGIN:
            self._new_page()
        self._draw(FONT_BOLD if bold else FONT, text)

    def gap(self) -> None:
        self.y -= LEADING / 2


def write_pdf(document: Document, raw) -> Written:
    """Landscape letter, monospaced columns; long cells wrap within their column."""
    sink = _HashingBinary(raw)
    pdf = canvas.Canvas(sink, pagesize=landscape(letter), invariant=1, pageCompression=1)
    pdf.setTitle(document.title)
    pdf.setAuthor("Cardroom management system")
    pdf.setCreator("Cardroom management system")
    period = dict(document.header).get("period", "")
    pages = _Pages(pdf, f"{document.title}  {period}".strip())
    pages.line(document.title, bold=True)
    for key, value in document.header:
        pages.line(f"{key}: {value}")
    rows = 0
    for section in document.sections:
        pages.repeat = []
        pages.gap()
        widths = [
            max(len(_money_header(c)), section.widths.get(c, DEFAULT_WIDTH))
            for c in section.columns
        ]
        header = " ".join(
            _money_header(c).ljust(w) for c, w in zip(section.columns, widths, strict=True)
        )
        pages.line(section.title, bold=True, keep=3)
        pages.line(header, bold=True)
        pages.repeat = [(FONT_BOLD, f"{section.title} (continued)"), (FONT_BOLD, header)]
        for row in section.rows:
            cells = [
                textwrap.wrap(_pdf_text(c, v), w, break_on_hyphens=False) or [""]
                for c, v, w in zip(section.columns, row, widths, strict=True)
            ]
            height = max(len(lines) for lines in cells)
            for index in range(height):
                text = " ".join(
                    (lines[index] if index < len(lines) else "").ljust(w)
                    for lines, w in zip(cells, widths, strict=True)
                )
                pages.line(text.rstrip(), keep=height - index)
            rows += 1
        pages.repeat = []
    pdf.save()
    return Written(rows, sink.digest.hexdigest(), sink.size)


WRITERS = {"csv": (write_csv, "text/csv", "csv"), "pdf": (write_pdf, "application/pdf", "pdf")}
