"""Row locks, taken in one fixed order: the table, then (read after the lock) the round.

Taking a table's lock also bumps its ``version``: the lock is one ``UPDATE … RETURNING``
(a row lock as strong against other writers as ``SELECT … FOR UPDATE``), so every writer
that holds a table's lock tells the floor map and the board that the table changed, at no
extra statement (``tables.selectors.floor_versions``).

A missing row raises the model's ``DoesNotExist``: the API answers 404, the console too.
"""

from __future__ import annotations

from tables.models import Round, Table

# A named hot-path writer (plain SQL): proved equal to the ORM's read of the same row, with
# the version one higher, by tests/tables/services/test_locks.py.
_BUMP = (
    f'UPDATE "{Table._meta.db_table}" SET "version" = "version" + 1 WHERE "id" = {{where}} '
    "RETURNING *"
)
_BY_TABLE = _BUMP.format(where="%s")
_BY_ROUND = _BUMP.format(where=f'(SELECT "table_id" FROM "{Round._meta.db_table}" WHERE "id" = %s)')


def _bump(sql: str, key: int) -> Table | None:
    return next(iter(Table.objects.raw(sql, [key])), None)


def lock_table(table_id: int) -> Table:
    """Lock a table (and bump its version) and answer it as it is now."""
    table = _bump(_BY_TABLE, table_id)
    if table is None:
        raise Table.DoesNotExist("Table matching query does not exist.")  # the ORM's words
    return table


def lock_round(round_id: int) -> tuple[Table, Round]:
    """Lock a round's table (bumping its version) and answer both as they are now.

    Every writer of a round holds its table's lock, so the table lock alone
    serialises them. The round is read by a second statement, after the lock
    is granted, so it shows what a previous lock holder committed (a locking
    join would return the round as it was before the wait).
    """
    table = _bump(_BY_ROUND, round_id)
    if table is None:
        raise Round.DoesNotExist(f"no round {round_id}")
    round_ = Round.objects.get(pk=round_id)
    round_.table = table
    return table, round_
