"""The waitlist page's must-move tables and table changes (docs/rules.md §3.6): who is offered
an open seat before the list, the move with the chips, a pass, the lines; floor supervisors
run them, house dealers and compliance read them; refusals in the floor's words."""

from __future__ import annotations

import re

import pytest

from tables.models import MustMove, Seating, SeatPass, TableChange
from tables.services import floor, waitlists
from tests.builders.floor import bring_chips, make_player, open_floor
from tests.builders.money import chips_of

pytestmark = pytest.mark.django_db

URL = "/console/waitlists/"
ACT = URL + "seat-requests/{}/"


@pytest.fixture
def room(staff, clock):
    """A $20-$2,000 main game with seat 6 open, a must-move table with two players, another
    table with a player who will ask for a change, and the list with one player waiting."""
    stakes = {"minimum_cents": 2000, "maximum_cents": 200_000}
    main = open_floor("PPPPP.", staff=staff, name="MAIN-1", **stakes)
    must = open_floor("......", staff=staff, name="MUST-1", open_game=False, **stakes)
    other = open_floor("PP....", staff=staff, name="SIDE-1", open_game=False, **stakes)
    lea, max_ = make_player(name="Lea Lind"), make_player(name="Max Moss")
    for seat, player in ((3, lea), (1, max_)):
        clock.advance(minutes=1)
        floor.seat_player(table_id=must.table_id, seat=seat, player_id=player.pk, by=staff.dealer)
    bring_chips(must.table_id, lea, 30_000, by=staff.dealer)
    row = waitlists.open_waitlist(by=staff.supervisor, **stakes)
    waitlists.join(
        waitlist_id=row.pk, player_id=make_player(name="Wes Wait").pk, by=staff.supervisor
    )
    return {"main": main, "must": must, "other": other, "lea": lea, "max": max_, "list": row}


def test_a_must_move_table_is_offered_the_seat_first_and_moves_with_its_chips(as_user, room):
    client = as_user("supervisor")
    started = client.post(
        ACT.format("start"),
        {"table": room["must"].table_id, "main_table": room["main"].table_id},
    )
    assert started.status_code == 302
    page = client.get(URL).content.decode()
    assert "MUST-1</strong> must move to <strong>MAIN-1" in page
    assert "1. Lea Lind, 2. Max Moss" in page  # first seated, first moved
    assert "offered first to <strong>Lea Lind</strong> (must move, from MUST-1 seat 3)" in page
    main_seat = re.search(r'<li data-seat="MAIN-1-6">.*?</li>', page, re.S).group(0)
    assert "offered first to <strong>Lea Lind</strong>" in main_seat
    assert "Move Lea Lind" in main_seat and "Call Wes Wait" not in main_seat  # not the list's
    # The must-move table's own open seats are the list's: new players start there.
    assert "Call Wes Wait" in re.search(r'<li data-seat="MUST-1-2">.*?</li>', page, re.S).group(0)
    moved = client.post(
        ACT.format("move"),
        {"table": room["main"].table_id, "seat": 6, "player": room["lea"].pk},
        follow=True,
    )
    assert moved.status_code == 200
    assert "Lea Lind left seat 3 for seat 6 at MAIN-1, with $300.00 in chips" in (
        moved.content.decode()
    )
    seating = Seating.objects.get(player=room["lea"], left_at__isnull=True)
    assert (seating.table_id, seating.seat) == (room["main"].table_id, 6)
    assert chips_of(room["lea"], room["main"].table) == 30_000


def test_a_pass_gives_the_seat_to_the_next_then_the_list(as_user, room):
    client = as_user("supervisor")
    client.post(
        ACT.format("start"),
        {"table": room["must"].table_id, "main_table": room["main"].table_id},
    )
    seat = {"table": room["main"].table_id, "seat": 6}
    # Max is second: the page's stale button is refused, naming who the seat is offered to.
    stale = client.post(ACT.format("pass"), {**seat, "player": room["max"].pk})
    assert stale.status_code == 409
    assert "seat 6 at MAIN-1 is not offered to Max Moss: it is offered first to Lea Lind" in (
        stale.content.decode()
    )
    for player in (room["lea"], room["max"]):
        assert client.post(ACT.format("pass"), {**seat, "player": player.pk}).status_code == 302
    assert SeatPass.objects.count() == 2
    page = client.get(URL).content.decode()
    assert "Call Wes Wait" in re.search(r'<li data-seat="MAIN-1-6">.*?</li>', page, re.S).group(0)


def test_a_table_change_asked_listed_and_cancelled(as_user, room):
    client = as_user("supervisor")
    asker = Seating.objects.get(table_id=room["other"].table_id, seat=2).player
    page = client.get(URL).content.decode()
    assert f"{asker.name} (SIDE-1 seat 2)" in page  # the ask form's seated players
    asked = client.post(
        ACT.format("ask"), {"player": asker.pk, "to_table": room["main"].table_id}, follow=True
    )
    assert f"{asker.name} asked for a table change to MAIN-1" in asked.content.decode()
    page = client.get(URL).content.decode()
    assert f'data-change="{asker.name}"' in page
    assert f"offered first to <strong>{asker.name}</strong> (table change, from SIDE-1" in page
    change = TableChange.objects.get(player=asker)
    assert client.post(ACT.format("cancel"), {"table_change": change.pk}).status_code == 302
    change.refresh_from_db()
    assert change.end == "cancelled"


@pytest.mark.parametrize(
    "action, data, status, text",
    [
        (
            "ask",
            lambda r: {"player": r["list_player"]},
            400,
            "is not seated: a table change is asked by a seated player",
        ),
        (
            "start",
            lambda r: {"table": r["must"].table_id, "main_table": r["must"].table_id},
            400,
            "a must-move table feeds another table",
        ),
        ("ask", lambda r: {"player": "Lea"}, 400, "Seated player:"),
    ],
)
def test_refusals_in_the_floors_words(as_user, room, action, data, status, text):
    room["list_player"] = make_player(name="Nia Nobody").pk
    response = as_user("supervisor").post(ACT.format(action), data(room))
    assert response.status_code == status
    page = response.content.decode()
    assert text in page
    assert "waitlist.table_change" not in page and "waitlist.must_move" not in page
    assert not MustMove.objects.exists() and not TableChange.objects.exists()


@pytest.mark.parametrize("role", ["dealer", "compliance"])
def test_other_roles_read_only(as_user, room, role):
    client = as_user(role)
    page = client.get(URL).content.decode()
    assert "Must-move tables and table changes" in page
    assert "Start a must-move table" not in page
    response = client.post(
        ACT.format("start"),
        {"table": room["must"].table_id, "main_table": room["main"].table_id},
    )
    assert response.status_code == 403
    assert not MustMove.objects.exists()
