"""Floor counters (tables.rules.counters): table-driven rows against times worked by hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest

from tables.rules.counters import (
    minutes_left,
    one_decimal,
    table_counters,
    window_limit_at,
)
from tables.rules.rotation import BankedHand, RotationPolicy

T0 = datetime(2026, 11, 25, 20, 0, tzinfo=UTC)
ANN, BOB, TPPP = 1, 2, 9


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def hand(n: int, minute: float, player: int) -> BankedHand:
    return BankedHand(n, 1, at(minute), 1, player, player == TPPP)


@pytest.mark.parametrize(
    ("now", "starts", "hands", "last_hour", "per_hour", "since_last"),
    [
        (5, [], 0, 0, None, None),  # young game, no hand yet: no rate
        (9.9, [1, 2, 3], 3, 3, None, 6),  # still under 10 minutes: no rate
        (10, [1, 2, 3], 3, 3, "18.0", 7),  # 3 hands in 1/6 hour
        (90, [1, 20, 40, 60, 80], 5, 3, "3.3", 10),  # 5 / 1.5 h; 30, 40... in the hour
        (120, [60.5, 61], 2, 2, "1.0", 59),
    ],
)
def test_hands_and_times(now, starts, hands, last_hour, per_hour, since_last):
    counted = table_counters(at(now), T0, [at(m) for m in starts], {1: at(0), 4: at(now - 2.5)})
    assert counted.hands == hands
    assert counted.hands_last_hour == last_hour
    assert (None if counted.hands_per_hour is None else one_decimal(counted.hands_per_hour)) == (
        per_hour
    )
    assert counted.minutes_since_last_hand == since_last
    assert counted.seated_minutes == {1: int(now), 4: 2}
    assert counted.game_open_minutes == int(now)
    assert counted.minutes_to_window_limit is None  # not asked


def test_hands_counted_beyond_the_hour_given_apart():
    counted = table_counters(at(120), T0, [at(70)], {}, hands=40, latest=at(70))
    assert (counted.hands, counted.hands_last_hour, counted.minutes_since_last_hand) == (40, 1, 50)
    assert counted.hands_per_hour == Fraction(20)


@pytest.mark.parametrize(
    ("now", "history", "limit"),
    [
        # A fresh game with no hand: the rule bites when the game has run 40 minutes.
        (0, [], 40),
        # Two non-TPPP player-dealers: fine until the first leaves the window (at 5 + 40).
        (30, [(1, 5, ANN), (2, 20, BOB)], 45),
        # A TPPP's hands do not count: Ann alone is one, short of two once the game is 40.
        (10, [(1, 5, ANN), (2, 8, TPPP)], 40),
        # Already short: the limit is now.
        (50, [(1, 45, ANN)], 50),
    ],
)
def test_the_40_minute_limit(now, history, limit):
    hands = [hand(n, m, p) for n, m, p in history]
    assert window_limit_at(T0, at(now), hands, RotationPolicy()) == at(limit)


def test_no_limit_with_the_rule_off():
    assert window_limit_at(T0, at(100), [], RotationPolicy(window_minutes=None)) is None


@pytest.mark.parametrize(
    ("span", "expected"),
    [(timedelta(0), 0), (timedelta(seconds=1), 1), (timedelta(minutes=14), 14),
     (timedelta(minutes=14, seconds=1), 15), (timedelta(minutes=-3), 0)],
)  # fmt: skip
def test_minutes_left_round_up(span, expected):
    assert minutes_left(span) == expected


@pytest.mark.parametrize(
    ("rate", "text"),
    [(Fraction(37, 2), "18.5"), (Fraction(10, 3), "3.3"), (Fraction(1, 20), "0.1"),
     (Fraction(1, 21), "0.0"), (Fraction(0), "0.0"), (Fraction(299, 20), "15.0")],
)  # fmt: skip
def test_one_decimal_rounds_halves_up(rate, text):
    assert one_decimal(rate) == text
