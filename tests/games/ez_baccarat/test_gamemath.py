"""EZ Baccarat's exact game math (docs/rules.md §14.8, docs/game-math.md): the published
anchors, the known exact outcome counts, the figures' arithmetic, and the class enumerator
checked against a brute force over every ordered card sequence of small shoes."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.figures import percent
from games.ez_baccarat.coup import deal_coup
from games.ez_baccarat.gamemath import (
    CoupCounts,
    WagerFigures,
    composition,
    count_coups,
    falling,
    figures,
    figures_json,
    shoe_counts,
)
from games.ez_baccarat.options import BaccaratOptions
from games.ez_baccarat.points import point
from games.ez_baccarat.wagers import BaccaratWager
from tables.rules.cards import FULL_DECK

P, B, T, D, PA = (BaccaratWager.PLAYER, BaccaratWager.BANKER, BaccaratWager.TIE,
                  BaccaratWager.DRAGON_7, BaccaratWager.PANDA_8)  # fmt: skip

# --- the known exact counts and the published figures ------------------------------------------

# Ordered six-card sequences off the top of a full shoe, by who wins: the counts long published
# for baccarat (8 decks: banker 0.458597, player 0.446247, tie 0.095156).
KNOWN = {
    8: (4_998_398_275_503_360, 2_230_518_282_592_256, 2_292_252_566_437_888,
        475_627_426_473_216),
    6: (878_869_206_895_680, 392_220_492_728_832, 403_095_751_234_560, 83_552_962_932_288),
}  # fmt: skip


@pytest.mark.parametrize("decks", [8, 6])
def test_the_known_exact_outcome_counts(decks):
    counts = shoe_counts(decks)
    assert (counts.sequences, counts.player, counts.banker, counts.tie) == KNOWN[decks]
    assert counts.sequences == falling(52 * decks, 6)


def test_the_8_deck_probabilities():
    p = figures(BaccaratOptions()).probabilities
    assert f"{float(p.banker):.6f}" == "0.458597"
    assert f"{float(p.player):.6f}" == "0.446247"
    assert f"{float(p.tie):.6f}" == "0.095156"
    assert p.player + p.banker + p.tie == 1


# The published anchors (8 decks, default pays): Banker about 1.02%, Player 1.24%, Tie 14.4%,
# Dragon 7 7.6%, Panda 8 10.2%; here to four decimals of a percent.
ANCHORS = [
    (8, 8, B, "1.0183%", "1.02%"),
    (8, 8, P, "1.2351%", "1.24%"),
    (8, 8, T, "14.3596%", "14.36%"),
    (8, 8, D, "7.6113%", "7.61%"),
    (8, 8, PA, "10.1876%", "10.19%"),
    (8, 9, T, "4.8440%", "4.84%"),
    (6, 8, B, "1.0161%", "1.02%"),
    (6, 8, P, "1.2374%", "1.24%"),
    (6, 8, T, "14.4382%", "14.44%"),
    (6, 8, D, "7.6062%", "7.61%"),
    (6, 8, PA, "10.2074%", "10.21%"),
    (6, 9, T, "4.9313%", "4.93%"),
]


@pytest.mark.parametrize(
    ("decks", "tie_pays", "wager", "edge", "rounded"),
    ANCHORS,
    ids=[f"{d}-decks-tie-{t}-{w.value}" for d, t, w, *_ in ANCHORS],
)
def test_the_house_edges(decks, tie_pays, wager, edge, rounded):
    figure = figures(BaccaratOptions(decks=decks, tie_pays=tie_pays))[wager]
    assert percent(figure.house_edge) == edge
    assert percent(figure.house_edge, decimals=2) == rounded


def test_the_base_wagers_per_hand_that_does_not_push():
    math = figures(BaccaratOptions())
    assert percent(math[P].house_edge_per_resolved) == "1.3650%"
    assert percent(math[B].house_edge_per_resolved) == "1.1541%"
    assert math[T].house_edge_per_resolved == math[T].house_edge  # a Tie never pushes


def test_the_dragon_7_and_panda_8_counts():
    counts = shoe_counts(8)
    assert (counts.dragon_7, counts.panda_8) == (112_633_011_329_024, 172_660_763_262_976)
    assert percent(Fraction(counts.dragon_7, counts.sequences)) == "2.2534%"
    assert percent(Fraction(counts.panda_8, counts.sequences)) == "3.4543%"


# --- the figures' arithmetic, by hand ------------------------------------------------------------


def test_the_figures_from_the_probabilities_by_hand():
    # A Banker wager on a made-up shoe: wins 45%, pushes 15%, loses 40%.
    banker = WagerFigures(
        B, ((1, Fraction(45, 100)), (0, Fraction(15, 100)), (-1, Fraction(40, 100)))
    )
    assert banker.house_edge == Fraction(-5, 100)  # this shoe would favour the bettor
    assert banker.hit_frequency == Fraction(45, 100)
    assert banker.push_frequency == Fraction(15, 100)
    assert banker.house_edge_per_resolved == Fraction(-5, 85)
    assert banker.variance == Fraction(85, 100) - Fraction(5, 100) ** 2
    # A Dragon 7 hitting 5% at 40 to 1: mean 40(0.05) - 0.95 = 1.05; the square's mean
    # 1600(0.05) + 0.95 = 80.95; the variance 80.95 - 1.05^2 = 79.8475.
    dragon = WagerFigures(D, ((40, Fraction(5, 100)), (-1, Fraction(95, 100))))
    assert dragon.house_edge == Fraction(-105, 100)
    assert dragon.variance == 1600 * Fraction(5, 100) + Fraction(95, 100) - Fraction(105, 100) ** 2
    assert dragon.variance == Fraction(798_475, 10_000)
    assert str(dragon.std_dev) == "8.9357428342583807821"  # its root, to 20 digits
    assert abs(Fraction(dragon.std_dev) ** 2 - dragon.variance) < Fraction(1, 10**17)


def test_the_pays_change_only_their_own_wager():
    base = figures(BaccaratOptions())
    other = figures(BaccaratOptions(tie_pays=9, dragon_7_pays=50, panda_8_pays=30))
    for kind in (P, B):
        assert other[kind] == base[kind]
    p = base.probabilities
    assert other[T].house_edge == 1 - 10 * p.tie
    assert other[D].house_edge == 1 - 51 * p.dragon_7
    assert other[PA].house_edge == 1 - 31 * p.panda_8


def test_the_json_answer():
    answer = figures_json(figures(BaccaratOptions()))
    assert list(answer) == ["player", "banker", "tie", "dragon_7", "panda_8"]
    assert answer["banker"]["house_edge"].startswith("0.01018300757")
    assert answer["player"]["hit_frequency"].startswith("0.4462466093")
    assert answer["tie"]["std_dev"].startswith("2.640872221")
    for figures_of_a_wager in answer.values():
        assert set(figures_of_a_wager) == {"house_edge", "hit_frequency", "std_dev"}
        for text in figures_of_a_wager.values():
            assert len(text.replace("0.", "", 1).lstrip("0").replace(".", "")) == 20


# --- the enumerator against a brute force ---------------------------------------------------------


def brute_force(shoe: list) -> CoupCounts:
    """Every ordered sequence of six distinct cards of ``shoe`` (by position: two equal cards
    are two cards), each played out by the coup's own dealing: the slow, independent count."""
    tally = {"player": 0, "banker": 0, "tie": 0, "dragon_7": 0, "panda_8": 0}
    sequences = 0
    for sequence in itertools.permutations(shoe, 6):
        source = iter(sequence)
        coup = deal_coup(lambda source=source: next(source))
        sequences += 1
        tally[coup.winner.value] += 1
        tally["dragon_7"] += coup.dragon_7
        tally["panda_8"] += coup.panda_8
    return CoupCounts(sequences, **tally)


def _by_points(shoe: list) -> tuple[int, ...]:
    counts = [0] * 10
    for card in shoe:
        counts[point(card)] += 1
    return tuple(counts)


def test_the_enumerator_equals_a_brute_force_over_a_nine_card_shoe():
    # Two cards worth 0 and one of each value 1 to 7: draws on every row of the table but the
    # Player's 8 and 9, Dragon 7s and Panda 8s among them.
    shoe = [card for card in FULL_DECK if str(card) in
            {"Kd", "Ts", "As", "2c", "3c", "4c", "5c", "6c", "7c"}]  # fmt: skip
    brute = brute_force(shoe)
    assert brute.sequences == falling(9, 6) == 60_480
    assert count_coups(_by_points(shoe)) == brute
    assert (brute.dragon_7, brute.panda_8) == (1_760, 2_540)


# 10: each example counts every coup of a shoe by brute force (the costly part); the count's
# agreement with the formula does not depend on which cards.
@settings(max_examples=10, deadline=None)
@given(st.lists(st.sampled_from(FULL_DECK), min_size=6, max_size=7))
def test_the_enumerator_equals_a_brute_force_over_small_shoes(shoe):
    assert count_coups(_by_points(shoe)) == brute_force(shoe)


def test_the_full_shoe_is_sixteen_zeros_and_four_of_each_value_per_deck():
    assert composition(8) == (128, 32, 32, 32, 32, 32, 32, 32, 32, 32)
    assert sum(composition(6)) == 312
    assert shoe_counts(8) is shoe_counts(8)  # counted once per deck count


def test_a_shoe_too_small_for_a_coup_is_refused():
    with pytest.raises(ValueError):
        count_coups((5, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    with pytest.raises(ValueError):
        count_coups((6, 1))
