"""The fee filing's math sheet: one page per table in scope, for the options in force at the end
of the period (now, if it is still open), as the schedules are filed.

Each page has the table's wagers with their pay tables and figures (Trips, Bad Beat or "not
offered", the Blind with the base game) and the strategy card: the pre-flop chart as the
usual 13 by 13 grid and the flop and river decisions in words. The words and figures are
``wagers.math_sheet``'s, the same the console's game math page shows; this module only lays
them out with ReportLab (base-14 fonts, no date, no random id: the filing stays
deterministic). tests/reports/services/test_pdf_layout.py draws the pages and checks that
nothing leaves them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (
    Flowable,
    KeepInFrame,
    PageBreak,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from games import registry
from tables import options as table_options
from tables.models import Table as FloorTable
from tables.models import TableOptionChange
from wagers.math_sheet import (
    NOT_OFFERED,
    Figure,
    FiguresSheet,
    MathSheet,
    StrategyCard,
    WagerSheet,
    figures_sheet,
    math_sheet,
)

FELT = colors.HexColor("#0d4d2e")  # the console's raise colour: white on it is above 10:1
RULE = colors.HexColor("#8a8a8a")
HEAD = colors.HexColor("#e6e6e6")
FONT, BOLD = "Helvetica", "Helvetica-Bold"

TITLE = ParagraphStyle("math-title", fontName=BOLD, fontSize=13, leading=16, spaceAfter=2)
LINE = ParagraphStyle("math-line", fontName=FONT, fontSize=7.5, leading=9.5)
SMALL = ParagraphStyle("math-small", fontName=FONT, fontSize=6.5, leading=8)
HEADING = ParagraphStyle("math-heading", fontName=BOLD, fontSize=9, leading=11, spaceAfter=1)
CELL = ParagraphStyle("math-cell", fontName=FONT, fontSize=7, leading=8.5)
CELL_BOLD = ParagraphStyle("math-cell-bold", parent=CELL, fontName=BOLD)
NUMBER = ParagraphStyle("math-number", parent=CELL, alignment=2)  # right
NUMBER_BOLD = ParagraphStyle("math-number-bold", parent=NUMBER, fontName=BOLD)
MARK = ParagraphStyle("math-mark", fontName=BOLD, fontSize=6.5, leading=7.5, alignment=1)

# Points inside the filing's frame: landscape letter, half-inch margins, the frame's own 6.
WIDTH, HEIGHT = 708, 528
BLOCK = 228  # each wager's block, three across, 8 apart
CHART_CELL, CHART_HEAD = 25, 12  # 13 cells and the ranks' column: 337 across
CHART_ROW = 17.5
SIDE = WIDTH - CHART_HEAD - 13 * CHART_CELL - 14  # the strategy's words beside the chart

# A table used only to lay blocks side by side: no padding, tops aligned.
FLUSH = [
    ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ("LEFTPADDING", (0, 0), (-1, -1), 0),
    ("RIGHTPADDING", (0, 0), (-1, -1), 0),
    ("TOPPADDING", (0, 0), (-1, -1), 0),
    ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
]

INTRO = (
    "The figures of each wager for the options in force at the end of the period (now, if the "
    "period is still open), exact from the counts of every deal (docs/rules.md §13), and the "
    "strategy card the base game's figures assume."
)


def options_in_force(tables: Sequence[FloorTable], moment: datetime) -> dict[int, dict[str, Any]]:
    """Each table's options sheet at ``moment``: the sheet now, with every change made after
    ``moment`` taken back from the change log (one query)."""
    sheets = {table.pk: table_options.snapshot(table) for table in tables}
    later = TableOptionChange.objects.filter(table__in=sheets, changed_at__gt=moment).order_by(
        "-changed_at", "-id"
    )
    for change in later:
        if change.option in sheets[change.table_id]:
            sheets[change.table_id][change.option] = change.old_value
    return sheets


def pages(tables: Sequence[FloorTable], moment: datetime) -> list[Flowable]:
    """A page per table (by name), each after a page break, for ``fees.filing.filing_pdf``.
    Each page is kept in one frame: were a table's sheet ever taller (a long name, a custom
    pay table), it is set smaller rather than spill onto a second page."""
    sheets = options_in_force(tables, moment)
    story: list[Flowable] = []
    for table in tables:
        values = sheets[table.pk]
        game = table_options.game_of(values)
        if game.own_defaults:  # a game of figures alone (EZ Baccarat): no strategy card
            options = table_options.own_option_words(game, values)
            figures = figures_sheet(registry.game(game.key), values, options)
            flowables = figures_page(table.name, figures)
        else:
            flowables = page(table.name, math_sheet(table_options.game_options(values)))
        story += [PageBreak(), KeepInFrame(WIDTH, HEIGHT, flowables, mode="shrink")]
    return story


FIGURES_INTRO = (
    "The figures of each wager for the options in force at the end of the period (now, if the "
    "period is still open), exact over every order of the cards drawn from a full shoe "
    "(docs/rules.md §14.8). There are no decisions: the coup is dealt by the drawing rules."
)


def figures_page(name: str, sheet: FiguresSheet) -> list[Flowable]:
    """The math sheet of a game of figures alone: its options, then each wager's exact house
    edge (to 4 decimals of a percent), how often it wins and its standard deviation."""
    options = " · ".join(
        f"{escape(label)}: <b>{escape(value)}</b>" for label, value in sheet.options
    )
    head = ["Wager", "House edge", "Wins", "How often", "Standard deviation"]
    data = [[Paragraph(escape(head[0]), CELL_BOLD)]
            + [Paragraph(escape(h), NUMBER_BOLD) for h in head[1:]]]  # fmt: skip
    data += [
        [Paragraph(escape(row.wager), CELL_BOLD)]
        + [
            Paragraph(escape(value), NUMBER)
            for value in (row.house_edge, row.hit_frequency, row.hits, row.std_dev)
        ]
        for row in sheet.rows
    ]
    return [
        Paragraph(f"Game math · {escape(name)} · {escape(sheet.game)}", TITLE),
        Paragraph(f"For {options}. {escape(FIGURES_INTRO)}", LINE),
        Spacer(1, 8),
        _rows_table(data, (150, 110, 110, 110, 130)),
        Spacer(1, 6),
        Paragraph(escape(sheet.about), SMALL),
    ]


def page(name: str, sheet: MathSheet) -> list[Flowable]:
    options = " · ".join(
        f"{escape(label)}: <b>{escape(value)}</b>" for label, value in sheet.options
    )
    top = Table(
        [[_wager(sheet.trips), _bad_beat(sheet.bad_beat), _base_game(sheet)]],
        colWidths=[BLOCK + 8, BLOCK + 8, WIDTH - 2 * (BLOCK + 8)],
        style=TableStyle([*FLUSH, ("RIGHTPADDING", (0, 0), (-1, -1), 8)]),
    )
    return [
        Paragraph(f"Game math · {escape(name)}", TITLE),
        Paragraph(f"For {options}. {escape(INTRO)}", LINE),
        Spacer(1, 5),
        top,
        Spacer(1, 4),
        Paragraph(_glossary(sheet), SMALL),
        Spacer(1, 6),
        _strategy(sheet.card),
    ]


def _rows_table(data: list[list], widths: Sequence[float], extra: Iterable = ()) -> Table:
    return Table(
        data,
        colWidths=list(widths),
        style=TableStyle(
            [
                ("LINEBELOW", (0, 0), (-1, -1), 0.4, RULE),
                ("BACKGROUND", (0, 0), (-1, 0), HEAD),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 2),
                ("RIGHTPADDING", (0, 0), (-1, -1), 2),
                ("TOPPADDING", (0, 0), (-1, -1), 1),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
                *extra,
            ]
        ),
    )


def _paytable(wager: WagerSheet) -> Table:
    if wager.chances:
        head = [wager.hand_heading, "Pays", "How often", "Chance"]
        rows = [(r.hand, r.pays, r.how_often, r.chance) for r in wager.rows]
        widths = (60, 48, 66, 54)
    else:
        head = [wager.hand_heading, "Pays"]
        rows = [(r.hand, r.pays) for r in wager.rows]
        widths = (146, 82)
    data = [[Paragraph(escape(head[0]), CELL_BOLD)]
            + [Paragraph(escape(h), NUMBER_BOLD) for h in head[1:]]]  # fmt: skip
    data += [
        [Paragraph(escape(row[0]), CELL)] + [Paragraph(escape(c), NUMBER) for c in row[1:]]
        for row in rows
    ]
    return _rows_table(data, widths)


def _figures(figures: Sequence[Figure]) -> Table:
    data = [[Paragraph(escape(f.term), CELL), Paragraph(escape(f.value), NUMBER_BOLD)]
            for f in figures]  # fmt: skip
    return _rows_table(data, (118, 110), [("BACKGROUND", (0, 0), (-1, 0), colors.white)])


def _wager(wager: WagerSheet) -> list[Flowable]:
    return [
        Paragraph(f"{escape(wager.title)}: pay table {escape(wager.paytable)}", HEADING),
        Paragraph(escape(wager.about), SMALL),
        Spacer(1, 2),
        _paytable(wager),
        Spacer(1, 3),
        _figures(wager.figures),
    ]


def _bad_beat(wager: WagerSheet | None) -> list[Flowable]:
    if wager is not None:
        return _wager(wager)
    return [
        Paragraph("Bad Beat: not offered", HEADING),
        Paragraph(escape(NOT_OFFERED), CELL),
    ]


def _base_game(sheet: MathSheet) -> list[Flowable]:
    blind = sheet.blind
    return [
        Paragraph(f"Blind, and the base game: pay table {escape(blind.paytable)}", HEADING),
        Paragraph(escape(blind.about), SMALL),
        Spacer(1, 2),
        _paytable(blind),
        Spacer(1, 3),
        Paragraph(escape(sheet.base_game_about), SMALL),
        Spacer(1, 1),
        _figures(sheet.base_game),
    ]


def _glossary(sheet: MathSheet) -> str:
    """Each figure's term once, with what it says."""
    seen: dict[str, str] = {}
    for wager in (sheet.trips, sheet.bad_beat):
        for figure in wager.figures if wager else ():
            seen.setdefault(figure.term, figure.meaning.split("; below zero")[0])
    for figure in sheet.base_game:
        seen.setdefault(figure.term, figure.meaning.split("; below zero")[0])
    said = "; ".join(f"<b>{escape(term)}</b>: {escape(meaning)}" for term, meaning in seen.items())
    return f"{said}. A house edge below zero is the bettor's expected gain."


def _chart(card: StrategyCard) -> Table:
    data = [[""] + [Paragraph(rank, MARK) for rank in card.ranks]]
    style = [
        ("GRID", (1, 1), (-1, -1), 0.5, RULE),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("ALIGN", (0, 0), (-1, -1), "CENTER"),
        ("LEFTPADDING", (0, 0), (-1, -1), 0),
        ("RIGHTPADDING", (0, 0), (-1, -1), 0),
        ("TOPPADDING", (0, 0), (-1, -1), 0.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
    ]
    white = ParagraphStyle("math-mark-white", parent=MARK, textColor=colors.white)
    small_white = ParagraphStyle("math-mark-small-white", parent=white, fontName=FONT, fontSize=5.5)
    small = ParagraphStyle("math-mark-small", parent=MARK, fontName=FONT, fontSize=5.5)
    for y, (rank, row) in enumerate(card.rows, start=1):
        line = [Paragraph(rank, MARK)]
        for x, cell in enumerate(row, start=1):
            on_felt = cell.raises
            line.append(
                [Paragraph(cell.hand, white if on_felt else MARK),
                 Paragraph(cell.mark, small_white if on_felt else small)]
            )  # fmt: skip
            if on_felt:
                style.append(("BACKGROUND", (x, y), (x, y), FELT))
            if cell.kind == "pair":
                style.append(("BOX", (x, y), (x, y), 1.4, colors.black))
        data.append(line)
    return Table(
        data,
        colWidths=[CHART_HEAD] + [CHART_CELL] * 13,
        rowHeights=[11] + [CHART_ROW] * 13,
        style=TableStyle(style),
    )


def _legend(card: StrategyCard) -> Table:
    data = [[Paragraph(escape(mark), MARK if mark == "check" else ParagraphStyle(
                "math-legend-white", parent=MARK, textColor=colors.white)),
             Paragraph(escape(meaning), CELL)]
            for mark, meaning in card.legend]  # fmt: skip
    style = [
        ("BOX", (0, i), (0, i), 0.5, RULE) for i in range(len(data))
    ] + [
        ("BACKGROUND", (0, i), (0, i), FELT)
        for i, (mark, _) in enumerate(card.legend)
        if mark != "check"
    ] + [("VALIGN", (0, 0), (-1, -1), "MIDDLE"), ("LEFTPADDING", (1, 0), (1, -1), 5)]  # fmt: skip
    return Table(data, colWidths=[CHART_CELL + 6, SIDE - CHART_CELL - 6], style=TableStyle(style))


def _strategy(card: StrategyCard) -> Table:
    words = [
        Paragraph("The strategy card", HEADING),
        Paragraph(escape(card.preflop), ParagraphStyle("math-preflop", parent=LINE, fontName=BOLD)),
        Spacer(1, 2),
        Paragraph(f"{escape(card.raising)} {escape(card.layout)}", SMALL),
        Spacer(1, 3),
        _legend(card),
        Spacer(1, 4),
        Paragraph(f"<b>On the flop.</b> {escape(card.flop)}", LINE),
        Spacer(1, 3),
        Paragraph(f"<b>On the river.</b> {escape(card.river)}", LINE),
    ]
    return Table(
        [[[Paragraph("Before the flop, by the two cards dealt", HEADING), _chart(card)], words]],
        colWidths=[WIDTH - SIDE, SIDE],
        style=TableStyle(FLUSH),
    )
