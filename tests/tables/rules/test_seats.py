"""Seats numbered clockwise, for a table of any seat count (docs/rules.md §3.1, §14.6).

Ultimate Texas Hold'em's six seats keep their order and refusals (tests/tables/rules/
test_cards.py); the same functions order the six to nine seats of an EZ Baccarat table.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardroom.errors import Rule, RuleError
from tables.rules.seats import (
    SEATS,
    clockwise_from,
    clockwise_from_left_of,
    left_of,
    require_seat,
    seat_numbers,
)


def test_a_table_of_six_is_the_default():
    assert SEATS == seat_numbers(6) == (1, 2, 3, 4, 5, 6)
    assert seat_numbers(9) == (1, 2, 3, 4, 5, 6, 7, 8, 9)


@pytest.mark.parametrize(
    ("seat", "count", "left"),
    [(1, 6, 2), (6, 6, 1), (6, 9, 7), (9, 9, 1), (8, 8, 1), (7, 8, 8), (7, 7, 1)],
    ids=["1-of-6", "6-of-6-wraps", "6-of-9", "9-of-9-wraps", "8-of-8-wraps", "7-of-8", "7-of-7"],
)
def test_the_seat_to_the_left(seat, count, left):
    assert left_of(seat, seat_count=count) == left


@pytest.mark.parametrize(
    ("player_dealer", "count", "seats", "expected"),
    [
        (5, 9, [1, 7], (7, 1)),
        (9, 9, [8, 1, 5], (1, 5, 8)),
        (3, 9, [1, 2, 4, 5, 6, 7, 8, 9], (4, 5, 6, 7, 8, 9, 1, 2)),
        (7, 7, [6, 1], (1, 6)),
        (6, 8, [7, 1, 5], (7, 1, 5)),
    ],
    ids=["pd5-of-9-wraps", "pd9-of-9", "pd3-of-9-all", "pd7-of-7", "pd6-of-8"],
)
def test_clockwise_from_the_left_of_a_seat_at_any_table(player_dealer, count, seats, expected):
    start = left_of(player_dealer, seat_count=count)
    assert clockwise_from(start, seats, seat_count=count) == expected


@given(st.integers(1, 6), st.sets(st.integers(1, 6)))
def test_the_six_seat_order_is_the_default_order(player_dealer, seats):
    seats = sorted(seats - {player_dealer})
    assert clockwise_from_left_of(player_dealer, seats) == clockwise_from(
        left_of(player_dealer, seat_count=6), seats, seat_count=6
    )


@pytest.mark.parametrize(
    ("seat", "count", "accepted"),
    [(1, 6, True), (6, 6, True), (7, 6, False), (7, 9, True), (9, 9, True), (10, 9, False),
     (0, 9, False), (True, 9, False), (3.0, 9, False), ("3", 9, False)],
)  # fmt: skip
def test_a_seat_exists_at_a_table_of_its_count(seat, count, accepted):
    if accepted:
        assert require_seat(seat, seat_count=count) == seat
        return
    with pytest.raises(RuleError) as caught:  # named by the rule its game passes
        require_seat(seat, seat_count=count, rule=Rule.PLAYER_DEALER_SEAT, field="x")
    assert (caught.value.rule, caught.value.field) == (Rule.PLAYER_DEALER_SEAT, "x")


def test_a_seat_at_an_ultimate_texas_holdem_table_names_its_rule():
    with pytest.raises(RuleError) as caught:
        require_seat(7)
    assert caught.value.rule is Rule.SEATS
    assert str(caught.value) == (
        "seat: seat 7 does not exist: the table has seats 1 to 6"
        " [rule: the seats, numbered from 1, docs/rules.md §3.1]"
    )
