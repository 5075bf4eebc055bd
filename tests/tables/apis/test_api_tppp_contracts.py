"""TPPP contracts through the API (docs/rules.md §8.7): recorded by a floor supervisor or a
compliance officer (a dealer reads, 403 to write), refused with the field and rule when
malformed, nothing written; the TPPP then sits within the contract only."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from console.models import StaffAction
from tables.models import Seating, TPPPContract
from tables.services import floor

pytestmark = pytest.mark.django_db

PATH = "/api/tppp-contracts/"


def _tppp(number: str):
    return floor.create_player(
        player_number=number, name=f"Tess {number}",
        tppp={"business_name": "Prop LLC", "badge_number": f"B-{number}",
              "badge_expires_on": date(2099, 1, 1)},
    )  # fmt: skip


def _body(player, table, **changes):
    body = {
        "player": player.pk,
        "tables": [table.pk],
        "starts_on": "2026-01-01",
        "ends_on": "2026-12-31",
        "opens_at": "18:00",
        "closes_at": "02:00",
        "approved_on": "2025-12-01",
        "approval_number": "GEGC-77",
    }
    return {**body, **changes}


def test_a_contract_is_recorded_read_and_then_governs_the_seat(
    on_floor, as_dealer, as_supervisor, as_compliance, clock
):
    table = on_floor.table()
    tess = _tppp("TC-API-1")
    assert as_dealer.post(PATH, _body(tess, table), format="json").status_code == 403
    created = as_compliance.post(PATH, _body(tess, table), format="json")
    assert created.status_code == 201, created.data
    assert created.data["tables"] == [table.name]
    assert created.data["player"]["name"] == tess.name
    assert (created.data["opens_at"], created.data["closes_at"]) == ("18:00:00", "02:00:00")
    listed = as_dealer.get(PATH, {"player": tess.pk})
    assert listed.status_code == 200
    assert [row["approval_number"] for row in listed.data["results"]] == ["GEGC-77"]
    assert StaffAction.objects.filter(path=PATH, status_code=201).count() == 1

    clock.set(datetime(2026, 6, 1, 17, 0, tzinfo=UTC))  # 10:00 in the room: outside its hours
    free = next(n for n in range(1, 7) if not Seating.objects.filter(
        table=table, seat=n, left_at__isnull=True).exists())  # fmt: skip
    refused = as_supervisor.post(
        f"/api/tables/{table.pk}/seats/", {"seat": free, "player": tess.pk}, format="json"
    )
    assert refused.status_code == 400, refused.data
    assert (refused.data["rule"], refused.data["field"]) == ("tppp.contract", "player")


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"ends_on": "2025-06-01"}, "ends_on"),
        ({"approved_on": "2026-02-01"}, "approved_on"),
        ({"closes_at": None}, "opens_at"),
        ({"approval_number": "   "}, "approval_number"),
    ],
)
def test_a_malformed_contract_is_refused_with_its_field(on_floor, as_supervisor, changes, field):
    tess = _tppp("TC-API-2")
    response = as_supervisor.post(PATH, _body(tess, on_floor.table(), **changes), format="json")
    assert response.status_code == 400, response.data
    assert response.data["field"] == field
    assert TPPPContract.objects.count() == 0


def test_a_player_who_is_no_tppp_has_no_contract(on_floor, as_supervisor):
    patron = floor.create_player(player_number="NOT-TPPP", name="Pat Plain")
    response = as_supervisor.post(PATH, _body(patron, on_floor.table()), format="json")
    assert response.status_code == 400
    assert (response.data["rule"], response.data["field"]) == ("tppp.contract", "player")
    assert "is not a registered TPPP" in response.data["message"]
