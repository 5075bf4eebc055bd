"""EZ Baccarat hands of any wagers and any coup keep the books (docs/rules.md §14.6, §7.3):
chips in equal chips out (the players' changes, the player-dealer's and the drop's sum to
zero), the player-dealer's change before fees lies within [-W, +W], and ``verify_ledger``
finds nothing, the hand played again from its shoe."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from cardroom.errors import State
from rounds import services as rounds
from tests.builders.fees import table_schedule
from tests.builders.floor import give_button, open_floor, start_round
from tests.builders.money import all_balances, rolled_back, verified
from wagers.models import Account, AccountKind, PlayerDealerBank
from wagers.services import wagering
from wagers.services.wagering import BetRequest

CHIP = 500


@st.composite
def bettors(draw, seats: list[int]):
    """Each seat's wagers: a base wager on Player or Banker, side wagers up to it."""
    chosen = draw(st.lists(st.sampled_from(seats), min_size=1, max_size=len(seats), unique=True))
    requests = []
    for seat in sorted(chosen):
        base = CHIP * draw(st.integers(1, 20))
        side = st.sampled_from([0, *range(CHIP, base + 1, CHIP)])
        square = draw(st.sampled_from(["player", "banker"]))
        requests.append(
            BetRequest(
                seat,
                **{square: base},
                tie=draw(side),
                dragon_7=draw(side),
                panda_8=draw(side),
            )
        )
    return requests


@pytest.mark.django_db
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_any_hand_keeps_the_books(staff, data):
    with rolled_back():
        seats = data.draw(st.sampled_from([6, 7, 8, 9]), label="seats")
        table = open_floor(
            "P" * seats, staff=staff, game="ez_baccarat", deal_mode="rng", chips=500_000
        ).table
        table_schedule(table, by=staff.supervisor)
        pd_seat = data.draw(st.integers(1, seats), label="player-dealer")
        bank = CHIP * data.draw(st.integers(1, 200), label="bank in chips")
        others = [seat for seat in range(1, seats + 1) if seat != pd_seat]
        requests = data.draw(bettors(others), label="wagers")
        before = sum(all_balances().values())
        give_button(table.pk, pd_seat, by=staff.supervisor)
        round_ = start_round(table.pk, by=staff.dealer, bank=bank)
        wagering.place_bets(round_id=round_.pk, bets=requests, by=staff.dealer)
        rounds.close_wagering(round_id=round_.pk, by=staff.dealer)
        seed = data.draw(st.integers(0, 2**32), label="shoe")
        rounds.showdown(round_id=round_.pk, by=staff.dealer, rng=random.Random(seed))
        settled = rounds.settle(round_id=round_.pk, by=staff.dealer)
        assert settled.state == State.SETTLED
        after = all_balances()
        assert sum(after.values()) == before  # chips in = chips out, the drop's fees too
        in_play = Account.objects.filter(
            round=round_, kind__in=[AccountKind.ROUND_WAGERS, AccountKind.ROUND_BANK]
        )
        assert all(account.balance_cents == 0 for account in in_play)
        net = PlayerDealerBank.objects.get(round=round_).net_cents
        assert -bank <= net <= bank
        event(f"exhausted: {PlayerDealerBank.objects.get(round=round_).exhausted}")
        assert verified() == []
