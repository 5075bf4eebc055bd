"""Postings are written in one statement on PostgreSQL (wagers.services.ledger
``_write_in_one_statement``, its statement ``wagers.sql.post_transactions``), a plain-SQL
hot-path writer: the same transactions, entries (in
the same order) and balances as the ORM's three statements, and the same refusal when chips
would go below zero, with nothing written."""

from __future__ import annotations

import pytest
from django.db import transaction

from cardroom.errors import Rule, RuleError
from tests.builders.money import all_balances, money_table
from wagers.models import Account, AccountKind, LedgerEntry, LedgerTransaction, TransactionKind
from wagers.services import ledger
from wagers.services.ledger import Leg, Posting

pytestmark = [pytest.mark.django_db, pytest.mark.requires_postgres]


def _postings(accounts: list[Account], cage: Account) -> list[Posting]:
    a, b, c = accounts
    return [
        Posting(TransactionKind.BUY_IN, [Leg(cage, -700), Leg(a, 700, "chips")], currency=True),
        Posting(
            TransactionKind.CASH_OUT,
            [Leg(b, -250, "chips"), Leg(c, -50), Leg(cage, 300, "cage")],
            memo="seat 2 and 3 leave",
        ),
        Posting(TransactionKind.BUY_IN, [Leg(cage, -1), Leg(c, 1)]),
    ]


def _written(write, postings, by, at) -> tuple:
    """What ``write`` stores, read back, then rolled back."""
    with transaction.atomic():
        last = LedgerTransaction.objects.order_by("-id").values_list("id", flat=True).first() or 0
        deltas: dict[int, int] = {}
        for posting in postings:
            for leg in posting.legs:
                deltas[leg.account.pk] = deltas.get(leg.account.pk, 0) + leg.amount
        answered = write(postings, deltas, by=by, at=at)
        made = list(LedgerTransaction.objects.filter(id__gt=last).order_by("id"))
        assert [t.pk for t in answered] == [t.pk for t in made]
        assert [p.transaction.pk for p in postings] == [t.pk for t in made]
        index = {t.pk: n for n, t in enumerate(made)}
        stored = (
            [(t.kind, t.at, t.by_id, t.round_id, t.currency, t.memo, t.reverses_id) for t in made],
            [
                (index[e.transaction_id], e.account_id, e.amount_cents, e.label)
                for e in LedgerEntry.objects.filter(transaction_id__in=index).order_by("id")
            ],
            [
                (t.kind, t.at, t.by_id, t.round_id, t.currency, t.memo, t.reverses_id)
                for t in answered
            ],
            all_balances(),
        )
        transaction.set_rollback(True)
    return stored


def test_one_statement_writes_what_the_orm_writes(staff, clock):
    mt = money_table(staff, {1: 1_000, 2: 1_000, 3: 1_000})
    accounts = [
        Account.objects.get(player=mt.seated[seat], table=mt.table, closed_at__isnull=True)
        for seat in (1, 2, 3)
    ]
    cage = ledger.cage_account()
    at = clock.advance(seconds=5)
    orm = _written(ledger._write, _postings(accounts, cage), staff.dealer, at)
    sql = _written(ledger._write_in_one_statement, _postings(accounts, cage), staff.dealer, at)
    assert sql == orm
    assert len(orm[0]) == 3 and len(orm[1]) == 7


def test_chips_below_zero_are_refused_and_nothing_is_written(staff, clock):
    mt = money_table(staff, {1: 1_000})
    chips = Account.objects.get(player=mt.seated[1], kind=AccountKind.PATRON_CHIPS)
    cage = ledger.cage_account()
    before = (LedgerTransaction.objects.count(), LedgerEntry.objects.count(), all_balances())
    posting = Posting(TransactionKind.CASH_OUT, [Leg(chips, -1_001), Leg(cage, 1_001)])
    with pytest.raises(RuleError) as refused, transaction.atomic():
        ledger.post_all([posting], by=staff.dealer)
    assert refused.value.rule is Rule.CHIPS_IN_FRONT
    assert (
        LedgerTransaction.objects.count(),
        LedgerEntry.objects.count(),
        all_balances(),
    ) == before
