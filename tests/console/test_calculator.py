"""The settlement calculator page: a settled hand opened from its round settles to exactly
the lines stored; an edited hand settles anew; bad input names the rule and the field;
nothing is written."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from cardroom.errors import State
from tables.models import DealMode
from tests.builders.floor import FOLD, PLAY_4X, Cards
from tests.builders.money import Wager, money_table, play_round, stored_lines
from wagers.models import LedgerTransaction, SettlementLine

pytestmark = pytest.mark.django_db
URL = reverse("console:calculator")


@pytest.fixture
def settled(staff):
    mt = money_table(staff, {1: 50_000, 2: 50_000, 3: 50_000}, deal_mode=DealMode.RNG)
    return play_round(mt, pd_seat=1, bank=5_000, wagers=[Wager(2, 1_000), Wager(3, 2_000)])


def test_a_settled_round_opens_and_settles_as_stored(as_user, settled):
    written = (LedgerTransaction.objects.count(), SettlementLine.objects.count())
    response = as_user("supervisor").get(URL, {"round": settled.pk})
    assert response.status_code == 200
    result = response.context["result"]
    got = [
        (line["order"], line["seat"], line["wager"], line["paid"], line["collected"])
        for line in result["settlement"]
    ]
    assert got == [(row[0], row[2], row[4], row[7], row[8]) for row in stored_lines(settled)]
    assert json.loads(response.context["text"])["player_dealer"]["bank"] == 5_000
    assert (LedgerTransaction.objects.count(), SettlementLine.objects.count()) == written


def test_a_card_entry_hand_with_a_mucked_seat_opens_and_settles_as_stored(as_user, staff):
    # Seat 3 folds with no Trips wager: mucked, never keyed (docs/rules.md §2.3); the hand
    # opens with its cards left out ("hole": null) and settles line for line as stored.
    mt = money_table(staff, {1: 50_000, 2: 50_000, 3: 50_000}, deal_mode=DealMode.CARD_ENTRY)
    cards = Cards(["Kc", "Kd"], {2: ["Ah", "Qh"]}, ["2h", "7h", "9h", "Jd", "3c"])
    round_ = play_round(
        mt, pd_seat=1, bank=5_000, wagers=[Wager(2, 1_000), Wager(3, 2_000, bad_beat=500)],
        decisions={2: PLAY_4X, 3: FOLD}, cards=cards,
    )  # fmt: skip
    response = as_user("supervisor").get(URL, {"round": round_.pk})
    assert response.status_code == 200 and not response.context["error"]
    hand = json.loads(response.context["text"])
    assert [(s["seat"], s["hole"], s["folded"]) for s in hand["seats"]] == [
        (2, ["Ah", "Qh"], False),
        (3, None, True),
    ]
    result = response.context["result"]
    assert result["seats"][1] == {"seat": 3, "category": None, "result": "fold", "best_five": None}
    got = [(line["order"], line["seat"], line["wager"], line["outcome"], line["collected"])
           for line in result["settlement"]]  # fmt: skip
    assert got == [(row[0], row[2], row[4], row[6], row[8]) for row in stored_lines(round_)]
    assert "Seat 3: folded" in response.content.decode()


def test_an_edited_hand_settles_anew_and_bad_input_names_the_rule(as_user, settled):
    client = as_user("dealer")
    hand = json.loads(client.get(URL, {"round": settled.pk}).context["text"])
    hand["player_dealer"]["bank"] = 100_000
    response = client.post(URL, {"hand": json.dumps(hand)})
    assert response.status_code == 200
    assert response.context["result"]["bank"] == 100_000
    hand["seats"][0]["hole"] = ["Zz", "As"]
    response = client.post(URL, {"hand": json.dumps(hand)})
    assert response.status_code == 400
    assert response.context["error"].startswith("seats[0].hole")
    assert "rule: cards are named by rank and suit" in response.context["error"]
    response = client.post(URL, {"hand": "{not json"})
    assert response.status_code == 400
    assert "not the calculator's JSON" in response.context["error"]


def test_only_a_settled_hand_opens(as_user, staff):
    mt = money_table(staff, {1: 50_000, 2: 50_000}, deal_mode=DealMode.RNG)
    in_play = play_round(mt, pd_seat=1, bank=5_000, wagers=[Wager(2, 1_000)], until=State.FLOP)
    response = as_user("supervisor").get(URL, {"round": in_play.pk})
    assert response.status_code == 200
    assert response.context["result"] is None
    assert "only a settled hand opens in the calculator" in response.context["error"]
    assert as_user("supervisor").get(URL, {"round": "9" * 30}).status_code == 404
