"""The wagers of one bettor and the order they are settled in (docs/rules.md §4, §7.2)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class WagerKind(Enum):
    # Members are singletons: hash by identity, not by Enum's hash of the name in Python.
    __hash__ = object.__hash__
    ANTE = "ante"
    PLAY = "play"
    BLIND = "blind"
    TRIPS = "trips"
    BAD_BEAT = "bad_beat"

    @property
    def label(self) -> str:
        """The square as the layout names it: "Ante", "Bad Beat"."""
        return self.value.replace("_", " ").title()


# The betting squares wagered before the deal ("no more bets" closes them), in the order a
# seat's wagers are settled in the fold pass (docs/rules.md §4.1, §7.2). The Play is made
# later, at a decision. Fees are charged on these squares (§9.2).
OPENING_WAGERS = (WagerKind.ANTE, WagerKind.BLIND, WagerKind.TRIPS, WagerKind.BAD_BEAT)
OPENING_SQUARES = tuple(kind.value for kind in OPENING_WAGERS)
# Wager order at a seat in each settlement pass (docs/rules.md §7.2).
SHOWDOWN_ORDER = (
    WagerKind.ANTE,
    WagerKind.PLAY,
    WagerKind.BLIND,
    WagerKind.TRIPS,
    WagerKind.BAD_BEAT,
)
FOLD_ORDER = OPENING_WAGERS

SEAT_BETTOR = 0  # bettor number of the seated player; backline bettors are 1, 2, ...


def bettor_label(bettor: int) -> str:
    """``"seat"`` for the seated player, ``"backline-N"`` for the N-th bettor behind it."""
    return "seat" if bettor == SEAT_BETTOR else f"backline-{bettor}"


@dataclass(frozen=True, slots=True)
class Stakes:
    """One bettor's wagers in cents: the seated player's own, or a backline bettor's."""

    ante: int = 0
    blind: int = 0
    play: int = 0
    trips: int = 0
    bad_beat: int = 0

    def of(self, kind: WagerKind) -> int:
        return getattr(self, kind.value)

    @property
    def total(self) -> int:
        return self.ante + self.blind + self.play + self.trips + self.bad_beat
