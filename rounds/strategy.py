"""A documented basic strategy for simulated players (``manage.py simulate``).

A simplified form of the published Ultimate Texas Hold'em basic strategy
(Wizard of Odds), enough to give realistic play: it is used only to fill a
database for demos, benchmarks and report tests, never to advise anyone.

- Pre-flop, Play the largest allowed multiple with: any pair but deuces; any
  ace; a suited king; K-5 or better offsuit; Q-6+ suited; Q-8+ offsuit;
  J-8+ suited; J-T offsuit. Otherwise check.
- On the flop, Play 2x with: two pair or better made with a hole card; a
  hidden pair (a pocket pair above deuces, or a hole card pairing the board);
  four to a flush holding a hidden ten or better of that suit. Otherwise check.
- On the river, Play 1x when the player's seven cards beat the board alone
  (a hole card plays); otherwise fold.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from phevaluator.evaluator import evaluate_cards

from tables.rules.cards import Card
from tables.rules.hands import Category, category_of

TEN, JACK, QUEEN, KING, ACE = 8, 9, 10, 11, 12
TWO_PAIR_OR_BETTER = Category.TWO_PAIR


def preflop_plays(hole: Sequence[Card]) -> bool:
    high, low = sorted((card.rank for card in hole), reverse=True)
    suited = hole[0].suit == hole[1].suit
    if high == low:
        return high > 0
    if high == ACE:
        return True
    if high == KING:
        return suited or low >= 3  # K5+ offsuit (5 is rank 3)
    if high == QUEEN:
        return low >= (4 if suited else 6)  # Q6+ suited, Q8+ offsuit
    if high == JACK:
        return low >= (6 if suited else TEN)  # J8+ suited, JT offsuit
    return False


def flop_plays(hole: Sequence[Card], flop: Sequence[Card]) -> bool:
    with_hole = category_of(evaluate_cards(*hole, *flop))
    board_ranks = Counter(card.rank for card in flop)
    if with_hole >= TWO_PAIR_OR_BETTER and with_hole > _board_category(flop):
        return True
    pocket_pair = hole[0].rank == hole[1].rank and hole[0].rank > 0
    if pocket_pair or any(board_ranks[card.rank] for card in hole):
        return True
    suits = Counter(card.suit for card in (*hole, *flop))
    for suit, count in suits.items():
        if count >= 4 and any(card.suit == suit and card.rank >= TEN for card in hole):
            return True
    return False


def river_plays(hole: Sequence[Card], board: Sequence[Card]) -> bool:
    return evaluate_cards(*hole, *board) < evaluate_cards(*board)


def _board_category(cards: Sequence[Card]) -> Category:
    counts = sorted(Counter(card.rank for card in cards).values(), reverse=True)
    if counts[0] >= 3:
        return Category.THREE_OF_A_KIND
    if counts[0] == 2:
        return Category.ONE_PAIR
    return Category.HIGH_CARD
