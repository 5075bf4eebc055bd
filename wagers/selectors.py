"""Read paths for money: settlement lines, ledger transactions, bankrolls and sessions.

Aggregations run in SQL (one query per figure set), never by loading rounds into Python.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Max, Prefetch, Q, QuerySet, Sum, prefetch_related_objects
from django.db.models.functions import Coalesce

from tables.filters import filter_queryset
from tables.models import Player, Round, RoundState, Seating
from tables.rules.errors import StateError
from wagers.filters import AccountFilter
from wagers.models import (
    CHIP_ACCOUNT_KINDS,
    Account,
    Bet,
    LedgerEntry,
    LedgerTransaction,
    PlayerDealerBank,
    SettlementLine,
    TransactionKind,
)


def settlement_lines(round_id: int) -> QuerySet[SettlementLine]:
    return (
        SettlementLine.objects.filter(round_id=round_id)
        .select_related("bet__player")
        .order_by("order")
    )


def account_transactions(account_id: int) -> QuerySet[LedgerTransaction]:
    return (
        LedgerTransaction.objects.filter(entries__account_id=account_id)
        .distinct()
        .prefetch_related("entries")
        .select_related("by")
        .order_by("id")
    )


def chip_accounts(player: Player) -> QuerySet[Account]:
    return Account.objects.filter(player=player, kind__in=CHIP_ACCOUNT_KINDS).select_related(
        "table"
    )


def _movements(accounts: QuerySet[Account], since=None, until=None) -> dict[str, int]:
    entries = LedgerEntry.objects.filter(account__in=accounts)
    if since is not None:
        entries = entries.filter(transaction__at__gte=since)
    if until is not None:
        entries = entries.filter(transaction__at__lt=until)
    kinds = {
        "fills": TransactionKind.FILL,
        "credits": TransactionKind.CREDIT,
        "buy_ins": TransactionKind.BUY_IN,
        "cash_outs": TransactionKind.CASH_OUT,
        "fees": TransactionKind.FEE,
    }
    totals = entries.aggregate(
        **{
            name: Coalesce(Sum("amount_cents", filter=Q(transaction__kind=kind)), 0)
            for name, kind in kinds.items()
        }
    )
    # Money leaving the player's chips is negative in the ledger; report amounts as positive.
    for name in ("credits", "cash_outs", "fees"):
        totals[name] = -totals[name]
    return totals


def _banking(banks: QuerySet[PlayerDealerBank]) -> dict[str, int]:
    """Hands banked, result, largest exposure, and the uncovered amounts of those rounds.

    The banks and their rounds' settlement lines are aggregated separately: one
    aggregate over a join would count each bank once per settlement line.
    """
    settled = banks.filter(net_cents__isnull=False)
    totals = settled.aggregate(
        hands_banked=Count("id"),
        total_result=Coalesce(Sum("net_cents"), 0),
        largest_exposure=Coalesce(Max("amount_cents"), 0),
    )
    totals.update(
        SettlementLine.objects.filter(round_id__in=settled.values("round_id")).aggregate(
            returned_uncovered=Coalesce(Sum("returned_uncovered_cents"), 0),
            unpaid_uncovered=Coalesce(Sum("unpaid_uncovered_cents"), 0),
        )
    )
    return totals


@dataclass(frozen=True)
class Bankroll:
    player: Player
    is_tppp: bool
    balance: int
    movements: dict[str, int]
    banking: dict[str, int]


def bankroll(player: Player) -> Bankroll:
    """A player-dealer's bankroll: chips now held at tables, movements, and every bank posted."""
    accounts = chip_accounts(player)
    balance = accounts.filter(closed_at__isnull=True).aggregate(
        total=Coalesce(Sum("balance_cents"), 0)
    )
    return Bankroll(
        player=player,
        is_tppp=hasattr(player, "tppp"),
        balance=balance["total"],
        movements=_movements(accounts),
        banking=_banking(PlayerDealerBank.objects.filter(player=player)),
    )


def banks(player: Player) -> QuerySet[PlayerDealerBank]:
    """Every bank the player posted, newest first, with the round it covered."""
    return (
        PlayerDealerBank.objects.filter(player=player)
        .select_related("round__table")
        .annotate(
            returned_uncovered=Coalesce(
                Sum("round__settlement_lines__returned_uncovered_cents"), 0
            ),
            unpaid_uncovered=Coalesce(Sum("round__settlement_lines__unpaid_uncovered_cents"), 0),
        )
        .order_by("-posted_at")
    )


@dataclass(frozen=True)
class Session:
    """From sitting down to leaving one table: what the player did as player-dealer."""

    seating: Seating
    banking: dict[str, int]
    movements: dict[str, int]


def sessions(player: Player) -> list[Session]:
    result = []
    for seating in Seating.objects.filter(player=player).select_related("table").order_by("sat_at"):
        window = Q(round__table=seating.table, round__started_at__gte=seating.sat_at)
        if seating.left_at is not None:
            window &= Q(round__started_at__lt=seating.left_at)
        accounts = chip_accounts(player).filter(table=seating.table)
        result.append(
            Session(
                seating=seating,
                banking=_banking(PlayerDealerBank.objects.filter(window, player=player)),
                movements=_movements(accounts, seating.sat_at, seating.left_at),
            )
        )
    return result


PLAYING_BOOK_COLUMNS = [
    "posted_at",
    "table",
    "round",
    "seat",
    "bank_cents",
    "result_cents",
    "bank_exhausted",
    "returned_uncovered_cents",
    "unpaid_uncovered_cents",
]


def playing_book_csv(
    player: Player, since: datetime | None = None, until: datetime | None = None
) -> str:
    """The TPPP playing book (4 CCR §12260): every bank posted, its result and uncovered amounts."""
    rows = banks(player).order_by("posted_at")
    if since is not None:
        rows = rows.filter(posted_at__gte=since)
    if until is not None:
        rows = rows.filter(posted_at__lt=until)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(PLAYING_BOOK_COLUMNS)
    for bank in rows:
        writer.writerow(
            [
                bank.posted_at.isoformat(),
                bank.round.table.name,
                bank.round.number,
                bank.round.player_dealer_seat,
                bank.amount_cents,
                "" if bank.net_cents is None else bank.net_cents,
                "" if bank.exhausted is None else str(bank.exhausted).lower(),
                bank.returned_uncovered,
                bank.unpaid_uncovered,
            ]
        )
    return out.getvalue()


# --- Reads for the money API ---------------------------------------------------------------


@dataclass(frozen=True)
class RoundSettlement:
    round: Round
    bank: PlayerDealerBank
    lines: QuerySet[SettlementLine]


def round_settlement(round_id: int) -> RoundSettlement:
    """A settled round's settlement lines in order, with the bank; StateError until settled."""
    round_ = Round.objects.get(pk=round_id)
    if round_.state != RoundState.SETTLED:
        raise StateError(
            f"round {round_.number} is {round_.get_state_display().lower()}; its settlement "
            "is posted when it is settled",
            state=round_.state,
        )
    bank = PlayerDealerBank.objects.select_related("player", "posted_by").get(round=round_)
    return RoundSettlement(round=round_, bank=bank, lines=settlement_lines(round_id))


def round_money(round_: Round) -> Round:
    """Attach the round's bank and each hand's bets to ``round_`` (two queries, any size)."""
    prefetch_related_objects(
        [round_],
        Prefetch("bank", queryset=PlayerDealerBank.objects.select_related("player", "posted_by")),
        Prefetch("hands__bets", queryset=Bet.objects.select_related("player").order_by("bettor")),
    )
    return round_


def account_list(*, filters=None) -> QuerySet[Account]:
    return filter_queryset(
        AccountFilter, filters, Account.objects.select_related("player", "table").order_by("id")
    )


def account_get(*, account_id: int) -> Account:
    return Account.objects.select_related("player", "table").get(pk=account_id)


def balances_after(account_id: int, transactions: Sequence[LedgerTransaction]) -> dict[int, int]:
    """The account's balance after each of ``transactions`` (ascending ids, entries prefetched).

    One query: the balance before the first of them; the rest is added up from their entries.
    """
    if not transactions:
        return {}
    balance = LedgerEntry.objects.filter(
        account_id=account_id, transaction_id__lt=transactions[0].pk
    ).aggregate(total=Coalesce(Sum("amount_cents"), 0))["total"]
    result = {}
    for posted in transactions:
        balance += sum(e.amount_cents for e in posted.entries.all() if e.account_id == account_id)
        result[posted.pk] = balance
    return result


def transaction_get(*, transaction_id: int) -> LedgerTransaction:
    return (
        LedgerTransaction.objects.select_related("by")
        .prefetch_related("entries")
        .get(pk=transaction_id)
    )
