"""Every report the system produces: how it is built, its formats, how long it is kept."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cardroom.models import ReportType

from . import audit, banking, currency, rotation
from .document import Document
from .parameters import Period


@dataclass(frozen=True)
class ReportKind:
    build: Callable[..., Document]
    formats: tuple[str, ...]  # the first is the default
    accounting: bool  # RULEBOOK §8: accounting records are kept seven years, not five
    slug: str
    daily: bool = True  # requested by the beat schedule after each gaming day closes


REGISTRY: dict[str, ReportKind] = {
    ReportType.ROTATION: ReportKind(rotation.build, ("csv", "pdf"), False, "rotation-record"),
    ReportType.BANKING: ReportKind(banking.build, ("csv", "pdf"), True, "player-dealer-banking"),
    ReportType.AUDIT: ReportKind(audit.build, ("csv",), False, "hand-wager-audit"),
    ReportType.CURRENCY: ReportKind(currency.build, ("csv", "pdf"), False, "title31-currency-log"),
}


def kind_of(report_type: str) -> ReportKind | None:
    return REGISTRY.get(report_type)


def build(report_type: str, period: Period, *, is_open: bool) -> Document:
    return REGISTRY[report_type].build(period, is_open=is_open)
