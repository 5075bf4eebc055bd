"""Hand evaluation: the best five of seven cards (docs/rules.md §1.3).

One small adapter over phevaluator's ``evaluate_7cards``: it refuses duplicate
cards (phevaluator silently accepts them and answers nonsense) and maps
phevaluator's rank (1 = royal flush ... 7462 = seven-high) to our categories,
with Royal Flush as a category of its own for the pay tables.

Our cards are already phevaluator's card numbers, so the adapter calls the
compiled ``evaluate_7cards`` that phevaluator's Python wrapper of the same
name calls after converting each card (a conversion we never need); the
package is pinned to 0.6.*, and a test checks both give the same rank.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import combinations

from phevaluator._pheval import evaluate_7cards as _native_evaluate_7cards
from phevaluator.evaluator import evaluate_5cards

from cardroom.errors import Rule, RuleError

from .cards import Card, ensure_distinct


class Category(IntEnum):
    """Hand categories, weakest first so that comparisons read naturally."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9

    @property
    def label(self) -> str:
        """The name used in JSON and reports, e.g. ``three_of_a_kind``."""
        return self.name.lower()

    @classmethod
    def from_label(cls, label: str) -> Category:
        try:
            return cls[label.upper()]
        except KeyError:
            names = ", ".join(category.label for category in cls)
            raise RuleError(
                f"unknown hand category {label!r} (one of {names})",
                rule=Rule.HAND_EVALUATION,
            ) from None


# Highest (weakest) phevaluator rank of each category, strongest category first.
_RANK_CEILINGS = (1, 10, 166, 322, 1599, 1609, 2467, 3325, 6185, 7462)
_CATEGORY_BY_BAND = (
    Category.ROYAL_FLUSH,
    Category.STRAIGHT_FLUSH,
    Category.FOUR_OF_A_KIND,
    Category.FULL_HOUSE,
    Category.FLUSH,
    Category.STRAIGHT,
    Category.THREE_OF_A_KIND,
    Category.TWO_PAIR,
    Category.ONE_PAIR,
    Category.HIGH_CARD,
)
_CATEGORY_OF_RANK = (
    None,
    *(_CATEGORY_BY_BAND[bisect_left(_RANK_CEILINGS, r)] for r in range(1, 7463)),
)


@dataclass(frozen=True, slots=True)
class HandValue:
    """A seven-card hand's value. ``strength`` is phevaluator's rank: lower is stronger."""

    strength: int
    category: Category

    def beats(self, other: HandValue) -> bool:
        return self.strength < other.strength


# Every possible value, built once: evaluation then allocates nothing.
_VALUES: tuple[HandValue, ...] = (
    HandValue(0, Category.ROYAL_FLUSH),  # placeholder: phevaluator ranks start at 1
    *(HandValue(rank, _CATEGORY_OF_RANK[rank]) for rank in range(1, 7463)),  # type: ignore[arg-type]
)


def category_of(strength: int) -> Category:
    return _CATEGORY_OF_RANK[strength]  # type: ignore[return-value]


def evaluate(cards: Sequence[Card]) -> HandValue:
    """The value of the best five of exactly seven distinct cards."""
    if len(cards) != 7 or len(set(cards)) != 7:
        if len(cards) != 7:
            raise RuleError(
                f"a hand is seven cards (two hole and five community cards), got {len(cards)}",
                rule=Rule.HAND_EVALUATION,
            )
        ensure_distinct(cards)
    return _VALUES[_native_evaluate_7cards(*cards)]


def compare(first: HandValue, second: HandValue) -> int:
    """1 if ``first`` wins, -1 if ``second`` wins, 0 for a tie (equal five-card value)."""
    if first.strength == second.strength:
        return 0
    return 1 if first.strength < second.strength else -1


def best_five(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The five cards that make the hand, strongest first within the hand's shape.

    When several five-card choices are equally strong (the board plays, say),
    the first in a fixed order is named, so the answer is deterministic.
    """
    evaluate(cards)  # validates count and duplicates
    best = min(combinations(cards, 5), key=lambda five: evaluate_5cards(*five))
    counts: dict[int, int] = {}
    for card in best:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    ordered = sorted(best, key=lambda card: (counts[card.rank], card.rank, card), reverse=True)
    if [card.rank for card in ordered] == [12, 3, 2, 1, 0]:
        ordered = ordered[1:] + ordered[:1]  # the wheel reads five-high: 5-4-3-2-A
    return tuple(ordered)
