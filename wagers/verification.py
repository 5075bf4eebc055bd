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
from cardroom.sql import Alias, literals
from games.registry import OPENING_SQUARES
from tables.models import Hand, Player, Round
from wagers.models import (
    CAGE_SLIP_KINDS,
    CHIP_ACCOUNT_KINDS,
    CHIPS_BROUGHT,
    CHIPS_TAKEN,
    Account,
    AccountKind,
    Bet,
    CageSlip,
    LedgerEntry,
    LedgerTransaction,
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
from wagers.rules.resolution import Outcome
from wagers.rules.wagers import SEAT_BETTOR, bettor_label

# The checks' SQL writes out no identifier and no value of an enum: each table it reads is
# named by its alias there (``cardroom.sql.Alias``: the table and every column from the
# models' metadata), each state, kind and outcome from its enum (``cardroom.sql.literals``).
T, V = Alias(LedgerTransaction, "t"), Alias(LedgerTransaction, "v")  # V: a reversal
E, A = Alias(LedgerEntry, "e"), Alias(Account, "a")
R, H, B = Alias(Round, "r"), Alias(Hand, "h"), Alias(Bet, "b")
K, L, S = Alias(PlayerDealerBank, "k"), Alias(SettlementLine, "l"), Alias(CageSlip, "s")

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
        key, scope = T.id, ""
    else:
        key = T.round_id
        scope = f"JOIN {R} ON {R.id} = {T.round_id} AND {R.state} IN ({FINISHED_SQL})"
    kinds_sql = literals(kinds)

    def build() -> tuple[str, list]:
        expected, params = _expected(sources)
        sql = f"""
            WITH x AS (
                SELECT x_key, MIN(x_round) AS x_round, MIN(x_line) AS x_line, x_account,
                       SUM(x_amount) AS x_amount
                  FROM ({expected}) legs
                 GROUP BY x_key, x_account
            ), f AS (
                SELECT {key} AS f_key, MIN({T.round_id}) AS f_round, {E.account_id} AS f_account,
                       SUM({E.amount_cents}) AS f_amount
                  FROM {T}
                  JOIN {E} ON {E.transaction_id} = {T.id}
                  {scope}
                 WHERE {T.kind} IN ({kinds_sql}) {where}
                 GROUP BY {key}, {E.account_id}
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
            SELECT {V.id} AS x_key, {V.round_id} AS x_round, {E.account_id} AS x_account,
                   -SUM({E.amount_cents}) AS x_amount
              FROM {V}
              JOIN {E} ON {E.transaction_id} = {V.reverses_id}
             GROUP BY {V.id}, {V.round_id}, {E.account_id}
        ), f AS (
            SELECT {T.id} AS f_key, {T.round_id} AS f_round, {E.account_id} AS f_account,
                   SUM({E.amount_cents}) AS f_amount
              FROM {T}
              JOIN {E} ON {E.transaction_id} = {T.id}
             WHERE {T.kind} = {literals([TransactionKind.REVERSAL])} OR {T.reverses_id} IS NOT NULL
             GROUP BY {T.id}, {T.round_id}, {E.account_id}
        )
        SELECT COALESCE(x.x_key, f.f_key), COALESCE(x.x_round, f.f_round), NULL,
               COALESCE(x.x_account, f.f_account), COALESCE(x.x_amount, 0),
               COALESCE(f.f_amount, 0)
          FROM x FULL OUTER JOIN f ON f.f_key = x.x_key AND f.f_account = x.x_account
         WHERE COALESCE(x.x_amount, 0) <> COALESCE(f.f_amount, 0)
        """,
        [],
    )


_round_money_kinds = literals(ROUND_MONEY_KINDS)
_chip_kinds = literals(CHIP_ACCOUNT_KINDS)
_wager_of_line = " ".join(
    f"WHEN {literals([square])} THEN {getattr(B, f'{square}_cents')}" for square in BET_SQUARES
)
_bet_total_sql = " + ".join(getattr(B, f"{square}_cents") for square in BET_SQUARES)
_lose, _win = literals([Outcome.LOSE]), literals([Outcome.WIN])
_bankroll_slips = literals([TransactionKind.FILL, TransactionKind.CREDIT])
_bankroll, _patron_chips = literals([AccountKind.BANKROLL]), literals([AccountKind.PATRON_CHIPS])

CHECKS = {
    "unbalanced transaction": Check(
        row="transaction",
        sql=f"""
        SELECT {T.id}, {T.round_id}, NULL, NULL, 0, SUM({E.amount_cents})
          FROM {T} JOIN {E} ON {E.transaction_id} = {T.id}
         GROUP BY {T.id}, {T.round_id}
        HAVING SUM({E.amount_cents}) <> 0
        """,
    ),
    "transaction with fewer than two entries": Check(
        row="transaction",
        unit="entries",
        sql=f"""
        SELECT {T.id}, {T.round_id}, NULL, NULL, 2, COUNT({E.id})
          FROM {T} LEFT JOIN {E} ON {E.transaction_id} = {T.id}
         GROUP BY {T.id}, {T.round_id}
        HAVING COUNT({E.id}) < 2
        """,
    ),
    "cached balance differs from entries": Check(
        row="account",
        sql=f"""
        SELECT {A.id}, {A.round_id}, NULL, {A.id}, COALESCE(s.total, 0), {A.balance_cents}
          FROM {A}
          LEFT JOIN (SELECT {E.account_id}, SUM({E.amount_cents}) AS total
                       FROM {E} GROUP BY {E.account_id}) s ON s.account_id = {A.id}
         WHERE {A.balance_cents} <> COALESCE(s.total, 0)
        """,
    ),
    "finished round left chips in play": Check(
        row="round",
        sql=f"""
        SELECT {R.id}, {R.id}, NULL, {A.id}, 0, SUM({E.amount_cents})
          FROM {R}
          JOIN {A} ON {A.round_id} = {R.id}
          JOIN {E} ON {E.account_id} = {A.id}
         WHERE {R.state} IN ({FINISHED_SQL})
         GROUP BY {R.id}, {A.id}
        HAVING SUM({E.amount_cents}) <> 0
        """,
    ),
    "round money moved outside its round": Check(
        row="transaction",
        sql=f"""
        SELECT {T.id}, COALESCE({T.round_id}, {A.round_id}), NULL, {A.id}, 0,
               SUM({E.amount_cents})
          FROM {E}
          JOIN {T} ON {T.id} = {E.transaction_id}
          JOIN {A} ON {A.id} = {E.account_id}
         WHERE ({A.round_id} IS NOT NULL
                AND ({T.kind} NOT IN ({_round_money_kinds}) OR {T.round_id} IS NULL
                     OR {T.round_id} <> {A.round_id}))
            OR ({T.kind} IN ({_round_money_kinds}) AND {T.round_id} IS NULL)
         GROUP BY {T.id}, {T.round_id}, {A.round_id}, {A.id}
        """,
    ),
    "settlement lines disagree with the bank's result": Check(
        row="round",
        sql=f"""
        SELECT {K.round_id}, {K.round_id}, NULL, NULL,
               COALESCE(SUM({L.collected_cents} - {L.paid_cents}), 0), {K.net_cents}
          FROM {K}
          JOIN {R} ON {R.id} = {K.round_id} AND {R.state} = {SETTLED_SQL}
          LEFT JOIN {L} ON {L.round_id} = {K.round_id}
         GROUP BY {K.round_id}, {K.net_cents}
        HAVING {K.net_cents} IS NULL
            OR {K.net_cents} <> COALESCE(SUM({L.collected_cents} - {L.paid_cents}), 0)
        """,
    ),
    "bets disagree with their settlement lines": Check(
        row="bet",
        sql=f"""
        SELECT {B.id}, {H.round_id}, NULL, {B.account_id}, {_bet_total_sql},
               COALESCE(SUM({L.stake_cents}), 0)
          FROM {B}
          JOIN {H} ON {H.id} = {B.hand_id}
          JOIN {R} ON {R.id} = {H.round_id} AND {R.state} = {SETTLED_SQL}
          LEFT JOIN {L} ON {L.bet_id} = {B.id}
         GROUP BY {B.id}, {H.round_id}, {B.account_id}
        HAVING {_bet_total_sql} <> COALESCE(SUM({L.stake_cents}), 0)
        """,
    ),
    "settlement line is not its bet's": Check(
        row="settlement line",
        line="settlement line",
        unit="bet",
        sql=f"""
        SELECT {L.id}, {L.round_id}, {L.id}, NULL, {B.id}, {L.bet_id}
          FROM {L}
          LEFT JOIN {H} ON {H.round_id} = {L.round_id} AND {H.seat} = {L.seat}
          LEFT JOIN {B} ON {B.hand_id} = {H.id} AND {B.bettor} = {L.bettor}
         WHERE {B.id} IS NULL OR {B.id} <> {L.bet_id}
        """,
    ),
    "settlement line's stake is not its bet's wager": Check(
        row="settlement line",
        line="settlement line",
        sql=f"""
        SELECT {L.id}, {L.round_id}, {L.id}, {B.account_id},
               CASE {L.wager} {_wager_of_line} END, {L.stake_cents}
          FROM {L} JOIN {B} ON {B.id} = {L.bet_id}
         WHERE {L.stake_cents} <> COALESCE(CASE {L.wager} {_wager_of_line} END, -1)
        """,
    ),
    "bet's chips are not its bettor's at the table": Check(
        row="bet",
        unit="player",
        sql=f"""
        SELECT {B.id}, {H.round_id}, NULL, {A.id},
               CASE WHEN {B.bettor} = {SEAT_BETTOR} THEN {H.player_id} ELSE {B.player_id} END,
               {A.player_id}
          FROM {B}
          JOIN {H} ON {H.id} = {B.hand_id}
          JOIN {R} ON {R.id} = {H.round_id}
          JOIN {A} ON {A.id} = {B.account_id}
         WHERE {A.player_id} IS NULL OR {A.player_id} <> {B.player_id}
            OR ({B.bettor} = {SEAT_BETTOR} AND {H.player_id} <> {B.player_id})
            OR {A.table_id} IS NULL OR {A.table_id} <> {R.table_id}
            OR {A.kind} NOT IN ({_chip_kinds})
        """,
    ),
    "bank's chips are not the player-dealer's at the table": Check(
        row="round",
        unit="player",
        sql=f"""
        SELECT {R.id}, {R.id}, NULL, {A.id}, {R.player_dealer_id},
               CASE WHEN {K.player_id} <> {R.player_dealer_id} THEN {K.player_id}
                    ELSE {A.player_id} END
          FROM {K}
          JOIN {R} ON {R.id} = {K.round_id}
          JOIN {A} ON {A.id} = {K.account_id}
         WHERE {K.player_id} <> {R.player_dealer_id}
            OR {A.player_id} IS NULL OR {A.player_id} <> {R.player_dealer_id}
            OR {A.table_id} IS NULL OR {A.table_id} <> {R.table_id}
            OR {A.kind} NOT IN ({_chip_kinds})
        """,
    ),
    "player-dealer's result outside [-W, +W]": Check(
        row="round",
        sql=f"""
        SELECT {K.round_id}, {K.round_id}, NULL, NULL,
               CASE WHEN {K.net_cents} < 0 THEN -{K.amount_cents} ELSE {K.amount_cents} END,
               {K.net_cents}
          FROM {K}
         WHERE {K.net_cents} < -{K.amount_cents} OR {K.net_cents} > {K.amount_cents}
        """,
    ),
    "settlement line does not add up": Check(
        row="settlement line",
        line="settlement line",
        sql=f"""
        SELECT {L.id}, {L.round_id}, {L.id}, NULL,
               CASE WHEN {L.outcome} = {_lose} THEN {L.stake_cents} ELSE 0 END,
               {L.collected_cents} + {L.returned_uncovered_cents}
          FROM {L}
         WHERE {L.collected_cents} + {L.returned_uncovered_cents}
               <> CASE WHEN {L.outcome} = {_lose} THEN {L.stake_cents} ELSE 0 END
        """,
    ),
    "settlement line pays a wager that did not win": Check(
        row="settlement line",
        line="settlement line",
        sql=f"""
        SELECT {L.id}, {L.round_id}, {L.id}, NULL, 0,
               {L.paid_cents} + {L.unpaid_uncovered_cents}
          FROM {L}
         WHERE {L.outcome} <> {_win} AND {L.paid_cents} + {L.unpaid_uncovered_cents} <> 0
        """,
    ),
    **LEG_CHECKS,
    "chip movement's currency differs from its cage slip": Check(
        row="transaction",
        line="cage slip",
        unit=CURRENCY,
        sql=f"""
        SELECT {T.id}, NULL, {S.id}, {S.account_id},
               CASE WHEN {S.currency} THEN 1 ELSE 0 END, CASE WHEN {T.currency} THEN 1 ELSE 0 END
          FROM {S} JOIN {T} ON {T.id} = {S.transaction_id}
         WHERE {T.currency} <> {S.currency}
        """,
    ),
    "chip movement's kind differs from its cage slip": Check(
        row="transaction",
        line="cage slip",
        unit=KIND,
        sql=f"""
        SELECT {T.id}, NULL, {S.id}, {S.account_id}, {S.kind}, {T.kind}
          FROM {S} JOIN {T} ON {T.id} = {S.transaction_id}
         WHERE {T.kind} <> {S.kind}
        """,
    ),
    "cage slip names another player's chips": Check(
        row="cage slip",
        line="cage slip",
        unit="player",
        sql=f"""
        SELECT {S.id}, NULL, {S.id}, {A.id}, {S.player_id}, {A.player_id}
          FROM {S} JOIN {A} ON {A.id} = {S.account_id}
         WHERE {A.player_id} IS NULL OR {A.player_id} <> {S.player_id}
            OR {A.table_id} IS NULL OR {A.table_id} <> {S.table_id}
            OR {A.kind} <> CASE WHEN {S.kind} IN ({_bankroll_slips})
                                THEN {_bankroll} ELSE {_patron_chips} END
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
            f"SELECT (SELECT COUNT(*) FROM {T}), (SELECT COUNT(*) FROM {A}),"
            f" (SELECT COUNT(*) FROM {R} WHERE {R.state} IN ({FINISHED_SQL})),"
            f" (SELECT COUNT(*) FROM {S})"
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
