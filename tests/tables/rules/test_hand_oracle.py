"""Our evaluator against an independent one: pokerkit's StandardHighHand (docs/rules.md §1).

pokerkit is a test-only dependency and shares no code with phevaluator, so agreement on
thousands of random deals is real evidence that categories and showdowns are right.
"""

from __future__ import annotations

import random

import pytest
from pokerkit import Label, StandardHighHand

from tables.rules.cards import FULL_DECK, Card
from tables.rules.hands import Category, compare, evaluate

SEED = 330_11
DEALS = 3000

POKERKIT_CATEGORY = {
    Label.HIGH_CARD: Category.HIGH_CARD,
    Label.ONE_PAIR: Category.ONE_PAIR,
    Label.TWO_PAIR: Category.TWO_PAIR,
    Label.THREE_OF_A_KIND: Category.THREE_OF_A_KIND,
    Label.STRAIGHT: Category.STRAIGHT,
    Label.FLUSH: Category.FLUSH,
    Label.FULL_HOUSE: Category.FULL_HOUSE,
    Label.FOUR_OF_A_KIND: Category.FOUR_OF_A_KIND,
    Label.STRAIGHT_FLUSH: Category.STRAIGHT_FLUSH,
}


def _codes(cards: list[Card]) -> str:
    return "".join(str(card) for card in cards)


def oracle_hand(hole: list[Card], board: list[Card]) -> StandardHighHand:
    return StandardHighHand.from_game(_codes(hole), _codes(board))


def oracle_category(hand: StandardHighHand) -> Category:
    category = POKERKIT_CATEGORY[hand.entry.label]
    if category is Category.STRAIGHT_FLUSH and {card.rank for card in hand.cards} >= {"A", "K"}:
        return Category.ROYAL_FLUSH  # pokerkit has no separate royal flush
    return category


def oracle_compare(first: StandardHighHand, second: StandardHighHand) -> int:
    if first > second:
        return 1
    if first < second:
        return -1
    return 0


def test_the_oracle_mapping_is_sane():
    assert oracle_category(oracle_hand(_parse("As Ks"), _parse("Qs Js Ts 2c 3d"))) is (
        Category.ROYAL_FLUSH
    )
    assert oracle_category(oracle_hand(_parse("As 2s"), _parse("3s 4s 5s Kd Qh"))) is (
        Category.STRAIGHT_FLUSH
    )
    assert oracle_category(oracle_hand(_parse("Ks Qs"), _parse("Js Ts 9s Ad 2h"))) is (
        Category.STRAIGHT_FLUSH
    )


def _parse(text: str) -> list[Card]:
    codes = text.split()
    return [card for card in FULL_DECK if str(card) in codes]


def _deals(rng: random.Random, count: int):
    for _ in range(count):
        cards = rng.sample(FULL_DECK, 9)
        yield cards[:2], cards[2:4], cards[4:]


def test_categories_agree_with_pokerkit_on_random_deals():
    rng = random.Random(SEED)
    mismatches = []
    seen = set()
    for hole, _, board in _deals(rng, DEALS):
        ours = evaluate((*hole, *board)).category
        theirs = oracle_category(oracle_hand(hole, board))
        seen.add(ours)
        if ours is not theirs:
            mismatches.append((_codes(hole), _codes(board), ours, theirs))
    assert mismatches == []
    # Random deals alone reach the common categories; the rare ones are covered below.
    assert {
        Category.HIGH_CARD,
        Category.ONE_PAIR,
        Category.TWO_PAIR,
        Category.THREE_OF_A_KIND,
        Category.STRAIGHT,
        Category.FLUSH,
        Category.FULL_HOUSE,
    } <= seen


def _rich_deal(rng: random.Random) -> tuple[list[Card], list[Card]]:
    """Seven cards biased towards the rare categories: few ranks, or mostly one suit."""
    if rng.random() < 0.5:
        suit = rng.randrange(4)
        suited = [card for card in FULL_DECK if card % 4 == suit]
        chosen = rng.sample(suited, rng.choice([5, 6, 7]))
        rest = [card for card in FULL_DECK if card not in chosen]
        chosen += rng.sample(rest, 7 - len(chosen))
    else:
        ranks = rng.sample(range(13), rng.choice([3, 4, 5]))
        pool = [card for card in FULL_DECK if card >> 2 in ranks]
        chosen = rng.sample(pool, 7)
    rng.shuffle(chosen)
    return chosen[:2], chosen[2:]


def test_categories_agree_with_pokerkit_on_rare_hand_deals():
    rng = random.Random(SEED + 1)
    mismatches = []
    seen = set()
    for _ in range(DEALS):
        hole, board = _rich_deal(rng)
        ours = evaluate((*hole, *board)).category
        theirs = oracle_category(oracle_hand(hole, board))
        seen.add(ours)
        if ours is not theirs:
            mismatches.append((_codes(hole), _codes(board), ours, theirs))
    assert mismatches == []
    assert {
        Category.ROYAL_FLUSH,
        Category.STRAIGHT_FLUSH,
        Category.FOUR_OF_A_KIND,
        Category.FULL_HOUSE,
        Category.FLUSH,
        Category.THREE_OF_A_KIND,
    } <= seen


@pytest.mark.parametrize(
    "twin_hole",
    [False, True],
    ids=["independent-holes", "same-ranks-other-suits"],
)
def test_showdowns_agree_with_pokerkit(twin_hole):
    """Random pairs of hands sharing a board; the twin variant gives the second hand the
    first's ranks in other suits, so ties and flush-only differences are common."""
    rng = random.Random(SEED + 2 + twin_hole)
    mismatches = []
    results = {1: 0, -1: 0, 0: 0}
    for first, second, board in _deals(rng, DEALS):
        if twin_hole:
            taken = {*first, *board}
            twins = []
            for card in first:
                options = [c for c in FULL_DECK if c >> 2 == card >> 2 and c not in taken]
                if not options:
                    break
                twin = rng.choice(options)
                twins.append(twin)
                taken.add(twin)
            if len(twins) < 2:
                continue
            second = twins
        ours = compare(evaluate((*first, *board)), evaluate((*second, *board)))
        theirs = oracle_compare(oracle_hand(first, board), oracle_hand(second, board))
        results[ours] += 1
        if ours != theirs:
            mismatches.append((_codes(first), _codes(second), _codes(board), ours, theirs))
    assert mismatches == []
    assert results[1] and results[-1] and results[0]
