"""The order of settlement and the coverage of the player-dealer's bank (docs/rules.md §14.6).

One pass, clockwise from the player-dealer's left (seat PD+1, wrapping after the table's last
seat); at each seat, its base wager, then Tie, Dragon 7 and Panda 8. The wagers are settled in
that order by the room's one coverage law (``wagers.rules.settlement.apply_coverage``,
docs/rules.md §7.3): the player-dealer never wins or loses more than the bank W, and once a
payment exhausts it every later wager is returned or unpaid as uncovered.
"""

from __future__ import annotations

from collections.abc import Mapping

from cardroom.errors import Rule, RuleError
from tables.rules.seats import clockwise_from, left_of, require_seat
from wagers.rules.settlement import PendingWager, Settlement, SettlementPass, apply_coverage
from wagers.rules.validation import validate_bank
from wagers.rules.wagers import SEAT_BETTOR

from .coup import Coup
from .options import BaccaratOptions
from .resolution import resolve_stakes
from .wagers import Stakes

# Every wager is settled in one pass once the coup is complete: the room's showdown pass.
BACCARAT_PASS = SettlementPass.SHOWDOWN


def require_seat_of(seat: object, options: BaccaratOptions, *, field: str = "seat") -> int:
    """``seat`` if the table has it (1 to ``options.seats``)."""
    return require_seat(seat, field=field, seat_count=options.seats, rule=Rule.BACCARAT_SEATS)


def settlement_order(
    player_dealer_seat: int,
    stakes_by_seat: Mapping[int, Stakes],
    coup: Coup,
    options: BaccaratOptions,
) -> list[PendingWager]:
    """Every wager on the layout resolved on ``coup``, in settlement order."""
    require_seat_of(player_dealer_seat, options)
    for seat in stakes_by_seat:
        require_seat_of(seat, options)
    if player_dealer_seat in stakes_by_seat:
        raise RuleError(
            f"seat {player_dealer_seat} is the player-dealer's and has no wagers of its own",
            rule=Rule.PLAYER_DEALER_SEAT,
        )
    count = options.seats
    seats = clockwise_from(
        left_of(player_dealer_seat, seat_count=count), stakes_by_seat, seat_count=count
    )
    return [
        PendingWager(BACCARAT_PASS, seat, SEAT_BETTOR, resolution)
        for seat in seats
        for resolution in resolve_stakes(stakes_by_seat[seat], coup, options)
    ]


def settle(
    player_dealer_seat: int,
    bank: int,
    stakes_by_seat: Mapping[int, Stakes],
    coup: Coup,
    options: BaccaratOptions,
) -> Settlement:
    """Resolve and settle every wager on the layout against the player-dealer's bank W. The
    stakes are each bettor's as checked by ``wagers.validate_stakes``; the bank is checked here."""
    validate_bank(bank, options.chip_unit)
    ordered = settlement_order(player_dealer_seat, stakes_by_seat, coup, options)
    return apply_coverage(bank, ordered)
