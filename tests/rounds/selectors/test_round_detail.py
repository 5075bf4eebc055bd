"""A round in full (``rounds.selectors.round_detail``): the floor's record with the money of
the hand, in a fixed number of queries whatever the number of hands and bets."""

from __future__ import annotations

import pytest

from cardroom.errors import State
from rounds.selectors import round_detail, round_list
from tests.builders.floor import PLAY_4X, PLAY_RIVER
from tests.builders.money import Wager, money_table, play_round

pytestmark = pytest.mark.django_db


def a_round(staff, seats: int):
    chips = {seat: 100_000 for seat in range(1, seats + 2)}
    mt = money_table(staff, chips, deal_mode="rng", backliners=[50_000])
    wagers = [Wager(seat, 500) for seat in range(2, seats + 2)]
    wagers.append(Wager(2, 500, behind=0))
    decisions = {seat: PLAY_4X if seat % 2 else PLAY_RIVER for seat in range(2, seats + 2)}
    return play_round(mt, pd_seat=1, bank=50_000, wagers=wagers, decisions=decisions)


@pytest.mark.parametrize("seats", [1, 5])
def test_a_round_in_full_costs_six_queries(staff, clock, seats, django_assert_num_queries):
    round_ = a_round(staff, seats)
    # the round, its hands, their decisions, its transitions, the bank, the bets
    with django_assert_num_queries(6):
        detail = round_detail(round_id=round_.pk)
        hands = list(detail.hands.all())
        decisions = [d for hand in hands for d in hand.decisions.all()]
        bets = [bet for hand in hands for bet in hand.bets.all()]
        transitions = list(detail.transitions.all())
        bank = detail.bank
    assert detail.state == State.SETTLED and len(hands) == seats
    assert len(bets) == seats + 1 and bets[1].bettor == 1  # the backline bettor behind seat 2
    assert len(decisions) == sum(1 if h.seat % 2 else 3 for h in hands)
    assert [t.to_state for t in transitions][-1] == State.SETTLED
    assert bank.amount_cents == 50_000 and bank.net_cents is not None


def test_the_rounds_list_is_one_query(staff, clock, django_assert_num_queries):
    a_round(staff, 2)
    a_round(staff, 1)
    with django_assert_num_queries(1):
        rows = [(r.player_dealer.name, r.started_by.username) for r in round_list()]
    assert len(rows) == 2
