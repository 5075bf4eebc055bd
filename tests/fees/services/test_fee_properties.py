"""Properties of fees over random hands played through the services (docs/rules.md §9).

Each example sets up two identical tables with the same schedule (per betting square or
on total table action) and the same random wagers and decisions, and deals them from two
different RNG seeds, to the end. Then:

- the fee lines are the same at both tables: fees do not depend on the cards dealt;
- each table's drop equals the sum of its fee lines;
- chips are conserved: the bettors', the player-dealer's and the drop's changes sum to zero;
- the ledger verifies (``verify_ledger`` finds nothing).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardroom.errors import State
from fees.selectors import fee_lines
from tests.builders.fees import ACTION, STANDARD, differences, table_schedule
from tests.builders.floor import FOLD, PLAY_3X, PLAY_4X, PLAY_FLOP, PLAY_RIVER
from tests.builders.money import Wager, money_table, play_round, rolled_back
from wagers.models import Account, AccountKind

pytestmark = pytest.mark.django_db
SEATS = (2, 3, 4)


@st.composite
def hands(draw):
    seats = draw(st.lists(st.sampled_from(SEATS), min_size=1, max_size=3, unique=True))
    wagers = []
    for seat in sorted(seats):
        ante = draw(st.integers(5, 60)) * 100
        trips = draw(st.sampled_from([0, 0, 500, 2_600, 10_001 // 100 * 100 + 100]))
        bad_beat = draw(st.sampled_from([0, 500]))
        wagers.append(Wager(seat, ante, trips=trips, bad_beat=bad_beat))
    if draw(st.booleans()):
        wagers.append(Wager(sorted(seats)[0], draw(st.integers(5, 30)) * 100, behind=0))
    decisions = {
        seat: draw(st.sampled_from([PLAY_4X, PLAY_3X, PLAY_FLOP, PLAY_RIVER, FOLD]))
        for seat in seats
    }
    return {
        "wagers": wagers,
        "decisions": decisions,
        "bank": draw(st.integers(1, 2_000)) * 100,
        "basis": draw(st.sampled_from(["per_betting_square", "total_table_action"])),
        "seeds": draw(st.lists(st.integers(0, 2**32), min_size=2, max_size=2, unique=True)),
    }


def _table(staff, basis):
    mt = money_table(
        staff,
        {1: 300_000, 2: 300_000, 3: 300_000, 4: 300_000},
        backliners=[300_000],
        deal_mode="rng",
    )
    rates = STANDARD if basis == "per_betting_square" else ACTION
    table_schedule(mt.table, by=staff.supervisor, rates=rates, basis=basis)
    return mt


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(hand=hands())
def test_fees_ignore_the_cards_and_the_books_balance(staff, clock, hand):
    with rolled_back():
        tables = [_table(staff, hand["basis"]) for _ in hand["seeds"]]
        clock.advance(seconds=1)
        assessed = []
        for mt, seed in zip(tables, hand["seeds"], strict=True):
            before = sum(mt.chip_balances().values())
            round_ = play_round(
                mt,
                pd_seat=1,
                bank=hand["bank"],
                wagers=hand["wagers"],
                decisions=hand["decisions"],
                rng=random.Random(seed),
            )
            assert round_.state == State.SETTLED
            lines = list(fee_lines(round_))
            drop = Account.objects.get(kind=AccountKind.DROP, table=mt.table).balance_cents
            assert drop == sum(line.amount_cents for line in lines) > 0
            assert sum(mt.chip_balances().values()) + drop == before
            assessed.append(
                [
                    (
                        x.payer_kind,
                        x.seat,
                        x.bettor,
                        x.square,
                        x.wager_cents,
                        x.rate_position,
                        x.amount_cents,
                    )
                    for x in lines
                ]
            )
        assert assessed[0] == assessed[1]
        assert list(differences()) == []
