"""Row locks, taken in one fixed order: the table, then (read after the lock) the round.

Taking a table's lock also bumps its ``version``: the lock is one ``UPDATE … RETURNING``
(a row lock as strong against other writers as ``SELECT … FOR UPDATE``), so every writer
that holds a table's lock tells the floor map and the board that the table changed, at no
extra statement (``tables.selectors.floor_versions``).

A missing row raises the model's ``DoesNotExist``: the API answers 404, the console too.

The round, and what a round-locking call reads of it (``Read``: its hands, bets, accounts),
come in the lock's own statement on PostgreSQL, with a check that they are current: see
``lock_round_reading``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection
from django.db.models import DateTimeField, DecimalField, Model

from tables.models import Round, Table

# A named hot-path writer (plain SQL): proved equal to the ORM's read of the same row, with
# the version one higher, by tests/tables/services/test_locks.py.
_BUMP = (
    f'UPDATE "{Table._meta.db_table}" SET "version" = "version" + 1 WHERE "id" = {{where}} '
    "RETURNING *"
)
_TABLE_OF_ROUND = f'(SELECT "table_id" FROM "{Round._meta.db_table}" WHERE "id" = %s)'
_BY_TABLE = _BUMP.format(where="%s")
_BY_ROUND = _BUMP.format(where=_TABLE_OF_ROUND)


def _bump(sql: str, params: list) -> Table | None:
    return next(iter(Table.objects.raw(sql, params)), None)


def lock_table(table_id: int) -> Table:
    """Lock a table (and bump its version) and answer it as it is now."""
    table = _bump(_BY_TABLE, [table_id])
    if table is None:
        raise Table.DoesNotExist("Table matching query does not exist.")  # the ORM's words
    return table


# --- Rows as JSON: a model's row in one value of the lock's statement --------------------------


def json_row(model: type[Model], alias: str) -> str:
    """SQL (PostgreSQL): the row ``alias`` of ``model`` as a JSON array of its columns, in
    the order of its concrete fields (a decimal as text, so no digit is lost)."""
    columns = (
        f'"{alias}"."{field.column}"' + ("::text" if isinstance(field, DecimalField) else "")
        for field in model._meta.concrete_fields
    )
    return f"json_build_array({', '.join(columns)})"


def from_json_row(model: type[Model], values: list) -> Model:
    """The instance the ORM would have read for a row ``json_row`` answered: each value as
    its field holds it (a timestamp in the connection's time zone, as the ORM's)."""
    fields = model._meta.concrete_fields
    return model.from_db(
        connection.alias,
        None,
        [_loaded(field, value) for field, value in zip(fields, values, strict=True)],
    )


def _loaded(field, value):
    if value is None:
        return None
    if isinstance(field, DateTimeField):
        return datetime.fromisoformat(value).astimezone(connection.timezone)
    return field.to_python(value)


# --- The round, and what a call reads of it, with the lock --------------------------------------


@dataclass(frozen=True)
class Read:
    """Something a round-locking call reads of its round with the lock.

    ``sql``: a scalar subquery over the round's row, aliased ``r`` (PostgreSQL; rows as JSON,
    ``json_row``); ``orm``: the same read by the ORM (SQLite); ``load``: what the SQL's
    value becomes (the ORM's answer; none: the value as it comes). Only rows every writer
    of which holds the table's lock may be read so (``lock_round_reading``).
    """

    sql: str
    orm: Callable[[Round], Any]
    load: Callable[[Any], Any] | None = None


_ROUND_ROW = json_row(Round, "r")
_LOCK_AND_READ = (
    f'WITH "seen" AS (SELECT "version" FROM "{Table._meta.db_table}" WHERE "id" = '
    f'{_TABLE_OF_ROUND}), "locked" AS ({_BY_ROUND}) '
    f'SELECT "locked".*, "seen"."version" AS "seen_version", {_ROUND_ROW} AS "round_row"'
    f'{{reads}} FROM "locked", "seen", "{Round._meta.db_table}" AS "r" WHERE "r"."id" = %s'
)
_READ_AGAIN = (
    f'SELECT {_ROUND_ROW}{{reads}} FROM "{Round._meta.db_table}" AS "r" WHERE "r"."id" = %s'
)


def lock_round(round_id: int) -> tuple[Table, Round]:
    """Lock a round's table (bumping its version) and answer both as they are now."""
    table, round_, _ = lock_round_reading(round_id, {})
    return table, round_


def lock_round_reading(
    round_id: int, reads: Mapping[str, Read]
) -> tuple[Table, Round, dict[str, Any]]:
    """Lock a round's table (bumping its version) and answer it, the round and each of
    ``reads`` by name, all as they are now.

    On PostgreSQL one statement locks and reads (a named hot-path reader, proved equal to
    the ORM's reads by tests/rounds/services/test_round_state.py). Under READ COMMITTED a
    statement reads from the snapshot taken when it starts; when the table's row is locked
    by another transaction, the UPDATE waits for it and then takes the row as committed, but
    every other row the statement reads stays as it was before the wait (PostgreSQL's
    "EvalPlanQual" re-checks the UPDATE's target row only). Every writer of a round, its
    hands, decisions, bets, bank and accounts, and of the chips at its table, holds the
    table's lock, and every lock bumps the version: so the statement also reads the version
    its snapshot holds, and when the lock answers that version plus one, nobody committed
    in between and everything it read is current. Otherwise (another call held the lock
    meanwhile) a second statement reads it all again, now that the lock is held
    (tests/rounds/services/test_round_state_concurrency.py).

    Elsewhere (SQLite) the lock, then the round and each read by the ORM.
    """
    read = (
        _lock_and_read_in_one_statement
        if connection.vendor == "postgresql"
        else _lock_and_read_with_orm
    )
    return read(round_id, reads)


def _lock_and_read_with_orm(
    round_id: int, reads: Mapping[str, Read]
) -> tuple[Table, Round, dict[str, Any]]:
    table = _bump(_BY_ROUND, [round_id])
    if table is None:
        raise Round.DoesNotExist(f"no round {round_id}")
    round_ = Round.objects.get(pk=round_id)
    round_.table = table
    return table, round_, {name: read.orm(round_) for name, read in reads.items()}


def _lock_and_read_in_one_statement(
    round_id: int, reads: Mapping[str, Read]
) -> tuple[Table, Round, dict[str, Any]]:
    names = list(reads)
    columns = "".join(f', {reads[name].sql} AS "read_{i}"' for i, name in enumerate(names))
    table = _bump(_LOCK_AND_READ.format(reads=columns), [round_id] * 3)
    if table is None:
        raise Round.DoesNotExist(f"no round {round_id}")
    answered = vars(table)
    seen = answered.pop("seen_version")
    values = [answered.pop("round_row"), *(answered.pop(f"read_{i}") for i in range(len(names)))]
    if table.version != seen + 1:  # committed meanwhile by the lock's previous holder
        with connection.cursor() as cursor:
            cursor.execute(_READ_AGAIN.format(reads=columns), [round_id])
            values = list(cursor.fetchone())
    round_ = from_json_row(Round, values[0])
    round_.table = table
    loaded = {}
    for name, value in zip(names, values[1:], strict=True):
        load = reads[name].load
        loaded[name] = load(value) if load else value
    return table, round_, loaded
