"""The seats of a table, numbered clockwise (docs/rules.md §3.1, §14.6).

An Ultimate Texas Hold'em table has six seats, 1 to 6; an EZ Baccarat table has six to nine
(an option of its sheet). The player-dealer sits in one of them. "Clockwise from the
player-dealer's left" is seat PD+1, PD+2, ... wrapping after the last seat: the order of
dealing, of settlement and of the button's offers. The functions that order seats take the
table's seat count; it defaults to the six seats of Ultimate Texas Hold'em.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cardroom.errors import Rule, RuleError

SEAT_COUNT = 6
MOST_SEATS = 9  # the most seats a table of any game has (EZ Baccarat's nine)


def seat_numbers(seat_count: int) -> tuple[int, ...]:
    """The seats of a table of ``seat_count`` seats: 1 to ``seat_count``."""
    return tuple(range(1, seat_count + 1))


SEATS = seat_numbers(SEAT_COUNT)
MAX_PLAYERS = len(SEATS) - 1  # everyone but the player-dealer


def seat_label(seat: int) -> str:
    return f"Seat {seat}"


def require_seat(
    seat: object, *, field: str = "seat", seat_count: int = SEAT_COUNT, rule: Rule = Rule.SEATS
) -> int:
    """``seat`` if it is one of the table's seats; a RuleError naming ``field`` and ``rule``
    (the seats rule of the table's game) otherwise."""
    if type(seat) is not int or not 1 <= seat <= seat_count:
        raise RuleError(
            f"seat {seat!r} does not exist: the table has seats 1 to {seat_count}",
            rule=rule,
            field=field,
        )
    return seat


def clockwise_from(
    start_seat: int, seats: Iterable[int], *, seat_count: int = SEAT_COUNT
) -> tuple[int, ...]:
    """``seats`` clockwise, starting at ``start_seat`` (inclusive)."""
    return tuple(sorted(seats, key=lambda seat: (seat - start_seat) % seat_count))


def clockwise_from_left_of(player_dealer_seat: int, seats: Sequence[int]) -> tuple[int, ...]:
    """``seats`` ordered clockwise starting at the player-dealer's left (seat PD+1, wrapping),
    at a table of six seats; each seat is checked."""
    require_seat(player_dealer_seat)
    for seat in seats:
        require_seat(seat)
    return clockwise_from(left_of(player_dealer_seat), seats)


def left_of(seat: int, *, seat_count: int = SEAT_COUNT) -> int:
    """The seat to the left of ``seat``: the next one clockwise."""
    return seat % seat_count + 1
