"""Game math from the enumerated counts (docs/rules.md §13): any pay table's exact figures.

The counts themselves are checked in test_gamemath_counts.py (reference counts, slices
recomputed) and against play in test_gamemath_monte_carlo.py; here, what the core makes of
them: the published figures to the digits published, every named table's exact fraction,
the pay-table arithmetic on hand-computed rows, and the strategy.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from tables.rules.hands import Category
from tables.rules.options import GameOptions
from tables.rules.paytables import (
    BAD_BEAT_CATEGORIES,
    BAD_BEAT_PAYTABLES,
    TRIPS_CATEGORIES,
    TRIPS_PAYTABLES,
    PayTable,
    custom_paytable,
)
from wagers.rules.gamemath import (
    bad_beat_math,
    base_game_math,
    decimal,
    game_math,
    game_math_json,
    square_root,
    trips_math,
)

C = Category
# The reference counts of docs/rules.md §1.3, typed in here so the arithmetic below does not
# lean on the data file it checks.
SEVEN_CARD = {
    C.ROYAL_FLUSH: 4_324, C.STRAIGHT_FLUSH: 37_260, C.FOUR_OF_A_KIND: 224_848,
    C.FULL_HOUSE: 3_473_184, C.FLUSH: 4_047_644, C.STRAIGHT: 6_180_020,
    C.THREE_OF_A_KIND: 6_461_620, C.TWO_PAIR: 31_433_400, C.ONE_PAIR: 58_627_800,
    C.HIGH_CARD: 23_294_460,
}  # fmt: skip
HANDS = 133_784_560
VARIANT_003 = {
    "royal_flush": 100, "straight_flush": 40, "four_of_a_kind": 20, "full_house": 7,
    "flush": 6, "straight": 5, "three_of_a_kind": 3,
}  # fmt: skip


def percent(value: Fraction, places: int) -> Decimal:
    return round(Decimal(value.numerator) * 100 / Decimal(value.denominator), places)


def test_the_published_figures_to_the_digits_published():
    assert percent(trips_math(TRIPS_PAYTABLES["UTH-03"]).house_edge, 2) == Decimal("3.50")
    assert percent(bad_beat_math(BAD_BEAT_PAYTABLES["option-2"]).house_edge, 2) == Decimal("14.79")
    base = base_game_math((3, 4))
    assert percent(base.house_edge, 3) == Decimal("2.185")
    assert percent(base.element_of_risk, 2) == Decimal("0.53")
    assert round(base.std_dev, 2) == Decimal("4.94")


@pytest.mark.parametrize(
    ("table", "house_edge"),
    [
        (TRIPS_PAYTABLES["UTH-01"], Fraction(301_629, 33_446_140)),  # 0.9018%
        (TRIPS_PAYTABLES["UTH-02"], Fraction(48_987, 2_572_780)),  # 1.9040%
        (TRIPS_PAYTABLES["UTH-03"], Fraction(233_985, 6_689_228)),  # 3.4979%
        (TRIPS_PAYTABLES["UTH-04"], Fraction(22_717, 367_540)),  # 6.1808%
        (custom_paytable("003", VARIANT_003, TRIPS_CATEGORIES), Fraction(2_013_197, 33_446_140)),
    ],
    ids=["UTH-01", "UTH-02", "UTH-03", "UTH-04", "003-variant"],
)
def test_every_named_trips_table(table, house_edge):
    figures = trips_math(table)
    assert figures.house_edge == house_edge
    # The same from the reference counts: the stake back plus the odds, on every paying hand.
    returned = sum(SEVEN_CARD[category] * (odds + 1) for category, odds in table.odds)
    assert figures.house_edge == 1 - Fraction(returned, HANDS)
    paying = sum(SEVEN_CARD[category] for category, _ in table.odds)
    assert figures.hit_frequency == Fraction(paying, HANDS)  # three of a kind or better


@pytest.mark.parametrize(
    ("name", "house_edge"),
    [
        ("option-1", Fraction(460_267_541, 2_257_614_450)),  # 20.3873%
        ("option-2", Fraction(12_852_431_056, 86_918_156_325)),  # 14.7868%
    ],
)
def test_every_named_bad_beat_table(name, house_edge):
    figures = bad_beat_math(BAD_BEAT_PAYTABLES[name])
    assert figures.house_edge == house_edge
    # It pays when the losing hand is three of a kind or better, whatever the table.
    assert figures.hit_frequency == Fraction(13_833_951_437, 347_672_625_300)  # 3.9790%


@pytest.mark.parametrize(
    ("odds", "category", "count"),
    [
        ({"three_of_a_kind": 1}, C.THREE_OF_A_KIND, 6_461_620),
        ({"royal_flush": 30_000}, C.ROYAL_FLUSH, 4_324),
        ({"flush": "1.5"}, C.FLUSH, 4_047_644),
    ],
)
def test_one_paying_row_by_hand(odds, category, count):
    """A table paying one hand only: edge 1 - p(o + 1), variance p(1 - p)(o + 1)^2."""
    o = Fraction(next(iter(odds.values())))
    table = PayTable("one row", ((category, o),))
    p = Fraction(count, HANDS)
    figures = trips_math(table)
    assert figures.house_edge == 1 - p * (o + 1)
    assert figures.variance == p * (1 - p) * (o + 1) ** 2
    assert figures.hit_frequency == p
    assert figures.std_dev == square_root(p * (1 - p) * (o + 1) ** 2)
    assert [line.category for line in figures.lines] == [category]


def test_a_custom_bad_beat_table_is_computed_like_a_named_one():
    option_1 = dict(zip(BAD_BEAT_CATEGORIES, (10_000, 500, 40, 25, 20, 9), strict=True))
    custom = custom_paytable(
        "custom", {c.label: o for c, o in option_1.items()}, BAD_BEAT_CATEGORIES
    )
    assert (
        bad_beat_math(custom).house_edge == bad_beat_math(BAD_BEAT_PAYTABLES["option-1"]).house_edge
    )


def test_the_pre_flop_strategy_is_the_known_optimum():
    base = base_game_math((3, 4))
    raising = {hand.hand for hand in base.starting_hands if hand.raises}
    ranks = "AKQJT98765432"
    expected = {r + r for r in ranks[:-1]}  # any pair but deuces
    expected |= {f"A{r}{s}" for r in ranks[1:] for s in "so"}  # any ace
    expected |= {f"K{r}s" for r in ranks[2:]} | {f"K{r}o" for r in "QJT98765"}
    expected |= {f"Q{r}s" for r in "JT9876"} | {f"Q{r}o" for r in "JT98"}
    expected |= {"JTs", "J9s", "J8s", "JTo"}
    assert raising == expected
    assert {hand.multiple for hand in base.starting_hands} == {0, 4}
    assert len(base.starting_hands) == 169
    assert sum(hand.combos for hand in base.starting_hands) == 1326
    assert [hand.hand for hand in base.starting_hands[:4]] == ["AA", "AKs", "AKo", "AQs"]
    for hand in base.starting_hands:
        assert (hand.raise_value > hand.check_value) is hand.raises


def test_the_multiples_matter_only_where_they_change_the_optimum():
    both, four, three = base_game_math((3, 4)), base_game_math((4,)), base_game_math((3,))
    assert both.house_edge == four.house_edge == Fraction(50_643_648_973, 2_317_817_502_000)
    assert both.average_play == four.average_play == Fraction(15_116_451_373, 7_023_689_400)
    # Only 3x: every raise is worth less, and fewer hands raise.
    assert three.house_edge == Fraction(9_740_355_089, 100_774_674_000)  # 9.6655%
    assert sum(hand.raises for hand in three.starting_hands) == 58
    assert {hand.multiple for hand in three.starting_hands} == {0, 3}
    assert both.element_of_risk == both.house_edge / (2 + both.average_play)


def test_the_answer_is_decimal_strings_of_the_exact_figures():
    options = GameOptions(bad_beat_paytable=None)
    answer = game_math_json(game_math(options))
    assert answer["bad_beat"] is None
    assert set(answer["trips"]) == {"house_edge", "std_dev", "hit_frequency"}
    assert set(answer["base_game"]) == {"house_edge", "element_of_risk", "std_dev"}
    assert answer["trips"]["house_edge"] == "0.0090183500995929575132"
    assert answer["base_game"]["house_edge"].startswith("0.02184971")
    assert Decimal(answer["base_game"]["house_edge"]) == decimal(
        Fraction(50_643_648_973, 2_317_817_502_000)
    )
