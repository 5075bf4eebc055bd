"""The floor's hand-written statements (PostgreSQL but the lock), its one SQL home.

Each is a named hot-path statement doing the work of several of the ORM's, registered with
the test that proves it reads or writes exactly what the ORM does (``cardroom.sql``); every
identifier comes from the models' metadata, and where the order of rows matters it is
written out (``ORDER BY``, ids drawn in a stated order). The services and selectors keep
the choice of statement and the ORM's twin; here are the statements, sent, and their rows
loaded (``cardroom.sql.load``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Model

from cardroom.errors import ACTIVE_ROUND_STATES
from cardroom.sql import json_row, literals, load, statement, table
from tables.models import (
    ButtonOffer,
    Game,
    OfferAnswer,
    OfferRound,
    OfferRoundStatus,
    Player,
    Round,
    Seating,
    Table,
)

# --- The table's lock, and the round read with it (tables.services.locks) ------------------

_BUMP = f'UPDATE {table(Table)} SET "version" = "version" + 1 WHERE "id" = {{where}} RETURNING *'
_TABLE_OF_ROUND = f'(SELECT "table_id" FROM {table(Round)} WHERE "id" = %s)'
_BY_TABLE = _BUMP.format(where="%s")
_BY_ROUND = _BUMP.format(where=_TABLE_OF_ROUND)


def _bumped(sql: str, params: list) -> Table | None:
    return next(iter(Table.objects.raw(sql, params)), None)


@statement(proved_by="tests/tables/services/test_locks.py")
def lock_table(table_id: int) -> Table | None:
    """The table's row lock, its version bumped (one ``UPDATE … RETURNING``, as strong a lock
    as ``SELECT … FOR UPDATE``), the table as it is now; None: no such table."""
    return _bumped(_BY_TABLE, [table_id])


@statement(proved_by="tests/tables/services/test_locks.py")
def lock_table_of_round(round_id: int) -> Table | None:
    """``lock_table`` for a round's table; None: no such round."""
    return _bumped(_BY_ROUND, [round_id])


@dataclass(frozen=True)
class Read:
    """Something a round-locking call reads of its round with the lock.

    ``sql``: a scalar subquery over the round's row, aliased ``r`` (PostgreSQL; rows as JSON,
    ``cardroom.sql.json_row``); ``orm``: the same read by the ORM (SQLite); ``load``: what
    the SQL's value becomes (the ORM's answer; none: the value as it comes). Only rows every
    writer of which holds the table's lock may be read so
    (``tables.services.locks.lock_round_reading``). Each app's reads stand in its SQL home,
    registered with the test proving them equal to their ORM twins (``cardroom.sql.reads``).
    """

    sql: str
    orm: Callable[[Round], Any]
    load: Callable[[Any], Any] | None = None


_ROUND_ROW = json_row(Round, "r")
LOCK_AND_READ = (
    f'WITH "seen" AS (SELECT "version" FROM {table(Table)} WHERE "id" = '
    f'{_TABLE_OF_ROUND}), "locked" AS ({_BY_ROUND}) '
    f'SELECT "locked".*, "seen"."version" AS "seen_version", {_ROUND_ROW} AS "round_row"'
    f'{{reads}} FROM "locked", "seen", {table(Round)} AS "r" WHERE "r"."id" = %s'
)
_READ_AGAIN = f'SELECT {_ROUND_ROW}{{reads}} FROM {table(Round)} AS "r" WHERE "r"."id" = %s'


@statement(proved_by="tests/rounds/services/test_round_state.py")
def lock_and_read(round_id: int, reads: Sequence[Read]) -> tuple[Table, Round, list] | None:
    """A round's table locked (its version bumped), the round and each of ``reads`` (their
    values as the SQL gives them) read in the lock's statement, all current (see
    ``tables.services.locks.lock_round_reading``); None: no such round."""
    columns = "".join(f', {read.sql} AS "read_{i}"' for i, read in enumerate(reads))
    locked = _bumped(LOCK_AND_READ.format(reads=columns), [round_id] * 3)
    if locked is None:
        return None
    answered = vars(locked)
    seen = answered.pop("seen_version")
    values = [answered.pop("round_row"), *(answered.pop(f"read_{i}") for i in range(len(reads)))]
    if locked.version != seen + 1:  # committed meanwhile by the lock's previous holder
        with connection.cursor() as cursor:
            cursor.execute(_READ_AGAIN.format(reads=columns), [round_id])
            values = list(cursor.fetchone())
    return locked, load(Round, values[0]), values[1:]


# --- What the button decides on (tables.selectors.button.button_state) ---------------------

# What ``tables.selectors.button._read_with_orm`` reads, in one statement instead of seven or
# eight, each part a JSON column (rows as ``to_json`` gives them). The hands are the table's
# ``hands`` latest and, with ``since``, the open game's hands started after it (each
# flagged): the table's latest round is the last of them, and, as a table's rounds are
# numbered in order and a table has one open game at a time, the open game's latest hand is
# that round when it belongs to the game.
_BUTTON_SQL = """WITH g AS (
    SELECT * FROM {game} WHERE "table_id" = %(table)s AND "ended_at" IS NULL
    ORDER BY "opened_at", "id" LIMIT 1
), o AS (
    SELECT * FROM {offer_round} WHERE "game_id" = (SELECT "id" FROM g)
    ORDER BY "started_at" DESC, "id" DESC LIMIT 1
)
SELECT
    (SELECT json_agg(json_build_array(to_json(s), to_json(p)) ORDER BY s."seat")
       FROM {seating} s JOIN {player} p ON p."id" = s."player_id"
      WHERE s."table_id" = %(table)s AND s."left_at" IS NULL),
    (SELECT to_json(g) FROM g),
    (SELECT to_json(x) FROM {game} x WHERE x."table_id" = %(table)s
      ORDER BY x."opened_at" DESC, x."id" DESC LIMIT 1),
    (SELECT json_build_array(to_json(r), to_json(p))
       FROM {round} r JOIN {player} p ON p."id" = r."player_dealer_id"
      WHERE r."table_id" = %(table)s AND r."state" IN ({active}) ORDER BY r."number" LIMIT 1),
    (SELECT json_build_array(to_json(o), to_json(u), r."id", r."state", (
            SELECT json_agg(json_build_array(to_json(b), to_json(p), to_json(f), to_json(a))
                            ORDER BY b."offered_at", b."id")
              FROM {offer} b JOIN {player} p ON p."id" = b."player_id"
              JOIN {user} f ON f."id" = b."offered_by_id"
              LEFT JOIN {user} a ON a."id" = b."answered_by_id"
             WHERE b."offer_round_id" = o."id"))
       FROM o JOIN {user} u ON u."id" = o."started_by_id"
       LEFT JOIN {round} r ON r."offer_round_id" = o."id"),
    (SELECT json_agg(json_build_array(
                h."id", h."game_id", h."started_at", h."player_dealer_seat", h."player_dealer_id",
                h."player_dealer_is_tppp", h."tppps_seated", h."number", h."deck",
                h."game_id" = (SELECT "id" FROM g) AND h."started_at" > %(since)s
            ) ORDER BY h."number")
       FROM {round} h
      WHERE h."table_id" = %(table)s AND (
            h."number" > COALESCE((SELECT n."number" FROM {round} n WHERE n."table_id" = %(table)s
                                   ORDER BY n."number" DESC OFFSET {hands} LIMIT 1), 0)
            OR (h."game_id" = (SELECT "id" FROM g) AND h."started_at" > %(since)s)))
"""


@cache
def _button_sql(hands: int) -> str:
    user = ButtonOffer._meta.get_field("offered_by").related_model
    models: dict[str, type[Model]] = {
        "game": Game,
        "offer_round": OfferRound,
        "seating": Seating,
        "player": Player,
        "round": Round,
        "offer": ButtonOffer,
        "user": user,
    }
    return _BUTTON_SQL.format(
        **{name: table(model) for name, model in models.items()},
        active=literals(ACTIVE_ROUND_STATES),
        hands=hands,
    )


@statement(proved_by="tests/tables/selectors/test_button_reads.py")
def button_reads(table_id: int, since, *, hands: int) -> tuple:
    """The button's reads at a table as JSON (each row loaded with ``cardroom.sql.load``):
    the seated with their players; the open game; the table's latest game; the round in
    play with its player-dealer; the open game's latest offer round with its starter, its
    hand's id and state, and its offers (each with player and staff); the hands (the
    table's ``hands`` latest, and the open game's since ``since``, flagged)."""
    with connection.cursor() as cursor:
        cursor.execute(_button_sql(hands), {"table": table_id, "since": since})
        return cursor.fetchone()


# --- The button's writes (tables.services.button) -------------------------------------------


def _inserted(model, *, with_id: bool = False) -> tuple[str, list]:
    fields = [f for f in model._meta.concrete_fields if with_id or not f.primary_key]
    columns = ", ".join(f'"{f.column}"' for f in fields)
    return f"INSERT INTO {table(model)} ({columns})", fields


def _values(obj, fields, params: list, literal: Mapping[str, str]) -> str:
    """``obj``'s values for ``fields`` as an insert's row (added to ``params``): the ORM's."""
    marks = []
    for f in fields:
        if f.attname in literal:
            marks.append(literal[f.attname])
            continue
        marks.append("%s")
        params.append(f.get_db_prep_save(f.pre_save(obj, True), connection))
    return f"({', '.join(marks)})"


@statement(proved_by="tests/tables/services/test_button_statements.py")
def insert_offers(offer_round: OfferRound, offers: list[ButtonOffer]) -> None:
    """Insert ``offers`` (at least one), with ``offer_round`` first if it is new (not yet
    saved), by one statement instead of one each: the offers' ids are drawn first, in the
    offers' order (``ORDER BY n``), so each offer is matched to its id by its place, not by
    the order of a ``RETURNING``; the new offer round's id reaches the offers through the
    statement's ``WITH``. Each object is then as the ORM's ``save`` leaves it."""
    params: list = [len(offers)]
    new = offer_round.pk is None
    sql = (
        'WITH "ids" AS (SELECT "n", nextval(pg_get_serial_sequence(%s, \'id\')::regclass) '
        'AS "id" FROM generate_series(1, %s) AS "n" ORDER BY "n")'
    )
    params.insert(0, ButtonOffer._meta.db_table)
    if new:
        insert, fields = _inserted(OfferRound)
        row = _values(offer_round, fields, params, {})
        sql += f', "r" AS ({insert} VALUES {row} RETURNING "id")'
    insert, fields = _inserted(ButtonOffer, with_id=True)
    rows = []
    for n, offer in enumerate(offers, start=1):
        literal = {"id": f'(SELECT "id" FROM "ids" WHERE "n" = {n})'}
        if new:
            literal["offer_round_id"] = '(SELECT "id" FROM "r")'
        rows.append(_values(offer, fields, params, literal))
    round_id = '(SELECT "id" FROM "r")' if new else "NULL"
    sql += (
        f', "b" AS ({insert} VALUES {", ".join(rows)}) '
        f'SELECT {round_id}, (SELECT array_agg("id" ORDER BY "n") FROM "ids")'
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        round_id, ids = cursor.fetchone()
    for obj in (offer_round, *offers) if new else offers:
        obj._state.adding = False
        obj._state.db = connection.alias
    if new:
        offer_round.pk = round_id
    for offer, pk in zip(offers, ids, strict=True):
        offer.pk = pk
        offer.offer_round = offer_round  # its id, as the ORM sets it when saving


# An answer and, with an acceptance, the offer round's close, by one statement instead of a
# read and two updates; only when the offer may be answered (pending, in an open offer round
# at the table): otherwise nothing is written and the ORM's reads give the refusal.
_ANSWER_SQL = """WITH answered AS (
    UPDATE {offer} AS b
       SET "answer" = %(answer)s, "answered_at" = %(at)s, "answered_by_id" = %(by)s
      FROM {offer_round} AS r
     WHERE b."id" = %(offer)s AND b."answer" = %(pending)s AND r."id" = b."offer_round_id"
       AND r."table_id" = %(table)s AND r."status" = %(open)s
    RETURNING b.*
), closed AS (
    UPDATE {offer_round}
       SET "status" = %(accepted)s, "closed_at" = %(at)s
     WHERE %(accept)s AND "id" = (SELECT "offer_round_id" FROM answered)
    RETURNING *
)
SELECT to_json(answered), COALESCE(
    (SELECT to_json(closed) FROM closed),
    (SELECT to_json(r) FROM {offer_round} r WHERE r."id" = answered."offer_round_id")
) FROM answered
"""


@cache
def _answer_sql() -> str:
    return _ANSWER_SQL.format(offer=table(ButtonOffer), offer_round=table(OfferRound))


@statement(proved_by="tests/tables/services/test_button_statements.py")
def answer_offer(table_id: int, offer_id: int, accept: bool, by, moment) -> ButtonOffer | None:
    """The offer answered (with its offer round, closed with an acceptance), or None
    (nothing written) if it may not be."""
    params = {
        "answer": (OfferAnswer.ACCEPTED if accept else OfferAnswer.DECLINED).value,
        "at": moment,
        "by": None if by is None else by.pk,
        "offer": offer_id,
        "pending": OfferAnswer.PENDING.value,
        "table": table_id,
        "open": OfferRoundStatus.OPEN.value,
        "accepted": OfferRoundStatus.ACCEPTED.value,
        "accept": accept,
    }
    with connection.cursor() as cursor:
        cursor.execute(_answer_sql(), params)
        row = cursor.fetchone()
    if row is None:
        return None
    offer = load(ButtonOffer, row[0])
    offer.offer_round = load(OfferRound, row[1])
    offer.answered_by = by
    return offer
