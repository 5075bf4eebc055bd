"""Row locks, taken in one fixed order: table, then round."""

from __future__ import annotations

from django.shortcuts import get_object_or_404

from tables.models import ACTIVE_ROUND_STATES, Game, Round, Table


def lock_table(table_id: int) -> Table:
    return get_object_or_404(Table.objects.select_for_update(), pk=table_id)


def lock_round(round_id: int) -> tuple[Table, Round]:
    """Lock a round's table and answer both as they are now.

    Every writer of a round holds its table's lock, so the table lock alone
    serialises them. The round is read by a second statement, after the lock
    is granted, so it shows what a previous lock holder committed (a locking
    join would return the round as it was before the wait).
    """
    table = get_object_or_404(Table.objects.select_for_update(of=("self",)), rounds__id=round_id)
    round_ = Round.objects.get(pk=round_id)
    round_.table = table
    return table, round_


def open_game(table: Table) -> Game | None:
    return Game.objects.filter(table=table, ended_at__isnull=True).first()


def active_round(table: Table) -> Round | None:
    return Round.objects.filter(table=table, state__in=ACTIVE_ROUND_STATES).first()
