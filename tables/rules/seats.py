"""The six seats of a table, numbered 1 to 6 clockwise (docs/rules.md §3.1).

The player-dealer sits in one of them; at most five players play against the
player-dealer's hand. "Clockwise from the player-dealer's left" is seat PD+1, PD+2, ...
wrapping after 6: the order of dealing, of settlement and of the button's offers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cardroom.errors import Rule, RuleError

SEATS = (1, 2, 3, 4, 5, 6)
MAX_PLAYERS = len(SEATS) - 1  # everyone but the player-dealer


def seat_label(seat: int) -> str:
    return f"Seat {seat}"


def require_seat(seat: object, *, field: str = "seat") -> int:
    """``seat`` if it is one of the table's seats; a RuleError naming ``field`` otherwise."""
    if type(seat) is not int or seat not in SEATS:
        raise RuleError(f"seat {seat!r} does not exist", rule=Rule.SEATS, field=field)
    return seat


def clockwise_from(start_seat: int, seats: Iterable[int]) -> tuple[int, ...]:
    """``seats`` clockwise, starting at ``start_seat`` (inclusive)."""
    return tuple(sorted(seats, key=lambda seat: (seat - start_seat) % len(SEATS)))


def clockwise_from_left_of(player_dealer_seat: int, seats: Sequence[int]) -> tuple[int, ...]:
    """``seats`` ordered clockwise starting at the player-dealer's left (seat PD+1, wrapping)."""
    require_seat(player_dealer_seat)
    for seat in seats:
        require_seat(seat)
    return clockwise_from(left_of(player_dealer_seat), seats)


def left_of(seat: int) -> int:
    """The seat to the left of ``seat``: the next one clockwise."""
    return seat % len(SEATS) + 1
