"""TPPP contracts (docs/rules.md §8.7): every contract with its tables, and the latest ones due
for renewal (the compliance page)."""

from __future__ import annotations

from datetime import date, timedelta

from cardroom.clock import today
from tables.models import TPPPContract

RENEWAL_NOTICE_DAYS = 90


def contract_list(*, player_id: int | None = None):
    """Every TPPP contract, newest first (renewals included), with its tables."""
    rows = TPPPContract.objects.select_related("registration__player", "recorded_by")
    if player_id is not None:
        rows = rows.filter(registration__player_id=player_id)
    return rows.prefetch_related("tables").order_by("-starts_on", "-id")


def contracts_to_renew(*, day: date | None = None) -> list:
    """Each TPPP's latest contract ending within 90 days of ``day`` (today), not followed by a
    later one: flagged for renewal on the compliance page."""
    day = day or today()
    latest = {}
    for contract in (
        TPPPContract.objects.select_related("registration__player")
        .filter(ends_on__gte=day)
        .order_by("registration_id", "ends_on", "id")
    ):
        latest[contract.registration_id] = contract
    horizon = day + timedelta(days=RENEWAL_NOTICE_DAYS)
    return sorted(
        (c for c in latest.values() if c.ends_on <= horizon), key=lambda c: (c.ends_on, c.pk)
    )
