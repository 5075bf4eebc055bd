"""The books keep themselves: ``verify_ledger`` finds tampering, the database refuses edits.

(a) On either database: ``verify_ledger`` passes on simulated rounds and fails (non-zero
exit, ``CommandError``) once a row is tampered with through raw SQL. On PostgreSQL the
immutability triggers refuse such an UPDATE, so the tampering is done as an attacker with
database access would: triggers off (``session_replication_role = replica``) for it.

(b) On PostgreSQL (``requires_postgres``, real commits): an unbalanced transaction is
refused at COMMIT by the deferred trigger; UPDATE and DELETE of ledger rows, settlement
lines and finished rounds are refused; corrections are reversing transactions.
"""

from __future__ import annotations

import random
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, connection, transaction
from django.db.models import F

from cardroom.clock import now
from cardroom.errors import RuleError, State
from cardroom.money import dollars
from rounds import services as rounds
from tables.models import DealMode, Hand, HandDecision, Round
from tests.builders.floor import PLAY_4X
from tests.builders.money import (
    Wager,
    all_balances,
    chips_of,
    money_table,
    place,
    play_round,
    start,
)
from wagers.models import (
    Account,
    AccountKind,
    Bet,
    LedgerEntry,
    LedgerTransaction,
    PlayerDealerBank,
    SettlementLine,
    TransactionKind,
)
from wagers.services import chips
from wagers.services.ledger import Leg, cage_account, post, reverse
from wagers.verification import differences


def found() -> set[tuple[str, int, int]]:
    """(check, row id, cents off) of every difference ``verify_ledger`` finds."""
    return {(d.check, d.row_id, d.off) for d in differences()}


CHECK_VIOLATION = "23514"
RESTRICT_VIOLATION = "23001"


def verify() -> tuple[str, str]:
    """Run ``verify_ledger``; answer (stdout, stderr); CommandError on any difference."""
    out, err = StringIO(), StringIO()
    call_command("verify_ledger", stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def verify_fails() -> str:
    err = StringIO()
    with pytest.raises(CommandError, match=r"difference\(s\) in the ledger"):
        call_command("verify_ledger", stdout=StringIO(), stderr=err)
    return err.getvalue()


@pytest.fixture
def simulated(db):
    call_command("simulate", tables=2, rounds=6, seed=3, stdout=StringIO())
    assert Round.objects.filter(state=State.SETTLED).exists()
    out, err = verify()
    assert "no differences" in out and err == ""
    return Round.objects.filter(state=State.SETTLED)


# --- (a) verify_ledger finds tampering ------------------------------------------------------


@pytest.mark.django_db
def test_verify_ledger_passes_on_simulated_rounds(simulated):
    assert list(differences()) == []
    assert SettlementLine.objects.filter(round__in=simulated).exists()


@pytest.mark.django_db
def test_verify_ledger_finds_a_tampered_entry(simulated, tamper):
    entry = (
        LedgerEntry.objects.filter(
            transaction__kind=TransactionKind.BUY_IN, account__kind=AccountKind.PATRON_CHIPS
        )
        .order_by("id")
        .first()
    )
    tamper(
        "UPDATE wagers_ledgerentry SET amount_cents = amount_cents + 100 WHERE id = %s",
        [entry.pk],
        "UPDATE wagers_ledgerentry SET amount_cents = amount_cents - 100 WHERE id = %s",
    )

    assert found() == {
        ("unbalanced transaction", entry.transaction_id, 100),
        ("cached balance differs from entries", entry.account_id, -100),
        # The buy-in's cage slip says how much the patron's leg was.
        ("chip movement differs from its cage slip", entry.transaction_id, 100),
    }
    err = verify_fails()
    assert (
        f"DIFFERENCE unbalanced transaction: transaction {entry.transaction_id}: "
        "expected $0.00, found $1.00\n" in err
    )
    account = entry.account
    assert (
        f"DIFFERENCE cached balance differs from entries: account {account.pk} "
        f"({account.player}'s chips at {account.table}): "
        f"expected {dollars(account.balance_cents + 100)}, found {dollars(account.balance_cents)}\n"
        in err
    )


@pytest.mark.django_db
def test_verify_ledger_finds_a_tampered_cached_balance(simulated, tamper):
    account = Account.objects.filter(kind=AccountKind.PATRON_CHIPS).order_by("id").first()
    tamper(
        "UPDATE wagers_account SET balance_cents = balance_cents + 100 WHERE id = %s",
        [account.pk],
        "UPDATE wagers_account SET balance_cents = balance_cents - 100 WHERE id = %s",
    )

    assert found() == {("cached balance differs from entries", account.pk, 100)}
    assert "cached balance differs from entries" in verify_fails()


@pytest.mark.django_db
def test_verify_ledger_finds_a_tampered_settlement_line(simulated, tamper):
    line = (
        SettlementLine.objects.filter(outcome="lose", collected_cents__gte=100)
        .order_by("id")
        .first()
    )
    tamper(
        "UPDATE wagers_settlementline SET collected_cents = collected_cents - 100 WHERE id = %s",
        [line.pk],
        "UPDATE wagers_settlementline SET collected_cents = collected_cents + 100 WHERE id = %s",
    )

    assert found() == {
        ("settlement lines disagree with the bank's result", line.round_id, 100),
        ("settlement line does not add up", line.pk, -100),
        # Its transaction no longer matches it: the bank took 100 more, the bettor 100 less.
        ("settlement entry differs from its line", line.transaction_id, 100),
        ("settlement entry differs from its line", line.transaction_id, -100),
    }
    err = verify_fails()
    assert "settlement line does not add up" in err
    assert "settlement lines disagree with the bank's result" in err


@pytest.mark.django_db
def test_verify_ledger_finds_a_tampered_bank_result(simulated, tamper):
    bank = PlayerDealerBank.objects.filter(round__in=simulated).order_by("id").first()
    tamper(
        "UPDATE wagers_playerdealerbank SET net_cents = net_cents - 100 WHERE id = %s",
        [bank.pk],
        "UPDATE wagers_playerdealerbank SET net_cents = net_cents + 100 WHERE id = %s",
    )

    assert found() == {
        ("settlement lines disagree with the bank's result", bank.round_id, -100),
        # W + net is 100 less than the bank return posted, on both of its legs
        ("bank return differs from W + net", bank.round_id, 100),
        ("bank return differs from W + net", bank.round_id, -100),
    }
    verify_fails()


@pytest.mark.django_db
def test_verify_ledger_finds_chips_left_in_a_finished_round(simulated, tamper):
    round_ = simulated.order_by("id").first()
    entry = LedgerEntry.objects.filter(
        transaction__round=round_,
        transaction__kind=TransactionKind.SETTLEMENT,
        account__kind=AccountKind.ROUND_WAGERS,
    ).first()
    cage = cage_account()
    # The entry taking a wager out of the round now takes it out of the cage instead.
    tamper(
        "UPDATE wagers_ledgerentry SET account_id = %s WHERE id = %s",
        [cage.pk, entry.pk],
        "UPDATE wagers_ledgerentry SET account_id = %s WHERE id = %s",
        [entry.account_id, entry.pk],
    )

    stake = -entry.amount_cents
    assert found() == {
        ("cached balance differs from entries", entry.account_id, -stake),
        ("cached balance differs from entries", cage.pk, stake),
        ("finished round left chips in play", round_.pk, stake),
        ("settlement entry differs from its line", entry.transaction_id, stake),
        ("settlement entry differs from its line", entry.transaction_id, -stake),
    }
    assert "finished round left chips in play" in verify_fails()


# --- Python refuses what does not balance (either database) -------------------------------


@pytest.mark.django_db
def test_an_unbalanced_posting_is_refused_before_any_row_is_written(staff):
    mt = money_table(staff, {1: 10_000})
    account = Account.objects.get(player=mt.seated[1])
    count = LedgerTransaction.objects.count()
    with pytest.raises(RuleError, match="does not balance"):
        post(
            TransactionKind.REVERSAL,
            [Leg(cage_account(), 100), Leg(account, -99)],
            by=staff.dealer,
        )
    assert LedgerTransaction.objects.count() == count
    assert list(differences()) == []


# --- Corrections are reversing transactions (either database) ------------------------------


@pytest.mark.django_db
def test_a_correction_reverses_a_transaction_and_links_to_it(staff):
    mt = money_table(staff, {1: 10_000, 2: 20_000})
    player = mt.seated[2]
    buy_in = LedgerTransaction.objects.filter(
        kind=TransactionKind.BUY_IN, entries__account__player=player
    ).get()
    balances = all_balances()

    correction = reverse(buy_in, by=staff.supervisor, memo="keyed to the wrong player")

    assert correction.kind == TransactionKind.REVERSAL
    assert correction.reverses_id == buy_in.pk
    assert LedgerTransaction.objects.get(pk=buy_in.pk).reversed_by == correction
    original = {e.account_id: e.amount_cents for e in buy_in.entries.all()}
    assert {e.account_id: e.amount_cents for e in correction.entries.all()} == {
        pk: -amount for pk, amount in original.items()
    }
    assert chips_of(player, mt.table) == 0
    now_ = all_balances()
    assert {pk: now_[pk] - balances[pk] for pk in original} == {
        pk: -amount for pk, amount in original.items()
    }
    # The original is still there, unchanged: history is never edited.
    assert {e.account_id: e.amount_cents for e in buy_in.entries.all()} == original
    assert list(differences()) == []

    count = LedgerTransaction.objects.count()
    with pytest.raises(RuleError, match="already reversed"):
        reverse(LedgerTransaction.objects.get(pk=buy_in.pk), by=staff.supervisor, memo="again")
    assert LedgerTransaction.objects.count() == count


@pytest.mark.django_db
def test_reversing_twice_through_the_same_instance_is_refused_by_the_rule(staff):
    """The instance passed the first time is the one a caller most likely has at hand."""
    mt = money_table(staff, {1: 10_000})
    buy_in = LedgerTransaction.objects.get(kind=TransactionKind.BUY_IN)
    reverse(buy_in, by=staff.supervisor, memo="first")
    count = LedgerTransaction.objects.count()

    with pytest.raises(RuleError, match="already reversed"), transaction.atomic():
        reverse(buy_in, by=staff.supervisor, memo="second")
    assert LedgerTransaction.objects.count() == count
    assert chips_of(mt.seated[1], mt.table) == 0


@pytest.mark.django_db(transaction=True)
def test_a_refused_reversal_leaves_nothing_behind(staff):
    """Reversing a buy-in whose chips are already wagered would overdraw: refused, and the
    reversal must not stay half-posted (its rows without the balances)."""
    mt = money_table(staff, {1: 100_000, 2: 1_000})
    player = mt.seated[2]
    buy_in = LedgerTransaction.objects.filter(
        kind=TransactionKind.BUY_IN, entries__account__player=player
    ).get()
    round_ = start(mt, 1, 10_000)
    place(mt, round_, [Wager(2, 500)])  # all 1,000 of the buy-in is on the table
    count = LedgerTransaction.objects.count()
    balances = all_balances()

    with pytest.raises(RuleError, match="not enough chips"):
        reverse(buy_in, by=staff.supervisor, memo="the chips were never bought")

    assert list(differences()) == []
    assert LedgerTransaction.objects.count() == count
    assert all_balances() == balances
    assert not LedgerTransaction.objects.filter(reverses=buy_in).exists()  # may be retried


# --- (b) PostgreSQL refuses what breaks the books --------------------------------------------


def _sqlstate(error: BaseException) -> str | None:
    cause = error.__cause__
    return getattr(cause, "sqlstate", None) or getattr(
        getattr(cause, "diag", None), "sqlstate", None
    )


def _delete(table: str, pk: int) -> None:
    """A raw DELETE (the ORM would stop first at the PROTECT foreign keys)."""
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {table} WHERE id = %s", [pk])


@pytest.fixture
def rng_staff_round(staff):
    mt = money_table(staff, {1: 100_000, 2: 100_000, 3: 100_000}, deal_mode=DealMode.RNG)
    round_ = play_round(
        mt,
        pd_seat=1,
        bank=20_000,
        wagers=[Wager(2, 500, trips=500), Wager(3, 1_000)],
        decisions={2: PLAY_4X, 3: PLAY_4X},
        rng=random.Random(11),
    )
    assert round_.state == State.SETTLED
    return mt, round_


@pytest.mark.requires_postgres
@pytest.mark.django_db(transaction=True)
def test_an_unbalanced_transaction_is_refused_at_commit(staff):
    mt = money_table(staff, {1: 10_000})
    account = Account.objects.get(player=mt.seated[1])
    cage = cage_account()
    count = LedgerTransaction.objects.count()

    # Entry by entry in one transaction is fine while it balances by COMMIT (deferred).
    with transaction.atomic():
        posted = LedgerTransaction.objects.create(
            kind=TransactionKind.CASH_OUT, at=now(), by=staff.dealer
        )
        LedgerEntry.objects.create(transaction=posted, account=cage, amount_cents=100)
        LedgerEntry.objects.create(transaction=posted, account=account, amount_cents=-100)
    assert LedgerTransaction.objects.count() == count + 1

    with pytest.raises(IntegrityError) as refused, transaction.atomic():
        bad = LedgerTransaction.objects.create(
            kind=TransactionKind.CASH_OUT, at=now(), by=staff.dealer
        )
        LedgerEntry.objects.create(transaction=bad, account=cage, amount_cents=100)
        LedgerEntry.objects.create(transaction=bad, account=account, amount_cents=-99)
    assert _sqlstate(refused.value) == CHECK_VIOLATION
    assert "does not balance" in str(refused.value)
    assert not LedgerTransaction.objects.filter(pk=bad.pk).exists()

    # The same through raw SQL.
    with (
        pytest.raises(IntegrityError) as refused,
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(
            "INSERT INTO wagers_ledgertransaction (kind, at, by_id, currency, memo)"
            " VALUES ('cash_out', now(), %s, false, 'raw') RETURNING id",
            [staff.dealer.pk],
        )
        (raw_id,) = cursor.fetchone()
        cursor.execute(
            "INSERT INTO wagers_ledgerentry (transaction_id, account_id, amount_cents, label)"
            " VALUES (%s, %s, 500, '')",
            [raw_id, cage.pk],
        )
    assert _sqlstate(refused.value) == CHECK_VIOLATION
    assert LedgerTransaction.objects.count() == count + 1


@pytest.mark.requires_postgres
@pytest.mark.django_db(transaction=True)
def test_history_rows_refuse_update_and_delete(rng_staff_round):
    _, round_ = rng_staff_round
    line = SettlementLine.objects.filter(round=round_).first()
    entry = LedgerEntry.objects.filter(transaction__round=round_).first()
    posted = entry.transaction
    edits = {
        "entry update": lambda: LedgerEntry.objects.filter(pk=entry.pk).update(
            amount_cents=F("amount_cents") + 1
        ),
        "entry delete": lambda: _delete("wagers_ledgerentry", entry.pk),
        "transaction update": lambda: LedgerTransaction.objects.filter(pk=posted.pk).update(
            memo="edited"
        ),
        "transaction delete": lambda: _delete("wagers_ledgertransaction", posted.pk),
        "line update": lambda: SettlementLine.objects.filter(pk=line.pk).update(
            paid_cents=F("paid_cents") + 100
        ),
        "line delete": lambda: _delete("wagers_settlementline", line.pk),
        "round delete": lambda: _delete("tables_round", round_.pk),
        "round update": lambda: Round.objects.filter(pk=round_.pk).update(void_reason="edited"),
        "round state": lambda: Round.objects.filter(pk=round_.pk).update(state="showdown"),
    }
    for what, edit in edits.items():
        with pytest.raises(IntegrityError) as refused, transaction.atomic():
            edit()
        assert _sqlstate(refused.value) == RESTRICT_VIOLATION, what
        assert "cannot be changed" in str(refused.value) or "never edited" in str(refused.value)
    assert list(differences()) == []


@pytest.mark.requires_postgres
@pytest.mark.django_db(transaction=True)
def test_a_voided_round_refuses_update_but_a_round_in_play_does_not(staff):
    mt = money_table(staff, {1: 100_000, 2: 100_000}, deal_mode=DealMode.RNG)
    round_ = start(mt, 1, 10_000)
    place(mt, round_, [Wager(2, 500)])
    assert Round.objects.filter(pk=round_.pk).update(void_reason="") == 1  # still in play
    rounds.void_round(round_id=round_.pk, by=staff.dealer, reason="misdeal")
    with pytest.raises(IntegrityError) as refused, transaction.atomic():
        Round.objects.filter(pk=round_.pk).update(void_reason="edited")
    assert _sqlstate(refused.value) == RESTRICT_VIOLATION


@pytest.mark.requires_postgres
@pytest.mark.django_db(transaction=True)
def test_a_settled_hands_wagers_and_bank_refuse_edits(rng_staff_round):
    """docs/rules.md §10.1: nothing about a settled hand is ever edited (its wagers, decisions and
    bank included), and verify_ledger cannot see such an edit, so the database must refuse."""
    _, round_ = rng_staff_round
    bet = Bet.objects.filter(hand__round=round_).first()
    hand = Hand.objects.filter(round=round_).first()
    edits = {
        "bet": lambda: Bet.objects.filter(pk=bet.pk).update(trips_cents=F("trips_cents") + 500),
        "bank": lambda: PlayerDealerBank.objects.filter(round=round_).update(
            amount_cents=F("amount_cents") + 100
        ),
        "hand": lambda: Hand.objects.filter(pk=hand.pk).update(hole=["As", "Ah"]),
        "decision": lambda: HandDecision.objects.filter(hand=hand).update(action="fold"),
    }
    edited = []
    for what, edit in edits.items():
        try:
            with transaction.atomic():
                edit()
                edited.append(what)
                raise _Undo
        except _Undo:
            pass
        except IntegrityError:
            pass
    assert edited == [], f"a settled hand's {', '.join(edited)} row(s) accepted an UPDATE"


class _Undo(Exception):
    pass


@pytest.mark.requires_postgres
@pytest.mark.django_db(transaction=True)
def test_a_reversal_is_committed_and_balanced(staff):
    mt = money_table(staff, {1: 10_000})
    fill_or_buy_in = LedgerTransaction.objects.get(kind=TransactionKind.BUY_IN)
    with transaction.atomic():
        correction = reverse(fill_or_buy_in, by=staff.supervisor, memo="wrong table")
    assert LedgerTransaction.objects.get(pk=correction.pk).reverses_id == fill_or_buy_in.pk
    assert chips_of(mt.seated[1], mt.table) == 0
    with pytest.raises(RuleError, match="already reversed"):
        reverse(LedgerTransaction.objects.get(pk=fill_or_buy_in.pk), by=staff.supervisor, memo="x")
    chips.buy_in(
        table_id=mt.table.pk, player_id=mt.seated[1].pk, amount=500, currency=True, by=staff.dealer
    )
    assert list(differences()) == []
