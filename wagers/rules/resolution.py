"""How each wager of a hand resolves against the player-dealer (RULEBOOK §4).

| wager    | player wins                   | player loses        | tie  | folded |
| Ante     | 1:1 if dealer qualifies, else push | lose if qualifies, else push | push | lose |
| Play     | 1:1                           | lose                | push | (none) |
| Blind    | pay table if Straight+, else push | lose             | push | lose   |
| Trips    | pay table on the player's own hand, whatever the showdown          |
| Bad Beat | on the dealer's hand if 3K+   | on the player's hand if 3K+ | lose | lose |
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from tables.rules.hands import Category, HandValue, compare
from tables.rules.paytables import PayTable, payout

from .wagers import GameOptions, Stakes, WagerKind

DEALER_QUALIFIES_WITH = Category.ONE_PAIR
BAD_BEAT_MINIMUM = Category.THREE_OF_A_KIND


class Outcome(Enum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"


class HandResult(Enum):
    WIN = "win"
    LOSE = "lose"
    TIE = "tie"
    FOLD = "fold"


@dataclass(frozen=True, slots=True)
class Resolution:
    """A wager's outcome and, when it wins, its payout (stake not included)."""

    kind: WagerKind
    stake: int
    outcome: Outcome
    payout: int = 0
    rounded_off: Fraction = Fraction(0)


def dealer_qualifies(dealer: HandValue) -> bool:
    return dealer.category >= DEALER_QUALIFIES_WITH


def hand_result(player: HandValue, dealer: HandValue, folded: bool) -> HandResult:
    if folded:
        return HandResult.FOLD
    return {1: HandResult.WIN, -1: HandResult.LOSE, 0: HandResult.TIE}[compare(player, dealer)]


def _pay(
    kind: WagerKind, stake: int, table: PayTable, category: Category, chip_unit: int
) -> Resolution:
    odds = table.odds_for(category)
    if odds is None:
        return Resolution(kind, stake, Outcome.LOSE)
    amount = payout(stake, odds, chip_unit)
    return Resolution(kind, stake, Outcome.WIN, amount.amount, amount.rounded_off)


def _even_money(kind: WagerKind, stake: int) -> Resolution:
    return Resolution(kind, stake, Outcome.WIN, stake)


def resolve_wager(
    kind: WagerKind,
    stake: int,
    result: HandResult,
    player: HandValue,
    dealer: HandValue,
    options: GameOptions,
) -> Resolution:
    """Resolve one wager of ``stake`` cents given the hand's result."""
    lose = Resolution(kind, stake, Outcome.LOSE)
    push = Resolution(kind, stake, Outcome.PUSH)
    if kind is WagerKind.TRIPS:
        return _pay(kind, stake, options.trips_paytable, player.category, options.chip_unit)
    if result is HandResult.FOLD:
        return lose  # Ante, Blind and (Decision) Bad Beat lose; a folded hand has no Play
    if kind is WagerKind.BAD_BEAT:
        table = options.bad_beat_paytable
        beaten = {HandResult.WIN: dealer, HandResult.LOSE: player}.get(result)
        if table is None or beaten is None or beaten.category < BAD_BEAT_MINIMUM:
            return lose
        return _pay(kind, stake, table, beaten.category, options.chip_unit)
    if result is HandResult.TIE:
        return push
    if result is HandResult.LOSE:
        if kind is WagerKind.ANTE and not dealer_qualifies(dealer):
            return push
        return lose
    # The player's hand wins.
    if kind is WagerKind.ANTE:
        return _even_money(kind, stake) if dealer_qualifies(dealer) else push
    if kind is WagerKind.PLAY:
        return _even_money(kind, stake)
    # Blind: the pay table from a Straight up, a push below it.
    resolution = _pay(kind, stake, options.blind_paytable, player.category, options.chip_unit)
    return resolution if resolution.outcome is Outcome.WIN else push


def resolve_stakes(
    stakes: Stakes, result: HandResult, player: HandValue, dealer: HandValue, options: GameOptions
) -> dict[WagerKind, Resolution]:
    """Every wager the bettor actually made (stake above zero), resolved."""
    return {
        kind: resolve_wager(kind, stakes.of(kind), result, player, dealer, options)
        for kind in WagerKind
        if stakes.of(kind) > 0
    }
