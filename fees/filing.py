"""The collection schedule in the layout of the Bureau's Example Table, as CSV and PDF.

For the game-approval application and for posting at the table (`004` Wagering Limits and
Collection). Deterministic: the same schedules give the same bytes (the PDF is written
with ReportLab's ``invariant`` mode, which fixes the creation date and document id), so a
filed copy can be checked by its checksum.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from django.utils import timezone
from reportlab.lib import colors
from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.units import inch
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from cardroom import csvsafe
from cardroom.money import dollar_range, dollars
from fees.models import FeeScheduleVersion
from fees.rules.schedule import Basis
from games import registry
from wagers.rules.wagers import OPENING_WAGERS

COLUMNS = (
    "Table Limit",
    "Player Wager",
    "Player Fee",
    "Player-Dealer Fee Per Betting Square",
    "OR",
    "Player-Dealer Fee On Total Table Action",
)
IDENTITY = ("Table", "Schedule", "Version", "Effective")
WHEN_COLLECTED = (
    'Fees are assessed when the house dealer calls "no more bets", from the wagers then on '
    "the layout and the schedule in force when the hand started, and are collected and "
    "dropped by the house dealer before the cards are dealt. Fees are flat amounts and never "
    "depend on the outcome of the hand; a wager that gets no action keeps its fee."
)


@dataclass(frozen=True)
class Filed:
    """One schedule version to file, and the table (or limit class) it is posted at."""

    label: str  # a table's name, or the limit class ("all $5-$500 tables")
    version: FeeScheduleVersion


def rows(version: FeeScheduleVersion) -> list[tuple[str, ...]]:
    """The Example Table's rows for one version, rate by rate."""
    limit = dollar_range(version.table_minimum_cents, version.table_maximum_cents)
    per_square = version.player_dealer_basis == Basis.PER_BETTING_SQUARE
    lines = []
    for rate in sorted(version.rates.all(), key=lambda r: r.position):
        action = ""
        if not per_square and rate.action_from_cents is not None:
            action = (
                f"{dollars(rate.player_dealer_fee_cents)} on "
                f"{dollar_range(rate.action_from_cents, rate.action_to_cents)}"
            )
        lines.append(
            (
                limit,
                dollar_range(rate.wager_from_cents, rate.wager_to_cents),
                dollars(rate.player_fee_cents),
                dollars(rate.player_dealer_fee_cents) if per_square else "",
                "" if per_square else "OR",
                action,
            )
        )
    return lines


def squares_note(version: FeeScheduleVersion) -> str:
    names = ", ".join(square_names(version.charged_squares))
    return f"Fees are charged on each wager in these betting squares: {names}."


def square_names(squares: Sequence[str]) -> list[str]:
    """The squares' names as the layout says them (``WagerKind.label``; another game's from its
    description, ``games.registry``), in the layout's order."""
    layout = [(kind.value, kind.label) for kind in OPENING_WAGERS]
    layout += [(sq.name, sq.label) for game in registry.GAMES.values() for sq in game.squares]
    names: dict[str, str] = {}
    for name, label in layout:
        if name in squares:
            names.setdefault(name, label)
    return list(names.values())


def local_iso(moment) -> str:
    """An instant in the cardroom's local time (``TIME_ZONE``), ISO 8601 with its UTC offset,
    as the reports write times (``reports.document.cell``)."""
    return timezone.localtime(moment).isoformat()


def local_text(moment) -> str:
    """An instant as a person reads it, in the cardroom's local time: ``2026-11-20 10:00 PST``."""
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M %Z")


def _identity(filed: Filed) -> tuple[str, ...]:
    v = filed.version
    return (filed.label, v.schedule.name, str(v.number), local_iso(v.effective_at))


def filing_csv(filed: Sequence[Filed]) -> bytes:
    """One CSV: identification columns, then the Example Table's columns, one line per rate."""
    out = io.StringIO()
    writer = csvsafe.writer(out)
    writer.writerow((*IDENTITY, *COLUMNS, "Charged Squares"))
    for item in filed:
        squares = " ".join(square_names(item.version.charged_squares))
        for row in rows(item.version):
            writer.writerow((*_identity(item), *row, squares))
    return out.getvalue().encode("utf-8")


def filing_pdf(
    filed: Sequence[Filed], *, title: str = "Collection Table", appendix: Sequence[Flowable] = ()
) -> bytes:
    """A PDF with one Example Table per schedule version, and when fees are collected; then
    ``appendix``, pages a caller adds after the filing (the reports' fee filing adds the math
    sheet of each table, ``reports/math_sheet.py``)."""
    styles = getSampleStyleSheet()
    cell = styles["BodyText"].clone("cell", fontSize=8, leading=10)
    buffer = io.BytesIO()
    document = SimpleDocTemplate(
        buffer,
        pagesize=landscape(letter),
        invariant=1,  # fixed dates and id: same input, same bytes
        title=title,
        author="Cardroom",
        creator="cardroom fees.filing",
        leftMargin=0.5 * inch,
        rightMargin=0.5 * inch,
        topMargin=0.5 * inch,
        bottomMargin=0.5 * inch,
    )
    story = [Paragraph(escape(title), styles["Title"])]
    if not filed:
        story.append(Paragraph("No collection schedule is on file.", styles["BodyText"]))
    for item in filed:
        v = item.version
        story.append(
            Paragraph(
                f"{escape(item.label)}: {escape(v.schedule.name)}, version {v.number}, "
                f"in force from {local_text(v.effective_at)}",
                styles["Heading2"],
            )
        )
        data = [[Paragraph(c, cell) for c in COLUMNS]] + [
            [Paragraph(escape(c), cell) for c in row] for row in rows(v)
        ]
        table = Table(
            data, colWidths=[1.6 * inch, 1.6 * inch, 0.9 * inch, 1.7 * inch, 0.4 * inch, 2.8 * inch]
        )
        table.setStyle(
            TableStyle(
                [
                    ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
                    ("BACKGROUND", (0, 0), (-1, 0), colors.lightgrey),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ]
            )
        )
        story += [table, Spacer(1, 6), Paragraph(squares_note(v), styles["BodyText"])]
        if v.note:
            story.append(Paragraph(escape(v.note), styles["BodyText"]))
        story.append(Spacer(1, 12))
    story.append(Paragraph(WHEN_COLLECTED, styles["BodyText"]))
    story.append(
        Paragraph(
            "No more than five collection rates are established per table. The house never "
            "takes a percentage of any wager, never banks and never plays.",
            styles["BodyText"],
        )
    )
    story.extend(appendix)
    document.build(story)
    return buffer.getvalue()
