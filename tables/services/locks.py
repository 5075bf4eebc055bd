"""Row locks, taken in one fixed order: the table, then (read after the lock) the round.

Taking a table's lock also bumps its ``version``: the lock is one ``UPDATE … RETURNING``
(a row lock as strong against other writers as ``SELECT … FOR UPDATE``), so every writer
that holds a table's lock tells the floor map and the board that the table changed, at no
extra statement (``tables.selectors.floor.floor_versions``).

A missing row raises the model's ``DoesNotExist``: the API answers 404, the console too.

The round, and what a round-locking call reads of it (``Read``: its hands, bets, accounts),
come in the lock's own statement on PostgreSQL, with a check that they are current: see
``lock_round_reading``. The statements are the floor's SQL home's (``tables.sql``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import connection

from tables import sql
from tables.models import Round, Table
from tables.sql import Read


def lock_table(table_id: int) -> Table:
    """Lock a table (and bump its version) and answer it as it is now."""
    table = sql.lock_table(table_id)
    if table is None:
        raise Table.DoesNotExist("Table matching query does not exist.")  # the ORM's words
    return table


# --- The round, and what a call reads of it, with the lock --------------------------------------


def lock_round(round_id: int) -> tuple[Table, Round]:
    """Lock a round's table (bumping its version) and answer both as they are now."""
    table, round_, _ = lock_round_reading(round_id, {})
    return table, round_


def lock_round_reading(
    round_id: int, reads: Mapping[str, Read]
) -> tuple[Table, Round, dict[str, Any]]:
    """Lock a round's table (bumping its version) and answer it, the round and each of
    ``reads`` by name, all as they are now.

    On PostgreSQL one statement locks and reads (``tables.sql.lock_and_read``, a named
    hot-path reader, proved equal to the ORM's reads by tests/rounds/services/
    test_round_state.py). Under READ COMMITTED a
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
    table = sql.lock_table_of_round(round_id)
    if table is None:
        raise Round.DoesNotExist(f"no round {round_id}")
    round_ = Round.objects.get(pk=round_id)
    round_.table = table
    return table, round_, {name: read.orm(round_) for name, read in reads.items()}


def _lock_and_read_in_one_statement(
    round_id: int, reads: Mapping[str, Read]
) -> tuple[Table, Round, dict[str, Any]]:
    names = list(reads)
    locked = sql.lock_and_read(round_id, [reads[name] for name in names])
    if locked is None:
        raise Round.DoesNotExist(f"no round {round_id}")
    table, round_, values = locked
    round_.table = table
    loaded = {}
    for name, value in zip(names, values, strict=True):
        load = reads[name].load
        loaded[name] = load(value) if load else value
    return table, round_, loaded
