"""Report 3: player-dealer banking and bankroll (docs/rules.md §7, §10: an accounting record).

Per player-dealer, TPPPs apart from other players: by gaming day and by session (a
session is one chip account at one table, from sitting down to leaving), the banks
posted, their results, the largest bank (the most the player-dealer could lose on one
hand), the uncovered amounts returned and unpaid, fills and credits, and the closing
bankroll; over the period, each player-dealer's actual result beside the theo of the same
hands (docs/rules.md §13.5: the settled hands with a theo; the difference also in standard
deviations); then the TPPP playing book, bank by bank. Every figure is a SQL aggregate.
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import F, Q, Sum
from django.db.models.functions import Coalesce

from cardroom.gaming_day import gaming_day_window
from wagers.models import LedgerEntry, PlayerDealerBank, TransactionKind
from wagers.rules.theo import std_devs_text
from wagers.selectors import (
    PLAYING_BOOK_COLUMNS,
    banking_figures,
    playing_book,
    theo_comparison,
)

from .common import header, stream
from .document import Document, Section
from .parameters import Period

TITLE = "Player-dealer banking and bankroll"
FIGURES = [
    "hands_banked", "banked_cents", "result_cents", "largest_bank_cents", "banks_exhausted",
    "returned_uncovered_cents", "unpaid_uncovered_cents", "fills_cents", "credits_cents",
    "closing_bankroll_cents",
]  # fmt: skip
WIDTHS = {name: 13 for name in FIGURES} | {"player": 12, "player_name": 22, "table": 12}


def _banks(period: Period, start, end, tppp: bool):
    banks = PlayerDealerBank.objects.filter(
        posted_at__gte=start, posted_at__lt=end, round__player_dealer_is_tppp=tppp
    )
    if period.table_id is not None:
        banks = banks.filter(round__table_id=period.table_id)
    return banks


# The report's columns from the money selectors' figures.
FROM_SELECTORS = {
    "hands_banked": "hands_banked",
    "banked_cents": "banked",
    "result_cents": "total_result",
    "largest_bank_cents": "largest_exposure",
    "banks_exhausted": "banks_exhausted",
    "returned_uncovered_cents": "returned_uncovered",
    "unpaid_uncovered_cents": "unpaid_uncovered",
}


def _figures(period: Period, start, end, tppp: bool, key: str) -> dict:
    """Figures per ``key`` ("account" for sessions, "player" for days), all SQL aggregates."""
    banks = _banks(period, start, end, tppp)
    figures = {
        group: {column: row[name] for column, name in FROM_SELECTORS.items()}
        for group, row in banking_figures(banks, group=key).items()
    }
    if not figures:
        return {}
    # The player-dealer's chips: the accounts its banks were posted from (one per session).
    accounts = banks.values("account_id")
    entries = LedgerEntry.objects.filter(account_id__in=accounts)
    owner = "account_id" if key == "account" else "account__player_id"
    movements = (
        entries.filter(transaction__at__gte=start, transaction__at__lt=end)
        .values(group=F(owner))
        .annotate(
            fills=Coalesce(
                Sum("amount_cents", filter=Q(transaction__kind=TransactionKind.FILL)), 0
            ),
            credits=Coalesce(
                Sum("amount_cents", filter=Q(transaction__kind=TransactionKind.CREDIT)), 0
            ),
        )
    )
    for row in movements:
        figures[row["group"]]["fills_cents"] = row["fills"]
        figures[row["group"]]["credits_cents"] = -row["credits"]
    closing = (
        entries.filter(transaction__at__lt=end)
        .values(group=F(owner))
        .annotate(total=Sum("amount_cents"))
    )
    for row in closing:
        figures[row["group"]]["closing_bankroll_cents"] = row["total"]
    return figures


def _values(figures: dict) -> list:
    return [figures.get(name, 0) for name in FIGURES]


def _by_day(period: Period, tppp: bool):
    from tables.models import Player

    day = period.from_day
    while day <= period.to_day:
        start, end = gaming_day_window(day)
        figures = _figures(period, start, end, tppp, "player")
        players = Player.objects.filter(pk__in=figures).order_by("player_number")
        for player in players:
            yield (day, player.player_number, player.name, *_values(figures[player.pk]))
        day += timedelta(days=1)


def _by_session(period: Period, tppp: bool):
    from wagers.models import Account

    figures = _figures(period, period.start, period.end, tppp, "account")
    accounts = (
        Account.objects.filter(pk__in=figures)
        .select_related("player", "table")
        .order_by("player__player_number", "opened_at", "id")
    )
    for account in accounts:
        yield (
            account.player.player_number,
            account.player.name,
            account.table.name,
            account.opened_at,
            account.closed_at,
            *_values(figures[account.pk]),
        )


def _theo(period: Period, tppp: bool):
    """Each player-dealer's settled hands with a theo over the period: theo beside actual."""
    from tables.models import Player

    figures = banking_figures(_banks(period, period.start, period.end, tppp), group="player")
    for player in Player.objects.filter(pk__in=figures).order_by("player_number"):
        theo = theo_comparison(figures[player.pk])
        yield (
            player.player_number,
            player.name,
            theo.hands,
            theo.theo,
            theo.actual,
            theo.difference,
            theo.std_dev,
            std_devs_text(theo.std_devs),
        )


def _playing_book(period: Period):
    banks = _banks(period, period.start, period.end, True)
    return stream(playing_book(banks.order_by("player__player_number", "posted_at", "id")))


DAY_COLUMNS = ["gaming_day", "player", "player_name", *FIGURES]
SESSION_COLUMNS = ["player", "player_name", "table", "session_opened", "session_closed", *FIGURES]
BOOK_COLUMNS = ["player", *PLAYING_BOOK_COLUMNS]
THEO_COLUMNS = [
    "player", "player_name", "hands_with_theo", "theo_cents", "actual_cents",
    "difference_cents", "std_dev_cents", "std_devs_from_theo",
]  # fmt: skip
THEO_WIDTHS = {"player": 12, "player_name": 22, "hands_with_theo": 8, "std_devs_from_theo": 10}
THEO_WIDTHS |= {name: 14 for name in THEO_COLUMNS if name.endswith("_cents")}


def build(period: Period, *, is_open: bool) -> Document:
    def sections():
        for tppp, who in ((True, "TPPP player-dealers"), (False, "Other player-dealers")):
            yield Section(f"{who} by gaming day", DAY_COLUMNS, _by_day(period, tppp), WIDTHS)
            yield Section(
                f"{who} by session",
                SESSION_COLUMNS,
                _by_session(period, tppp),
                WIDTHS | {"session_opened": 25, "session_closed": 25},
            )
            yield Section(
                f"{who}: theo beside actual", THEO_COLUMNS, _theo(period, tppp), THEO_WIDTHS
            )
        yield Section(
            "TPPP playing book",
            BOOK_COLUMNS,
            _playing_book(period),
            {"posted_at": 25, "table": 12, "round": 6, "seat": 4, "bank_exhausted": 14},
        )

    extra = [
        ("amounts", "integer cents in CSV (theo to 1/10,000 of a cent); dollars in PDF"),
        (
            "theo",
            "the player-dealer's expected result from the wagers on the layout (each wager "
            "times its house edge, before fees, ignoring coverage), beside the actual result "
            "(the banks' settlement net, before fees) of the same settled hands: docs/rules.md "
            "§13.5",
        ),
    ]
    return Document(TITLE, header(TITLE, period, is_open=is_open, extra=extra), sections())
