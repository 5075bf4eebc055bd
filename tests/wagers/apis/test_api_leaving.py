"""Leaving a seat through the API: ``DELETE .../seats/{seat}/`` refuses a player with chips;
``POST .../seats/{seat}/leave/`` cashes them out or carries them, in one step."""

from __future__ import annotations

import pytest

from cardroom.errors import Rule
from tables.models import Seating
from tests.builders.money import chips_of
from wagers.models import LedgerTransaction

pytestmark = pytest.mark.django_db


def seat_url(table, seat: int) -> str:
    return f"/api/tables/{table.pk}/seats/{seat}/"


def test_a_player_with_chips_is_not_simply_unseated(as_dealer, on_floor):
    table = on_floor.table()
    seating = on_floor.seat(table, 2)
    response = as_dealer.delete(seat_url(table, 2))
    assert response.status_code == 400
    assert (response.data["rule"], response.data["field"]) == (Rule.CHIPS_IN_FRONT, "chips")
    assert "cash them out or carry them" in response.data["message"]
    seating.refresh_from_db()
    assert seating.left_at is None  # nothing changed


def test_leave_and_cash_out(as_dealer, on_floor):
    table = on_floor.table()
    seating = on_floor.seat(table, 2)
    held = chips_of(seating.player, table)
    response = as_dealer.post(
        seat_url(table, 2) + "leave/", {"chips": "cash_out", "currency": True}, format="json"
    )
    assert response.status_code == 200, response.data
    assert response.data["seating"]["left_at"] is not None
    assert (response.data["chips"], response.data["chips_went"]) == (held, "cash_out")
    (posted,) = response.data["transactions"]
    assert (posted["kind"], posted["currency"]) == ("cash_out", True)
    assert response.data["next_seating"] is None
    assert chips_of(seating.player, table) == 0


def test_leave_and_carry_to_another_table(as_dealer, on_floor):
    first, second = on_floor.table(), on_floor.table()
    seating = on_floor.seat(first, 2)
    held = chips_of(seating.player, first)
    response = as_dealer.post(
        seat_url(first, 2) + "leave/",
        {"chips": "carry", "to_table": second.pk, "to_seat": 5},
        format="json",
    )
    assert response.status_code == 200, response.data
    assert response.data["next_seating"]["table"] == second.pk
    assert response.data["next_seating"]["seat"] == 5
    assert [t["kind"] for t in response.data["transactions"]] == ["cash_out", "buy_in"]
    assert chips_of(seating.player, second) == held


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"chips": "everywhere"}, "chips", '"everywhere" is not a valid choice.'),
        ({"chips": "carry", "to_seat": 2}, "to_table", "name the table the chips are carried to"),
        ({"chips": "carry", "to_table": 1, "to_seat": 1.5}, "to_seat", None),
        ({"chips": "cash_out", "currency": "maybe"}, "currency", "Must be a valid boolean."),
        (
            {"chips": "cash_out", "to_table": 1, "to_seat": 4},
            "to_table",
            "the chips are cashed out: a next table and seat are named only to carry the "
            "chips there (chips: carry)",
        ),
        ({"chips": "cash_out", "to_seat": 4}, "to_seat", None),
    ],
)
def test_leave_input_errors_change_nothing(as_dealer, on_floor, body, field, message):
    table = on_floor.table()
    on_floor.seat(table, 2)
    before = LedgerTransaction.objects.count()
    response = as_dealer.post(seat_url(table, 2) + "leave/", body, format="json")
    assert response.status_code == 400
    assert response.data["field"] == field
    if message:
        assert response.data["message"] == message
    assert LedgerTransaction.objects.count() == before
    assert Seating.objects.get(table=table, seat=2).left_at is None
