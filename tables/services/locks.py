"""Row locks, taken in one fixed order: table, then round."""

from __future__ import annotations

from django.shortcuts import get_object_or_404

from tables.models import ACTIVE_ROUND_STATES, Game, Round, Table


def lock_table(table_id: int) -> Table:
    return get_object_or_404(Table.objects.select_for_update(), pk=table_id)


def lock_round(round_id: int) -> tuple[Table, Round]:
    """Lock a round's table, then the round, and answer both as they are now."""
    table_id = get_object_or_404(Round.objects.values_list("table_id", flat=True), pk=round_id)
    table = lock_table(table_id)
    return table, Round.objects.select_for_update().get(pk=round_id)


def open_game(table: Table) -> Game | None:
    return Game.objects.filter(table=table, ended_at__isnull=True).first()


def active_round(table: Table) -> Round | None:
    return Round.objects.filter(table=table, state__in=ACTIVE_ROUND_STATES).first()
