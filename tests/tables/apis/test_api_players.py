"""/api/players/: list with filters, create (with a TPPP registration), detail."""

from __future__ import annotations

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
