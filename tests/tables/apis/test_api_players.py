"""/api/players/: list with filters, create (with a TPPP registration), detail."""

from __future__ import annotations

from datetime import date

import pytest

from cardroom.errors import Rule
from tables.models import Player, TPPPRegistration
from tests.builders.factories import PlayerFactory, TPPPRegistrationFactory

pytestmark = pytest.mark.django_db

URL = "/api/players/"


def test_create_a_patron(as_supervisor):
    response = as_supervisor.post(URL, {"player_number": "C-1", "name": "Ada"}, format="json")
    assert response.status_code == 201, response.data
    assert response.data["player_number"] == "C-1"
    assert response.data["is_tppp"] is False
    assert response.data["tppp"] is None
    assert Player.objects.get(pk=response.data["id"]).name == "Ada"


def test_create_a_tppp_player_with_registration(as_supervisor):
    body = {
        "player_number": "T-1",
        "name": "Bo",
        "tppp": {
            "business_name": "Banker Services LLC",
            "badge_number": "B-77",
            "badge_expires_on": "2030-01-31",
        },
    }
    response = as_supervisor.post(URL, body, format="json")
    assert response.status_code == 201, response.data
    assert response.data["is_tppp"] is True
    assert response.data["tppp"] == body["tppp"]
    assert TPPPRegistration.objects.get(player_id=response.data["id"]).badge_number == "B-77"


def test_duplicate_player_number_is_a_rule_error(as_supervisor):
    PlayerFactory(player_number="C-9")
    response = as_supervisor.post(URL, {"player_number": "C-9", "name": "Cy"}, format="json")
    assert response.status_code == 400
    assert response.data["code"] == "rule_broken"
    assert response.data["field"] == "player_number"
    assert response.data["message"] == "player number C-9 is already in use"
    assert response.data["rule"] == Rule.PLAYER_NUMBER
    assert response.data["section"] == "3.3"
    assert Player.objects.filter(player_number="C-9").count() == 1


def test_invalid_input_names_the_fields(as_supervisor):
    response = as_supervisor.post(URL, {"name": "", "tppp": {"business_name": "X"}}, format="json")
    assert response.status_code == 400
    assert response.data["code"] == "invalid"
    assert response.data["field"] == "player_number"
    assert response.data["message"] == "This field is required."
    assert set(response.data["errors"]) == {"player_number", "name", "tppp"}
    assert set(response.data["errors"]["tppp"]) == {"badge_number", "badge_expires_on"}
    assert not Player.objects.exists()


def test_list_and_filters(as_compliance):
    ada = PlayerFactory(player_number="A-1", name="Ada Lovelace")
    bob = PlayerFactory(player_number="B-1", name="Bob Ross")
    tppp = TPPPRegistrationFactory(player__name="Adam Banker").player

    def ids(**params):
        response = as_compliance.get(URL, params)
        assert response.status_code == 200, response.data
        return {row["id"] for row in response.data["results"]}

    assert ids() == {ada.pk, bob.pk, tppp.pk}
    assert ids(player_number="B-1") == {bob.pk}
    assert ids(name="ada") == {ada.pk, tppp.pk}
    assert ids(is_tppp="true") == {tppp.pk}
    assert ids(is_tppp="false") == {ada.pk, bob.pk}
    assert ids(name="ad", is_tppp="false") == {ada.pk}
    # The floor's search box: a name or a player number, or part of either.
    assert ids(q="B-1") == {bob.pk}
    assert ids(q="b-") == {bob.pk}
    assert ids(q="ross") == {bob.pk}
    assert ids(q="ada") == {ada.pk, tppp.pk}
    assert ids(q="a-1") == {ada.pk}
    assert ids(q="zz") == set()


def test_list_is_paginated(as_compliance):
    PlayerFactory.create_batch(3)
    response = as_compliance.get(URL, {"limit": 2})
    assert response.data["count"] == 3
    assert len(response.data["results"]) == 2
    assert response.data["next"]


def test_detail(as_dealer):
    player = TPPPRegistrationFactory(badge_number="B-5").player
    response = as_dealer.get(f"{URL}{player.pk}/")
    assert response.status_code == 200
    assert response.data["tppp"]["badge_number"] == "B-5"
    assert response.data["is_tppp"] is True


def test_detail_of_a_missing_player_is_404(as_dealer):
    assert as_dealer.get(f"{URL}999999/").status_code == 404


# --- Identification (docs/rules.md §3.3): taken in full, shown only masked -----------------

ID = {
    "id_type": "driver_license",
    "id_number": "D1234567",
    "id_issued_by": "California",
    "date_of_birth": "1990-05-17",
}
SHOWN = {
    "id_type": "driver_license",
    "id_number_masked": "••••4567",
    "id_issued_by": "California",
    "date_of_birth": "1990-05-17",
}


def _shown(data):
    return {key: data[key] for key in SHOWN}


def test_create_with_identification_shows_the_number_masked(as_supervisor, as_dealer):
    response = as_supervisor.post(URL, {"player_number": "I-1", "name": "Maria", **ID}, "json")
    assert response.status_code == 201, response.data
    assert _shown(response.data) == SHOWN
    assert "id_number" not in response.data
    player = Player.objects.get(pk=response.data["id"])
    assert player.id_number == "D1234567"
    # Never in full in a list or a detail, whoever reads.
    for body in (as_dealer.get(URL), as_dealer.get(f"{URL}{player.pk}/")):
        assert body.status_code == 200
        assert "D1234567" not in body.content.decode()
    assert _shown(as_dealer.get(URL).data["results"][0]) == SHOWN


def test_a_player_without_identification_shows_it_empty(as_supervisor):
    response = as_supervisor.post(URL, {"player_number": "I-2", "name": "Ned"}, format="json")
    assert response.status_code == 201
    assert _shown(response.data) == {
        "id_type": "",
        "id_number_masked": "",
        "id_issued_by": "",
        "date_of_birth": None,
    }


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"id_type": "passport"}, "id_number", "an ID type is recorded with its number"),
        ({"id_number": "X1"}, "id_type", "an ID number is recorded with its type"),
        ({"id_type": "passport", "id_number": "  "}, "id_number", None),
        ({"id_issued_by": "Mexico"}, "id_issued_by", None),
        ({"date_of_birth": "2999-01-01"}, "date_of_birth", None),
        ({"date_of_birth": "2015-01-01"}, "date_of_birth", None),  # under 21
    ],
)
def test_identification_refused_names_the_field_and_the_rule(as_supervisor, body, field, message):
    response = as_supervisor.post(URL, {"player_number": "I-3", "name": "Oz", **body}, "json")
    assert response.status_code == 400, response.data
    assert response.data["code"] == "rule_broken"
    assert (response.data["rule"], response.data["section"]) == ("floor.identification", "3.3")
    assert response.data["field"] == field
    if message is not None:
        assert response.data["message"] == message
    assert not Player.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"id_type": "library_card", "id_number": "L1"}, "id_type"),
        ({"id_type": "passport", "id_number": "X" * 65}, "id_number"),
        ({"id_type": "passport", "id_number": "X1", "id_issued_by": "M" * 65}, "id_issued_by"),
        ({"date_of_birth": "1990-02-30"}, "date_of_birth"),
    ],
)
def test_identification_input_that_does_not_parse(as_supervisor, body, field):
    response = as_supervisor.post(URL, {"player_number": "I-4", "name": "Pi", **body}, "json")
    assert response.status_code == 400
    assert (response.data["code"], response.data["field"]) == ("invalid", field)
    assert not Player.objects.exists()


def test_a_supervisor_records_and_corrects_the_identification(as_supervisor):
    player = PlayerFactory()
    url = f"{URL}{player.pk}/"
    response = as_supervisor.patch(url, ID, format="json")
    assert response.status_code == 200, response.data
    assert _shown(response.data) == SHOWN
    assert "D1234567" not in response.content.decode()
    response = as_supervisor.patch(url, {"id_number": "D7654321"}, format="json")
    assert response.status_code == 200
    assert _shown(response.data) == {**SHOWN, "id_number_masked": "••••4321"}
    response = as_supervisor.patch(
        url, {"id_type": "", "id_number": "", "id_issued_by": ""}, format="json"
    )
    assert response.status_code == 200
    assert (response.data["id_type"], response.data["id_number_masked"]) == ("", "")
    player.refresh_from_db()
    assert (player.id_type, player.id_number, player.date_of_birth) == ("", "", date(1990, 5, 17))


def test_a_refused_correction_is_400_and_changes_nothing(as_supervisor):
    player = PlayerFactory(id_type="passport", id_number="X1234567")
    url = f"{URL}{player.pk}/"
    response = as_supervisor.patch(url, {"id_type": ""}, format="json")
    assert response.status_code == 400
    assert (response.data["code"], response.data["rule"], response.data["field"]) == (
        "rule_broken", "floor.identification", "id_type",
    )  # fmt: skip
    assert response.data["message"] == "an ID number is recorded with its type"
    player.refresh_from_db()
    assert (player.id_type, player.id_number) == ("passport", "X1234567")


def test_only_a_supervisor_corrects_the_identification(as_dealer, as_compliance, as_supervisor):
    player = PlayerFactory()
    url = f"{URL}{player.pk}/"
    for client in (as_dealer, as_compliance):
        response = client.patch(url, ID, format="json")
        assert response.status_code == 403
        assert response.data["code"] == "permission_denied"
    assert as_supervisor.patch(f"{URL}999999/", ID, format="json").status_code == 404
    player.refresh_from_db()
    assert player.id_number == ""


def test_a_supervisor_corrects_a_players_name_and_number(as_supervisor, clock):
    player = PlayerFactory(player_number="PL-8001", name="Lou Lee")
    PlayerFactory(player_number="PL-8002", name="Other")
    url = f"/api/players/{player.pk}/"
    taken = as_supervisor.patch(url, {"player_number": "PL-8002"}, format="json")
    assert (taken.status_code, taken.data["rule"], taken.data["field"]) == (
        400,
        Rule.PLAYER_NUMBER,
        "player_number",
    )
    response = as_supervisor.patch(
        url, {"name": "Lou Leeds", "player_number": "PL-8009"}, format="json"
    )
    assert response.status_code == 200, response.data
    assert (response.data["name"], response.data["player_number"]) == ("Lou Leeds", "PL-8009")
    (change,) = player.identification_changes.all()
    assert change.old_value["name"] == "Lou Lee" and change.new_value["name"] == "Lou Leeds"
