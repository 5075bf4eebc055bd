"""Recompute the books from the entries and list every difference (``verify_ledger``).

Each check is one SQL query whatever the size of the history, so verifying a large ledger
streams in the database rather than loading rows into Python. Every query answers the
same six columns: the row the difference is about, its round, its line (a settlement or a
fee line, a cage slip), its account, what the record says should be there and what is
there.

The leg checks compare every transaction a round posted, and every chip movement, leg by
leg, with the record it was posted from (a bet, the bank, a settlement line, a fee line, a
cage slip). The legs each record should have come from ``wagers.rules.postings``, the
functions the services post with, called here with the record's columns: what the
services post and what is verified cannot drift apart.

The records themselves are checked too: every settled hand is played again from its cards,
wagers and decisions by the rules core (``wagers.recomputation``, a ``Recomputation``
among the checks, run in Python in the same snapshot).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.db import connection, transaction
from django.db.models import (
    BigIntegerField,
    Expression,
    ExpressionWrapper,
    F,
    FilteredRelation,
    Q,
    QuerySet,
    Subquery,
    Value,
)
from django.db.models.functions import Cast

from cardroom.errors import FINISHED_ROUND_STATES, State
from cardroom.money import dollars
from cardroom.sql import literals
from games.registry import OPENING_SQUARES
from tables.models import Player, Round
from wagers.models import (
    CAGE_SLIP_KINDS,
    CHIPS_BROUGHT,
    CHIPS_TAKEN,
    Account,
    AccountKind,
    Bet,
    CageSlip,
    PlayerDealerBank,
    SettlementLine,
    TransactionKind,
)
from wagers.rules.postings import (
    LegOf,
    Role,
    bank_posted_legs,
    bank_return_legs,
    chips_brought_legs,
    chips_taken_legs,
    play_legs,
    settlement_legs,
    void_bank_legs,
    void_bet_legs,
    wager_legs,
)
from wagers.rules.wagers import bettor_label

# The states as the checks' SQL names them (``cardroom.sql.literals``): never written out.
FINISHED_SQL = literals(FINISHED_ROUND_STATES)
SETTLED_SQL = literals([State.SETTLED])
VOIDED_SQL = literals([State.VOIDED])
# The squares of a bet, every game's: the opening wagers and the Play (``Bet.total``).
BET_SQUARES = (*OPENING_SQUARES, "play")
# Transactions that move a round's own accounts; each carries the round.
ROUND_MONEY_KINDS = (
    TransactionKind.WAGER,
    TransactionKind.PLAY,
    TransactionKind.BANK_POSTED,
    TransactionKind.SETTLEMENT,
    TransactionKind.BANK_RETURNED,
    TransactionKind.VOID_RETURN,
)
CHIP_KINDS = (AccountKind.PATRON_CHIPS.value, AccountKind.BANKROLL.value)

CENTS = "cents"  # a difference's expected and found are amounts (shown in dollars)
WORDS = "words"  # ... or the floor's words (cards, a hand's result), shown as they are
CURRENCY = "currency"  # ... or whether currency changed hands (1 or 0)
KIND = "kind"  # ... or a transaction's kind


@dataclass(frozen=True)
class Difference:
    """One difference: the row it is about and, where they apply, its round, line and
    account, and what of it differs; what the record expects and what the books hold
    (cents, the floor's words, or the ids of ``unit``: a player, a bet, an account, a count
    of entries)."""

    check: str
    row: str  # what ``row_id`` names: a transaction, an account, a round, a bet, ...
    row_id: int
    expected: int | str | None
    found: int | str | None
    round_id: int | None = None
    line: str = ""  # what ``line_id`` names: "settlement line", "fee line", "cage slip"
    line_id: int | None = None
    account_id: int | None = None
    unit: str = CENTS
    what: str = ""  # what of the row differs, in words: "seat 3's result", "paid"

    @property
    def off(self) -> int:
        """How far the books are from the record (cents)."""
        return (self.found or 0) - (self.expected or 0)


@dataclass(frozen=True)
class Recomputation:
    """Checks run in Python, in the same snapshot as the SQL ones: ``run`` yields their
    differences; ``checks`` names them, each with the unit of its figures."""

    checks: Mapping[str, str]
    run: Callable[[], Iterator[Difference]]


@dataclass(frozen=True)
class Check:
    """A check: its SQL (or a function building it, with its parameters) answering
    (row id, round id, line id, account id, expected, found) for each difference."""

    row: str
    sql: str | Callable[[], tuple[str, Sequence]]
    line: str = ""
    unit: str = CENTS

    def query(self) -> tuple[str, Sequence]:
        return (self.sql, []) if isinstance(self.sql, str) else self.sql()


# --- Leg by leg: every transaction against the record it was posted from ------------------


@dataclass(frozen=True)
class Source:
    """Records that each expect some legs: which transaction (or round) the legs are in,
    the legs (``wagers.rules.postings`` on the records' columns), the account of each role."""

    rows: QuerySet
    key: Expression
    round: Expression
    legs: Sequence[LegOf]
    accounts: Mapping[Role, Expression]
    line: Expression = field(default_factory=lambda: Value(None, output_field=BigIntegerField()))


def _expected(sources: Sequence[Source]) -> tuple[str, list]:
    """One SELECT per leg of each source, compiled by the ORM, in one UNION ALL."""
    parts, params = [], []
    for source in sources:
        for leg in source.legs:
            queryset = source.rows.order_by().values(
                x_key=source.key,
                x_round=source.round,
                x_line=source.line,
                x_account=source.accounts[leg.role],
                x_amount=ExpressionWrapper(leg.amount, output_field=BigIntegerField()),
            )
            sql, leg_params = queryset.query.sql_with_params()
            parts.append(
                f"SELECT x_key, x_round, x_line, x_account, x_amount FROM ({sql}) leg{len(parts)}"
            )
            params.extend(leg_params)
    return " UNION ALL ".join(parts), params


def leg_check(
    *, row: str, kinds: Sequence[str], sources: Sequence[Source], line: str = "", where: str = ""
) -> Check:
    """Compare the entries of every transaction of ``kinds`` with the legs the sources
    expect, by transaction (``row="transaction"``) or by finished round (``row="round"``).

    Each (transaction or round, account) whose expected and found amounts differ is a
    difference: a leg on the wrong account shows twice (missing where it belongs, extra
    where it went), a missing leg as found $0, an extra leg as expected $0. A transaction
    of these kinds that no record expects is all extra.
    """
    if row == "transaction":
        key, scope = "t.id", ""
    else:
        key = "t.round_id"
        scope = f"JOIN tables_round r ON r.id = t.round_id AND r.state IN ({FINISHED_SQL})"
    kinds_sql = ", ".join(f"'{kind}'" for kind in kinds)

    def build() -> tuple[str, list]:
        expected, params = _expected(sources)
        sql = f"""
            WITH x AS (
                SELECT x_key, MIN(x_round) AS x_round, MIN(x_line) AS x_line, x_account,
                       SUM(x_amount) AS x_amount
                  FROM ({expected}) legs
                 GROUP BY x_key, x_account
            ), f AS (
                SELECT {key} AS f_key, MIN(t.round_id) AS f_round, e.account_id AS f_account,
                       SUM(e.amount_cents) AS f_amount
                  FROM wagers_ledgertransaction t
                  JOIN wagers_ledgerentry e ON e.transaction_id = t.id
                  {scope}
                 WHERE t.kind IN ({kinds_sql}) {where}
                 GROUP BY {key}, e.account_id
            )
            SELECT COALESCE(x.x_key, f.f_key),
                   COALESCE(x.x_round, f.f_round),
                   COALESCE(x.x_line, (SELECT MIN(k.x_line) FROM x k WHERE k.x_key = f.f_key)),
                   COALESCE(x.x_account, f.f_account),
                   COALESCE(x.x_amount, 0),
                   COALESCE(f.f_amount, 0)
              FROM x FULL OUTER JOIN f ON f.f_key = x.x_key AND f.f_account = x.x_account
             WHERE COALESCE(x.x_amount, 0) <> COALESCE(f.f_amount, 0)
        """
        return sql, params

    return Check(row=row, sql=build, line=line)


def with_round_accounts(rows: QuerySet, round_path: str = "round") -> QuerySet:
    """``rows`` joined to their round's two accounts in play (one of each kind per round):
    ``F("wagers_in_play__id")`` and ``F("bank_in_play__id")``."""
    accounts = f"{round_path}__accounts"
    return rows.annotate(
        wagers_in_play=FilteredRelation(
            accounts, condition=Q(**{f"{accounts}__kind": AccountKind.ROUND_WAGERS})
        ),
        bank_in_play=FilteredRelation(
            accounts, condition=Q(**{f"{accounts}__kind": AccountKind.ROUND_BANK})
        ),
    )


ROUND_ACCOUNTS = {
    Role.ROUND_WAGERS: F("wagers_in_play__id"),
    Role.ROUND_BANK: F("bank_in_play__id"),
}


def _bet_squares(prefix: str = "") -> dict[str, F]:
    return {square: F(f"{prefix}{square}_cents") for square in OPENING_SQUARES}


def _settlement_sources() -> list[Source]:
    return [
        Source(
            rows=with_round_accounts(SettlementLine.objects.all()),
            key=F("transaction_id"),
            round=F("round_id"),
            line=F("pk"),
            legs=settlement_legs(F("stake_cents"), F("collected_cents"), F("paid_cents")),
            accounts={**ROUND_ACCOUNTS, Role.BETTOR: F("bet__account_id")},
        )
    ]


def _bank_sources(states: Sequence[str], legs: Sequence[LegOf]) -> Source:
    return Source(
        rows=with_round_accounts(PlayerDealerBank.objects.filter(round__state__in=states)),
        key=F("round_id"),
        round=F("round_id"),
        legs=legs,
        accounts={**ROUND_ACCOUNTS, Role.PLAYER_DEALER: F("account_id")},
    )


def _bet_source(states: Sequence[str], legs: Sequence[LegOf]) -> Source:
    return Source(
        rows=with_round_accounts(Bet.objects.filter(hand__round__state__in=states), "hand__round"),
        key=F("hand__round_id"),
        round=F("hand__round_id"),
        legs=legs,
        accounts={**ROUND_ACCOUNTS, Role.BETTOR: F("account_id")},
    )


def _slip_source(kinds: Sequence[str], legs: Sequence[LegOf]) -> Source:
    """Cage slips of ``kinds``: their transaction's legs between the cage and the slip's
    account (the player's chips or bankroll at the slip's table)."""
    cage = Subquery(
        Account.objects.order_by().filter(kind=AccountKind.CAGE).values("pk")[:1],
        output_field=BigIntegerField(),
    )
    return Source(
        rows=CageSlip.objects.filter(kind__in=kinds),
        key=F("transaction_id"),
        round=Cast(Value(None), output_field=BigIntegerField()),  # a bigint NULL: no round
        line=F("pk"),
        legs=legs,
        accounts={Role.CAGE: cage, Role.CHIPS: F("account_id")},
    )


def _bet_total() -> Expression:
    return sum((F(f"{square}_cents") for square in BET_SQUARES), Value(0))


LEG_CHECKS = {
    "settlement entry differs from its line": leg_check(
        row="transaction",
        kinds=[TransactionKind.SETTLEMENT],
        sources=_settlement_sources(),
        line="settlement line",
    ),
    "bank return differs from W + net": leg_check(
        row="round",
        kinds=[TransactionKind.BANK_RETURNED],
        sources=[
            _bank_sources([State.SETTLED], bank_return_legs(F("amount_cents"), F("net_cents")))
        ],
    ),
    "wagers posted differ from the bets": leg_check(
        row="round",
        kinds=[TransactionKind.WAGER],
        sources=[_bet_source(FINISHED_ROUND_STATES, wager_legs(_bet_squares()))],
    ),
    "plays posted differ from the bets": leg_check(
        row="round",
        kinds=[TransactionKind.PLAY],
        sources=[_bet_source(FINISHED_ROUND_STATES, play_legs(F("play_cents")))],
    ),
    "bank posted differs from the bank": leg_check(
        row="round",
        kinds=[TransactionKind.BANK_POSTED],
        sources=[_bank_sources(FINISHED_ROUND_STATES, bank_posted_legs(F("amount_cents")))],
    ),
    "void returns differ from the bets and the bank": leg_check(
        row="round",
        kinds=[TransactionKind.VOID_RETURN],
        sources=[
            _bet_source([State.VOIDED], void_bet_legs(_bet_total())),
            _bank_sources([State.VOIDED], void_bank_legs(F("amount_cents"))),
        ],
    ),
    "chip movement differs from its cage slip": leg_check(
        row="transaction",
        kinds=CAGE_SLIP_KINDS,
        line="cage slip",
        sources=[
            _slip_source(CHIPS_BROUGHT, chips_brought_legs(F("amount_cents"))),
            _slip_source(CHIPS_TAKEN, chips_taken_legs(F("amount_cents"))),
        ],
    ),
}


def _reversals() -> tuple[str, list]:
    """Every reversal against the entries of the transaction it reverses, negated."""
    return (
        f"""
        WITH x AS (
            SELECT v.id AS x_key, v.round_id AS x_round, e.account_id AS x_account,
                   -SUM(e.amount_cents) AS x_amount
              FROM wagers_ledgertransaction v
              JOIN wagers_ledgerentry e ON e.transaction_id = v.reverses_id
             GROUP BY v.id, v.round_id, e.account_id
        ), f AS (
            SELECT t.id AS f_key, t.round_id AS f_round, e.account_id AS f_account,
                   SUM(e.amount_cents) AS f_amount
              FROM wagers_ledgertransaction t
              JOIN wagers_ledgerentry e ON e.transaction_id = t.id
             WHERE t.kind = '{TransactionKind.REVERSAL}' OR t.reverses_id IS NOT NULL
             GROUP BY t.id, t.round_id, e.account_id
        )
        SELECT COALESCE(x.x_key, f.f_key), COALESCE(x.x_round, f.f_round), NULL,
               COALESCE(x.x_account, f.f_account), COALESCE(x.x_amount, 0),
               COALESCE(f.f_amount, 0)
          FROM x FULL OUTER JOIN f ON f.f_key = x.x_key AND f.f_account = x.x_account
         WHERE COALESCE(x.x_amount, 0) <> COALESCE(f.f_amount, 0)
        """,
        [],
    )


_round_money_kinds = ", ".join(f"'{kind}'" for kind in ROUND_MONEY_KINDS)
_chip_kinds = ", ".join(f"'{kind}'" for kind in CHIP_KINDS)
_wager_of_line = " ".join(f"WHEN '{square}' THEN b.{square}_cents" for square in BET_SQUARES)
_bet_total_sql = " + ".join(f"b.{square}_cents" for square in BET_SQUARES)

CHECKS = {
    "unbalanced transaction": Check(
        row="transaction",
        sql="""
        SELECT t.id, t.round_id, NULL, NULL, 0, SUM(e.amount_cents)
          FROM wagers_ledgertransaction t JOIN wagers_ledgerentry e ON e.transaction_id = t.id
         GROUP BY t.id, t.round_id
        HAVING SUM(e.amount_cents) <> 0
        """,
    ),
    "transaction with fewer than two entries": Check(
        row="transaction",
        unit="entries",
        sql="""
        SELECT t.id, t.round_id, NULL, NULL, 2, COUNT(e.id)
          FROM wagers_ledgertransaction t LEFT JOIN wagers_ledgerentry e ON e.transaction_id = t.id
         GROUP BY t.id, t.round_id
        HAVING COUNT(e.id) < 2
        """,
    ),
    "cached balance differs from entries": Check(
        row="account",
        sql="""
        SELECT a.id, a.round_id, NULL, a.id, COALESCE(s.total, 0), a.balance_cents
          FROM wagers_account a
          LEFT JOIN (SELECT account_id, SUM(amount_cents) AS total
                       FROM wagers_ledgerentry GROUP BY account_id) s ON s.account_id = a.id
         WHERE a.balance_cents <> COALESCE(s.total, 0)
        """,
    ),
    "finished round left chips in play": Check(
        row="round",
        sql=f"""
        SELECT r.id, r.id, NULL, a.id, 0, SUM(e.amount_cents)
          FROM tables_round r
          JOIN wagers_account a ON a.round_id = r.id
          JOIN wagers_ledgerentry e ON e.account_id = a.id
         WHERE r.state IN ({FINISHED_SQL})
         GROUP BY r.id, a.id
        HAVING SUM(e.amount_cents) <> 0
        """,
    ),
    "round money moved outside its round": Check(
        row="transaction",
        sql=f"""
        SELECT t.id, COALESCE(t.round_id, a.round_id), NULL, a.id, 0, SUM(e.amount_cents)
          FROM wagers_ledgerentry e
          JOIN wagers_ledgertransaction t ON t.id = e.transaction_id
          JOIN wagers_account a ON a.id = e.account_id
         WHERE (a.round_id IS NOT NULL
                AND (t.kind NOT IN ({_round_money_kinds}) OR t.round_id IS NULL
                     OR t.round_id <> a.round_id))
            OR (t.kind IN ({_round_money_kinds}) AND t.round_id IS NULL)
         GROUP BY t.id, t.round_id, a.round_id, a.id
        """,
    ),
    "settlement lines disagree with the bank's result": Check(
        row="round",
        sql=f"""
        SELECT b.round_id, b.round_id, NULL, NULL,
               COALESCE(SUM(l.collected_cents - l.paid_cents), 0), b.net_cents
          FROM wagers_playerdealerbank b
          JOIN tables_round r ON r.id = b.round_id AND r.state = {SETTLED_SQL}
          LEFT JOIN wagers_settlementline l ON l.round_id = b.round_id
         GROUP BY b.round_id, b.net_cents
        HAVING b.net_cents IS NULL
            OR b.net_cents <> COALESCE(SUM(l.collected_cents - l.paid_cents), 0)
        """,
    ),
    "bets disagree with their settlement lines": Check(
        row="bet",
        sql=f"""
        SELECT b.id, h.round_id, NULL, b.account_id, {_bet_total_sql},
               COALESCE(SUM(l.stake_cents), 0)
          FROM wagers_bet b
          JOIN tables_hand h ON h.id = b.hand_id
          JOIN tables_round r ON r.id = h.round_id AND r.state = {SETTLED_SQL}
          LEFT JOIN wagers_settlementline l ON l.bet_id = b.id
         GROUP BY b.id, h.round_id, b.account_id
        HAVING {_bet_total_sql} <> COALESCE(SUM(l.stake_cents), 0)
        """,
    ),
    "settlement line is not its bet's": Check(
        row="settlement line",
        line="settlement line",
        unit="bet",
        sql="""
        SELECT l.id, l.round_id, l.id, NULL, b.id, l.bet_id
          FROM wagers_settlementline l
          LEFT JOIN tables_hand h ON h.round_id = l.round_id AND h.seat = l.seat
          LEFT JOIN wagers_bet b ON b.hand_id = h.id AND b.bettor = l.bettor
         WHERE b.id IS NULL OR b.id <> l.bet_id
        """,
    ),
    "settlement line's stake is not its bet's wager": Check(
        row="settlement line",
        line="settlement line",
        sql=f"""
        SELECT l.id, l.round_id, l.id, b.account_id,
               CASE l.wager {_wager_of_line} END, l.stake_cents
          FROM wagers_settlementline l JOIN wagers_bet b ON b.id = l.bet_id
         WHERE l.stake_cents <> COALESCE(CASE l.wager {_wager_of_line} END, -1)
        """,
    ),
    "bet's chips are not its bettor's at the table": Check(
        row="bet",
        unit="player",
        sql=f"""
        SELECT b.id, h.round_id, NULL, a.id,
               CASE WHEN b.bettor = 0 THEN h.player_id ELSE b.player_id END, a.player_id
          FROM wagers_bet b
          JOIN tables_hand h ON h.id = b.hand_id
          JOIN tables_round r ON r.id = h.round_id
          JOIN wagers_account a ON a.id = b.account_id
         WHERE a.player_id IS NULL OR a.player_id <> b.player_id
            OR (b.bettor = 0 AND h.player_id <> b.player_id)
            OR a.table_id IS NULL OR a.table_id <> r.table_id OR a.kind NOT IN ({_chip_kinds})
        """,
    ),
    "bank's chips are not the player-dealer's at the table": Check(
        row="round",
        unit="player",
        sql=f"""
        SELECT r.id, r.id, NULL, a.id, r.player_dealer_id,
               CASE WHEN b.player_id <> r.player_dealer_id THEN b.player_id ELSE a.player_id END
          FROM wagers_playerdealerbank b
          JOIN tables_round r ON r.id = b.round_id
          JOIN wagers_account a ON a.id = b.account_id
         WHERE b.player_id <> r.player_dealer_id
            OR a.player_id IS NULL OR a.player_id <> r.player_dealer_id
            OR a.table_id IS NULL OR a.table_id <> r.table_id OR a.kind NOT IN ({_chip_kinds})
        """,
    ),
    "player-dealer's result outside [-W, +W]": Check(
        row="round",
        sql="""
        SELECT round_id, round_id, NULL, NULL,
               CASE WHEN net_cents < 0 THEN -amount_cents ELSE amount_cents END, net_cents
          FROM wagers_playerdealerbank
         WHERE net_cents < -amount_cents OR net_cents > amount_cents
        """,
    ),
    "settlement line does not add up": Check(
        row="settlement line",
        line="settlement line",
        sql="""
        SELECT id, round_id, id, NULL,
               CASE WHEN outcome = 'lose' THEN stake_cents ELSE 0 END,
               collected_cents + returned_uncovered_cents
          FROM wagers_settlementline
         WHERE collected_cents + returned_uncovered_cents
               <> CASE WHEN outcome = 'lose' THEN stake_cents ELSE 0 END
        """,
    ),
    "settlement line pays a wager that did not win": Check(
        row="settlement line",
        line="settlement line",
        sql="""
        SELECT id, round_id, id, NULL, 0, paid_cents + unpaid_uncovered_cents
          FROM wagers_settlementline
         WHERE outcome <> 'win' AND paid_cents + unpaid_uncovered_cents <> 0
        """,
    ),
    **LEG_CHECKS,
    "chip movement's currency differs from its cage slip": Check(
        row="transaction",
        line="cage slip",
        unit=CURRENCY,
        sql="""
        SELECT t.id, NULL, s.id, s.account_id,
               CASE WHEN s.currency THEN 1 ELSE 0 END, CASE WHEN t.currency THEN 1 ELSE 0 END
          FROM wagers_cageslip s JOIN wagers_ledgertransaction t ON t.id = s.transaction_id
         WHERE t.currency <> s.currency
        """,
    ),
    "chip movement's kind differs from its cage slip": Check(
        row="transaction",
        line="cage slip",
        unit=KIND,
        sql="""
        SELECT t.id, NULL, s.id, s.account_id, s.kind, t.kind
          FROM wagers_cageslip s JOIN wagers_ledgertransaction t ON t.id = s.transaction_id
         WHERE t.kind <> s.kind
        """,
    ),
    "cage slip names another player's chips": Check(
        row="cage slip",
        line="cage slip",
        unit="player",
        sql=f"""
        SELECT s.id, NULL, s.id, a.id, s.player_id, a.player_id
          FROM wagers_cageslip s JOIN wagers_account a ON a.id = s.account_id
         WHERE a.player_id IS NULL OR a.player_id <> s.player_id
            OR a.table_id IS NULL OR a.table_id <> s.table_id
            OR a.kind <> CASE WHEN s.kind IN ('{TransactionKind.FILL}', '{TransactionKind.CREDIT}')
                              THEN '{AccountKind.BANKROLL}' ELSE '{AccountKind.PATRON_CHIPS}' END
        """,
    ),
    "reversal does not undo its original": Check(row="transaction", sql=_reversals),
}


@contextmanager
def snapshot() -> Iterator[None]:
    """Every check reads the same books: on PostgreSQL one read-only REPEATABLE READ
    transaction when the caller has none open (a floor in play changes nothing under
    the checks). JIT is off: compiling these one-off queries costs more than running
    them (seconds on a 50,000-transaction ledger, docs/benchmarks.md)."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                if outermost:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                cursor.execute("SET LOCAL jit = off")
        yield


def _figure(value) -> int | str | None:
    """A figure as a query answers it: a number as an int (SUM gives a Decimal), a word as
    it is."""
    return value if value is None or isinstance(value, str) else int(value)


def differences(checks: Mapping[str, Check | Recomputation] = CHECKS) -> list[Difference]:
    """Every difference ``checks`` find, check by check (one query each; a recomputation
    streams its rows in batches), all in one snapshot of the books."""
    found = []
    with snapshot(), connection.cursor() as cursor:
        for name, check in checks.items():
            if isinstance(check, Recomputation):
                found.extend(check.run())
                continue
            sql, params = check.query()
            cursor.execute(sql, params)
            found.extend(
                Difference(
                    check=name,
                    row=check.row,
                    row_id=row_id,
                    expected=_figure(expected),
                    found=_figure(found_),
                    round_id=round_id,
                    line=check.line if line_id is not None else "",
                    line_id=line_id,
                    account_id=account_id,
                    unit=check.unit,
                )
                for row_id, round_id, line_id, account_id, expected, found_ in cursor.fetchall()
            )
    return found


def counts() -> dict[str, int]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT (SELECT COUNT(*) FROM wagers_ledgertransaction),"
            " (SELECT COUNT(*) FROM wagers_account),"
            f" (SELECT COUNT(*) FROM tables_round WHERE state IN ({FINISHED_SQL})),"
            " (SELECT COUNT(*) FROM wagers_cageslip)"
        )
        transactions, accounts, rounds, slips = cursor.fetchone()
    return {
        "transactions": transactions,
        "accounts": accounts,
        "finished rounds": rounds,
        "cage slips": slips,
    }


# --- Naming each difference for people -----------------------------------------------------

LineNames = Callable[[set[int]], dict[int, str]]


def cage_slip_names(ids: set[int]) -> dict[int, str]:
    return {
        slip.pk: (
            f"({TransactionKind(slip.kind).label.lower()} of {dollars(slip.amount_cents)}, "
            f"{slip.player} at {slip.table})"
        )
        for slip in CageSlip.objects.filter(pk__in=ids).select_related("player", "table")
    }


def settlement_line_names(ids: set[int]) -> dict[int, str]:
    return {
        line.pk: f"#{line.order} (seat {line.seat} {bettor_label(line.bettor)} {line.wager})"
        for line in SettlementLine.objects.filter(pk__in=ids)
    }


def _account_name(account: Account) -> str:
    kind = AccountKind(account.kind)
    if kind is AccountKind.CAGE:
        return "the cage"
    if kind is AccountKind.DROP:
        return f"the drop of {account.table}"
    if account.round_id is not None:
        what = "wagers" if kind is AccountKind.ROUND_WAGERS else "bank"
        return f"the {what} in play in {account.round}"
    what = "bankroll" if kind is AccountKind.BANKROLL else "chips"
    return f"{account.player}'s {what} at {account.table}"


def describe(
    found: Sequence[Difference], lines: Mapping[str, LineNames] | None = None
) -> list[str]:
    """Each difference in words: the check, the round, the line, the account, what the
    record expects and what the books hold (in dollars). A few queries for all of them."""
    lines = {
        "settlement line": settlement_line_names,
        "cage slip": cage_slip_names,
        **(lines or {}),
    }
    rounds = {
        r.pk: str(r)
        for r in Round.objects.filter(pk__in={d.round_id for d in found}).select_related("table")
    }
    account_ids = {d.account_id for d in found}
    account_ids |= {v for d in found if d.unit == "account" for v in (d.expected, d.found)}
    accounts = {
        a.pk: _account_name(a)
        for a in Account.objects.filter(pk__in=account_ids - {None}).select_related(
            "player", "table", "round__table"
        )
    }
    player_ids = {v for d in found if d.unit == "player" for v in (d.expected, d.found)}
    players = {p.pk: str(p) for p in Player.objects.filter(pk__in=player_ids - {None})}
    bet_ids = {v for d in found if d.unit == "bet" for v in (d.expected, d.found)}
    bets = {
        b.pk: f"seat {b.hand.seat} {bettor_label(b.bettor)} of {b.hand.round}"
        for b in Bet.objects.filter(pk__in=bet_ids - {None}).select_related("hand__round__table")
    }
    line_names: dict[tuple[str, int], str] = {}
    for kind, names in lines.items():
        ids = {d.line_id for d in found if d.line == kind}
        if ids:
            line_names.update({(kind, pk): name for pk, name in names(ids).items()})

    def value(difference: Difference, what: int | str | None) -> str:
        if what is None:
            return "none"
        unit = difference.unit
        if unit == CENTS:
            return dollars(what)
        if unit == WORDS:
            return str(what)
        if unit == CURRENCY:
            return "currency changed hands" if what else "no currency"
        if unit == KIND:
            return TransactionKind(what).label.lower() if what in TransactionKind.values else what
        if unit == "entries":
            return f"{what} entries"
        named = {"player": players, "bet": bets, "account": accounts}.get(unit)
        if named is None:
            return f"{unit} {what}"
        return f"{unit} {what} ({named.get(what, 'not found')})"

    texts = []
    for d in found:
        parts = []
        if d.row not in ("round", "account", d.line):
            parts.append(f"{d.row} {d.row_id}")
        if d.round_id is not None:
            parts.append(f"round {d.round_id} ({rounds.get(d.round_id, 'not found')})")
        elif d.row == "round":
            parts.append(f"round {d.row_id} (not found)")
        if d.line_id is not None:
            parts.append(f"{d.line} {d.line_id} {line_names.get((d.line, d.line_id), '')}".strip())
        if d.account_id is not None:
            parts.append(f"account {d.account_id} ({accounts.get(d.account_id, 'not found')})")
        if d.what:
            parts.append(d.what)
        texts.append(
            f"{d.check}: {', '.join(parts)}: expected {value(d, d.expected)}, "
            f"found {value(d, d.found)}"
        )
    return texts
