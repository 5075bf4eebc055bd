"""Every report the system produces: how it is built, its formats, how long it is kept."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from reports.models import ReportType

from . import anomalies, audit, banking, currency, fee_filing, rotation, table_activity, title31
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
    # A report of a layer above (the console's staff-action trail, registered by its app):
    # its title (no ``ReportType`` choice), and its parameters beyond the period, table and
    # format: the extra keys of a request in, normalised (RuleError naming the field) out;
    # they reach ``build`` as ``period.filters``.
    title: str = ""
    filters: Callable[[dict], dict] | None = None
    # Those parameters in words, for the list of requested reports ("outcome Refused").
    describe: Callable[[dict], str] | None = None


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
    # docs/rules.md §13.6: requested daily; ``min_hands`` overrides REPORTS_ANOMALY_MIN_HANDS.
    ReportType.ANOMALIES: ReportKind(
        anomalies.build,
        ("csv", "pdf"),
        False,
        "player-dealer-anomalies",
        filters=anomalies.normalise_filters,
        describe=anomalies.filter_words,
    ),
    # Title 31 live (docs/rules.md §10.7): the records the chip services wrote.
    "mtl": ReportKind(
        title31.build_mtl,
        ("csv", "pdf"),
        False,
        "multiple-transaction-log",
        daily=False,
        title=title31.MTL_TITLE,
    ),
    "ctrs": ReportKind(
        title31.build_ctrs,
        ("csv", "pdf"),
        False,
        "currency-transaction-reports",
        daily=False,
        title=title31.CTR_TITLE,
    ),
}


def register(report_type: str, kind: ReportKind) -> None:
    """Add a report built by a layer above (``AppConfig.ready``): the pipeline runs, stores,
    checksums and serves it like its own; the same registration again changes nothing."""
    if REGISTRY.setdefault(report_type, kind) != kind:
        raise ValueError(f"report type {report_type!r} is already registered")


def kind_of(report_type: str) -> ReportKind | None:
    return REGISTRY.get(report_type)


def title_of(report_type: str) -> str:
    kind = REGISTRY.get(report_type)
    if kind is not None and kind.title:
        return kind.title
    return ReportType(report_type).label if report_type in ReportType.values else report_type


def build(report_type: str, period: Period, *, is_open: bool) -> Document:
    return REGISTRY[report_type].build(period, is_open=is_open)


def filters_of(report_type: str, parameters: dict) -> str:
    """A registered report's own filters in words ("" for the others)."""
    kind = REGISTRY.get(report_type)
    return kind.describe(parameters) if kind is not None and kind.describe else ""
