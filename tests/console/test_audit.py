"""Every write is on the audit trail (who, what, when, outcome); sign-ins are throttled."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from console.models import Outcome, StaffAction
from tests.builders.floor import make_player

pytestmark = pytest.mark.django_db


def test_a_console_action_is_recorded_with_who_what_and_the_outcome(as_user, card_table):
    client = as_user("dealer")
    player = make_player()
    url = reverse("console:table-action", args=[card_table.table.pk, "seat"])
    client.post(url, {"seat": 5, "player": player.pk})
    client.post(url, {"seat": 5, "player": make_player().pk})  # now taken: refused
    done, refused = StaffAction.objects.order_by("id")
    assert (done.username, done.channel, done.action, done.outcome, done.status_code) == (
        "dealer", "console", "seat a player", Outcome.DONE, 302,
    )  # fmt: skip
    assert done.user.username == "dealer"
    assert done.table_id == card_table.table.pk
    assert f'"player": {player.pk}' in done.detail
    assert refused.outcome == Outcome.REFUSED
    assert refused.status_code == 400
    assert (
        refused.message == "seat 5 is taken (rule: the seats, numbered from 1, docs/rules.md §3.1)"
    )


def test_a_refused_role_is_recorded_too(as_user, card_table):
    as_user("compliance").post(reverse("console:table-action", args=[card_table.table.pk, "offer"]))
    action = StaffAction.objects.get()
    assert (action.username, action.outcome, action.status_code) == ("compliance", "refused", 403)


def test_an_api_write_is_recorded_with_its_body(as_user, card_table):
    client = as_user("dealer")
    response = client.post(
        f"/api/tables/{card_table.table.pk}/button/offer/", {}, content_type="application/json"
    )
    assert response.status_code == 201
    action = StaffAction.objects.get()
    assert (action.channel, action.action, action.username) == (
        "api",
        "tables:button-offer",
        "dealer",
    )
    assert action.outcome == Outcome.DONE


def test_an_api_body_is_recorded_with_the_id_number_masked(as_user):
    """The trail shows an identification number only masked (docs/rules.md §3.3)."""
    client = as_user("supervisor")
    body = {
        "player_number": "ID-1",
        "name": "Maria",
        "id_type": "passport",
        "id_number": "X12345678",
    }
    response = client.post("/api/players/", body, content_type="application/json")
    assert response.status_code == 201
    player_id = response.json()["id"]
    client.patch(
        f"/api/players/{player_id}/", {"id_number": "Y87654321"}, content_type="application/json"
    )
    created, corrected = StaffAction.objects.order_by("id")
    assert json.loads(created.detail)["id_number"] == "•••••5678"
    assert json.loads(corrected.detail) == {"id_number": "•••••4321"}
    assert corrected.action == "tables:player-detail" and corrected.outcome == Outcome.DONE
    for action in (created, corrected):
        assert "12345678" not in action.detail and "87654321" not in action.detail


def test_reads_are_not_recorded(as_user, card_table):
    as_user("dealer").get(reverse("console:table", args=[card_table.table.pk]))
    assert not StaffAction.objects.exists()


def test_sign_in_and_out_are_recorded_without_the_password(client, users):
    client.post(reverse("console:login"), {"username": "dealer", "password": "nope-secret"})
    client.post(reverse("console:login"), {"username": "dealer", "password": "pw"})
    client.post(reverse("console:logout"))
    failed, signed_in, signed_out = StaffAction.objects.order_by("id")
    assert (failed.action, failed.outcome, failed.username, failed.user) == (
        "sign in",
        Outcome.REFUSED,
        "dealer",
        None,
    )  # fmt: skip  (a failed sign-in re-shows the form: 400, no user)
    assert (failed.status_code, failed.message) == (400, "bad password")
    assert (signed_in.action, signed_in.user, signed_in.status_code) == (
        "sign in",
        users["dealer"],
        302,
    )
    assert (signed_out.action, signed_out.user) == ("sign out", users["dealer"])
    assert not StaffAction.objects.filter(detail__contains="nope-secret").exists()


def test_the_trail_is_append_only(as_user, card_table):
    as_user("dealer").post(reverse("console:table-action", args=[card_table.table.pk, "offer"]))
    action = StaffAction.objects.get()
    action.message = "edited"
    with pytest.raises(ValueError, match="append-only"):
        action.save()


def test_supervisors_read_the_trail_with_filters(as_user, card_table):
    as_user("dealer").post(reverse("console:table-action", args=[card_table.table.pk, "offer"]))
    client = as_user("supervisor")
    page = client.get(reverse("console:audit")).content.decode()
    assert "offer the button" in page and "dealer" in page
    filtered = client.get(reverse("console:audit"), {"username": "nobody"}).content.decode()
    assert "Nothing recorded" in filtered


def test_repeated_failed_sign_ins_lock_the_user_name(client, users, settings):
    limit = settings.AXES_FAILURE_LIMIT
    for _ in range(limit - 1):
        response = client.post(reverse("console:login"), {"username": "dealer", "password": "x"})
        assert response.status_code == 400
    # The failure that reaches the limit locks the user name at this address.
    response = client.post(reverse("console:login"), {"username": "dealer", "password": "x"})
    assert response.status_code == 429
    # Locked: even the right password is refused now.
    response = client.post(reverse("console:login"), {"username": "dealer", "password": "pw"})
    assert response.status_code == 429
    assert "Sign-in locked" in response.content.decode()
    # The wait in minutes, as the floor says it (settings: 15 minutes).
    assert "Wait 15 minutes or ask a floor supervisor" in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert StaffAction.objects.filter(status_code=429, username="dealer").exists()
    # Another user at the same terminal is not locked out.
    response = client.post(reverse("console:login"), {"username": "supervisor", "password": "pw"})
    assert response.status_code == 302
