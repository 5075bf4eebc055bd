"""A patron's own sign-in (docs/rules.md §3.8): a floor supervisor issues it from the
player's page (on the audit trail); the patron signs in and sees their own bankroll, ledger
lines and theo on ``/console/me/`` and ``/api/me/bankroll/``, read only, and nobody else's:
every staff page and API answers them 403."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from console.models import StaffAction
from tables.models import PatronSignIn

pytestmark = pytest.mark.django_db
PASSWORD = "felt-and-chips-42"


def issue(client, player, username="maria", password=PASSWORD):
    return client.post(
        reverse("console:player-sign-in", args=[player.pk]),
        {"username": username, "password": password},
    )


@pytest.fixture
def patron(as_user, card_table):
    """Seat 1's player with their own sign-in, signed in on a client of their own."""
    player = card_table.seated[1]
    assert issue(as_user("supervisor"), player).status_code == 302
    client = Client()
    response = client.post(reverse("console:login"), {"username": "maria", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("console:me")
    return client, player


def test_a_supervisor_issues_it_and_the_trail_says_so(as_user, card_table):
    player = card_table.seated[1]
    response = issue(as_user("supervisor"), player)
    assert response.status_code == 302
    link = PatronSignIn.objects.get(player=player)
    assert link.user.username == "maria" and not link.user.is_staff
    assert link.user.check_password(PASSWORD)
    action = StaffAction.objects.filter(action="issue a patron's sign-in").get()
    assert action.username == "supervisor" and PASSWORD not in action.detail
    page = as_user("supervisor").get(reverse("console:bankroll", args=[player.pk]))
    assert "Signs in as <strong>maria</strong>" in page.content.decode()


@pytest.mark.parametrize("who", ["dealer", "compliance"])
def test_only_a_supervisor_issues_it(as_user, card_table, who):
    assert issue(as_user(who), card_table.seated[1]).status_code == 403
    assert not PatronSignIn.objects.exists()


@pytest.mark.parametrize(
    ("first", "second", "status", "said"),
    [
        ("maria", "maria2", 409, "already has a sign-in"),
        ("maria", "MARIA", 409, "already has a sign-in"),
    ],
)
def test_one_sign_in_per_player(as_user, card_table, first, second, status, said):
    client = as_user("supervisor")
    player = card_table.seated[1]
    issue(client, player, first)
    response = issue(client, player, second)
    assert response.status_code == status and said in response.content.decode()


@pytest.mark.parametrize(
    ("username", "password", "said"),
    [
        ("supervisor", PASSWORD, "the user name supervisor is taken"),
        ("maria", "1234", "This password is too short"),
    ],
)
def test_a_refused_sign_in_says_why(as_user, card_table, username, password, said):
    response = issue(as_user("supervisor"), card_table.seated[2], username, password)
    assert response.status_code == 400
    body = response.content.decode()
    assert said in body and "(rule: a patron&#x27;s own sign-in, docs/rules.md §3.8)" in body
    assert not PatronSignIn.objects.exists()


def test_the_patron_sees_their_own_bankroll(patron, card_table):
    client, player = patron
    page = client.get(reverse("console:me")).content.decode()
    assert player.name in page and 'id="balance">$500.00<' in page
    assert "Buy-in" in page  # their ledger line, in words
    for other in (card_table.seated[2], card_table.seated[3]):
        assert other.name not in page


@pytest.mark.parametrize(
    "page",
    [
        "console:floor",
        "console:players",
        "console:waitlists",
        "console:fees",
        "console:drop",
        "console:calculator",
        "console:reports",
        "console:audit",
    ],
)
def test_every_staff_page_is_refused_to_a_patron(patron, page):
    client, _ = patron
    assert client.get(reverse(page)).status_code == 403


def test_no_other_players_page(patron, card_table):
    client, player = patron
    for someone in (player, card_table.seated[2]):
        assert client.get(reverse("console:bankroll", args=[someone.pk])).status_code == 403
        assert client.get(f"/api/players/{someone.pk}/bankroll/").status_code == 403


def test_the_api_answers_the_patron_their_own(patron):
    client, player = patron
    response = client.get("/api/me/bankroll/")
    assert response.status_code == 200
    data = response.json()
    assert (data["name"], data["player_number"]) == (player.name, player.player_number)
    assert data["bankroll"]["balance"] == 50_000
    assert [line["kind"] for line in data["ledger"]] == ["buy_in"]


@pytest.mark.parametrize("who", ["supervisor", "dealer", "administrator"])
def test_staff_have_no_own_bankroll(as_user, who):
    client = as_user(who)
    assert client.get("/api/me/bankroll/").status_code == 403
    assert client.get(reverse("console:me")).status_code == 403


def test_signed_out_is_sent_to_sign_in(client):
    assert client.get(reverse("console:me")).status_code == 302
    assert client.get("/api/me/bankroll/").status_code == 401


def test_a_plain_account_still_cannot_sign_in(card_table):
    User.objects.create_user("stranger", password=PASSWORD)
    response = Client().post(
        reverse("console:login"), {"username": "stranger", "password": PASSWORD}
    )
    assert response.status_code == 400
