"""Hand evaluation: the best five of seven cards, categories and ties (docs/rules.md §1)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise

import pytest
from phevaluator.evaluator import evaluate_5cards

from cardroom.errors import Rule, RuleError
from tables.rules.cards import FULL_DECK
from tables.rules.hands import (
    Category,
    HandValue,
    best_five,
    category_of,
    compare,
    evaluate,
)
from tests.builders.rules import cards, value

C = Category

# (id, hole, board, category, the best five as codes in best_five's order)
CATEGORY_EXAMPLES = [
    ("royal-flush", "As Ks", "Qs Js Ts 2c 3d", C.ROYAL_FLUSH, "As Ks Qs Js Ts"),
    ("royal-flush-all-on-board", "2c 3d", "Ah Kh Qh Jh Th", C.ROYAL_FLUSH, "Ah Kh Qh Jh Th"),
    ("straight-flush-king-high", "Ks Qs", "Js Ts 9s 2c 3d", C.STRAIGHT_FLUSH, "Ks Qs Js Ts 9s"),
    (
        "straight-flush-over-ace-straight",
        "9d 8d",
        "7d 6d 5d Ac Kh",
        C.STRAIGHT_FLUSH,
        "9d 8d 7d 6d 5d",
    ),
    ("steel-wheel", "As 2s", "3s 4s 5s Kd Qh", C.STRAIGHT_FLUSH, "5s 4s 3s 2s As"),
    ("four-of-a-kind", "9c 9d", "9h 9s 2c 5d Kh", C.FOUR_OF_A_KIND, "9s 9h 9d 9c Kh"),
    (
        "four-of-a-kind-over-full-house",
        "Qc Qd",
        "Qh Qs 7c 7d 7h",
        C.FOUR_OF_A_KIND,
        "Qs Qh Qd Qc 7h",
    ),
    ("full-house", "Kc Kd", "Kh 7s 7d 2c 3h", C.FULL_HOUSE, "Kh Kd Kc 7s 7d"),
    ("full-house-from-two-trips", "8c 8d", "8h 4s 4d 4c Ah", C.FULL_HOUSE, "8h 8d 8c 4s 4d"),
    ("flush", "Ah 2h", "9h 7h 4h Kc Qd", C.FLUSH, "Ah 9h 7h 4h 2h"),
    ("flush-over-straight", "6h 2h", "3h 4h 5c 9h Kd", C.FLUSH, "9h 6h 4h 3h 2h"),
    ("straight", "9c Td", "Jh Qs Kd 2c 3h", C.STRAIGHT, "Kd Qs Jh Td 9c"),
    ("straight-ace-high", "Ac Td", "Jh Qs Kd 2c 3h", C.STRAIGHT, "Ac Kd Qs Jh Td"),
    ("wheel", "Ac 2d", "3h 4s 5d Kc 9h", C.STRAIGHT, "5d 4s 3h 2d Ac"),
    ("three-of-a-kind", "7c 7d", "7h Ks 2d 9c 4h", C.THREE_OF_A_KIND, "7h 7d 7c Ks 9c"),
    ("two-pair", "Kc Kd", "7h 7s 2d 9c 4h", C.TWO_PAIR, "Kd Kc 7s 7h 9c"),
    ("one-pair", "Ac Ad", "2c 7h 9s Td Jc", C.ONE_PAIR, "Ad Ac Jc Td 9s"),
    ("high-card", "As Kd", "2c 7h 9s Td Jc", C.HIGH_CARD, "As Kd Jc Td 9s"),
    ("no-straight-around-the-corner", "Qc Kd", "Ah 2s 3d 8c 9h", C.HIGH_CARD, "Ah Kd Qc 9h 8c"),
]


@pytest.mark.parametrize(
    ("hole", "board", "category", "five"),
    [case[1:] for case in CATEGORY_EXAMPLES],
    ids=[case[0] for case in CATEGORY_EXAMPLES],
)
def test_category_and_best_five(hole, board, category, five):
    seven = (*cards(hole), *cards(board))
    assert evaluate(seven).category is category
    assert value(hole, board).category is category
    named = best_five(seven)
    assert set(named) <= set(seven)
    assert len(set(named)) == 5
    # The five named are a best five (same strength as the seven) ...
    assert evaluate_5cards(*named) == evaluate(seven).strength
    # ... listed in the hand's shape; the suits of equal ranks may differ from ours.
    assert [card.rank for card in named] == [card.rank for card in cards(five)]
    if category in (C.FLUSH, C.STRAIGHT_FLUSH, C.ROYAL_FLUSH):  # suits matter, no choice
        assert [str(card) for card in named] == five.split()


def test_every_category_has_an_example():
    assert {case[3] for case in CATEGORY_EXAMPLES} == set(Category)


def test_categories_rank_in_rulebook_order():
    high_to_low = [
        C.ROYAL_FLUSH, C.STRAIGHT_FLUSH, C.FOUR_OF_A_KIND, C.FULL_HOUSE, C.FLUSH,
        C.STRAIGHT, C.THREE_OF_A_KIND, C.TWO_PAIR, C.ONE_PAIR, C.HIGH_CARD,
    ]  # fmt: skip
    assert sorted(Category, reverse=True) == high_to_low
    # The hand examples, one per category, beat each other in the same order.
    by_category = {case[3]: value(case[1], case[2]) for case in CATEGORY_EXAMPLES}
    for stronger, weaker in pairwise(high_to_low):
        assert by_category[stronger].beats(by_category[weaker])
        assert compare(by_category[stronger], by_category[weaker]) == 1
        assert compare(by_category[weaker], by_category[stronger]) == -1


@pytest.mark.parametrize(
    ("label", "category"),
    [(category.name.lower(), category) for category in Category],
    ids=[category.name.lower() for category in Category],
)
def test_category_labels(label, category):
    assert category.label == label
    assert Category.from_label(label) is category


@pytest.mark.parametrize("label", ["royal", "pair", "", "straight flush"])
def test_unknown_category_label_is_refused(label):
    with pytest.raises(RuleError, match="unknown hand category"):
        Category.from_label(label)


def test_phevaluator_bands_hold_the_known_number_of_distinct_hand_values():
    """7,462 distinct five-card values: RF 1, SF 9, 4K 156, FH 156, FL 1,277, ST 10,
    3K 858, 2P 858, 1P 2,860, HC 1,277."""
    counts = Counter(category_of(strength) for strength in range(1, 7463))
    assert counts == {
        C.ROYAL_FLUSH: 1,
        C.STRAIGHT_FLUSH: 9,
        C.FOUR_OF_A_KIND: 156,
        C.FULL_HOUSE: 156,
        C.FLUSH: 1277,
        C.STRAIGHT: 10,
        C.THREE_OF_A_KIND: 858,
        C.TWO_PAIR: 858,
        C.ONE_PAIR: 2860,
        C.HIGH_CARD: 1277,
    }


REFERENCE_COUNTS = {
    C.ROYAL_FLUSH: 4_324,
    C.STRAIGHT_FLUSH: 37_260,
    C.FOUR_OF_A_KIND: 224_848,
    C.FULL_HOUSE: 3_473_184,
    C.FLUSH: 4_047_644,
    C.STRAIGHT: 6_180_020,
    C.THREE_OF_A_KIND: 6_461_620,
    C.TWO_PAIR: 31_433_400,
    C.ONE_PAIR: 58_627_800,
    C.HIGH_CARD: 23_294_460,
}


def test_sampled_category_frequencies_match_the_rulebook_counts():
    """A cheap check of the reference counts (docs/rules.md §1.3): 60,000 random hands, each
    category's frequency within six standard deviations of the reference (not a full
    enumeration)."""
    total = sum(REFERENCE_COUNTS.values())
    assert total == 133_784_560
    rng = random.Random(20260401)
    samples = 60_000
    seen = Counter(evaluate(rng.sample(FULL_DECK, 7)).category for _ in range(samples))
    for category, reference in REFERENCE_COUNTS.items():
        p = reference / total
        expected = samples * p
        spread = 6 * (samples * p * (1 - p)) ** 0.5 + 2
        assert abs(seen[category] - expected) <= spread, (category, seen[category], expected)


# --- the named edge cases ---------------------------------------------------------------

# (id, board, first hole, second hole, expected compare(first, second))
SHOWDOWNS = [
    ("wheel-loses-to-six-high-straight", "3h 4s 5d Kc 9h", "Ac 2d", "2c 6d", -1),
    ("wheel-beats-three-of-a-kind", "3h 4s 5d Kc 9h", "Ac 2d", "Kd Kh", 1),
    ("board-wheel-loses-to-six-high-straight", "Ah 2s 3d 4c 5h", "Kd Qh", "6c 9d", -1),
    ("steel-wheel-beats-six-high-straight", "3s 4s 5s Kd Qh", "As 2s", "2h 6s", 1),
    ("steel-wheel-loses-to-six-high-sf-same-suit", "2s 3s 4s 5s Qh", "As Kd", "6s Kc", -1),
    ("steel-wheel-beats-quads", "3s 4s 5s 5d 5h", "As 2s", "5c Kd", 1),
    ("board-plays-straight-tie", "As Ks Qd Jc Th", "2c 3d", "4h 5h", 0),
    ("board-plays-two-pair-ace-kicker", "Kc Kd Qh Qs Ac", "2c 3d", "Jh Js", 0),
    ("board-plays-full-house", "Kc Kd Kh Qs Qc", "2c 3d", "4h 5h", 0),
    ("same-ranks-different-suits-tie", "2c 7h 9s Td Jc", "As Kd", "Ah Kc", 0),
    ("counterfeited-pair-loses-to-higher-kicker", "Kc Kd Qh Qs 8c", "5c 5d", "9h 2d", -1),
    ("counterfeited-pair-ties-board-kicker", "Kc Kd Qh Qs 8c", "5c 5d", "6h 2d", 0),
    ("counterfeited-pair-loses-to-ace", "Kc Kd Qh Qs 8c", "5c 5d", "Ah 2d", -1),
    ("three-pairs-best-two", "Kc Kd 5h 5s 2c", "9c 9d", "Ac 3d", 1),
    ("three-pairs-third-pair-is-kicker", "Kc Kd 5h 5s 2c", "4c 4d", "2d 3h", 1),
    ("three-pairs-same-top-two-tie-on-kicker", "Kc Kd 5h 5s Jc", "9c 9d", "9h 9s", 0),
    ("six-card-flush-ace-plays", "Kh 9h 7h 5h 2c", "Ah 3h", "2h Qd", 1),
    ("board-flush-low-hearts-do-not-play", "Kh Qh 9h 7h 5h", "2h 3c", "4h 3d", 0),
    ("board-flush-higher-heart-plays", "Kh Qh 9h 7h 5h", "6h 3c", "4h 3d", 1),
    ("quads-on-board-ace-kicker", "9c 9d 9h 9s 2c", "Ac 3d", "Kc Qd", 1),
    ("quads-on-board-same-kicker-tie", "9c 9d 9h 9s 2c", "4c 3d", "4d 2h", 0),
    ("quads-kicker-from-board", "9c 9d 9h 9s Ac", "Kc Qd", "2c 3d", 0),
    ("full-house-higher-trips-wins", "Kc Kd 7h 7s 2c", "Kh 3d", "7c 2d", 1),
    ("full-house-bigger-pair", "8c 8d 8h 4s 2c", "Ac Ad", "4c 4d", 1),
    ("pair-kicker-decides", "Ac 7h 9s 2d 3c", "Ad Kc", "Ah Qc", 1),
    ("two-pair-top-pair-decides", "Jc Jd 4h 8s 2c", "Ac 4d", "8c 3d", -1),
    ("flush-second-card-decides", "Ah 9h 4h 2c 3d", "Kh 5h", "Qh Jh", 1),
]


@pytest.mark.parametrize(
    ("board", "first", "second", "expected"),
    [case[1:] for case in SHOWDOWNS],
    ids=[case[0] for case in SHOWDOWNS],
)
def test_showdowns(board, first, second, expected):
    one, two = value(first, board), value(second, board)
    assert compare(one, two) == expected
    assert compare(two, one) == -expected
    assert one.beats(two) is (expected == 1)
    assert two.beats(one) is (expected == -1)
    if expected == 0:
        assert one == two


def test_wheel_is_the_lowest_straight_strength():
    board = "3h 4s 5d Kc 9h"
    wheel = value("Ac 2d", board)
    assert wheel.category is C.STRAIGHT
    # Every other straight is strictly stronger than the wheel.
    for high in "6789TJQKA":
        ranks = "23456789TJQKA"
        top = ranks.index(high)
        codes = [ranks[top - i] + ("c" if i % 2 else "d") for i in range(5)]
        other = evaluate((*cards(" ".join(codes)), *cards("2h 2s")))
        assert other.category is C.STRAIGHT
        assert other.beats(wheel)


def test_royal_flush_is_separate_from_king_high_straight_flush():
    royal = value("As Ks", "Qs Js Ts 2c 3d")
    king_high = value("9s Ks", "Qs Js Ts 2c 3d")
    assert royal.category is C.ROYAL_FLUSH
    assert king_high.category is C.STRAIGHT_FLUSH
    assert royal.beats(king_high)


def test_two_pair_with_pocket_pair_counterfeited_uses_the_board():
    seven = (*cards("5c 5d"), *cards("Kc Kd Qh Qs 8c"))
    assert [str(card) for card in best_five(seven)] == ["Kd", "Kc", "Qs", "Qh", "8c"]


def test_three_pairs_best_five_uses_the_third_pair_as_kicker():
    seven = (*cards("4c 4d"), *cards("Kc Kd 5h 5s 2c"))
    five = best_five(seven)
    assert [card.rank for card in five] == [11, 11, 3, 3, 2]  # K K 5 5 4
    assert evaluate(seven).category is C.TWO_PAIR


def test_best_five_is_deterministic_whatever_the_card_order():
    seven = list(cards("9c 9d Kc Kd 5h 5s Jc"))
    reference = best_five(seven)
    rng = random.Random(3)
    for _ in range(20):
        rng.shuffle(seven)
        assert sorted(best_five(seven)) == sorted(reference)


# --- refusals ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "codes",
    ["As As Kd Qh Jc 9s 2d", "As Kd Qh Jc 9s 2d 2d", "2c 3c 4c 5c 6c 7c 2c"],
    ids=["hole-pair-repeated", "board-card-repeated", "straight-flush-with-repeat"],
)
def test_duplicate_cards_are_refused(codes):
    with pytest.raises(RuleError) as caught:
        evaluate(cards(codes))
    assert caught.value.rule == Rule.CARD_ONCE
    with pytest.raises(RuleError):
        best_five(cards(codes))


@pytest.mark.parametrize(
    "codes",
    ["As Kd Qh Jc 9s 2d", "As Kd Qh Jc 9s 2d 3c 4c", "As Kd Qh Jc 9s"],
    ids=["six", "eight", "five"],
)
def test_a_hand_is_exactly_seven_cards(codes):
    with pytest.raises(RuleError, match="a hand is seven cards"):
        evaluate(cards(codes))


def test_hand_values_are_comparable_records():
    one = value("As Kd", "2c 7h 9s Td Jc")
    assert isinstance(one, HandValue)
    assert one.category is C.HIGH_CARD
    assert 6186 <= one.strength <= 7462
