"""What a report is before it becomes bytes: a header and sections of streamed rows."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal

from django.utils import timezone


@dataclass(frozen=True)
class Section:
    """A titled table; ``rows`` is consumed once, as it streams from the database."""

    title: str
    columns: Sequence[str]
    rows: Iterable[Sequence]
    # Characters per column in the PDF (cells wrap); CSV ignores it.
    widths: dict[str, int] = field(default_factory=dict)
    # True when every value is already an int, str or None: CSV writes rows as they come
    # (the audit export's millions of lines skip the per-value formatting).
    plain: bool = False
    # On PostgreSQL: (SELECT, params) whose rows the server writes as CSV (COPY ... TO
    # STDOUT), byte for byte what the Python path writes from ``rows`` (kept for SQLite);
    # the writer passes each column through the CSV rule (cardroom/csvsafe.py) as it does
    # each cell of ``rows``.
    copy: tuple[str, list] | None = None


@dataclass(frozen=True)
class Document:
    title: str
    header: Sequence[tuple[str, str]]
    sections: Iterator[Section]  # produced lazily: a section may query when it is reached


def cell(value) -> str:
    """One value as text, the same way in CSV and PDF (times local, with their UTC offset)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        return timezone.localtime(value).isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return format(value.normalize(), "f") if value else "0"
    if isinstance(value, list | tuple):
        return " ".join(cell(v) for v in value)
    return str(value)
