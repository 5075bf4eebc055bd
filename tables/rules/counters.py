"""Floor counters (docs/floor.md), in plain Python: what the floor watches at a table.

For the game open at a table: how long it has been open, its hands (in all, in the last
60 minutes, per hour of the game), the time since its last hand started, and, when the
40-minute rule is on (§8.12), the time left before a hand would be refused unless a new
player other than a TPPP takes the position; for each seat, how long its player has sat.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction

from tables.rules.rotation import BankedHand, RotationPolicy, SeatedPlayer, window_shortfall

HOUR = timedelta(hours=1)
MICROSECOND = timedelta(microseconds=1)
# Hands per hour is shown once the game has run this long: before, one hand reads as a rate.
RATE_AFTER = timedelta(minutes=10)
# The next hand's player-dealer is unknown: assume the worst, one who adds no non-TPPP.
NOBODY_NEW = SeatedPlayer(seat=0, player_id=-1, is_tppp=True)


def minutes(span: timedelta) -> int:
    """Whole minutes elapsed, rounded down (never negative)."""
    return max(0, span // timedelta(minutes=1))


def minutes_left(span: timedelta) -> int:
    """Whole minutes left, rounded up (a limit 30 s away is "1 min"; never negative)."""
    return max(0, -((-span) // timedelta(minutes=1)))


def one_decimal(rate: Fraction) -> str:
    """A rate for people, to one decimal, halves rounded up: ``Fraction(37, 2)`` -> "18.5"."""
    tenths = (rate * 10 + Fraction(1, 2)).__floor__()
    return f"{tenths // 10}.{tenths % 10}"


def window_limit_at(
    opened_at: datetime,
    moment: datetime,
    history: Sequence[BankedHand],
    policy: RotationPolicy,
) -> datetime | None:
    """When the 40-minute rule would first refuse a hand, if nobody new banks: ``moment``
    itself if it already would, None when the rule is off. The answer changes only when
    the game reaches the window or a banked hand leaves it, so those instants are tried."""
    window = policy.window
    if window is None:
        return None
    instants = sorted({moment, opened_at + window, *(hand.started_at + window for hand in history)})
    for instant in instants:
        if instant < moment:
            continue
        if window_shortfall(opened_at, instant, history, NOBODY_NEW, policy) is not None:
            return instant
    return None


@dataclass(frozen=True)
class Counters:
    game_open_minutes: int
    hands: int  # in this game
    hands_last_hour: int
    hands_per_hour: Fraction | None  # None until the game has run RATE_AFTER
    minutes_since_last_hand: int | None  # None before the first hand
    minutes_to_window_limit: int | None  # None when the 40-minute rule is off
    seated_minutes: Mapping[int, int]  # seat -> minutes its player has sat


def table_counters(
    moment: datetime,
    opened_at: datetime,
    hand_starts: Sequence[datetime],
    seated_since: Mapping[int, datetime],
    *,
    hands: int | None = None,
    latest: datetime | None = None,
    window_limit: datetime | None = None,
) -> Counters:
    """The counters of a game opened at ``opened_at``: ``hand_starts`` are the starts of
    its hands (at least those of the last hour; ``hands`` counts them all and ``latest`` is
    the last start when only those are given), ``seated_since`` each seat's sitting down,
    ``window_limit`` from ``window_limit_at``."""
    total = len(hand_starts) if hands is None else hands
    open_for = moment - opened_at
    latest = max([*hand_starts, *([latest] if latest else [])], default=None)
    return Counters(
        game_open_minutes=minutes(open_for),
        hands=total,
        hands_last_hour=sum(1 for start in hand_starts if moment - start < HOUR),
        hands_per_hour=(
            Fraction(total * (HOUR // MICROSECOND), open_for // MICROSECOND)
            if open_for >= RATE_AFTER
            else None
        ),
        minutes_since_last_hand=None if latest is None else minutes(moment - latest),
        minutes_to_window_limit=(
            None if window_limit is None else minutes_left(window_limit - moment)
        ),
        seated_minutes={seat: minutes(moment - since) for seat, since in seated_since.items()},
    )
