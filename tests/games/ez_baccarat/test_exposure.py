"""The action on the layout against the bank at an EZ Baccarat table (docs/rules.md §14.11):
the five outcomes of a coup, the likely case and the worst by table rows, and, as properties
over random layouts and coups, that no coup the rules allow costs the bank more than the worst
case or leaves more unpaid, and that each outcome's figures are the settlement's own."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.ez_baccarat.coup import deal_coup
from games.ez_baccarat.exposure import (
    COUPS,
    Case,
    action_against_the_bank,
    case_figures,
    case_of,
    stakes_by_seat,
)
from games.ez_baccarat.options import BaccaratOptions
from games.ez_baccarat.settlement import settle
from games.ez_baccarat.wagers import Stakes
from games.registry import game
from tables.rules.cards import FULL_DECK
from tests.builders.baccarat import coup
from wagers.rules.layout import Alarm, exposure_of


def test_a_coup_of_each_outcome():
    assert {case: (c.player_total, c.banker_total, len(c.player), len(c.banker))
            for case, c in COUPS.items()} == {
        Case.PLAYER: (9, 0, 2, 2),
        Case.PANDA_8: (8, 5, 3, 3),
        Case.BANKER: (0, 9, 2, 2),
        Case.DRAGON_7: (1, 7, 3, 3),
        Case.TIE: (9, 9, 2, 2),
    }  # fmt: skip
    assert all(case_of(c) is case for case, c in COUPS.items())


@pytest.mark.parametrize(
    ("cards", "case"),
    [
        ("9h Kd Kc Ks", Case.PLAYER),
        ("2h Kd 3c Ks 3s 5d", Case.PANDA_8),
        ("2h Kd 3c Ks 3s 9d", Case.BANKER),  # a three-card 8 that loses to 9: no Panda 8
        ("2h Kd 3c Ks 3s 8d", Case.TIE),  # a three-card 8 that ties: no Panda 8
        ("2h 4d 3c Ks 6s 3h", Case.DRAGON_7),
        ("2h 4d 3c Ks 2s 3h", Case.TIE),  # a three-card 7 that ties: no Dragon 7
        ("Kh 9d Kc Ks", Case.BANKER),
        ("9h 9d Kc Ks", Case.TIE),
    ],
)
def test_the_outcome_of_a_coup_for_the_layout(cards, case):
    assert case_of(coup(cards)) is case


def test_the_game_offers_it():
    assert game("ez_baccarat").exposure is action_against_the_bank


# The layout of the tablet's own test: the player-dealer in seat 1; seat 2 Banker $20 and
# Dragon 7 $5; seat 3 Player $50, Tie $10, Panda 8 $10; seat 5 Banker $100; seat 7 Player $25.
TABLET = {
    2: [{"banker": 2_000, "dragon_7": 500}],
    3: [{"player": 5_000, "tie": 1_000, "panda_8": 1_000}],
    5: [{"banker": 10_000}],
    7: [{"player": 2_500}],
}
# Seat 2 Player $10; seat 3 Banker $9.90 and Tie $0.10: the base wagers cancel, a tie costs most.
TIE_WORST = {2: [{"player": 1_000}], 3: [{"banker": 990, "tie": 10}]}
DEFAULT = BaccaratOptions()
CHIPS = BaccaratOptions(chip_unit=100, tie_pays=9, dragon_7_pays=50, panda_8_pays=30)

PLAYER, PANDA_8 = "the Player wins, no Panda 8", "the Player wins with a Panda 8 (25 to 1)"
BANKER = "the Banker wins, no Dragon 7"
TIE = "a tie (the Tie at 8 to 1; the Player and Banker wagers push)"

# (id, bank, player-dealer's seat, layout, options,
#  likely (case, owed, paid, uncovered, collected), worst (the same), the alarm)
ROWS = [
    ("empty-layout", 10_000, 4, {}, DEFAULT,
     (PLAYER, 0, 0, 0, 0), (PLAYER, 0, 0, 0, 0), Alarm.COVERED),
    # Banker: seats 2 and 5 win $120, the rest collected $100 (-$20). Panda 8: seats 3 and 7
    # win $50 + $250 + $25, seats 2 and 5 lose $125 (-$200); the Dragon 7 costs $105, a tie $65.
    ("tablet-covered", 100_000, 1, TABLET, DEFAULT,
     (BANKER, 12_000, 12_000, 0, 10_000), (PANDA_8, 32_500, 32_500, 0, 13_500), Alarm.COVERED),
    # W = $150: the Panda 8 at seat 3 exhausts the bank; seat 5's Banker is returned and seat
    # 7's Player unpaid. The Banker winning is still covered: amber.
    ("tablet-amber", 15_000, 1, TABLET, DEFAULT,
     (BANKER, 12_000, 12_000, 0, 10_000), (PANDA_8, 32_500, 18_500, 14_000, 3_500), Alarm.WORST),
    # W = $20: seat 2's Banker win exhausts it: red. The worst leaves $285 unpaid: seat 2's
    # Banker collected ($20; its Dragon 7 returned, the player-dealer having won W), seat 3's
    # Player paid $40 of $50, its Panda 8 and seat 7's Player unpaid.
    ("tablet-red", 2_000, 1, TABLET, DEFAULT,
     (BANKER, 12_000, 2_000, 10_000, 0), (PANDA_8, 32_500, 4_000, 28_500, 2_000), Alarm.LIKELY),
    # The player-dealer in seat 4: seat 5 is settled first, so its losing Banker is collected
    # before seat 3's Panda 8, which leaves $40 unpaid instead of $140.
    ("tablet-from-seat-4", 15_000, 4, TABLET, DEFAULT,
     (BANKER, 12_000, 12_000, 0, 10_000), (PANDA_8, 32_500, 28_500, 4_000, 13_500), Alarm.WORST),
    ("tie-costs-most", 100_000, 1, TIE_WORST, DEFAULT,
     (PLAYER, 1_000, 1_000, 0, 1_000), (TIE, 80, 80, 0, 0), Alarm.COVERED),
    ("one-side-dragon-7", 100_000, 9, {1: [{"banker": 1_000, "dragon_7": 1_000}],
                                       2: [{"banker": 5_000}]}, CHIPS,
     (BANKER, 6_000, 6_000, 0, 1_000),
     ("the Banker wins with a Dragon 7 (50 to 1; the Banker wagers push)", 50_000, 50_000, 0, 0),
     Alarm.COVERED),
    ("one-side-player", 100_000, 9, {4: [{"player": 3_000}], 8: [{"player": 2_000}]}, CHIPS,
     (PLAYER, 5_000, 5_000, 0, 0), (PLAYER, 5_000, 5_000, 0, 0), Alarm.COVERED),
]  # fmt: skip


@pytest.mark.parametrize(
    ("bank", "pd", "layout", "options", "likely", "worst", "alarm"),
    [row[1:] for row in ROWS],
    ids=[row[0] for row in ROWS],
)
def test_the_likely_case_and_the_worst(bank, pd, layout, options, likely, worst, alarm):
    found = action_against_the_bank(bank, pd, layout, options)

    def figures(case):
        return (case.case, case.owed, case.paid, case.uncovered, case.collected)

    assert (figures(found.likely), figures(found.worst), found.alarm) == (likely, worst, alarm)
    assert found.likely.bank == found.worst.bank == bank


def test_the_worst_case_counts_the_winners_and_what_goes_unpaid_in_order():
    worst = action_against_the_bank(15_000, 1, TABLET, DEFAULT).worst
    assert (worst.wagers, worst.uncovered_wagers, worst.net) == (3, 2, -15_000)
    assert [(w.seat, w.amount) for w in worst.wins] == [(3, 30_000), (7, 2_500)]


# --- properties --------------------------------------------------------------------------


@st.composite
def layouts(draw):
    """Options, a bank and a layout of valid wagers, and a coup dealt by the rules."""
    seat_count = draw(st.integers(6, 9))
    chip = draw(st.sampled_from([1, 25, 100, 500]))
    options = BaccaratOptions(
        seats=seat_count,
        tie_pays=draw(st.sampled_from([8, 9])),
        dragon_7_pays=draw(st.integers(1, 100)),
        panda_8_pays=draw(st.integers(1, 100)),
        chip_unit=chip,
    )
    player_dealer = draw(st.integers(1, seat_count))
    others = [seat for seat in range(1, seat_count + 1) if seat != player_dealer]
    seats = draw(st.lists(st.sampled_from(others), max_size=len(others), unique=True))
    layout = {}
    for seat in seats:
        base = chip * draw(st.integers(1, 100))
        squares = {draw(st.sampled_from(["player", "banker"])): base}
        for name in ("tie", "dragon_7", "panda_8"):
            squares[name] = chip * draw(st.integers(0, base // chip))
        layout[seat] = [squares]
    bank = chip * draw(st.integers(1, 400))
    source = iter(draw(st.lists(st.sampled_from(FULL_DECK), min_size=6, max_size=6)))
    return options, bank, player_dealer, layout, deal_coup(lambda: next(source))


def _unpaid(settled) -> int:
    return sum(line.unpaid_uncovered for line in settled.lines)


# 300 each (microseconds an example): a Dragon 7 or a Panda 8 is about one coup in eighteen,
# so the coups dealt meet every outcome many times.
@settings(max_examples=300)
@given(layouts())
def test_no_coup_costs_the_bank_more_than_the_worst_case(drawn):
    options, bank, pd, layout, dealt = drawn
    found = action_against_the_bank(bank, pd, layout, options)
    actual = settle(pd, bank, stakes_by_seat(layout), dealt, options)
    assert -actual.player_dealer_net <= -found.worst.net
    assert _unpaid(actual) <= found.worst.uncovered
    assert -found.likely.net <= -found.worst.net
    assert found.likely.uncovered <= found.worst.uncovered
    assert -bank <= found.worst.net <= bank
    if found.worst.uncovered:  # only a payment that empties the bank leaves a win unpaid
        assert found.worst.net == -bank


@settings(max_examples=300)
@given(layouts())
def test_each_outcome_is_what_its_coups_settle_to(drawn):
    """Exact, not a bound: the coup dealt settles to the figures of its own outcome, so the
    worst case is reached by every coup of the worst outcome."""
    options, bank, pd, layout, dealt = drawn
    stakes = stakes_by_seat(layout)
    actual = settle(pd, bank, stakes, dealt, options)
    own = case_figures(case_of(dealt), bank, pd, stakes, options)
    assert own == exposure_of(actual, own.case)
    assert own.net == actual.player_dealer_net
    assert _unpaid(actual) == own.uncovered


def test_the_seated_players_stakes():
    assert stakes_by_seat({2: [{"player": 500, "tie": 100}], 3: []}) == {
        2: Stakes(player=500, tie=100)
    }
