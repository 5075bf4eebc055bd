"""Report 5: the Title 31 currency log (docs/rules.md §10.7; 31 CFR 1021.311 and .313).

Buy-ins and cash-outs in which currency changed hands, per patron per gaming day:
- every such transaction of $3,000 or more (the Multiple Transaction Log);
- the patrons whose currency in, or currency out, aggregated over one gaming day across
  the whole cardroom exceeds $10,000 (Currency Transaction Report candidates).
Chips bought or cashed without currency (e.g. by cheque or chips from another table) are
not currency transactions and are left out, as the ledger's ``currency`` flag records.
The log and the candidates name each patron's ID type and number, the number masked
(docs/rules.md §3.3).
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Count, F, Q, Sum
from django.db.models.functions import Abs, Coalesce

from cardroom.gaming_day import gaming_day_of, gaming_day_window
from tables.models import IdType
from tables.rules.identity import masked
from wagers.models import CHIP_ACCOUNT_KINDS, LedgerEntry, TransactionKind

from .common import header, stream
from .document import Document, Section
from .parameters import Period

TITLE = "Title 31 currency log"
MTL_THRESHOLD_CENTS = 300_000  # $3,000 or more
CTR_THRESHOLD_CENTS = 1_000_000  # more than $10,000
KINDS = [TransactionKind.BUY_IN, TransactionKind.CASH_OUT]
DIRECTION = {TransactionKind.BUY_IN: "cash in", TransactionKind.CASH_OUT: "cash out"}


def _entries(start, end, table_id: int | None):
    """The patron's side of every currency buy-in and cash-out in [start, end)."""
    entries = LedgerEntry.objects.filter(
        account__kind__in=CHIP_ACCOUNT_KINDS,
        transaction__kind__in=KINDS,
        transaction__currency=True,
        transaction__at__gte=start,
        transaction__at__lt=end,
    )
    if table_id is not None:
        entries = entries.filter(account__table_id=table_id)
    return entries


def _id_type(value: str) -> str:
    return IdType(value).label if value in IdType.values else value


def _totals(entries):
    return entries.values(
        player_number=F("account__player__player_number"),
        player_name=F("account__player__name"),
        id_type=F("account__player__id_type"),
        id_number=F("account__player__id_number"),
    ).annotate(
        cash_in=Coalesce(
            Sum("amount_cents", filter=Q(transaction__kind=TransactionKind.BUY_IN)), 0
        ),
        cash_out=Coalesce(
            Sum(Abs("amount_cents"), filter=Q(transaction__kind=TransactionKind.CASH_OUT)), 0
        ),
        count_in=Count("id", filter=Q(transaction__kind=TransactionKind.BUY_IN)),
        count_out=Count("id", filter=Q(transaction__kind=TransactionKind.CASH_OUT)),
    )


def _days(period: Period):
    day = period.from_day
    while day <= period.to_day:
        yield day, *gaming_day_window(day)
        day += timedelta(days=1)


def _per_patron(period: Period):
    for day, start, end in _days(period):
        rows = _totals(_entries(start, end, period.table_id)).order_by("player_number")
        for row in rows:
            yield (
                day, row["player_number"], row["player_name"], row["cash_in"], row["count_in"],
                row["cash_out"], row["count_out"],
            )  # fmt: skip


def _mtl(period: Period):
    entries = (
        _entries(period.start, period.end, period.table_id)
        .annotate(size=Abs("amount_cents"))
        .filter(size__gte=MTL_THRESHOLD_CENTS)
        .order_by("transaction__at", "transaction_id", "id")
        .values_list(
            "transaction__at", "transaction_id", "transaction__kind", "size",
            "account__player__player_number", "account__player__name", "account__table__name",
            "transaction__by__username", "account__player__id_type", "account__player__id_number",
        )
    )  # fmt: skip
    for at, pk, kind, size, number, name, table, staff, id_type, id_number in stream(entries):
        yield (
            gaming_day_of(at), at, number, name, DIRECTION[kind], size, table, staff, pk,
            _id_type(id_type), masked(id_number),
        )  # fmt: skip


def _ctr(period: Period):
    for day, start, end in _days(period):
        # Aggregated across every table: the duty is the cardroom's, whatever the filter.
        rows = (
            _totals(_entries(start, end, None))
            .filter(Q(cash_in__gt=CTR_THRESHOLD_CENTS) | Q(cash_out__gt=CTR_THRESHOLD_CENTS))
            .order_by("player_number")
        )
        for row in rows:
            over = [
                label
                for label, amount in (("cash in", row["cash_in"]), ("cash out", row["cash_out"]))
                if amount > CTR_THRESHOLD_CENTS
            ]
            yield (
                day, row["player_number"], row["player_name"], row["cash_in"],
                row["cash_out"], " and ".join(over), _id_type(row["id_type"]),
                masked(row["id_number"]),
            )  # fmt: skip


def build(period: Period, *, is_open: bool) -> Document:
    def sections():
        yield Section(
            "Currency transactions per patron per gaming day",
            ["gaming_day", "player", "player_name", "cash_in_cents", "buy_ins", "cash_out_cents",
             "cash_outs"],
            _per_patron(period),
            {"player": 14, "player_name": 26, "cash_in_cents": 14, "cash_out_cents": 14},
        )  # fmt: skip
        yield Section(
            "Multiple Transaction Log: currency transactions of $3,000 or more",
            ["gaming_day", "time", "player", "player_name", "direction", "amount_cents",
             "table", "recorded_by", "transaction", "id_type", "id_number_masked"],
            _mtl(period),
            {"gaming_day": 10, "time": 25, "player": 14, "player_name": 20, "amount_cents": 14,
             "table": 12, "id_type": 12, "id_number_masked": 16},
        )  # fmt: skip
        yield Section(
            "Currency Transaction Report candidates: over $10,000 in one gaming day",
            ["gaming_day", "player", "player_name", "cash_in_cents", "cash_out_cents", "over",
             "id_type", "id_number_masked"],
            _ctr(period),
            {"player": 14, "player_name": 26, "cash_in_cents": 14, "cash_out_cents": 14,
             "over": 20, "id_type": 24, "id_number_masked": 16},
        )  # fmt: skip

    extra = [
        ("amounts", "integer cents in CSV; dollars in PDF"),
        ("CTR aggregation", "per patron per gaming day across all tables"),
    ]
    return Document(TITLE, header(TITLE, period, is_open=is_open, extra=extra), sections())
