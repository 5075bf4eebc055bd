"""Leaving a seat settles the chips in the same step (wagers.services.leaving): cashed out
(a patron's with the currency flag, a TPPP's bankroll by a credit) or carried to the
player's next seat at another table; a player with chips is never simply unseated, and a
refusal changes nothing. After every way of leaving, no chips are left at a table their
owner is not seated at, and verify_ledger finds no difference."""

from __future__ import annotations

import pytest

from cardroom.errors import Rule, RuleError, State, StateError
from tables.models import DealMode, Seating
from tests.builders.fees import differences
from tests.builders.money import Wager, all_balances, chips_of, money_table, play_round
from wagers.models import Account, AccountKind, LedgerTransaction, TransactionKind
from wagers.services.leaving import Chips, leave_seat

pytestmark = pytest.mark.django_db


def stranded() -> list[tuple[str, int]]:
    """Chip accounts holding chips whose player is not seated at their table."""
    seated = set(Seating.objects.filter(left_at__isnull=True).values_list("player", "table"))
    return [
        (str(account), account.balance_cents)
        for account in Account.objects.filter(
            kind__in=[AccountKind.PATRON_CHIPS, AccountKind.BANKROLL], balance_cents__gt=0
        )
        if (account.player_id, account.table_id) not in seated
    ]


@pytest.fixture
def tables(staff):
    first = money_table(staff, {1: 50_000, 2: 30_000, 6: 0}, tppp_seats=[2], name="FIRST")
    second = money_table(staff, {1: 10_000}, name="SECOND")
    return first, second


def seated_at(mt, seat):
    return Seating.objects.get(table=mt.table, seat=seat, left_at__isnull=True)


@pytest.mark.parametrize(
    ("seat", "chips", "currency", "kind", "flagged"),
    [
        (1, Chips.CASH_OUT, True, TransactionKind.CASH_OUT, True),  # cash paid: Title 31
        (1, Chips.CASH_OUT, False, TransactionKind.CASH_OUT, False),  # chips, no cash
        (2, Chips.CASH_OUT, True, TransactionKind.CREDIT, False),  # a TPPP's bankroll
    ],
)
def test_leaving_with_chips_cashes_them_out(tables, staff, seat, chips, currency, kind, flagged):
    first, _ = tables
    player = first.seated[seat]
    held = chips_of(player, first.table)
    left = leave_seat(
        table_id=first.table.pk, seat=seat, by=staff.dealer, chips=chips, currency=currency
    )
    assert left.seating.left_at is not None and left.chips_cents == held
    (posted,) = left.settled
    assert (posted.kind, posted.currency) == (kind, flagged)
    assert chips_of(player, first.table) == 0
    assert stranded() == [] and list(differences()) == []
    assert left.message.endswith("in chips cashed out")


def test_leaving_with_no_chips_needs_no_choice(tables, staff):
    first, _ = tables
    before = LedgerTransaction.objects.count()
    left = leave_seat(table_id=first.table.pk, seat=6, by=staff.dealer)
    assert (left.chips_cents, left.settled) == (0, ())
    assert LedgerTransaction.objects.count() == before


def test_carried_to_the_next_seat(tables, staff):
    first, second = tables
    player = first.seated[1]
    left = leave_seat(
        table_id=first.table.pk,
        seat=1,
        by=staff.dealer,
        chips=Chips.CARRY,
        to_table_id=second.table.pk,
        to_seat=4,
    )
    assert left.next_seating == seated_at(second, 4)
    assert left.next_seating.player == player
    assert chips_of(player, first.table) == 0
    assert chips_of(player, second.table) == 50_000
    out, back_in = left.settled
    assert (out.kind, back_in.kind) == (TransactionKind.CASH_OUT, TransactionKind.BUY_IN)
    assert not out.currency and not back_in.currency  # no cash changed hands
    assert "carried to SECOND" in out.memo and "carried from FIRST" in back_in.memo
    assert stranded() == [] and list(differences()) == []


def test_a_tppp_bankroll_is_carried_by_a_credit_and_a_fill(tables, staff):
    first, second = tables
    left = leave_seat(
        table_id=first.table.pk,
        seat=2,
        by=staff.dealer,
        chips="carry",
        to_table_id=second.table.pk,
        to_seat=3,
    )
    assert [t.kind for t in left.settled] == [TransactionKind.CREDIT, TransactionKind.FILL]
    assert chips_of(first.seated[2], second.table) == 30_000
    assert stranded() == [] and list(differences()) == []


REFUSED = [
    # (seat, arguments, the error, its rule or state, the field)
    (1, {}, RuleError, Rule.CHIPS_IN_FRONT, "chips"),  # chips, and no word of them
    (1, {"chips": "carry"}, RuleError, Rule.CHIPS_IN_FRONT, "to_table"),
    (1, {"chips": "carry", "to_table_id": "second"}, RuleError, Rule.CHIPS_IN_FRONT, "to_seat"),
    (1, {"chips": "carry", "to_table_id": "first", "to_seat": 4}, RuleError, Rule.CHIPS_IN_FRONT,
     "to_table"),
    (1, {"chips": "carry", "to_table_id": "second", "to_seat": 1}, RuleError, Rule.SEATS, "seat"),
    (3, {"chips": "cash_out"}, RuleError, Rule.SEATS, "seat"),  # an empty seat
    # A next seat named, and the chips not carried there: cashed out, or no word of them.
    (1, {"chips": "cash_out", "to_table_id": "second", "to_seat": 4}, RuleError,
     Rule.CHIPS_IN_FRONT, "to_table"),
    (1, {"chips": "cash_out", "to_seat": 4}, RuleError, Rule.CHIPS_IN_FRONT, "to_seat"),
    (6, {"to_table_id": "second", "to_seat": 4}, RuleError, Rule.CHIPS_IN_FRONT, "to_table"),
]  # fmt: skip


@pytest.mark.parametrize(("seat", "arguments", "error", "reason", "field"), REFUSED)
def test_refused_changes_nothing(tables, staff, seat, arguments, error, reason, field):
    first, second = tables
    ids = {"first": first.table.pk, "second": second.table.pk}
    if "to_table_id" in arguments:
        arguments = {**arguments, "to_table_id": ids[arguments["to_table_id"]]}
    before = (all_balances(), LedgerTransaction.objects.count(), list(Seating.objects.all()))
    with pytest.raises(error) as raised:
        leave_seat(table_id=first.table.pk, seat=seat, by=staff.dealer, **arguments)
    assert (raised.value.rule, raised.value.field) == (reason, field)
    assert before == (
        all_balances(),
        LedgerTransaction.objects.count(),
        list(Seating.objects.all()),
    )
    assert [s.left_at for s in Seating.objects.all()] == [s.left_at for s in before[2]]


def test_a_cash_out_names_no_next_seat(tables, staff):
    first, second = tables
    with pytest.raises(RuleError) as raised:
        leave_seat(
            table_id=first.table.pk,
            seat=1,
            by=staff.dealer,
            chips=Chips.CASH_OUT,
            to_table_id=second.table.pk,
            to_seat=4,
        )
    assert raised.value.message == (
        "the chips are cashed out: a next table and seat are named only to carry the chips "
        "there (chips: carry)"
    )
    assert not Seating.objects.filter(table=second.table, seat=4).exists()


def test_a_player_in_the_hand_in_play_cannot_leave(staff):
    mt = money_table(staff, {1: 50_000, 2: 50_000}, deal_mode=DealMode.RNG)
    round_ = play_round(mt, pd_seat=1, bank=20_000, wagers=[Wager(2, 500)], until=State.FLOP)
    with pytest.raises(StateError) as raised:
        leave_seat(table_id=mt.table.pk, seat=2, by=staff.dealer, chips=Chips.CASH_OUT)
    assert raised.value.state == State.FLOP
    assert seated_at(mt, 2).left_at is None
    assert chips_of(mt.seated[2], mt.table) > 0 and round_.state == State.FLOP
