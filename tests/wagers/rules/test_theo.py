"""A hand's theo at the rules level (docs/rules.md §13.5): the sum of each wager times its
house edge, and the spread the sum of the wagers' standard deviations, table-driven over
layouts (a seat alone, with Trips and Bad Beat, with backline bettors, several seats) and
tables (pay tables, pre-flop multiples, no Bad Beat); then the comparison of actual with
theo (§13.6) decided exactly.

No figure is written here: every expected value is derived from the game-math core
(``game_math``), whose counts are provisional until the enumeration replaces them.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from tables.rules.options import GameOptions
from tables.rules.paytables import BAD_BEAT_PAYTABLES, TRIPS_PAYTABLES
from tests.builders.rules import expected_theo, four_places
from wagers.rules.gamemath import game_math, theo_of
from wagers.rules.theo import NO_HANDS, Comparison, hand_theo, quantized, std_devs_text
from wagers.rules.wagers import Stakes

TABLES = {
    "UTH-01 with option-1, 3x or 4x": GameOptions(),
    "UTH-03 with option-2, 4x only": GameOptions(
        trips_paytable=TRIPS_PAYTABLES["UTH-03"],
        bad_beat_paytable=BAD_BEAT_PAYTABLES["option-2"],
        allowed_preflop_multiples=(4,),
    ),
    "UTH-02 without Bad Beat": GameOptions(
        trips_paytable=TRIPS_PAYTABLES["UTH-02"], bad_beat_paytable=None
    ),
}


def seat(ante: int, trips: int = 0, bad_beat: int = 0) -> Stakes:
    return Stakes(ante=ante, blind=ante, trips=trips, bad_beat=bad_beat)


# (layout name, bettors: the seated player's wagers then each backline bettor's, per seat)
LAYOUTS = {
    "one seat, Ante and Blind": [seat(1_000)],
    "one seat with Trips": [seat(1_000, trips=500)],
    "one seat with Trips and Bad Beat": [seat(2_500, trips=500, bad_beat=100)],
    "a seat and a backline bettor": [seat(1_000), seat(500, trips=500)],
    "three seats, two backline bettors, every side wager": [
        seat(500, trips=500, bad_beat=500),
        seat(500),
        seat(2_500, trips=1_000),
        seat(10_000, trips=2_500, bad_beat=2_500),
        seat(1_000, trips=500),
    ],
    "Trips alone": [Stakes(trips=500)],
    "nobody": [],
}
CASES = [
    (table, layout)
    for table, options in TABLES.items()
    for layout, bettors in LAYOUTS.items()
    if options.bad_beat_paytable is not None or not any(s.bad_beat for s in bettors)
]


@pytest.mark.parametrize(("table", "layout"), CASES)
def test_theo_is_each_wager_times_its_edge(table, layout):
    options, bettors = TABLES[table], LAYOUTS[layout]
    theo, spread = expected_theo(bettors, options)
    figures = theo_of(bettors, game_math(options))
    assert figures.theo == theo
    assert abs(figures.std_dev - spread) < Decimal("1e-10")  # 20 significant digits
    if not any(s.ante or s.trips or s.bad_beat for s in bettors):
        assert (figures.theo, figures.std_dev) == (0, 0)


@pytest.mark.parametrize(("table", "layout"), CASES)
def test_the_stored_figures_round_to_a_ten_thousandth_of_a_cent(table, layout):
    options, bettors = TABLES[table], LAYOUTS[layout]
    math = game_math(options)
    theo, spread = expected_theo(bettors, options)
    stored = hand_theo(bettors, math)
    assert stored.theo == four_places(theo)
    assert abs(stored.std_dev - four_places(spread)) <= Decimal("0.0001")
    assert stored.std_dev == four_places(theo_of(bettors, math).std_dev)
    assert (stored.ante, stored.trips, stored.bad_beat) == (
        sum(s.ante for s in bettors),
        sum(s.trips for s in bettors),
        sum(s.bad_beat for s in bettors),
    )
    assert stored.base_game_edge == quantized(math.base_game.house_edge, 12)
    assert stored.trips_edge == quantized(math.trips.house_edge, 12)
    if options.bad_beat_paytable is None:
        assert stored.bad_beat_edge is None
    else:
        assert stored.bad_beat_edge == quantized(math.bad_beat.house_edge, 12)


def test_a_bad_beat_wager_at_a_table_without_one_is_refused():
    with pytest.raises(ValueError, match="offers none"):
        hand_theo([seat(1_000, bad_beat=500)], game_math(TABLES["UTH-02 without Bad Beat"]))


def test_the_blind_and_the_play_add_nothing_the_ante_does_not_stand_for():
    math = game_math(GameOptions())
    alone = hand_theo([Stakes(ante=1_000)], math)
    assert hand_theo([Stakes(ante=1_000, blind=1_000, play=4_000)], math) == alone


# --- Actual beside theo --------------------------------------------------------------------


def test_the_difference_and_its_standard_deviations():
    # Two hands of spread 30 and 40 cents: together 50 (they add as variances).
    both = Comparison(1, Decimal("10.5"), 100, Decimal(900)) + Comparison(
        1, Decimal("-0.5"), 60, Decimal(1600)
    )
    assert (both.hands, both.theo, both.actual, both.variance) == (2, 10, 160, 2500)
    assert both.difference == 150
    assert both.std_dev == Decimal("50.0000")
    assert both.std_devs == Decimal("3.00")
    assert std_devs_text(both.std_devs) == "3.00"
    below = Comparison(40, Decimal("12345.6789"), -20_000, Decimal("1e8"))
    assert below.std_devs == Decimal("-3.23")
    assert std_devs_text(below.std_devs) == "-3.23"


def test_beyond_the_threshold_is_decided_exactly():
    # Exactly three standard deviations is not beyond; a ten-thousandth of a cent more is.
    assert not Comparison(30, Decimal(0), 300, Decimal(10_000)).beyond(3)
    assert Comparison(30, Decimal("-0.0001"), 300, Decimal(10_000)).beyond(3)
    assert not Comparison(30, Decimal(0), -300, Decimal(10_000)).beyond(3)
    assert Comparison(30, Decimal("0.0001"), -300, Decimal(10_000)).beyond(3)  # below, too
    # A spread whose root is not exact: 3 times the root of 2 is 4.24264...: 4.2426 is
    # within, 4.2427 beyond.
    assert not Comparison(1, Decimal("-4.2426"), 0, Decimal(2)).beyond(3)
    assert Comparison(1, Decimal("-4.2427"), 0, Decimal(2)).beyond(3)


def test_no_hand_has_no_spread_and_nothing_beyond():
    assert NO_HANDS.std_dev == 0
    assert NO_HANDS.std_devs is None
    assert std_devs_text(NO_HANDS.std_devs) == ""
    assert not NO_HANDS.beyond(3)
    assert Comparison(2, Decimal(0), 500, Decimal(0)).std_devs is None  # no spread at all


def test_rounding_is_half_even_and_never_minus_zero():
    assert quantized(Fraction(1, 20_000)) == Decimal("0.0000")  # 0.00005: to even
    assert quantized(Fraction(3, 20_000)) == Decimal("0.0002")  # 0.00015: to even
    assert str(quantized(Fraction(-1, 10**9))) == "0.0000"
