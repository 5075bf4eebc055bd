"""Title 31 live, as compliance reports (docs/rules.md §10.7): the Multiple Transaction Log
and the CTRs (due, overdue, filed) as the floor recorded them, transaction by transaction.
CSV and PDF, stored with their SHA-256 by the reports pipeline like every report.

The Title 31 currency log (``reports.currency``) recomputes the same duties from the
ledger; these two read the records the chip services wrote while the patron stood there
(``wagers.models.MtlEntry``, ``CurrencyTransactionReport``)."""

from __future__ import annotations

from cardroom.clock import today
from tables.models import IdType
from wagers.models import CurrencyTransactionReport, MtlEntry
from wagers.rules.title31 import Totals

from .common import header, stream
from .document import Document, Section
from .parameters import Period

MTL_TITLE = "Multiple Transaction Log"
CTR_TITLE = "Currency Transaction Reports"


def _id_type(value: str) -> str:
    return IdType(value).label if value in IdType.values else value


def _mtl_rows(period: Period):
    entries = MtlEntry.objects.filter(
        gaming_day__gte=period.from_day, gaming_day__lte=period.to_day
    ).select_related("player", "table", "by")
    if period.table_id is not None:
        entries = entries.filter(table_id=period.table_id)
    for e in stream(entries.order_by("at", "id")):
        yield (
            e.gaming_day, e.at, e.table.name, e.player.player_number, e.player.name,
            _id_type(e.player.id_type), e.player.id_number_masked,
            "yes" if e.identified else "no", e.description, e.get_direction_display(),
            e.amount_cents, e.by.get_username(),
        )  # fmt: skip


def _ctr_rows(period: Period):
    ctrs = CurrencyTransactionReport.objects.filter(
        gaming_day__gte=period.from_day, gaming_day__lte=period.to_day
    ).select_related("player", "currency_day", "filed_by")
    on = today()
    for c in stream(ctrs.order_by("gaming_day", "id")):
        day = c.currency_day
        status = "filed" if c.filed_at else ("overdue" if c.due_on < on else "due")
        yield (
            c.gaming_day, c.player.player_number, c.player.name, _id_type(c.player.id_type),
            c.player.id_number_masked, c.player.id_issued_by, day.cash_in_cents,
            day.cash_out_cents, " and ".join(Totals(day.cash_in_cents, day.cash_out_cents).over()),
            c.due_on, status, c.filed_at, c.filing_number,
        )  # fmt: skip


def build_mtl(period: Period, *, is_open: bool) -> Document:
    def sections():
        yield Section(
            "Currency transactions on the log",
            ["gaming_day", "time", "table", "player", "player_name", "id_type",
             "id_number_masked", "id_on_record", "description", "direction", "amount_cents",
             "recorded_by"],
            _mtl_rows(period),
            {"gaming_day": 10, "time": 25, "player": 12, "player_name": 20, "id_type": 14,
             "id_number_masked": 14, "description": 20, "amount_cents": 14},
        )  # fmt: skip

    extra = [("amounts", "integer cents in CSV; dollars in PDF")]
    return Document(MTL_TITLE, header(MTL_TITLE, period, is_open=is_open, extra=extra), sections())


def build_ctrs(period: Period, *, is_open: bool) -> Document:
    def sections():
        yield Section(
            "CTRs: patrons over $10,000 of cash in or cash out in a gaming day",
            ["gaming_day", "player", "player_name", "id_type", "id_number_masked",
             "id_issued_by", "cash_in_cents", "cash_out_cents", "over", "due_on", "status",
             "filed_at", "filing_number"],
            _ctr_rows(period),
            {"gaming_day": 10, "player": 12, "player_name": 20, "id_type": 14,
             "id_number_masked": 14, "cash_in_cents": 14, "cash_out_cents": 14, "over": 16,
             "filed_at": 25},
        )  # fmt: skip

    extra = [
        ("amounts", "integer cents in CSV; dollars in PDF"),
        ("aggregation", "per patron per gaming day across all tables, cash in and out apart"),
    ]
    return Document(CTR_TITLE, header(CTR_TITLE, period, is_open=is_open, extra=extra), sections())
