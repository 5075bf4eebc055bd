"""The must-move and table-change API (docs/api.md): supervisors run the lines, dealers and
compliance read them; refusals name the rule (400) or the state (409) and change nothing."""

from __future__ import annotations

import itertools

import pytest

from cardroom.errors import Rule, State
from tables.models import MustMove, Seating, SeatPass, TableChange
from tests.builders.floor import make_player, open_floor

pytestmark = pytest.mark.django_db

_stakes = itertools.count(9001)


def _tables(staff, *layouts):
    low = 100 * next(_stakes)
    return [
        open_floor(layout, staff=staff, open_game=False, minimum_cents=low, maximum_cents=low * 100)
        for layout in layouts
    ]


def _at(f, seat):
    return Seating.objects.get(table_id=f.table_id, seat=seat, left_at__isnull=True).player


def test_must_move_line_offers_and_a_pass(as_supervisor, as_dealer, staff, clock):
    main, must = _tables(staff, "PPPPP.", "PP....")
    started = as_supervisor.post(
        "/api/must-moves/", {"table": must.table_id, "main_table": main.table_id}, format="json"
    )
    assert started.status_code == 201, started.data
    assert [p["player"] for p in started.data["players"]] == [_at(must, 1).pk, _at(must, 2).pk]
    assert started.data["players"][0]["line"] == "must_move"
    listed = as_dealer.get("/api/must-moves/")
    assert listed.status_code == 200 and [m["id"] for m in listed.data] == [started.data["id"]]
    offers = as_dealer.get("/api/seat-offers/")
    assert offers.status_code == 200
    (offer,) = [o for o in offers.data if o["table"] == main.table_id]
    assert (offer["seat"], offer["offered"][0]["player"]) == (6, _at(must, 1).pk)
    assert offer["offered"][0]["from_seat"] == 1
    # Only the first offered passes; a dealer may not.
    url = f"/api/tables/{main.table_id}/seats/6/pass/"
    wrong = as_supervisor.post(url, {"player": _at(must, 2).pk}, format="json")
    assert (wrong.status_code, wrong.data["code"]) == (409, State.SEAT_OFFERED)
    assert as_dealer.post(url, {"player": _at(must, 1).pk}, format="json").status_code == 403
    passed = as_supervisor.post(url, {"player": _at(must, 1).pk}, format="json")
    assert passed.status_code == 201, passed.data
    assert SeatPass.objects.count() == 1
    ended = as_supervisor.post(f"/api/must-moves/{started.data['id']}/end/")
    assert (ended.status_code, ended.data["end"]) == (200, "ended")
    again = as_supervisor.post(f"/api/must-moves/{started.data['id']}/end/")
    assert (again.status_code, again.data["code"]) == (409, State.ALREADY_RECORDED)
    assert as_supervisor.post("/api/must-moves/999999/end/").status_code == 404


def test_a_list_call_to_an_offered_seat_is_409(as_supervisor, staff, clock):
    (a, b) = _tables(staff, "PPPPPP", "PPPPP.")
    asked = as_supervisor.post(
        "/api/table-changes/", {"player": _at(a, 1).pk, "to_table": b.table_id}, format="json"
    )
    assert asked.status_code == 201, asked.data
    row = as_supervisor.post(
        "/api/waitlists/",
        {"minimum_cents": b.table.minimum_cents, "maximum_cents": b.table.maximum_cents},
        format="json",
    ).data
    as_supervisor.post(f"/api/waitlists/{row['id']}/players/", {"player": make_player().pk})
    call = as_supervisor.post(
        f"/api/waitlists/{row['id']}/calls/", {"table": b.table_id, "seat": 6}, format="json"
    )
    assert (call.status_code, call.data["code"], call.data["rule"]) == (
        409,
        State.SEAT_OFFERED,
        Rule.TABLE_CHANGE,
    )
    assert "table change" in call.data["message"]


@pytest.mark.parametrize(
    "case, status, key, value",
    [
        ("not_seated", 400, "field", "player"),
        ("own_table", 400, "field", "to_table"),
        ("other_stakes", 400, "field", "to_table"),
        ("twice", 409, "code", State.ALREADY_RECORDED),
        ("no_player", 400, "field", "player"),
        ("bad_input", 400, "code", "invalid"),
    ],
)
def test_table_change_refusals(as_supervisor, staff, clock, case, status, key, value):
    (a,) = _tables(staff, "PP....")
    (other,) = _tables(staff, "P.....")
    body = {
        "not_seated": {"player": make_player().pk},
        "own_table": {"player": _at(a, 1).pk, "to_table": a.table_id},
        "other_stakes": {"player": _at(a, 1).pk, "to_table": other.table_id},
        "twice": {"player": _at(a, 2).pk},
        "no_player": {"player": 999_999},
        "bad_input": {"player": "Pia"},
    }[case]
    if case == "twice":
        assert as_supervisor.post("/api/table-changes/", body, format="json").status_code == 201
    before = TableChange.objects.count()
    response = as_supervisor.post("/api/table-changes/", body, format="json")
    assert (response.status_code, response.data[key]) == (status, value)
    assert TableChange.objects.count() == before


def test_cancel_and_list_table_changes(as_supervisor, as_compliance, staff, clock):
    (a, _b) = _tables(staff, "PP....", "P.....")
    asked = as_supervisor.post("/api/table-changes/", {"player": _at(a, 1).pk}, format="json")
    assert asked.data["to_table"] is None and asked.data["end"] == ""
    listed = as_compliance.get("/api/table-changes/")
    assert [c["id"] for c in listed.data] == [asked.data["id"]]
    assert as_compliance.post(f"/api/table-changes/{asked.data['id']}/cancel/").status_code == 403
    cancelled = as_supervisor.post(f"/api/table-changes/{asked.data['id']}/cancel/")
    assert (cancelled.status_code, cancelled.data["end"]) == (200, "cancelled")
    assert as_supervisor.get("/api/table-changes/").data == []


@pytest.mark.parametrize(
    "case, status, key, value",
    [
        ("itself", 400, "rule", Rule.MUST_MOVE),
        ("other_stakes", 400, "field", "main_table"),
        ("no_table", 400, "field", "main_table"),
        ("twice", 409, "code", State.ALREADY_RECORDED),
    ],
)
def test_must_move_refusals(as_supervisor, staff, clock, case, status, key, value):
    main, must = _tables(staff, "PPPPP.", "P.....")
    (other,) = _tables(staff, "P.....")
    body = {
        "itself": {"table": must.table_id, "main_table": must.table_id},
        "other_stakes": {"table": must.table_id, "main_table": other.table_id},
        "no_table": {"table": must.table_id, "main_table": 999_999},
        "twice": {"table": must.table_id, "main_table": main.table_id},
    }[case]
    if case == "twice":
        assert as_supervisor.post("/api/must-moves/", body, format="json").status_code == 201
    before = MustMove.objects.count()
    response = as_supervisor.post("/api/must-moves/", body, format="json")
    assert (response.status_code, response.data[key]) == (status, value)
    assert MustMove.objects.count() == before
