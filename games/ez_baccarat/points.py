"""Point values and totals (docs/rules.md §14.2).

An Ace counts 1, 2 to 9 their face value, a 10, Jack, Queen or King nothing. A hand's total is
the sum of its cards' points, modulo 10 (9 + 7 = 16 counts 6).
"""

from __future__ import annotations

from collections.abc import Iterable

from tables.rules.cards import FULL_DECK, Card

# Points by rank, in the order of ``tables.rules.cards.RANKS`` ("23456789TJQKA").
RANK_POINTS = (2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0, 1)
POINTS = tuple(range(10))  # the ten point values a card can have
# How many cards of each point value one deck holds: sixteen worth 0 (10, J, Q, K), four of each
# other value.
CARDS_PER_DECK_BY_POINTS = tuple(
    sum(1 for card in FULL_DECK if RANK_POINTS[card.rank] == value) for value in POINTS
)


# Points by card number (``Card`` is ``rank * 4 + suit``): read for every card of every coup.
CARD_POINTS = tuple(RANK_POINTS[card.rank] for card in FULL_DECK)


def point(card: Card) -> int:
    """The card's point value, 0 to 9."""
    return CARD_POINTS[card]


def total(cards: Iterable[Card]) -> int:
    """A hand's total: the sum of its points, modulo 10."""
    return sum(CARD_POINTS[card] for card in cards) % 10
