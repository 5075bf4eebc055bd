"""The round lifecycle's hand-written SQL (PostgreSQL), its one SQL home: a round's move,
registered with the test proving it writes what the ORM writes (``cardroom.sql``);
identifiers from the models' metadata."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connection

from cardroom.sql import statement, table
from tables.models import Round, RoundTransition

# The transition's insert and the round's update in one statement instead of two.
_MOVE_SQL = (
    f"WITH moved AS (INSERT INTO {table(RoundTransition)} "
    '("round_id", "from_state", "to_state", "at", "by_id") VALUES (%s, %s, %s, %s, %s)) '
    f'UPDATE {table(Round)} SET {{columns}} WHERE "id" = %s'
)


@statement(proved_by="tests/rounds/services/test_move_statement.py")
def move(round_: Round, from_state: str, by, moment, saved: Sequence[str]) -> None:
    """Record the round's transition from ``from_state`` to its state (who and when) and
    save its fields ``saved``."""
    fields = [Round._meta.get_field(name) for name in saved]
    columns = ", ".join(f'"{field.column}" = %s' for field in fields)
    values = [
        field.get_db_prep_save(getattr(round_, field.attname), connection) for field in fields
    ]
    params = [round_.pk, from_state, round_.state, moment, by.pk if by else None, *values]
    with connection.cursor() as cursor:
        cursor.execute(_MOVE_SQL.format(columns=columns), [*params, round_.pk])
