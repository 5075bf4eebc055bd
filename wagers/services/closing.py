"""A floor supervisor closes a table at the end of play, and nothing is left on it
(docs/rules.md §3.7, §4.6).

Closing moves chips, so it lives in the money layer and calls the floor's services: the
open game ends (reason closed), every seated player leaves with their chips cashed out
(``leaving.leave_seat``: a patron's with the currency flag the supervisor marked for that
seat, a TPPP's bankroll credited), anyone else holding chips at the table (a backline
bettor) is cashed out the same way, and the floor marks the table closed. One transaction:
refused (a round in play, the table already closed, a mark naming nobody), nothing changes.

Locks (docs/architecture.md): the table first; the services called under it take the same
table lock again, then the rows under it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction

from cardroom.errors import Rule, RuleError
from cardroom.money import dollars
from tables.guards import require_closable
from tables.models import Game, GameEndReason, Seating, Table
from tables.selectors.floor import active_round, open_game
from tables.services import floor
from tables.services.locks import lock_table
from wagers.models import LedgerTransaction
from wagers.selectors import chips_at_table

from . import chips as chip_services
from .leaving import Chips, Left, leave_seat

GAME_END_DETAIL = "the table closed"


@dataclass(frozen=True)
class Closed:
    """A table closed: the game it ended, each seat left with its chips, the chips of the
    players not seated (backline bettors) cashed out."""

    table: Table
    game: Game | None
    left: tuple[Left, ...]
    cashed_out: tuple[LedgerTransaction, ...]
    cashed_out_cents: int  # the chips of the players not seated

    @property
    def chips_cents(self) -> int:
        """Every chip that left the table."""
        return sum(left.chips_cents for left in self.left) + self.cashed_out_cents

    @property
    def message(self) -> str:
        """What the floor is told."""
        text = f"{self.table} is closed"
        if self.game is not None:
            text += "; the game ended"
        if self.left:
            text += f"; {_players(len(self.left))} left their seats"
        if self.cashed_out:
            text += f"; {_players(len(self.cashed_out))} behind a seat cashed out"
        if self.chips_cents:
            text += f"; {dollars(self.chips_cents)} in chips cashed out in all"
        return text


def _players(count: int) -> str:
    return f"{count} player{'' if count == 1 else 's'}"


def close_table(
    *,
    table_id: int,
    by,
    currency_seats: Iterable[int] = (),
    currency_players: Iterable[int] = (),
) -> Closed:
    """Close the table between hands. ``currency_seats``: the seats whose cash-out is paid
    in currency (Title 31, docs/rules.md §10.7); ``currency_players``: the same for players
    not seated who hold chips at the table. Every other cash-out is not a currency
    transaction; a TPPP's bankroll is credited, never paid in currency."""
    currency_seats, currency_players = set(currency_seats), set(currency_players)
    with transaction.atomic():
        table = lock_table(table_id)
        require_closable(table, active_round(table))
        seats = list(
            Seating.objects.filter(table=table, left_at__isnull=True)
            .order_by("seat")
            .values_list("seat", "player_id")
        )
        empty = sorted(currency_seats - {seat for seat, _ in seats})
        if empty:
            raise RuleError(
                f"seat {empty[0]} at {table} is empty: it has no cash-out to mark as paid in "
                "currency",
                rule=Rule.SEATS,
                field="currency_seats",
            )
        holding = chips_at_table(table)
        seated = {player_id for _, player_id in seats}
        behind = {pid: account for pid, account in holding.items() if pid not in seated}
        strangers = sorted(currency_players - set(behind))
        if strangers:
            raise RuleError(
                f"player {strangers[0]} holds no chips behind a seat at {table}: no cash-out "
                "to mark as paid in currency (a seated player's is marked by the seat)",
                rule=Rule.CHIPS_IN_FRONT,
                field="currency_players",
            )
        game = open_game(table)
        if game is not None:
            game = floor.end_game(game, by=by, reason=GameEndReason.CLOSED, detail=GAME_END_DETAIL)
        left = tuple(
            leave_seat(
                table_id=table.pk,
                seat=seat,
                by=by,
                chips=Chips.CASH_OUT,
                currency=seat in currency_seats,
            )
            for seat, _ in seats
        )
        cashed_out = tuple(
            chip_services.take_all(
                table_id=table.pk,
                player_id=pid,
                currency=pid in currency_players,
                by=by,
                memo=f"{table}: closed",
            )
            for pid in behind
        )
        table = floor.mark_table_closed(table_id=table.pk, by=by)
        return Closed(
            table=table,
            game=game,
            left=left,
            cashed_out=cashed_out,
            cashed_out_cents=sum(account.balance_cents for account in behind.values()),
        )
