"""PATCH /api/players/{id}/ with ``tppp``: a supervisor renews a TPPP's badge or corrects its
registration (docs/rules.md §8.7); refused 400 naming the field (and the rule), 403 for the
other roles, nothing changed; every change kept."""

from __future__ import annotations

from datetime import date

import pytest

from cardroom.errors import Rule
from tables.models import Player, TPPPRegistration, TPPPRegistrationChange
from tests.builders.factories import PlayerFactory, TPPPRegistrationFactory

pytestmark = pytest.mark.django_db

REGISTERED = {
    "business_name": "Quade Proposition Services",
    "badge_number": "B-5150",
    "badge_expires_on": date(2026, 12, 31),
}


@pytest.fixture
def tppp(clock) -> Player:
    return TPPPRegistrationFactory(player__name="Quinn Quade", **REGISTERED).player


def url(player: Player) -> str:
    return f"/api/players/{player.pk}/"


def registration(player: Player) -> dict:
    row = TPPPRegistration.objects.get(player=player)
    return {name: getattr(row, name) for name in REGISTERED}


def test_a_supervisor_renews_the_badge(as_supervisor, tppp, supervisor):
    response = as_supervisor.patch(
        url(tppp), {"tppp": {"badge_expires_on": "2027-12-31"}}, format="json"
    )
    assert response.status_code == 200, response.data
    assert response.data["tppp"] == {
        "business_name": "Quade Proposition Services",
        "badge_number": "B-5150",
        "badge_expires_on": "2027-12-31",
    }
    assert response.data["name"] == "Quinn Quade"
    (change,) = TPPPRegistrationChange.objects.all()
    assert change.changed_by == supervisor
    assert (change.old_value["badge_expires_on"], change.new_value["badge_expires_on"]) == (
        "2026-12-31",
        "2027-12-31",
    )


def test_a_supervisor_corrects_the_business_and_the_badge_number(as_supervisor, tppp):
    body = {"tppp": {"business_name": " Quade Banking LLC ", "badge_number": "B-7007"}}
    response = as_supervisor.patch(url(tppp), body, format="json")
    assert response.status_code == 200, response.data
    assert registration(tppp) == {
        **REGISTERED,
        "business_name": "Quade Banking LLC",
        "badge_number": "B-7007",
    }
    (change,) = TPPPRegistrationChange.objects.all()
    assert [what for what, _, _ in change.differences()] == ["business", "badge number"]


def test_the_name_and_the_registration_in_one_request(as_supervisor, tppp):
    body = {"name": "Quinn Quade-Ross", "tppp": {"badge_expires_on": "2028-01-31"}}
    response = as_supervisor.patch(url(tppp), body, format="json")
    assert response.status_code == 200, response.data
    assert response.data["name"] == "Quinn Quade-Ross"
    assert response.data["tppp"]["badge_expires_on"] == "2028-01-31"
    assert tppp.identification_changes.count() == 1
    assert TPPPRegistrationChange.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "code", "field", "rule", "message"),
    [
        (
            {"tppp": {"business_name": "  "}},
            "rule_broken", "tppp.business_name", Rule.TPPP_REGISTERED,
            "a TPPP's registration records the business's name",
        ),
        (
            {"tppp": {"badge_number": ""}},
            "rule_broken", "tppp.badge_number", Rule.TPPP_REGISTERED,
            "a TPPP's registration records the badge number",
        ),
        (
            {"tppp": {"badge_expires_on": "2027-02-30"}},
            "invalid", "tppp.badge_expires_on", None, None,
        ),
        ({"tppp": {"badge_expires_on": None}}, "invalid", "tppp.badge_expires_on", None, None),
        ({"tppp": {"badge_number": "B" * 65}}, "invalid", "tppp.badge_number", None, None),
        ({"tppp": None}, "invalid", "tppp", None, None),
        ({"tppp": "B-1"}, "invalid", "tppp", None, None),
        # Nothing is recorded when one part is refused: the name stays too.
        (
            {"name": "Renamed", "tppp": {"badge_number": " "}},
            "rule_broken", "tppp.badge_number", Rule.TPPP_REGISTERED, None,
        ),
        (
            {"player_number": "", "tppp": {"badge_number": "B-9"}},
            "invalid", "player_number", None, None,
        ),
    ],
)  # fmt: skip
def test_refused_is_400_with_the_field_and_changes_nothing(
    as_supervisor, tppp, body, code, field, rule, message
):
    response = as_supervisor.patch(url(tppp), body, format="json")
    assert response.status_code == 400, response.data
    assert (response.data["code"], response.data["field"]) == (code, field)
    if rule is not None:
        assert (response.data["rule"], response.data["section"]) == (rule.value, "8.7")
    if message is not None:
        assert response.data["message"] == message
    assert registration(tppp) == REGISTERED
    tppp.refresh_from_db()
    assert tppp.name == "Quinn Quade"
    assert not TPPPRegistrationChange.objects.exists()
    assert not tppp.identification_changes.exists()


def test_a_patron_has_no_registration_to_change(as_supervisor, clock):
    patron = PlayerFactory(name="Pat Patron")
    response = as_supervisor.patch(url(patron), {"tppp": {"badge_number": "B-1"}}, format="json")
    assert response.status_code == 400
    assert (response.data["code"], response.data["rule"], response.data["field"]) == (
        "rule_broken", "tppp.registered", "tppp",
    )  # fmt: skip
    assert response.data["message"] == (
        "Pat Patron is not a TPPP player: there is no registration to change"
    )
    assert not TPPPRegistration.objects.exists()


def test_only_a_supervisor_changes_a_registration(as_dealer, as_compliance, as_supervisor, tppp):
    body = {"tppp": {"badge_expires_on": "2027-12-31"}}
    for client in (as_dealer, as_compliance):
        response = client.patch(url(tppp), body, format="json")
        assert response.status_code == 403
        assert response.data["code"] == "permission_denied"
    assert as_supervisor.patch("/api/players/999999/", body, format="json").status_code == 404
    assert registration(tppp) == REGISTERED
    assert not TPPPRegistrationChange.objects.exists()


def test_a_repeated_idempotency_key_renews_once(as_supervisor, tppp):
    body = {"tppp": {"badge_expires_on": "2027-12-31"}}
    headers = {"HTTP_IDEMPOTENCY_KEY": "renew-b5150"}
    first = as_supervisor.patch(url(tppp), body, format="json", **headers)
    again = as_supervisor.patch(url(tppp), body, format="json", **headers)
    assert (first.status_code, again.status_code) == (200, 200)
    assert again["Idempotent-Replayed"] == "true"
    assert TPPPRegistrationChange.objects.count() == 1
