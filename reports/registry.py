"""Every report the system produces: how it is built, its formats, how long it is kept."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from reports.models import ReportType

from . import audit, banking, currency, fee_filing, rotation, table_activity
from .document import Document
from .parameters import Period


@dataclass(frozen=True)
class ReportKind:
    build: Callable[..., Document] | None
    formats: tuple[str, ...]  # the first is the default
    accounting: bool  # docs/rules.md §10.6: accounting records are kept seven years
    slug: str
    daily: bool = True  # requested by the beat schedule after each gaming day closes
    # A report with a layout of its own (the fee filing): (period, format) -> (bytes, rows).
    render: Callable[[Period, str], tuple[bytes, int]] | None = None


REGISTRY: dict[str, ReportKind] = {
    ReportType.ROTATION: ReportKind(rotation.build, ("csv", "pdf"), False, "rotation-record"),
    ReportType.BANKING: ReportKind(banking.build, ("csv", "pdf"), True, "player-dealer-banking"),
    # Every player-dealer bank and player's result is in it: accounting (docs/rules.md §10.6).
    ReportType.AUDIT: ReportKind(audit.build, ("csv",), True, "hand-wager-audit"),
    ReportType.CURRENCY: ReportKind(currency.build, ("csv", "pdf"), False, "title31-currency-log"),
    ReportType.TABLE_ACTIVITY: ReportKind(
        table_activity.build, ("csv", "pdf"), True, "table-activity-drop"
    ),
    ReportType.FEE_FILING: ReportKind(
        None, ("csv", "pdf"), False, "fee-schedule-filing", daily=False, render=fee_filing.render
    ),
}


def kind_of(report_type: str) -> ReportKind | None:
    return REGISTRY.get(report_type)


def build(report_type: str, period: Period, *, is_open: bool) -> Document:
    return REGISTRY[report_type].build(period, is_open=is_open)
