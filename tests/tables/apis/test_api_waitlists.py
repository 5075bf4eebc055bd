"""The waitlist API: supervisors run the lists, dealers read them; refusals name the rule
(400) or the state (409) and change nothing."""

from __future__ import annotations

import itertools

import pytest

from cardroom.errors import Rule, State
from tables.models import SeatHold, Seating, WaitlistEvent
from tests.builders.floor import make_player, open_floor

pytestmark = pytest.mark.django_db

URL = "/api/waitlists/"
_stakes = itertools.count(1)


@pytest.fixture
def table_and_list(as_supervisor, staff, clock):
    low = 100 * next(_stakes)
    f = open_floor("PPPP..", staff=staff, minimum_cents=low, maximum_cents=low * 100)
    response = as_supervisor.post(
        URL,
        {"minimum_cents": low, "maximum_cents": low * 100, "response_minutes": 2},
        format="json",
    )
    assert response.status_code == 201, response.data
    return f, response.data


def _events(list_id):
    return list(WaitlistEvent.objects.filter(waitlist_id=list_id).values_list("kind", flat=True))


def test_join_call_and_seat(as_supervisor, table_and_list):
    f, waitlist = table_and_list
    url = f"{URL}{waitlist['id']}/"
    players = [make_player() for _ in range(2)]
    for p in players:
        response = as_supervisor.post(f"{url}players/", {"player": p.pk}, format="json")
        assert response.status_code == 201, response.data
    assert [e["position"] for e in response.data["entries"]] == [1, 2]
    assert {s["seat"] for s in response.data["open_seats"]} == {5, 6}
    called = as_supervisor.post(f"{url}calls/", {"table": f.table_id, "seat": 5}, format="json")
    assert called.status_code == 201, called.data
    first = called.data["entries"][0]
    assert (first["player"], first["called_to_seat"]) == (players[0].pk, 5)
    answered = as_supervisor.post(
        f"{url}players/{players[0].pk}/answer/", {"take": True}, format="json"
    )
    assert answered.status_code == 200, answered.data
    assert [e["player"] for e in answered.data["entries"]] == [players[1].pk]
    assert Seating.objects.get(player=players[0], left_at__isnull=True).seat == 5
    events = as_supervisor.get(f"{url}events/")
    assert [e["kind"] for e in events.data] == ["joined", "joined", "called", "seated"]


@pytest.mark.parametrize(
    "path, body, status_code, key, value",
    [
        ("calls/", {"table": None, "seat": 1}, 409, "code", State.SEAT_TAKEN),
        ("calls/", {"table": None, "seat": 7}, 400, "rule", Rule.SEATS),
        ("calls/", {"table": None, "seat": 5}, 409, "code", State.NOBODY_TO_CALL),
        ("", {"response_minutes": -3}, 400, "rule", Rule.WAITLIST_POLICY),
        ("", {"pass_over": "sideways"}, 400, "field", "pass_over"),
    ],
    ids=["full_seat", "no_such_seat", "nobody_waiting", "negative_timer", "bad_pass_over"],
)
def test_refusals_change_nothing(
    as_supervisor, table_and_list, path, body, status_code, key, value
):
    f, waitlist = table_and_list
    url = f"{URL}{waitlist['id']}/{path}"
    if "table" in body:
        body = {**body, "table": f.table_id}
    send = as_supervisor.post if path else as_supervisor.patch
    response = send(url, body, format="json")
    assert response.status_code == status_code, response.data
    assert response.data[key] == value
    assert _events(waitlist["id"]) == []
    assert as_supervisor.get(f"{URL}{waitlist['id']}/").data["response_minutes"] == 2


def test_unknown_stakes(as_supervisor):
    response = as_supervisor.post(
        URL, {"minimum_cents": 777, "maximum_cents": 7_777}, format="json"
    )
    assert response.status_code == 400
    assert (response.data["rule"], response.data["field"]) == (
        Rule.WAITLIST_STAKES,
        "minimum_cents",
    )


def test_a_second_list_for_the_same_stakes(as_supervisor, table_and_list):
    _, waitlist = table_and_list
    body = {"minimum_cents": waitlist["minimum_cents"], "maximum_cents": waitlist["maximum_cents"]}
    response = as_supervisor.post(URL, body, format="json")
    assert (response.status_code, response.data["code"]) == (409, State.ALREADY_RECORDED)


def test_pass_over_before_the_time_and_after(as_supervisor, table_and_list, clock):
    f, waitlist = table_and_list
    url = f"{URL}{waitlist['id']}/"
    a, b = make_player(), make_player()
    for p in (a, b):
        as_supervisor.post(f"{url}players/", {"player": p.pk}, format="json")
    as_supervisor.post(f"{url}calls/", {"table": f.table_id, "seat": 6}, format="json")
    early = as_supervisor.post(f"{url}players/{a.pk}/pass-over/")
    assert (early.status_code, early.data["rule"]) == (400, Rule.WAITLIST_CALL)
    clock.advance(minutes=2)
    late = as_supervisor.post(f"{url}players/{a.pk}/pass-over/")
    assert late.status_code == 200, late.data
    entries = {e["player"]: e for e in late.data["entries"]}
    assert entries[a.pk]["misses"] == 1 and entries[a.pk]["called_to_seat"] is None
    assert entries[b.pk]["called_to_seat"] == 6


def test_dealers_read_but_do_not_run_the_lists(as_dealer, as_supervisor, table_and_list):
    f, waitlist = table_and_list
    assert as_dealer.get(URL).status_code == 200
    player = make_player()
    response = as_dealer.post(f"{URL}{waitlist['id']}/players/", {"player": player.pk})
    assert response.status_code == 403
    assert as_dealer.post(f"/api/tables/{f.table_id}/seats/1/hold/", {}).status_code == 403
    assert _events(waitlist["id"]) == []


def test_seat_holds(as_supervisor, table_and_list):
    f, _ = table_and_list
    url = f"/api/tables/{f.table_id}/seats/"
    empty = as_supervisor.post(f"{url}6/hold/", {"minutes": 10}, format="json")
    assert (empty.status_code, empty.data["rule"], empty.data["field"]) == (
        400,
        Rule.SEAT_HOLD,
        "seat",
    )
    negative = as_supervisor.post(f"{url}1/hold/", {"minutes": -5}, format="json")
    assert (negative.status_code, negative.data["field"]) == (400, "minutes")
    held = as_supervisor.post(f"{url}1/hold/", {"minutes": 10}, format="json")
    assert held.status_code == 201, held.data
    again = as_supervisor.post(f"{url}1/hold/", {}, format="json")
    assert (again.status_code, again.data["code"]) == (409, State.SEAT_HELD)
    back = as_supervisor.delete(f"{url}1/hold/")
    assert (back.status_code, back.data["end"]) == (200, "returned")
    assert not SeatHold.objects.filter(ended_at__isnull=True).exists()


def test_withdraw_a_call(as_supervisor, as_dealer, table_and_list):
    f, waitlist = table_and_list
    url = f"{URL}{waitlist['id']}/"
    player = make_player()
    as_supervisor.post(f"{url}players/", {"player": player.pk}, format="json")
    not_called = as_supervisor.post(f"{url}players/{player.pk}/withdraw/")
    assert (not_called.status_code, not_called.data["code"]) == (409, State.WAITING)
    as_supervisor.post(f"{url}calls/", {"table": f.table_id, "seat": 5}, format="json")
    assert as_dealer.post(f"{url}players/{player.pk}/withdraw/").status_code == 403
    response = as_supervisor.post(f"{url}players/{player.pk}/withdraw/")
    assert response.status_code == 200, response.data
    (entry,) = response.data["entries"]
    assert (entry["called_to_seat"], entry["misses"]) == (None, 0)
    assert _events(waitlist["id"])[-1] == "withdrawn"
