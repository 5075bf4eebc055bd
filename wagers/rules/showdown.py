"""One complete hand at the table: evaluate, resolve every wager, settle (docs/rules.md §6-§7)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tables.rules.cards import Card
from tables.rules.hands import HandValue, evaluate
from tables.rules.options import GameOptions

from .resolution import HandResult, dealer_qualifies, hand_result, resolve_stakes
from .settlement import Settlement, apply_coverage, settlement_order
from .wagers import Stakes


def turned_face_up(folded: bool, trips: Iterable[int]) -> bool:
    """Whether a hand is turned face up at the showdown (docs/rules.md §2.3, §5.3): every
    hand still in, and a folded hand with a Trips wager on it (``trips``: the stakes of the
    seat's and its backline bettors'), which its seven cards decide. A folded hand without
    one is mucked: nothing it has depends on its cards (everything loses, §6.1)."""
    return not folded or any(stake > 0 for stake in trips)


@dataclass(frozen=True)
class SeatHand:
    """A wagering seat: its hole cards (None: mucked, never turned face up), its own wagers,
    and its backline bettors' wagers."""

    seat: int
    hole: tuple[Card, Card] | None
    stakes: Stakes
    folded: bool = False
    backline: tuple[Stakes, ...] = ()

    @property
    def turned_face_up(self) -> bool:
        return turned_face_up(self.folded, (s.trips for s in (self.stakes, *self.backline)))


@dataclass(frozen=True)
class SeatOutcome:
    seat: int
    value: HandValue | None  # None: a mucked hand, never valued
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
    """Resolve and settle a hand whose wagers and cards are already validated. A hand
    without hole cards is mucked: it must be one that is not turned face up (a fold with no
    Trips wager), which resolves as a fold without its cards."""
    dealer = evaluate((*dealer_hole, *board))
    outcomes = []
    resolutions = {}
    for hand in seats:
        if hand.hole is not None:
            value = evaluate((*hand.hole, *board))
        elif hand.turned_face_up:
            raise ValueError(f"seat {hand.seat} is turned face up: its hole cards are needed")
        else:
            value = None
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
