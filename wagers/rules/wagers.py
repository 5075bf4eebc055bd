"""The wagers of one bettor and the options that govern them (RULEBOOK §3-§4)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from tables.rules.decisions import DEFAULT_PREFLOP_MULTIPLES
from tables.rules.paytables import BAD_BEAT_PAYTABLES, BLIND, TRIPS_PAYTABLES, PayTable


class WagerKind(Enum):
    # Members are singletons: hash by identity, not by Enum's hash of the name in Python.
    __hash__ = object.__hash__
    ANTE = "ante"
    PLAY = "play"
    BLIND = "blind"
    TRIPS = "trips"
    BAD_BEAT = "bad_beat"


# Wager order at a seat in each settlement pass (RULEBOOK §5, `004` §16).
SHOWDOWN_ORDER = (
    WagerKind.ANTE,
    WagerKind.PLAY,
    WagerKind.BLIND,
    WagerKind.TRIPS,
    WagerKind.BAD_BEAT,
)
FOLD_ORDER = (WagerKind.ANTE, WagerKind.BLIND, WagerKind.TRIPS, WagerKind.BAD_BEAT)


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


@dataclass(frozen=True)
class GameOptions:
    """The options sheet of a table, as far as resolving a hand needs it.

    Table limits apply to each Ante, Blind, Trips and Bad Beat wager; ``None``
    means no limit. The Play is not held to the table maximum: it is fixed by
    the Ante and the street (**Decision**, documented in docs/rules-decisions.md).
    """

    trips_paytable: PayTable = field(default_factory=lambda: TRIPS_PAYTABLES["UTH-01"])
    bad_beat_paytable: PayTable | None = field(
        default_factory=lambda: BAD_BEAT_PAYTABLES["option-1"]
    )
    chip_unit: int = 1
    allowed_preflop_multiples: tuple[int, ...] = DEFAULT_PREFLOP_MULTIPLES
    blind_paytable: PayTable = BLIND
    table_minimum: int | None = None
    table_maximum: int | None = None
    backline_allowed: bool = True
