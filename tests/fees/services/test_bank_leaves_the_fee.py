"""The bank leaves the player-dealer's collection fee at the table (docs/rules.md §9.4): a
bank that leaves fewer chips beside it than the least fee the player-dealer will owe at "no
more bets", under the schedule frozen when the hand started, is refused naming the rule, the
amounts in dollars and the largest bank that leaves the fee; nothing is written. A fuller
layout may still owe more: "no more bets" stops on it as before."""

from __future__ import annotations

import pytest

from cardroom.errors import Rule, RuleError, State
from rounds import services as rounds
from tests.builders.fees import ACTION, STANDARD, table_schedule
from tests.builders.floor import give_button
from tests.builders.money import Wager, money_table, place
from wagers.models import LedgerTransaction, PlayerDealerBank

pytestmark = pytest.mark.django_db

PER_SQUARE = (STANDARD, "per_betting_square")
ON_ACTION = (ACTION, "total_table_action")
# Seat 2: $10 Ante and Blind and $5 Trips; seat 3: $50 Ante and Blind. The player-dealer's
# fees on them per square: $0.25 x 3 + $0.50 x 2 = $1.75.
LAYOUT = [Wager(2, 1_000, trips=500), Wager(3, 5_000)]

# (schedule, the player-dealer's chips, wagers before the bank, the bank) -> the refusal's
# words, or None: posted. The table's chip is $1.
ROWS = {
    # Nothing wagered yet: a seat's $5 Ante and Blind owe the player-dealer $0.25 each.
    "every chip, per square": (
        PER_SQUARE, 100_000, [], 100_000,
        "a bank of $1,000.00 leaves {pd} $0.00 in chips at the table; the player-dealer owes "
        'at least $0.50 in collection fees at "no more bets", paid from the chips beside the '
        "bank, not from it: post a bank of at most $999.00, or buy in first",
    ),
    "a dollar beside the bank": (PER_SQUARE, 100_000, [], 99_900, None),
    # Wagers already on the layout: their fees, $1.75.
    "wagers on the layout first": (
        PER_SQUARE, 100_000, LAYOUT, 99_900,
        "a bank of $999.00 leaves {pd} $1.00 in chips at the table; the player-dealer owes at "
        "least $1.75",
    ),
    "two dollars beside it": (PER_SQUARE, 100_000, LAYOUT, 99_800, None),
    # On total table action: the least hand's $10 is in the first range, $1.00.
    "every chip, on total action": (
        ON_ACTION, 100_000, [], 100_000, "owes at least $1.00 in collection fees",
    ),
    "on total action, a dollar beside it": (ON_ACTION, 100_000, [], 99_900, None),
    # A player-dealer holding one $1 chip: no bank leaves the $1.75.
    "no bank leaves the fee": (
        PER_SQUARE, 100, LAYOUT, 100,
        "a bank of $1.00 leaves {pd} $0.00 in chips at the table; the player-dealer owes at "
        'least $1.75 in collection fees at "no more bets", paid from the chips beside the '
        "bank, not from it: buy in first",
    ),
    # No schedule in force: no fee, every chip may be banked.
    "no schedule": (None, 100_000, LAYOUT, 100_000, None),
}  # fmt: skip


def _round(staff, clock, schedule, chips, *, tppp=False):
    mt = money_table(
        staff, {1: chips, 2: 100_000, 3: 100_000}, deal_mode="rng", tppp_seats=(1,) if tppp else ()
    )
    if schedule is not None:
        rates, basis = schedule
        table_schedule(mt.table, by=staff.supervisor, rates=rates, basis=basis)
    clock.advance(seconds=1)
    give_button(mt.table.pk, 1, by=staff.dealer)
    return mt, rounds.start_round(table_id=mt.table.pk, by=staff.dealer)


@pytest.mark.parametrize("name", list(ROWS))
def test_the_bank_leaves_the_player_dealers_fee(staff, clock, name):
    schedule, chips, before, bank, refusal = ROWS[name]
    mt, round_ = _round(staff, clock, schedule, chips)
    place(mt, round_, before)
    written = LedgerTransaction.objects.count()
    if refusal is None:
        posted = rounds.post_bank(round_id=round_.pk, amount=bank, by=staff.dealer)
        assert posted.amount_cents == bank and mt.chips(mt.seated[1]) == chips - bank
        return
    with pytest.raises(RuleError) as caught:
        rounds.post_bank(round_id=round_.pk, amount=bank, by=staff.dealer)
    error = caught.value
    assert (error.rule, error.field) == (Rule.FEE_COLLECTION, "amount")
    assert refusal.format(pd=mt.seated[1].name) in error.message
    # Nothing written: no bank, no posting, the chips where they were.
    assert not PlayerDealerBank.objects.filter(round=round_).exists()
    assert LedgerTransaction.objects.count() == written
    assert mt.chips(mt.seated[1]) == chips


def test_a_tppp_is_told_to_fill_the_bankroll(staff, clock):
    _, round_ = _round(staff, clock, PER_SQUARE, 100_000, tppp=True)
    with pytest.raises(RuleError) as caught:
        rounds.post_bank(round_id=round_.pk, amount=100_000, by=staff.dealer)
    assert caught.value.message.endswith(
        "post a bank of at most $999.00, or fill the bankroll first"
    )


def test_the_chips_are_checked_before_the_fee(staff, clock):
    """A bank above the chips is refused by its own rule (chips.in_front) first."""
    _, round_ = _round(staff, clock, PER_SQUARE, 100_000)
    with pytest.raises(RuleError) as caught:
        rounds.post_bank(round_id=round_.pk, amount=100_100, by=staff.dealer)
    assert caught.value.rule is Rule.CHIPS_IN_FRONT


def test_the_least_fee_is_a_floor_a_fuller_layout_still_stops_no_more_bets(staff, clock):
    """A dollar left beside the bank covers the least fee ($0.50); the $1.75 the layout then
    owes does not: "no more bets" stops on it until the player-dealer buys in."""
    mt, round_ = _round(staff, clock, PER_SQUARE, 100_000)
    rounds.post_bank(round_id=round_.pk, amount=99_900, by=staff.dealer)
    place(mt, round_, LAYOUT)
    with pytest.raises(RuleError) as caught:
        rounds.close_wagering(round_id=round_.pk, by=staff.dealer)
    assert caught.value.rule is Rule.FEE_COLLECTION and caught.value.field == "fees"
    assert "the player-dealer owes $1.75 in collection fees and has $1.00" in caught.value.message
    round_.refresh_from_db()
    assert round_.state == State.WAGERING
