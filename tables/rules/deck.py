"""Shuffling, dealing order and the alternating decks (docs/rules.md §2.1-§2.2)."""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from cardroom.errors import Rule, RuleError

from .cards import FULL_DECK, Card, ensure_distinct
from .seats import clockwise_from_left_of

DECKS = ("A", "B")


def shuffled(cards: Sequence[Card], rng: random.Random | None = None) -> tuple[Card, ...]:
    """``cards`` in random order (a deck, a shoe of several decks).

    The default source is the operating system's CSPRNG (``secrets``); tests and
    the seeded simulator may pass their own ``random.Random``.
    """
    order = list(cards)
    (rng or secrets.SystemRandom()).shuffle(order)
    return tuple(order)


def shuffled_deck(rng: random.Random | None = None) -> tuple[Card, ...]:
    """A fresh 52-card deck in random order (``shuffled``)."""
    return shuffled(FULL_DECK, rng)


@dataclass(frozen=True)
class Deal:
    """Who got which cards: hole cards per wagering seat, the player-dealer's, the board."""

    hole_cards: tuple[tuple[int, tuple[Card, Card]], ...]
    player_dealer: tuple[Card, Card]
    board: tuple[Card, Card, Card, Card, Card]

    def hole_for(self, seat: int) -> tuple[Card, Card]:
        for dealt_seat, cards in self.hole_cards:
            if dealt_seat == seat:
                return cards
        raise KeyError(seat)


def deal(deck: Sequence[Card], player_dealer_seat: int, wagering_seats: Sequence[int]) -> Deal:
    """Deal in the automatic-shuffler order of `004` §7.

    Two cards at a time to each wagering area clockwise from the player-dealer's
    left, then two to the player-dealer, then the five community cards.
    """
    order = clockwise_from_left_of(player_dealer_seat, wagering_seats)
    if player_dealer_seat in order:
        raise RuleError(
            "the player-dealer's seat does not also wager",
            rule=Rule.PLAYER_DEALER_SEAT,
        )
    needed = 2 * len(order) + 7
    if len(deck) < needed:
        raise RuleError(f"{needed} cards needed, the deck has {len(deck)}", rule=Rule.CARD)
    ensure_distinct(deck)
    position = 0
    hole_cards = []
    for seat in order:
        hole_cards.append((seat, (deck[position], deck[position + 1])))
        position += 2
    player_dealer = (deck[position], deck[position + 1])
    board = tuple(deck[position + 2 : position + 7])
    return Deal(tuple(hole_cards), player_dealer, board)  # type: ignore[arg-type]


def next_deck(previous_deck: str | None) -> str:
    """Decks alternate round by round at a table; a table's first round uses deck A."""
    if previous_deck is None:
        return DECKS[0]
    if previous_deck not in DECKS:
        raise RuleError(f"unknown deck {previous_deck!r}", rule=Rule.DECKS)
    return DECKS[1 - DECKS.index(previous_deck)]
