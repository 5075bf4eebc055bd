"""The settlement calculator page for EZ Baccarat (docs/console.md): a form shaped for the game
(the Player and Banker hands as dealt, each seat's wagers, the options with their Listing's
labels and defaults) builds the calculator's JSON in dealing order and settles as that JSON
does; a refusal lands on the field it names, in the floor's words; the JSON stays for experts;
nothing is written. The game math page of a baccarat table gives each wager's exact edge."""

from __future__ import annotations

import html
import json

import pytest
from django.urls import reverse

from games.registry import settle_request
from tests.builders.floor import open_floor
from wagers.models import LedgerTransaction

pytestmark = pytest.mark.django_db
URL = reverse("console:calculator")

# Player 2c 3d (5) draws the 4d: 9; Banker Kd 5s (5) draws on a Player's 4: the 3h, 8.
COUP = {
    "game": "ez_baccarat",
    "chip": "1",
    "seats": "9",
    "decks": "8",
    "tie_pays": "8",
    "dragon_7_pays": "40",
    "panda_8_pays": "25",
    "cut_card": "14",
    "pd_seat": "5",
    "bank": "500",
    "player_cards": "2c 3d 4d",
    "banker_cards": "Kd 5s 3h",
    "s1_player": "25",
    "s1_tie": "5",
    "s7_banker": "100",
    "s7_dragon_7": "10",
}


def _text(response) -> str:
    return html.unescape(response.content.decode())


def test_the_page_offers_each_games_form(as_user):
    page = as_user("dealer").get(URL, {"game": "ez_baccarat"})
    assert page.status_code == 200
    text = _text(page)
    assert '<strong aria-current="page">EZ Baccarat</strong>' in text
    for label in (
        "Player hand",
        "Banker hand",
        "Decks in the shoe",
        "Tie pays",
        "Panda 8 ($)",
    ):
        assert label in text
    assert "Trips pay table" not in text
    first = _text(as_user("dealer").get(URL))
    assert "Trips pay table" in first and "Banker hand" not in first


def test_the_form_builds_the_coup_in_dealing_order_and_settles_as_the_json_does(as_user):
    written = LedgerTransaction.objects.count()
    response = as_user("dealer").post(URL, COUP)
    assert response.status_code == 200
    hand = json.loads(response.context["text"])
    assert hand["cards"] == ["2c", "Kd", "3d", "5s", "4d", "3h"]
    assert hand["options"]["game"] == "ez_baccarat" and hand["options"]["decks"] == 8
    assert hand["player_dealer"] == {"seat": 5, "bank": 50_000}
    assert [
        (s["seat"], s["player"], s["banker"], s["tie"], s["dragon_7"]) for s in hand["seats"]
    ] == [
        (1, 2_500, 0, 500, 0),
        (7, 0, 10_000, 0, 1_000),
    ]
    assert response.context["result"] == settle_request(hand)
    text = " ".join(_text(response).split())
    assert "Settlement · EZ Baccarat" in text and "the Player wins" in text
    assert 'id="calc-net">$90.00</strong>' in text  # $25 paid; $5, $100 and $10 collected
    assert LedgerTransaction.objects.count() == written


@pytest.mark.parametrize(
    "change, field, text",
    [
        (
            {"banker_cards": "Kd 5s"},
            "banker_cards",
            "Banker hand: a card is missing: the Banker hand has 5 and draws",
        ),
        ({"player_cards": "9c 9d 4d"}, "player_cards", "Player hand: "),
        ({"s1_banker": "25"}, "s1_banker", "Seat 1 · Banker ($): "),
        ({"s7_dragon_7": "200"}, "s7_dragon_7", "Seat 7 · Dragon 7 ($): "),
        ({"pd_seat": "1"}, "s1_player", "Seat 1 · Player ($): seat 1 is the player-dealer's"),
        ({"cut_card": "3"}, "cut_card", "Cut card (cards from the end): "),
    ],
    ids=["missing_third", "after_natural", "both_bases", "side_over_base", "pd_wagers", "cut"],
)
def test_a_refusal_lands_on_its_field_in_the_floors_words(as_user, change, field, text):
    response = as_user("dealer").post(URL, {**COUP, **change})
    assert response.status_code == 400
    assert response.context["form"].errors.get(field), response.context["error"]
    error = response.context["error"]
    assert error.startswith(text) and "(rule: " in error
    assert "cards[" not in error and "seats[" not in error and "cents" not in error


def test_a_json_hand_fills_the_baccarat_form(as_user):
    hand = json.loads(as_user("dealer").post(URL, COUP).context["text"])
    response = as_user("dealer").post(URL, {"hand": json.dumps(hand)})
    assert response.status_code == 200
    form = response.context["form"]
    assert form.game_key == "ez_baccarat" and response.context["held"]
    assert (form.initial["player_cards"], form.initial["banker_cards"]) == ("2c 3d 4d", "Kd 5s 3h")
    assert str(form.initial["s7_banker"]) == "100.00"


def test_a_baccarat_tables_game_math_gives_each_edge_to_four_decimals(as_user, staff):
    bac = open_floor("PP.......", staff=staff, game="ez_baccarat", name="BAC-9", open_game=False)
    response = as_user("dealer").get(reverse("console:table-math", args=[bac.table_id]))
    assert response.status_code == 200
    text = " ".join(_text(response).split())
    assert "EZ Baccarat" in text and "Strategy card" not in text
    for wager, edge in (("Banker", "1.0183%"), ("Player", "1.2351%"), ("Tie", "14.3596%")):
        assert f"<th>{wager}</th>" in text and edge in text
    assert "Dragon 7" in text and "40 to 1" in text and "Panda 8" in text
