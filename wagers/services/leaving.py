"""A player leaves a seat, their chips settled in the same step (docs/rules.md §4.6).

Nothing is left at a table nobody sits at: a player who leaves with chips has them cashed
out (a patron's with the Title 31 currency flag; a TPPP's bankroll back to the cage by a
credit) or carried to their next seat at another table, where they are seated at once.
A player with chips who is simply unseated is refused, naming what to do; a next table and
seat are named only to carry the chips there (with a cash-out they are refused, never
ignored). Everything in one transaction: the seat is left only if the chips are settled,
and the reverse. Closing a table (``closing.close_table``) has every seat left through here.

Locks: the tables by id, lowest first (a carry locks both), then what the floor and chip
services lock under them (docs/architecture.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from django.db import transaction

from cardroom.errors import Rule, RuleError
from cardroom.money import dollars
from tables.models import Seating, Table
from tables.services import floor
from tables.services.locks import lock_table
from wagers.models import LedgerTransaction

from . import chips as chip_services
from .chips import chip_account


class Chips(StrEnum):
    """What happens to the chips of a player who leaves."""

    CASH_OUT = "cash_out", "cashed out at the cage"
    CARRY = "carry", "carried to the player's next seat"

    def __new__(cls, value: str, label: str) -> Chips:
        member = str.__new__(cls, value)
        member._value_ = value
        member.label = label
        return member


@dataclass(frozen=True)
class Left:
    """A seat left: the ended seating, the chips the player had, and where they went."""

    seating: Seating
    chips_cents: int
    settled: tuple[LedgerTransaction, ...] = ()
    next_seating: Seating | None = None

    @property
    def message(self) -> str:
        """What the floor is told."""
        text = f"{self.seating.player.name} left seat {self.seating.seat}"
        if self.next_seating is not None:
            text += f" for seat {self.next_seating.seat} at {self.next_seating.table}" + (
                f", with {dollars(self.chips_cents)} in chips" if self.chips_cents else ""
            )
        elif self.chips_cents:
            text += f"; {dollars(self.chips_cents)} in chips cashed out"
        return text


def _seated(table: Table, seat: int) -> Seating:
    seating = (
        Seating.objects.filter(table=table, seat=seat, left_at__isnull=True)
        .select_related("player__tppp")
        .first()
    )
    if seating is None:
        raise RuleError(f"seat {seat} is empty", rule=Rule.SEATS, field="seat")
    return seating


def leave_seat(
    *,
    table_id: int,
    seat: int,
    by,
    chips: Chips | str | None = None,
    currency: bool = False,
    to_table_id: int | None = None,
    to_seat: int | None = None,
) -> Left:
    """The player at ``seat`` leaves, their chips cashed out or carried to ``to_seat`` at
    ``to_table_id`` (``chips``); never while in the hand in play (the floor refuses)."""
    chips = None if chips in (None, "") else Chips(chips)
    if chips is Chips.CARRY:
        if to_table_id is None:
            raise RuleError(
                "name the table the chips are carried to",
                rule=Rule.CHIPS_IN_FRONT,
                field="to_table",
            )
        if to_seat is None:
            raise RuleError(
                "name the seat the player takes next", rule=Rule.CHIPS_IN_FRONT, field="to_seat"
            )
        if to_table_id == table_id:
            raise RuleError(
                "chips are carried to another table; at this one the player changes seat",
                rule=Rule.CHIPS_IN_FRONT,
                field="to_table",
            )
    elif to_table_id is not None or to_seat is not None:
        raise RuleError(
            ("the chips are cashed out: " if chips is Chips.CASH_OUT else "")
            + "a next table and seat are named only to carry the chips there (chips: carry)",
            rule=Rule.CHIPS_IN_FRONT,
            field="to_table" if to_table_id is not None else "to_seat",
        )
    with transaction.atomic():
        locked = {t: lock_table(t) for t in sorted({table_id, to_table_id} - {None})}
        table = locked[table_id]
        seating = _seated(table, seat)
        player = seating.player
        # The floor's refusals first (a player in the hand in play: 409), then the chips.
        left = floor.unseat_player(table_id=table_id, seat=seat, by=by, moving=chips is Chips.CARRY)
        left.player = player
        account = chip_account(player, table)
        held = account.balance_cents if account is not None else 0
        if held and chips is None:
            raise RuleError(
                f"{player.name} has {dollars(held)} in chips at {table}: cash them out or "
                "carry them to the player's next seat",
                rule=Rule.CHIPS_IN_FRONT,
                field="chips",
            )
        if chips is Chips.CARRY:
            next_seating = floor.seat_player(
                table_id=to_table_id, seat=to_seat, player_id=player.pk, by=by
            )
            carried = chip_services.carry(
                from_table_id=table_id, to_table_id=to_table_id, player_id=player.pk, by=by
            )
            return Left(left, held, carried or (), next_seating)
        cashed = chip_services.take_all(
            table_id=table_id, player_id=player.pk, currency=currency, by=by
        )
        return Left(left, held, (cashed,) if cashed else ())
