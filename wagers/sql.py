"""The money's hand-written statements (PostgreSQL), its one SQL home.

Each is a named hot-path statement registered with the test that proves it reads or writes
exactly what the ORM does (``cardroom.sql``); every identifier comes from the models'
metadata, and where the order of rows matters it is written out (``WITH ORDINALITY``,
``ORDER BY``, ids drawn in a stated order). The services keep the choice of statement and
the ORM's twin.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from django.db import connection

from cardroom.sql import json_row, literals, load, reads, statement, table
from tables.models import Hand, HandDecision, Seating
from tables.sql import Read
from wagers.models import (
    CHIP_ACCOUNT_KINDS,
    Account,
    Bet,
    LedgerEntry,
    LedgerTransaction,
    PlayerDealerBank,
)

# --- Postings (wagers.services.ledger) -------------------------------------------------------

# The transactions, their entries and the balances in one statement of data-modifying CTEs
# instead of three. Every row's place is explicit: the postings and the legs are numbered
# (``WITH ORDINALITY``), each transaction's id and each entry's id is drawn from its sequence
# after the rows are sorted by their number (PostgreSQL evaluates a volatile output column
# after the query's ``ORDER BY``), so the ids rise in the postings' and legs' order as the
# ORM's inserts give them, and the answer is the ids in the postings' order.
_POST_SQL = """
WITH t AS (
    SELECT p.*, nextval(pg_get_serial_sequence(%(transactions)s, 'id')::regclass) AS id
    FROM unnest(
        %(kind)s::varchar[], %(at)s::timestamptz[], %(by)s::bigint[], %(round)s::bigint[],
        %(currency)s::boolean[], %(memo)s::varchar[], %(reverses)s::bigint[]
    ) WITH ORDINALITY AS p(kind, at, by_id, round_id, currency, memo, reverses_id, n)
    ORDER BY p.n
), inserted AS (
    INSERT INTO {transaction} (id, kind, at, by_id, round_id, currency, memo, reverses_id)
    SELECT id, kind, at, by_id, round_id, currency, memo, reverses_id FROM t
), e AS (
    SELECT nextval(pg_get_serial_sequence(%(entries)s, 'id')::regclass) AS id,
           t.id AS transaction_id, e.account_id, e.amount_cents, e.label
    FROM unnest(%(entry_n)s::bigint[], %(entry_account)s::bigint[], %(entry_cents)s::bigint[],
                %(entry_label)s::varchar[])
        WITH ORDINALITY AS e(n, account_id, amount_cents, label, position)
    JOIN t ON t.n = e.n
    ORDER BY e.position
), entries AS (
    INSERT INTO {entry} (id, transaction_id, account_id, amount_cents, label)
    SELECT id, transaction_id, account_id, amount_cents, label FROM e
), balances AS (
    UPDATE {account} AS a SET balance_cents = a.balance_cents + d.delta
    FROM unnest(%(account_ids)s::bigint[], %(deltas)s::bigint[]) AS d(id, delta)
    WHERE a.id = d.id
)
SELECT id FROM t ORDER BY n
"""


@cache
def _post_sql() -> str:
    return _POST_SQL.format(
        transaction=table(LedgerTransaction), entry=table(LedgerEntry), account=table(Account)
    )


@statement(proved_by="tests/wagers/services/test_ledger_statement.py")
def post_transactions(transactions: dict[str, list], entries: dict[str, list], deltas) -> list:
    """Insert the transactions (columns ``kind``, ``at``, ``by``, ``round``, ``currency``,
    ``memo``, ``reverses``, each a list in the postings' order), their entries (``n``: the
    posting's number from 1, ``account``, ``cents``, ``label``) and add ``deltas`` (account
    id: cents) to the balances; answer the transactions' ids in the postings' order. The
    database's guards (balanced transactions, chips never below zero) apply as to the ORM's
    statements: an ``IntegrityError`` names the constraint broken."""
    params = {
        "transactions": LedgerTransaction._meta.db_table,
        "entries": LedgerEntry._meta.db_table,
        **transactions,
        **{f"entry_{name}": values for name, values in entries.items()},
        "account_ids": list(deltas),
        "deltas": list(deltas.values()),
    }
    with connection.cursor() as cursor:
        cursor.execute(_post_sql(), params)
        return [row[0] for row in cursor.fetchall()]


# --- The round as a round-locking call reads it (wagers.services.round_lock) ----------------
#
# Each read below is a part of the lock's statement (``tables.sql.lock_and_read``), beside
# its ORM twin (SQLite's). Every one reads rows whose every writer holds the table's lock:
# the round's hands, decisions, bets, bank and own accounts (the round's services), the chip
# accounts at its table (buy-ins, cash-outs, fills, credits, carries and a table's closing
# lock that table; wagers, plays, fees, waivers, settlement and voids lock the round's), the
# seats (the floor's seating services lock the table). Nothing else is read so: a player's
# name (its correction locks the player, and only the table where the player sits) is read
# when a refusal names it, not before.


def _rows(model) -> Callable[[Any], list]:
    """Rows of ``model`` (``json_row``, aggregated: none is NULL)."""
    return lambda rows: [load(model, row) for row in rows or ()]


def _with_account(model) -> Callable[[Any], list]:
    """Rows of ``model`` each read with its account: ``[row, account row]``."""

    def loaded(pairs):
        instances = []
        for row, account in pairs or ():
            instance = load(model, row)
            instance.account = load(Account, account)
            instances.append(instance)
        return instances

    return loaded


_HAND, _DECISION, _BET = table(Hand), table(HandDecision), table(Bet)
_BANK, _ACCOUNT = table(PlayerDealerBank), table(Account)

ROUND_READS = reads(
    "wagers.sql.ROUND_READS",
    {
        "hands": Read(
            f'(SELECT json_agg({json_row(Hand, "h")} ORDER BY "h"."seat") FROM {_HAND} AS "h" '
            'WHERE "h"."round_id" = "r"."id")',
            lambda round_: list(Hand.objects.filter(round_id=round_.pk).order_by("seat")),
            _rows(Hand),
        ),
        "decisions": Read(
            f'(SELECT json_agg({json_row(HandDecision, "d")} ORDER BY "d"."id") FROM {_DECISION} '
            f'AS "d" JOIN {_HAND} AS "h" ON "h"."id" = "d"."hand_id" '
            'WHERE "h"."round_id" = "r"."id")',
            lambda round_: list(
                HandDecision.objects.filter(hand__round_id=round_.pk).order_by("id")
            ),
            _rows(HandDecision),
        ),
        "bets": Read(
            f"(SELECT json_agg(json_build_array({json_row(Bet, 'b')}, {json_row(Account, 'a')}) "
            f'ORDER BY "h"."seat", "b"."bettor") FROM {_BET} AS "b" '
            f'JOIN {_HAND} AS "h" ON "h"."id" = "b"."hand_id" '
            f'JOIN {_ACCOUNT} AS "a" ON "a"."id" = "b"."account_id" '
            'WHERE "h"."round_id" = "r"."id")',
            lambda round_: list(
                Bet.objects.filter(hand__round_id=round_.pk)
                .select_related("account")
                .order_by("hand__seat", "bettor")
            ),
            _with_account(Bet),
        ),
        "bank": Read(
            f"(SELECT json_build_array(json_build_array({json_row(PlayerDealerBank, 'k')}, "
            f'{json_row(Account, "a")})) FROM {_BANK} AS "k" '
            f'JOIN {_ACCOUNT} AS "a" ON "a"."id" = "k"."account_id" '
            'WHERE "k"."round_id" = "r"."id")',
            lambda round_: list(
                PlayerDealerBank.objects.filter(round_id=round_.pk).select_related("account")
            ),
            _with_account(PlayerDealerBank),
        ),
        "accounts": Read(
            f'(SELECT json_agg({json_row(Account, "a")} ORDER BY "a"."id") FROM {_ACCOUNT} AS "a" '
            'WHERE "a"."round_id" = "r"."id")',
            lambda round_: list(Account.objects.filter(round_id=round_.pk).order_by("id")),
            _rows(Account),
        ),
        "chips": Read(
            f'(SELECT json_agg({json_row(Account, "a")} ORDER BY "a"."id") FROM {_ACCOUNT} AS "a" '
            f'WHERE "a"."table_id" = "r"."table_id" AND "a"."kind" IN '
            f'({literals(CHIP_ACCOUNT_KINDS)}) AND "a"."closed_at" IS NULL)',
            lambda round_: list(
                Account.objects.filter(
                    table_id=round_.table_id, kind__in=CHIP_ACCOUNT_KINDS, closed_at__isnull=True
                ).order_by("id")
            ),
            _rows(Account),
        ),
        "seated": Read(
            f'(SELECT json_agg({json_row(Seating, "s")} ORDER BY "s"."seat") '
            f'FROM {table(Seating)} AS "s" '
            'WHERE "s"."table_id" = "r"."table_id" AND "s"."left_at" IS NULL)',
            lambda round_: list(
                Seating.objects.filter(table_id=round_.table_id, left_at__isnull=True).order_by(
                    "seat"
                )
            ),
            _rows(Seating),
        ),
    },
    proved_by="tests/rounds/services/test_round_state.py",
)
