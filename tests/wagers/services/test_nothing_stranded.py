"""Nothing is ever stranded (docs/rules.md §3.7, §4.6): after every way a player leaves a seat
(unseated with the chips cashed out, the game closed, the table closed, moved to another
table with the chips), no chips sit at a table for a player not seated there.

Read as the floor reads it: the bankroll's "chips at tables now" (``wagers.selectors.
bankroll``) of each player equals the chips at the table where they sit now (none when they
sit nowhere), and every chip holder at every table (``wagers.selectors.chips_at_table``)
sits there. Then ``manage.py verify_ledger`` finds no difference."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from tables.models import Seating, Table
from tables.services import floor
from tests.builders.money import MoneyTable, money_table
from wagers.selectors import bankroll, chips_at_table
from wagers.services.closing import close_table
from wagers.services.leaving import Chips, leave_seat

pytestmark = pytest.mark.django_db


def unseat(first: MoneyTable, second: MoneyTable, by) -> None:
    for seat in (1, 2, 6):  # a patron and a TPPP with chips, a patron with none
        leave_seat(table_id=first.table.pk, seat=seat, by=by, chips=Chips.CASH_OUT, currency=True)


def close_the_game(first: MoneyTable, second: MoneyTable, by) -> None:
    floor.close_game(table_id=first.table.pk, by=by)  # the players stay, their chips with them


def close_the_table(first: MoneyTable, second: MoneyTable, by) -> None:
    close_table(table_id=first.table.pk, by=by, currency_seats=[1])


def move_with_the_chips(first: MoneyTable, second: MoneyTable, by) -> None:
    leave_seat(
        table_id=first.table.pk,
        seat=1,
        by=by,
        chips=Chips.CARRY,
        to_table_id=second.table.pk,
        to_seat=3,
    )
    leave_seat(
        table_id=first.table.pk,
        seat=2,
        by=by,
        chips=Chips.CARRY,
        to_table_id=second.table.pk,
        to_seat=4,
    )


WAYS = [unseat, close_the_game, close_the_table, move_with_the_chips]


def seat_now(player) -> Seating | None:
    return Seating.objects.filter(player=player, left_at__isnull=True).first()


def stranded(players) -> list[str]:
    """Each player whose chips at tables now are not all at the table they sit at, and each
    chip holder at a table who does not sit there."""
    found = []
    for player in players:
        seating = seat_now(player)
        here = chips_at_table(seating.table).get(player.pk) if seating else None
        if bankroll(player).balance != (here.balance_cents if here else 0):
            found.append(f"{player}: {bankroll(player).balance} cents at tables")
    for table in Table.objects.all():
        sitting = set(
            Seating.objects.filter(table=table, left_at__isnull=True).values_list(
                "player_id", flat=True
            )
        )
        found += [f"{table}: player {pid}" for pid in chips_at_table(table) if pid not in sitting]
    return found


@pytest.mark.parametrize("way", WAYS, ids=[way.__name__ for way in WAYS])
def test_no_chips_are_left_at_a_table_their_owner_has_left(staff, way):
    first = money_table(staff, {1: 50_000, 2: 30_000, 6: 0}, tppp_seats=[2], name="FIRST")
    second = money_table(staff, {1: 10_000}, name="SECOND")
    players = [*first.players, *second.players]
    held = sum(bankroll(p).balance for p in players)
    assert held == 90_000 and stranded(players) == []

    way(first, second, staff.supervisor)

    assert stranded(players) == []
    left = sum(bankroll(p).balance for p in players)
    cashed_out = {"unseat": 80_000, "close_the_table": 80_000}.get(way.__name__, 0)
    assert left == held - cashed_out  # what did not go to the cage is still at a seat
    call_command("verify_ledger", stdout=StringIO(), stderr=StringIO())  # raises on a difference


def test_the_check_sees_chips_left_behind(staff):
    """The floor's own unseating knows nothing of chips (the money layer's ``leave_seat``
    settles them): used alone, it would strand them, and the check says so."""
    first = money_table(staff, {1: 50_000}, name="FIRST")
    floor.unseat_player(table_id=first.table.pk, seat=1, by=staff.dealer)
    player = first.seated[1]
    assert stranded([player]) == [
        f"{player}: 50000 cents at tables",
        f"FIRST: player {player.pk}",
    ]
