"""The tablet's wager form and its backline bettors (docs/rules.md §4.7, docs/console.md):
the picker offers only the players the floor lets bet behind at this table, and a refused
backline wager leaves nothing selected for the next seat."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from cardroom.errors import State
from tests.builders.floor import bring_chips, make_player
from tests.builders.money import Wager, money_table, play_round
from wagers.models import Bet

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _bet_form(page: str) -> str:
    return re.search(r'<form[^>]*id="bet-form".*?</form>', page, re.S).group(0)


def _picker(page: str) -> dict[str, bool]:
    """The backline picker's options (name: selected), the empty one left out."""
    select = re.search(r'<select name="backline_player".*?</select>', _bet_form(page), re.S)
    options = re.findall(r'<option value="(\d+)"( selected)?>([^<]*)</option>', select.group(0))
    return {name.split(" (#")[0]: bool(selected) for _pk, selected, name in options}


def _value(page: str, name: str) -> str:
    found = re.search(rf'<input[^>]*name="{name}"[^>]*>', _bet_form(page)).group(0)
    value = re.search(r'value="([^"]*)"', found)
    return value.group(1) if value else ""


@pytest.fixture
def room(staff):
    """A table in wagering, two bettors standing behind with chips, and a room full of
    players who may not bet behind here."""
    mt = money_table(staff, {1: 50_000, 2: 50_000, 3: 50_000}, backliners=[50_000, 50_000])
    elsewhere = money_table(staff, {1: 50_000, 2: 50_000}, backliners=[50_000])
    tppp = make_player(tppp=True)
    bring_chips(mt.table.pk, tppp, 50_000, by=staff.dealer)
    strangers = [make_player() for _ in range(5)]  # in the room, no chips at this table
    round_ = play_round(mt, pd_seat=2, bank=10_000, wagers=[Wager(1, 1_000)], until=State.WAGERING)
    return mt, round_, [*elsewhere.backliners, *elsewhere.seated.values(), tppp, *strangers]


def test_the_picker_offers_only_who_may_bet_behind_here(as_user, room):
    mt, round_, others = room
    client = as_user("dealer")
    page = client.get(reverse("console:table", args=[mt.table.pk])).content.decode()
    assert set(_picker(page)) == {p.name for p in mt.backliners}
    for player in others:
        assert player.name not in _picker(page)
    # A bettor who has wagered this round is offered no more.
    done = client.post(
        reverse("console:table-action", args=[mt.table.pk, "bet"]),
        {
            "round_id": round_.pk,
            "seat": 1,
            "ante": "10",
            "blind": "10",
            "backline_player": mt.backliners[0].pk,
        },
    )
    assert done.status_code == 302
    page = client.get(reverse("console:table", args=[mt.table.pk])).content.decode()
    assert set(_picker(page)) == {mt.backliners[1].name}


def test_a_refused_backline_wager_carries_nothing_to_the_next_seat(as_user, room):
    mt, round_, _others = room
    client = as_user("dealer")
    url = reverse("console:table-action", args=[mt.table.pk, "bet"])
    bettor = mt.backliners[0]
    # Seat 3 has not wagered: nobody bets behind it yet.
    refused = client.post(
        url,
        {
            "round_id": round_.pk,
            "seat": 3,
            "ante": "10",
            "blind": "10",
            "backline_player": bettor.pk,
        },
        **HTMX,
    )
    assert refused.status_code == 400
    page = refused.content.decode()
    assert "seat 3 has no wagers to bet behind" in page
    assert f"{bettor.name}&#x27;s wager behind seat 3 was not placed" in page
    # The form comes back cleared: no bettor selected, no amounts; the same short picker.
    assert _picker(page) == {p.name: False for p in mt.backliners}
    assert (_value(page, "ante"), _value(page, "blind")) == ("", "")
    # The next seat's own wager, as the dealer keys it next, is the seat's.
    placed = client.post(
        url, {"round_id": round_.pk, "seat": 3, "ante": "10", "blind": "10"}, **HTMX
    )
    assert placed.status_code == 200
    assert Bet.objects.filter(hand__round=round_, hand__seat=3, bettor=0).count() == 1
    assert not Bet.objects.filter(hand__round=round_, player=bettor).exists()


def test_a_refused_seat_wager_keeps_what_was_typed_and_the_short_picker(as_user, room):
    mt, round_, _others = room
    client = as_user("dealer")
    refused = client.post(
        reverse("console:table-action", args=[mt.table.pk, "bet"]),
        {"round_id": round_.pk, "seat": 3, "ante": "10", "blind": "20"},
        **HTMX,
    )
    assert refused.status_code == 400
    page = refused.content.decode()
    assert (_value(page, "ante"), _value(page, "blind")) == ("10", "20")
    assert set(_picker(page)) == {p.name for p in mt.backliners}
