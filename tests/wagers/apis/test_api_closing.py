"""Closing and reopening a table through the API: ``POST /api/tables/{id}/close/`` (the
game ended, everyone cashed out, the table closed) and ``.../reopen/``; supervisors only."""

from __future__ import annotations

import pytest

from cardroom.errors import Rule
from tables.models import Game, Seating, Table
from tests.builders.floor import make_player
from tests.builders.money import all_balances, chips_of
from wagers.models import LedgerTransaction

pytestmark = pytest.mark.django_db


def close_url(table) -> str:
    return f"/api/tables/{table.pk}/close/"


def reopen_url(table) -> str:
    return f"/api/tables/{table.pk}/reopen/"


def unchanged(table) -> tuple:
    table.refresh_from_db()
    return (
        all_balances(),
        LedgerTransaction.objects.count(),
        list(Seating.objects.filter(table=table).values_list("seat", "left_at")),
        list(Game.objects.filter(table=table).values_list("ended_at")),
        table.closed_at,
    )


def test_a_supervisor_closes_a_table(as_supervisor, on_floor):
    table = on_floor.ready_table(seats=(1, 2, 3))
    behind = make_player()
    on_floor.bring_chips(table, behind, 2_500)
    game = Game.objects.get(table=table, ended_at__isnull=True)
    response = as_supervisor.post(
        close_url(table), {"currency_seats": [2], "currency_players": [behind.pk]}, format="json"
    )
    assert response.status_code == 200, response.data
    body = response.data
    assert body["table"]["is_closed"] is True and body["table"]["closed_by"] == "supervisor"
    assert body["ended_game"] == game.pk
    assert [left["seating"]["seat"] for left in body["left"]] == [1, 2, 3]
    assert all(left["chips_went"] == "cash_out" for left in body["left"])
    currency = [left["transactions"][0]["currency"] for left in body["left"]]
    assert currency == [False, True, False]  # only the seat marked was paid in currency
    (backline,) = body["cashed_out"]
    assert (backline["kind"], backline["currency"]) == ("cash_out", True)
    assert body["chips"] == 3 * on_floor.chips + 2_500
    assert body["message"].startswith(f"{table.name} is closed; the game ended; 3 players left")
    assert all(chips_of(p, table) == 0 for p in [behind, *Seating.objects.filter(table=table)])
    # The floor's own view says so too.
    detail = as_supervisor.get(f"/api/tables/{table.pk}/").data
    assert detail["closed_at"] is not None and detail["closed_by"] == "supervisor"
    assert detail["seated"] == [] and detail["game"] is None


def test_a_closed_table_refuses_seats_and_games_until_reopened(as_supervisor, on_floor):
    table = on_floor.table()
    assert as_supervisor.post(close_url(table), {}, format="json").status_code == 200
    player = make_player()
    refusals = [
        (f"/api/tables/{table.pk}/seats/", {"seat": 1, "player": player.pk}),
        (f"/api/tables/{table.pk}/game/open/", {"first_offer_seat": 1}),
        (f"/api/tables/{table.pk}/chips/buy-in/", {"player": player.pk, "amount": 1000}),
        (close_url(table), {}),
    ]
    for path, body in refusals:
        response = as_supervisor.post(path, {"currency": True, **body}, format="json")
        assert response.status_code == 409, (path, response.data)
        assert (response.data["code"], response.data["rule"]) == ("table_closed", Rule.CLOSED_TABLE)
        assert response.data["section"] == "3.7"
    reopened = as_supervisor.post(reopen_url(table), format="json")
    assert reopened.status_code == 200, reopened.data
    assert (reopened.data["is_closed"], reopened.data["closed_at"]) == (False, None)
    seated = as_supervisor.post(
        f"/api/tables/{table.pk}/seats/", {"seat": 1, "player": player.pk}, format="json"
    )
    assert seated.status_code == 201
    again = as_supervisor.post(reopen_url(table), format="json")
    assert again.status_code == 409
    assert (again.data["code"], again.data["rule"]) == ("table_open", Rule.CLOSED_TABLE)


def test_a_round_in_play_refuses_closing(as_supervisor, on_floor):
    round_ = on_floor.start(on_floor.ready_table())
    table = round_.table
    before = unchanged(table)
    response = as_supervisor.post(close_url(table), {}, format="json")
    assert response.status_code == 409
    assert (response.data["code"], response.data["rule"]) == ("wagering", Rule.ROUND_SEQUENCE)
    assert "a table closes between hands" in response.data["message"]
    assert unchanged(table) == before


@pytest.mark.parametrize(
    ("body", "code", "field", "rule"),
    [
        ({"currency_seats": [5]}, "rule_broken", "currency_seats", Rule.SEATS),
        ({"currency_players": [999_999]}, "rule_broken", "currency_players", Rule.CHIPS_IN_FRONT),
        ({"currency_seats": ["one"]}, "invalid", "currency_seats.0", None),
        ({"currency_seats": 2}, "invalid", "currency_seats", None),
    ],
)
def test_a_bad_mark_is_400_and_changes_nothing(as_supervisor, on_floor, body, code, field, rule):
    table = on_floor.ready_table(seats=(1, 2))
    before = unchanged(table)
    response = as_supervisor.post(close_url(table), body, format="json")
    assert response.status_code == 400, response.data
    assert (response.data["code"], response.data["field"], response.data["rule"]) == (
        code,
        field,
        rule,
    )
    assert unchanged(table) == before


@pytest.mark.parametrize("client", ["as_dealer", "as_compliance"])
def test_only_a_supervisor_closes_or_reopens(request, on_floor, client, api):
    table = on_floor.ready_table(seats=(1,))
    before = unchanged(table)
    caller = request.getfixturevalue(client)
    for path in (close_url(table), reopen_url(table)):
        response = caller.post(path, {}, format="json")
        assert response.status_code == 403
        assert response.data["code"] == "permission_denied"
        assert api().post(path, {}, format="json").status_code == 401
    assert unchanged(table) == before
    assert Table.objects.get(pk=table.pk).closed_at is None
