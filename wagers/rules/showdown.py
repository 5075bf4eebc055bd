"""One complete hand at the table: evaluate, resolve every wager, settle (docs/rules.md §6-§7)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tables.rules.cards import Card
from tables.rules.hands import HandValue, evaluate
from tables.rules.options import GameOptions

from .resolution import HandResult, dealer_qualifies, hand_result, resolve_stakes
from .settlement import Settlement, apply_coverage, settlement_order
from .wagers import Stakes


@dataclass(frozen=True)
class SeatHand:
    """A wagering seat: its hole cards, its own wagers, and its backline bettors' wagers."""

    seat: int
    hole: tuple[Card, Card]
    stakes: Stakes
    folded: bool = False
    backline: tuple[Stakes, ...] = ()


@dataclass(frozen=True)
class SeatOutcome:
    seat: int
    value: HandValue
    result: HandResult


@dataclass(frozen=True)
class HandOutcome:
    dealer: HandValue
    dealer_qualifies: bool
    seats: tuple[SeatOutcome, ...]
    settlement: Settlement


def play_out(
    player_dealer_seat: int,
    dealer_hole: Sequence[Card],
    board: Sequence[Card],
    seats: Sequence[SeatHand],
    bank: int,
    options: GameOptions,
) -> HandOutcome:
    """Resolve and settle a hand whose wagers and cards are already validated."""
    dealer = evaluate((*dealer_hole, *board))
    outcomes = []
    resolutions = {}
    for hand in seats:
        value = evaluate((*hand.hole, *board))
        result = hand_result(value, dealer, hand.folded)
        outcomes.append(SeatOutcome(hand.seat, value, result))
        resolutions[hand.seat] = [
            resolve_stakes(stakes, result, value, dealer, options)
            for stakes in (hand.stakes, *hand.backline)
        ]
    ordered = settlement_order(
        player_dealer_seat, resolutions, (hand.seat for hand in seats if hand.folded)
    )
    return HandOutcome(
        dealer, dealer_qualifies(dealer), tuple(outcomes), apply_coverage(bank, ordered)
    )
