"""How each wager of a hand resolves against the player-dealer (docs/rules.md §6).

| wager    | player wins                   | player loses        | tie  | folded |
| Ante     | 1:1 if dealer qualifies, else push | lose if qualifies, else push | push | lose |
| Play     | 1:1                           | lose                | push | (none) |
| Blind    | pay table if Straight+, else push | lose             | push | lose   |
| Trips    | pay table on the player's own hand, whatever the showdown          |
| Bad Beat | on the dealer's hand if 3K+   | on the player's hand if 3K+ | lose | lose |
"""

from __future__ import annotations

from enum import Enum
from fractions import Fraction
from typing import NamedTuple

from tables.rules.hands import Category, HandValue, compare
from tables.rules.options import GameOptions
from tables.rules.paytables import PayTable, payout

from .wagers import Stakes, WagerKind

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


class Resolution(NamedTuple):
    """A wager's outcome and, when it wins, its payout (stake not included).

    Immutable values built on the settlement hot path are NamedTuples: as immutable as a
    frozen dataclass and several times cheaper to build.
    """

    kind: WagerKind
    stake: int
    outcome: Outcome
    payout: int = 0
    rounded_off: Fraction = Fraction(0)


# Enum members read through the class cost an attribute lookup each time; the hot path uses these.
_ANTE, _PLAY, _TRIPS, _BAD_BEAT = (
    WagerKind.ANTE,
    WagerKind.PLAY,
    WagerKind.TRIPS,
    WagerKind.BAD_BEAT,
)
_WIN, _LOSE, _PUSH = Outcome.WIN, Outcome.LOSE, Outcome.PUSH
_RESULT_OF_COMPARISON = {1: HandResult.WIN, -1: HandResult.LOSE, 0: HandResult.TIE}
_FOLD, _TIE, _PLAYER_WINS, _PLAYER_LOSES = (
    HandResult.FOLD,
    HandResult.TIE,
    HandResult.WIN,
    HandResult.LOSE,
)
_KINDS = tuple((kind, kind.value) for kind in WagerKind)


def dealer_qualifies(dealer: HandValue) -> bool:
    return dealer.category >= DEALER_QUALIFIES_WITH


def hand_result(player: HandValue | None, dealer: HandValue, folded: bool) -> HandResult:
    """``player`` is None only for a mucked hand (folded, never valued: docs/rules.md §2.3)."""
    if folded:
        return _FOLD
    return _RESULT_OF_COMPARISON[compare(player, dealer)]


def _pay(
    kind: WagerKind, stake: int, table: PayTable, category: Category, chip_unit: int
) -> Resolution:
    odds = table.odds_for(category)
    if odds is None:
        return Resolution(kind, stake, _LOSE)
    amount, rounded_off = payout(stake, odds, chip_unit)
    return Resolution(kind, stake, _WIN, amount, rounded_off)


def resolve_wager(
    kind: WagerKind,
    stake: int,
    result: HandResult,
    player: HandValue | None,
    dealer: HandValue,
    options: GameOptions,
) -> Resolution:
    """Resolve one wager of ``stake`` cents given the hand's result (``player`` None: a
    mucked hand, which has no Trips wager and resolves as a fold)."""
    if kind is _TRIPS:
        return _pay(kind, stake, options.trips_paytable, player.category, options.chip_unit)
    if result is _FOLD:
        # Ante, Blind and (Decision) Bad Beat lose; a folded hand has no Play.
        return Resolution(kind, stake, _LOSE)
    if kind is _BAD_BEAT:
        table = options.bad_beat_paytable
        beaten = dealer if result is _PLAYER_WINS else player if result is _PLAYER_LOSES else None
        if table is None or beaten is None or beaten.category < BAD_BEAT_MINIMUM:
            return Resolution(kind, stake, _LOSE)
        return _pay(kind, stake, table, beaten.category, options.chip_unit)
    if result is _TIE:
        return Resolution(kind, stake, _PUSH)
    if result is _PLAYER_LOSES:
        if kind is _ANTE and not dealer_qualifies(dealer):
            return Resolution(kind, stake, _PUSH)
        return Resolution(kind, stake, _LOSE)
    # The player's hand wins.
    if kind is _ANTE:
        if dealer_qualifies(dealer):
            return Resolution(kind, stake, _WIN, stake)
        return Resolution(kind, stake, _PUSH)
    if kind is _PLAY:
        return Resolution(kind, stake, _WIN, stake)
    # Blind: the pay table from a Straight up, a push below it.
    resolution = _pay(kind, stake, options.blind_paytable, player.category, options.chip_unit)
    return resolution if resolution.outcome is _WIN else Resolution(kind, stake, _PUSH)


def resolve_stakes(
    stakes: Stakes,
    result: HandResult,
    player: HandValue | None,
    dealer: HandValue,
    options: GameOptions,
) -> dict[WagerKind, Resolution]:
    """Every wager the bettor actually made (stake above zero), resolved."""
    resolved = {}
    for kind, name in _KINDS:
        stake = getattr(stakes, name)
        if stake > 0:
            resolved[kind] = resolve_wager(kind, stake, result, player, dealer, options)
    return resolved
