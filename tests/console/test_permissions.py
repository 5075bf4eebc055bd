"""Every console page needs a signed-in staff member; a role sees and does only its share."""

from __future__ import annotations

import pytest
from django.urls import reverse

from cardroom.errors import State
from tables.models import Round
from tests.builders.money import money_table, play_round

pytestmark = pytest.mark.django_db

READ_ROLES = ("supervisor", "dealer", "compliance", "administrator")


def pages(table, player) -> dict[str, str]:
    return {
        "floor": reverse("console:floor"),
        "table": reverse("console:table", args=[table.pk]),
        "players": reverse("console:players"),
        "bankroll": reverse("console:bankroll", args=[player.pk]),
        "audit": reverse("console:audit"),
        "locked_sign_ins": reverse("console:locked-sign-ins"),
        "drop": reverse("console:drop"),
        "tppp_contracts": reverse("console:tppp-contracts"),
    }


# page -> the roles that may open it (others get 403)
PAGE_ROLES = {
    "floor": READ_ROLES,
    "table": READ_ROLES,
    "players": READ_ROLES,
    "bankroll": READ_ROLES,
    "audit": ("supervisor", "compliance", "administrator"),
    "locked_sign_ins": ("supervisor", "administrator"),
    "drop": READ_ROLES,
    "tppp_contracts": READ_ROLES,
}


@pytest.mark.parametrize("page", sorted(PAGE_ROLES))
def test_a_page_sends_the_signed_out_to_sign_in(client, card_table, page):
    url = pages(card_table.table, card_table.seated[1])[page]
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("console:login"))


@pytest.mark.parametrize("page", sorted(PAGE_ROLES))
@pytest.mark.parametrize("who", [*READ_ROLES, "no_role", "not_staff"])
def test_each_role_opens_only_its_pages(as_user, card_table, page, who):
    url = pages(card_table.table, card_table.seated[1])[page]
    response = as_user(who).get(url)
    assert response.status_code == (200 if who in PAGE_ROLES[page] else 403)


# action -> (post data builder, roles allowed)
def _round(card_table):
    return play_round(card_table, pd_seat=2, bank=10_000, wagers=[], until=State.WAGERING)


ACTION_ROLES = {
    "seat": ("supervisor", "dealer", "administrator"),
    "offer": ("supervisor", "dealer", "administrator"),
    "open_game": ("supervisor", "administrator"),
    "close_game": ("supervisor", "administrator"),
    "void": ("supervisor", "administrator"),
}
# What a role that may take the action gets for an empty form at the card table: the form's
# refusal (400: a seat, a player, the first seat or the round is missing), or the action
# done and the table shown again (302).
ALLOWED_ANSWER = {"seat": 400, "offer": 302, "open_game": 400, "close_game": 302, "void": 400}


@pytest.mark.parametrize("action", sorted(ACTION_ROLES))
@pytest.mark.parametrize("who", ["supervisor", "dealer", "compliance", "no_role"])
def test_an_action_a_role_may_not_take_is_refused_with_403(as_user, card_table, action, who):
    url = reverse("console:table-action", args=[card_table.table.pk, action])
    response = as_user(who).post(url, {})
    if who in ACTION_ROLES[action]:
        assert response.status_code == ALLOWED_ANSWER[action]  # as far as the form, or done
    else:
        assert response.status_code == 403


def test_a_dealer_is_not_shown_what_only_a_supervisor_may_do(as_user, card_table):
    _round(card_table)
    body = as_user("dealer").get(reverse("console:table", args=[card_table.table.pk])).content
    assert b"Void the round" not in body
    assert b"Close the game" not in body
    assert b"Place wagers" in body
    assert b"Audit trail" not in body


def test_compliance_sees_the_table_but_no_action(as_user, card_table):
    _round(card_table)
    body = as_user("compliance").get(reverse("console:table", args=[card_table.table.pk])).content
    for control in (b"Place wagers", b"Seat the player", b"Post the bank", b"Void the round"):
        assert control not in body
    assert b"Audit trail" in body


def test_a_supervisor_sees_the_void_with_its_confirmation(as_user, card_table):
    _round(card_table)
    body = as_user("supervisor").get(reverse("console:table", args=[card_table.table.pk])).content
    assert b"Void the round" in body
    assert b"data-confirm" in body


def test_an_action_needs_post(as_user, card_table):
    url = reverse("console:table-action", args=[card_table.table.pk, "offer"])
    assert as_user("dealer").get(url).status_code == 405


def test_an_unknown_action_or_table_is_404(as_user, card_table):
    client = as_user("dealer")
    unknown = reverse("console:table-action", args=[card_table.table.pk, "x"])
    assert client.post(unknown).status_code == 404
    assert client.get(reverse("console:table", args=[999_999])).status_code == 404


def test_a_round_of_another_table_is_404(as_user, card_table, staff):
    other = money_table(staff, {1: 10_000, 2: 10_000})
    round_ = play_round(other, pd_seat=1, bank=1_000, wagers=[], until=State.WAGERING)
    url = reverse("console:table-action", args=[card_table.table.pk, "no_more_bets"])
    assert as_user("dealer").post(url, {"round_id": round_.pk}).status_code == 404
    assert Round.objects.get(pk=round_.pk).state == State.WAGERING


def test_the_player_dealer_wager_form_is_not_a_way_around_the_rules(as_user, card_table):
    round_ = _round(card_table)
    url = reverse("console:table-action", args=[card_table.table.pk, "bet"])
    response = as_user("dealer").post(
        url, {"round_id": round_.pk, "seat": 2, "ante": "10", "blind": "10"}
    )
    assert response.status_code == 400
    assert "no one wagers on the player-dealer position" in response.content.decode()
    assert not round_.hands.exists()
