"""The floor map, the waitlist page and the table board cost a fixed number of queries
whatever the size of the room: pinned here at 60 tables and 200 waiting players on four
lists (docs/architecture.md: every read a fixed number of queries)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tables.services import floor, seat_requests, waitlists
from tests.builders.floor import make_player

pytestmark = pytest.mark.django_db

TOKEN = "bounds-board"
STAKES = [(500, 50_000), (1_000, 100_000), (2_500, 250_000), (5_000, 500_000)]


def build_room(staff, *, tables: int = 60, waiting: int = 200) -> list:
    """``tables`` tables over four stakes, two players seated at each, a list per stakes with
    ``waiting`` players between them (every tenth a call-in), the first of each called."""
    rows = []
    made = []
    for number in range(tables):
        low, high = STAKES[number % len(STAKES)]
        table = floor.create_table(
            name=f"Q-{number:02d}",
            by=staff.supervisor,
            options={"minimum_cents": low, "maximum_cents": high},
        )
        made.append(table)
        for seat in (1, 2):
            floor.seat_player(
                table_id=table.pk, seat=seat, player_id=make_player().pk, by=staff.supervisor
            )
    for low, high in STAKES:
        rows.append(
            waitlists.open_waitlist(minimum_cents=low, maximum_cents=high, by=staff.supervisor)
        )
    for number in range(waiting):
        row = rows[number % len(rows)]
        waitlists.join(
            waitlist_id=row.pk,
            player_id=make_player().pk,
            by=staff.supervisor,
            by_phone=number % 10 == 9,
        )
    for index, row in enumerate(rows):
        waitlists.call(waitlist_id=row.pk, table_id=made[index].pk, seat=6, by=staff.supervisor)
    waitlists.hold_seat(table_id=made[0].pk, seat=1, by=staff.supervisor, minutes=10)
    return rows


def _count(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


@pytest.fixture
def pages(as_user, settings):
    settings.CARDROOM_BOARD_TOKEN = TOKEN
    tv = Client()  # the board is read with no session
    client = as_user("supervisor")

    def counts() -> dict[str, int]:
        return {
            "floor map": _count(client, "/console/"),
            "waitlists": _count(client, "/console/waitlists/"),
            "board": _count(tv, f"/board/{TOKEN}/panel/"),
        }

    return counts


# The statements each page costs, whatever the size: for the staff pages the session and
# the user's roles, then the page's own reads (the floor map's table versions, tables, games,
# rounds, hands, the holds and the seated patrons' currency totals for the Title 31 warning;
# the lists' rows, events, policies, players, open tables,
# seatings and holds, the stakes without a list and the join picker; the must-move links,
# the table changes, their players' seats, the open tables and seats, when each seat was
# last left and the passes; the start and ask forms' tables and seated players); the board,
# read with no session, the lists' four and one for the tables.
PINNED = {"floor map": 11, "waitlists": 22, "board": 5}


def test_the_pages_cost_the_same_at_60_tables_and_200_waiting(staff, clock, pages):
    small = build_room(staff, tables=4, waiting=8)
    assert len(small) == 4
    # A must-move table feeding a main game, and a table change: the lines offered a seat
    # before the lists cost the same whatever their size too.
    low, high = STAKES[0]
    main, must = (
        floor.create_table(
            name=name, by=staff.supervisor, options={"minimum_cents": low, "maximum_cents": high}
        )
        for name in ("Q-MAIN", "Q-MUST")
    )
    floor.seat_player(table_id=must.pk, seat=1, player_id=make_player().pk, by=staff.supervisor)
    seat_requests.start_must_move(table_id=must.pk, main_table_id=main.pk, by=staff.supervisor)
    asker = make_player()
    floor.seat_player(table_id=main.pk, seat=1, player_id=asker.pk, by=staff.supervisor)
    seat_requests.ask_table_change(player_id=asker.pk, by=staff.supervisor)
    few = pages()
    # The same room grown to 60 tables and 200 waiting players.
    for number in range(4, 60):
        low, high = STAKES[number % len(STAKES)]
        table = floor.create_table(
            name=f"Q-{number:02d}",
            by=staff.supervisor,
            options={"minimum_cents": low, "maximum_cents": high},
        )
        for seat in (1, 2):
            floor.seat_player(
                table_id=table.pk, seat=seat, player_id=make_player().pk, by=staff.supervisor
            )
    for number in range(8, 200):
        waitlists.join(
            waitlist_id=small[number % 4].pk,
            player_id=make_player().pk,
            by=staff.supervisor,
            by_phone=number % 10 == 9,
        )
    many = pages()
    assert few == PINNED
    assert many == PINNED
