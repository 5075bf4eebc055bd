"""Barred and self-restricted patrons (docs/rules.md §3.9): the entry in force for a player on a
day, which of some players are excluded, and the list with its history."""

from __future__ import annotations

from datetime import date

from django.db.models import Q

from cardroom.clock import today
from tables.models import Exclusion


def exclusion_in_force(*, player_id: int, day: date | None = None) -> Exclusion | None:
    """The patron's barring or self-restriction in force on ``day`` (today), or None."""
    day = day or today()
    return (
        Exclusion.objects.select_related("player")
        .filter(player_id=player_id, lifted_at__isnull=True, starts_on__lte=day)
        .filter(Q(ends_on__isnull=True) | Q(ends_on__gte=day))
        .order_by("starts_on", "id")
        .first()
    )


def excluded_player_ids(player_ids, *, day: date | None = None) -> set[int]:
    """Which of ``player_ids`` are barred or self-restricted on ``day`` (one query)."""
    day = day or today()
    return set(
        Exclusion.objects.filter(
            player_id__in=list(player_ids), lifted_at__isnull=True, starts_on__lte=day
        )
        .filter(Q(ends_on__isnull=True) | Q(ends_on__gte=day))
        .values_list("player_id", flat=True)
    )


def exclusion_list(*, player_id: int | None = None, in_force_only: bool = False):
    """The list, newest first, with its history (lifted and ended entries too)."""
    rows = Exclusion.objects.select_related("player", "recorded_by", "lifted_by")
    if player_id is not None:
        rows = rows.filter(player_id=player_id)
    if in_force_only:
        day = today()
        rows = rows.filter(lifted_at__isnull=True, starts_on__lte=day).filter(
            Q(ends_on__isnull=True) | Q(ends_on__gte=day)
        )
    return rows.order_by("-recorded_at", "-id")
