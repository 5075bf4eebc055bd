"""Posting to the double-entry ledger.

``post_all`` writes any number of balanced transactions with a constant number
of queries (bulk inserts, one balance update), so a round's settlement costs
the same whatever its number of lines. Callers hold the table lock.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from django.db import IntegrityError, connection, transaction
from django.db.models import Case, F, Value, When

from cardroom.clock import now
from cardroom.errors import Rule, RuleError
from wagers import sql
from wagers.models import Account, AccountKind, LedgerEntry, LedgerTransaction, TransactionKind
from wagers.rules.postings import LegOf, Role


@dataclass(frozen=True)
class Leg:
    account: Account
    amount: int  # + into the account, - out of it
    label: str = ""


def legs_of(legs: Sequence[LegOf], accounts: Mapping[Role, Account]) -> list[Leg]:
    """The legs ``wagers.rules.postings`` defines, on the accounts that play their roles."""
    return [Leg(accounts[leg.role], leg.amount, leg.label) for leg in legs]


@dataclass
class Posting:
    """A transaction to post: its kind, its legs (summing to zero) and its context."""

    kind: TransactionKind
    legs: Sequence[Leg]
    round_id: int | None = None
    memo: str = ""
    currency: bool = False
    reverses_id: int | None = None
    transaction: LedgerTransaction | None = field(default=None, init=False)


def post_all(postings: Sequence[Posting], *, by, at=None) -> list[LedgerTransaction]:
    """Write every posting; refuse the lot if any is unbalanced or overdraws chips.

    The balance of each posting is checked before anything is written. The writes are
    atomic: inside a caller's transaction they join it (no savepoint, no cost); alone
    they open their own, so a refused posting never leaves entries without balances.
    """
    deltas: dict[int, int] = defaultdict(int)
    for posting in postings:
        legs = [leg for leg in posting.legs if leg.amount]
        if sum(leg.amount for leg in legs) != 0:
            raise RuleError(f"{posting.kind} does not balance", rule=Rule.LEDGER)
        posting.legs = legs
        for leg in legs:
            deltas[leg.account.pk] += leg.amount
    write = _write_in_one_statement if connection.vendor == "postgresql" else _write
    with transaction.atomic(savepoint=False):
        return write(postings, deltas, by=by, at=at or now())


# A named hot-path writer (plain SQL, PostgreSQL; the money's SQL home: ``wagers.sql.
# post_transactions``): the transactions, their entries and the balances in one statement
# instead of three. It writes exactly the rows ``_write`` writes, in the same order (proved
# by tests/wagers/services/test_ledger_statement.py); the database's guards (balanced
# transactions, chips never below zero) apply to it as to the ORM's statements.
CHIPS_NEVER_NEGATIVE = "chips_in_front_never_negative"  # wagers.models.Account's check


def _write_in_one_statement(
    postings: Sequence[Posting], deltas, *, by, at
) -> list[LedgerTransaction]:
    if not postings:
        return []
    entries = [(n, leg) for n, p in enumerate(postings, start=1) for leg in p.legs]
    changed = {pk: delta for pk, delta in deltas.items() if delta}
    columns = {
        "kind": [str(p.kind) for p in postings],
        "at": [at] * len(postings),
        "by": [by.pk] * len(postings),
        "round": [p.round_id for p in postings],
        "currency": [p.currency for p in postings],
        "memo": [p.memo for p in postings],
        "reverses": [p.reverses_id for p in postings],
    }
    legs = {
        "n": [n for n, _ in entries],
        "account": [leg.account.pk for _, leg in entries],
        "cents": [leg.amount for _, leg in entries],
        "label": [leg.label for _, leg in entries],
    }
    try:
        ids = sql.post_transactions(columns, legs, changed)
    except IntegrityError as error:
        diagnosis = getattr(error.__cause__, "diag", None)
        if getattr(diagnosis, "constraint_name", None) != CHIPS_NEVER_NEGATIVE:
            raise
        raise RuleError("not enough chips for this movement", rule=Rule.CHIPS_IN_FRONT) from None
    transactions = []
    for pk, p in zip(ids, postings, strict=True):
        t = _transaction(p, by=by, at=at, pk=pk)
        t._state.adding, t._state.db = False, connection.alias
        p.transaction = t
        transactions.append(t)
    return transactions


def _transaction(p: Posting, *, by, at, pk: int | None = None) -> LedgerTransaction:
    return LedgerTransaction(
        pk=pk,
        kind=p.kind,
        at=at,
        by=by,
        round_id=p.round_id,
        memo=p.memo,
        currency=p.currency,
        reverses_id=p.reverses_id,
    )


def _write(postings: Sequence[Posting], deltas, *, by, at) -> list[LedgerTransaction]:
    transactions = LedgerTransaction.objects.bulk_create(
        [_transaction(p, by=by, at=at) for p in postings]
    )
    LedgerEntry.objects.bulk_create(
        [
            LedgerEntry(
                transaction=t, account_id=leg.account.pk, amount_cents=leg.amount, label=leg.label
            )
            for t, p in zip(transactions, postings, strict=True)
            for leg in p.legs
        ]
    )
    _apply_deltas(deltas)
    for t, p in zip(transactions, postings, strict=True):
        p.transaction = t
    return transactions


def post(kind: TransactionKind, legs: Sequence[Leg], *, by, **context) -> LedgerTransaction:
    return post_all([Posting(kind, legs, **context)], by=by)[0]


def _apply_deltas(deltas: dict[int, int]) -> None:
    changed = {pk: delta for pk, delta in deltas.items() if delta}
    if not changed:
        return
    update = Case(
        *(When(pk=pk, then=Value(delta)) for pk, delta in changed.items()), default=Value(0)
    )
    try:
        Account.objects.filter(pk__in=changed).update(balance_cents=F("balance_cents") + update)
    except IntegrityError:
        raise RuleError("not enough chips for this movement", rule=Rule.CHIPS_IN_FRONT) from None


def cage_account() -> Account:
    account, _ = Account.objects.get_or_create(kind=AccountKind.CAGE, defaults={"opened_at": now()})
    return account


def drop_account(table) -> Account:
    account, _ = Account.objects.get_or_create(
        kind=AccountKind.DROP, table=table, defaults={"opened_at": now()}
    )
    return account


def round_accounts(round_) -> tuple[Account, Account]:
    """The round's two in-play accounts: the players' wagers and the player-dealer's bank."""
    accounts = {a.kind: a for a in Account.objects.filter(round=round_)}
    missing = [
        Account(kind=kind, round=round_, table_id=round_.table_id, opened_at=now())
        for kind in (AccountKind.ROUND_WAGERS, AccountKind.ROUND_BANK)
        if kind not in accounts
    ]
    for account in Account.objects.bulk_create(missing):
        accounts[account.kind] = account
    return accounts[AccountKind.ROUND_WAGERS], accounts[AccountKind.ROUND_BANK]


def reverse(original: LedgerTransaction, *, by, memo: str) -> LedgerTransaction:
    """A correction: a new transaction with every entry negated, linked to the original."""
    with transaction.atomic():
        locked = LedgerTransaction.objects.select_for_update().get(pk=original.pk)
        if LedgerTransaction.objects.filter(reverses=locked).exists():
            raise RuleError(f"transaction {locked.pk} was already reversed", rule=Rule.LEDGER)
        legs = [
            Leg(e.account, -e.amount_cents, e.label)
            for e in locked.entries.select_related("account")
        ]
        return post(
            TransactionKind.REVERSAL,
            legs,
            by=by,
            memo=memo,
            reverses_id=locked.pk,
            round_id=locked.round_id,
        )
