"""Row locks, taken in one fixed order: the table, then (read after the lock) the round.

A missing row raises the model's ``DoesNotExist``: the API answers 404, the console too.
"""

from __future__ import annotations

from tables.models import Round, Table


def lock_table(table_id: int) -> Table:
    return Table.objects.select_for_update().get(pk=table_id)


def lock_round(round_id: int) -> tuple[Table, Round]:
    """Lock a round's table and answer both as they are now.

    Every writer of a round holds its table's lock, so the table lock alone
    serialises them. The round is read by a second statement, after the lock
    is granted, so it shows what a previous lock holder committed (a locking
    join would return the round as it was before the wait).
    """
    table = Table.objects.select_for_update(of=("self",)).filter(rounds__id=round_id).first()
    if table is None:
        raise Round.DoesNotExist(f"no round {round_id}")
    round_ = Round.objects.get(pk=round_id)
    round_.table = table
    return table, round_
