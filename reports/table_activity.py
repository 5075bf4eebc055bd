"""Report 2: table activity and collection (the drop) per table and shift (docs/rules.md §9-§10).

Per gaming day, shift (``cardroom/shifts.py``) and table (with its game, as the floor names
it): hands dealt and voided, the fees assessed, waived, returned with a voided hand and
collected, by payer (players, backline bettors, the player-dealer); the table's drop as the
ledger recorded it; the drop box and its latest count, and the difference (counted minus
recorded: above zero an overage). Then the fees by collection rate, and every waiver. An
accounting record: kept 7 years.

Hands and fee lines belong to the shift in which their round started; the recorded drop is
the net of the table's drop account entries posted in the shift (``fees.selectors``), the
figure the count reconciles with. Every figure is a SQL aggregate, one set per shift.
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Count, F, Q, Sum

from cardroom import shifts
from cardroom.errors import State
from fees.models import DropBox, DropCount, FeeLine, FeeWaiver, PayerKind
from fees.selectors import collected, fee_sums
from tables.models import Round
from wagers.models import AccountKind, LedgerEntry, TransactionKind

from .common import header, stream, tables_in_scope
from .document import Document, Section
from .parameters import Period

TITLE = "Table activity and collection (drop)"
PAYERS = [PayerKind.PLAYER, PayerKind.BACKLINE, PayerKind.PLAYER_DEALER]
ACTIVITY_COLUMNS = [
    "gaming_day", "shift", "table", "game", "hands_dealt", "hands_voided", "fees_assessed_cents",
    "waivers", "fees_waived_cents", "fees_returned_cents", "fees_collected_cents",
    "player_fees_cents", "backline_fees_cents", "player_dealer_fees_cents",
    "recorded_drop_cents", "drop_box", "counted_cents", "counts", "difference_cents",
]  # fmt: skip
RATE_COLUMNS = [
    "gaming_day", "shift", "table", "schedule", "version", "rate", "payer", "fee_lines",
    "assessed_cents", "waived_cents", "returned_cents", "collected_cents",
]  # fmt: skip
WAIVER_COLUMNS = [
    "gaming_day", "shift", "table", "round", "seat", "payer", "player", "square",
    "amount_cents", "waived_at", "waived_by", "reason",
]  # fmt: skip


def _windows(period: Period):
    day = period.from_day
    while day <= period.to_day:
        for shift in shifts.names():
            yield day, shift, *shifts.window(day, shift)
        day += timedelta(days=1)


def _fee_lines(start, end, table_ids):
    return FeeLine.objects.filter(
        round__started_at__gte=start, round__started_at__lt=end, round__table_id__in=table_ids
    )


def _activity(period: Period, tables):
    ids = [table.pk for table in tables]
    for day, shift, start, end in _windows(period):
        rounds = {
            row["table_id"]: row
            for row in Round.objects.filter(
                table_id__in=ids, started_at__gte=start, started_at__lt=end
            )
            .values("table_id")
            .annotate(
                dealt=Count("id", filter=~Q(state=State.VOIDED)),
                voided=Count("id", filter=Q(state=State.VOIDED)),
            )
        }
        fees: dict[int, dict] = {}
        for row in (
            _fee_lines(start, end, ids)
            .values("payer_kind", table_id=F("round__table_id"))
            .annotate(**fee_sums())
        ):
            fees.setdefault(row["table_id"], {})[row["payer_kind"]] = row
        recorded = dict(
            LedgerEntry.objects.filter(
                account__kind=AccountKind.DROP,
                # Every table's drop (a handful of accounts; the rows show the tables in
                # scope): a filter on the table ids here makes PostgreSQL walk every entry.
                # Every kind: no filter at all, but it lets PostgreSQL range-scan the
                # (kind, at) index for the shift instead of every entry of the drop.
                transaction__kind__in=TransactionKind.values,
                transaction__at__gte=start,
                transaction__at__lt=end,
            )
            .values("account__table_id")
            .annotate(total=Sum("amount_cents"))
            .values_list("account__table_id", "total")
        )
        boxes = {
            box.table_id: box
            for box in DropBox.objects.filter(table_id__in=ids, gaming_day=day, shift=shift)
        }
        latest = {}
        for count in DropCount.objects.filter(box__in=boxes.values()).order_by("entered_at", "id"):
            latest[count.box_id] = (count, latest.get(count.box_id, (None, 0))[1] + 1)
        for table in tables:
            seen = rounds.get(table.pk) or fees.get(table.pk) or table.pk in boxes
            if not seen and not recorded.get(table.pk):
                continue
            by_payer = fees.get(table.pk, {})
            total = {
                key: sum(row[key] for row in by_payer.values())
                for key in ("assessed", "waived", "returned", "waivers")
            }
            kept = {payer: collected(row) for payer, row in by_payer.items()}
            drop = recorded.get(table.pk, 0)
            box = boxes.get(table.pk)
            count, counts = latest.get(box.pk, (None, 0)) if box else (None, 0)
            yield (
                day, shift, table.name, table.game_listing.name,
                rounds.get(table.pk, {}).get("dealt", 0),
                rounds.get(table.pk, {}).get("voided", 0),
                total["assessed"], total["waivers"], total["waived"], total["returned"],
                collected(total),
                *(kept.get(payer, 0) for payer in PAYERS),
                drop,
                box.box_number if box else None,
                count.amount_cents if count else None,
                counts,
                count.amount_cents - drop if count else None,
            )  # fmt: skip


def _by_rate(period: Period, tables):
    ids = [table.pk for table in tables]
    for day, shift, start, end in _windows(period):
        rows = (
            _fee_lines(start, end, ids)
            .values(
                table=F("round__table__name"),
                schedule=F("version__schedule__name"),
                number=F("version__number"),
                position=F("rate_position"),
                payer=F("payer_kind"),
            )
            .annotate(**fee_sums())
            .order_by("table", "schedule", "number", "position", "payer")
        )
        for row in rows:
            yield (
                day, shift, row["table"], row["schedule"], row["number"], row["position"],
                row["payer"], row["lines"], row["assessed"], row["waived"], row["returned"],
                collected(row),
            )  # fmt: skip


def _waivers(period: Period, tables):
    ids = [table.pk for table in tables]
    for day, shift, start, end in _windows(period):
        waivers = (
            FeeWaiver.objects.filter(
                fee_line__round__started_at__gte=start,
                fee_line__round__started_at__lt=end,
                fee_line__round__table_id__in=ids,
            )
            .order_by("fee_line__round__table__name", "fee_line__round__number", "fee_line__order")
            .values_list(
                "fee_line__round__table__name", "fee_line__round__number", "fee_line__seat",
                "fee_line__payer_kind", "fee_line__player__player_number", "fee_line__square",
                "fee_line__amount_cents", "waived_at", "waived_by__username", "reason",
            )
        )  # fmt: skip
        for row in stream(waivers):
            yield (day, shift, *row)


def build(period: Period, *, is_open: bool) -> Document:
    tables = list(tables_in_scope(period))

    def sections():
        yield Section(
            "Activity and drop by shift",
            ACTIVITY_COLUMNS,
            _activity(period, tables),
            # Counts narrow, amounts to "-999,999.99": the row fits a landscape page.
            {name: 11 for name in ACTIVITY_COLUMNS}
            | {"gaming_day": 10, "shift": 9, "table": 12, "game": 12, "drop_box": 8}
            | {"hands_dealt": 6, "hands_voided": 6, "waivers": 6, "counts": 6},
        )
        yield Section(
            "Fees by collection rate",
            RATE_COLUMNS,
            _by_rate(period, tables),
            {"table": 14, "schedule": 20, "payer": 13},
        )
        yield Section(
            "Fee waivers", WAIVER_COLUMNS, _waivers(period, tables), {"waived_at": 25, "reason": 30}
        )

    extra = [
        (
            "shifts",
            ", ".join(f"{name} from {start:%H:%M}" for name, start in shifts._settings()[0]),
        ),
        ("amounts", "integer cents in CSV; dollars in PDF"),
        ("difference", "counted minus recorded drop: above zero an overage, below a shortage"),
    ]
    return Document(TITLE, header(TITLE, period, is_open=is_open, extra=extra), sections())
