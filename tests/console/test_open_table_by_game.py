"""A supervisor opens a table of a chosen game from the floor map (docs/console.md): the
game's own options sheet with its labels and defaults (games' Listing), refusals in the
floor's words with the rule, nothing stored when refused."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from tables.models import Table

pytestmark = pytest.mark.django_db

BACCARAT = {
    "game": "ez_baccarat",
    "name": "BAC-1",
    "minimum_cents": "20",
    "maximum_cents": "2000",
    "chip_unit_cents": "5",
    "deal_mode": "rng",
    "seats": "7",
    "decks": "6",
    "tie_pays": "9",
    "dragon_7_pays": "40",
    "panda_8_pays": "25",
    "cut_card": "16",
    "side_wager_maximum_cents": "100",
}


def test_the_form_shows_the_chosen_games_own_options_with_their_defaults(as_user):
    body = as_user("supervisor").get(reverse("console:floor"), {"game": "ez_baccarat"})
    assert body.status_code == 200
    text = body.content.decode()
    assert "A new EZ Baccarat table" in text
    for label in ("Seats", "Decks in the shoe", "Tie pays", "Dragon 7 pays", "Panda 8 pays"):
        assert label in text
    assert "Cut card (cards from the end)" in text and "Side wager maximum ($)" in text
    assert '<option value="8" selected>8 decks</option>' in text
    assert '<option value="6">6 decks</option>' in text
    assert '<option value="9" selected>9 seats</option>' in text
    assert 'name="cut_card" value="14"' in text and 'name="dragon_7_pays" value="40"' in text
    # The first game's form is as it was: its own options are changed on its sheet.
    first = as_user("supervisor").get(reverse("console:floor")).content.decode()
    assert "A new Ultimate Texas Hold&#x27;em table" in first and "Decks in the shoe" not in first


def test_a_supervisor_opens_an_ez_baccarat_table(as_user):
    response = as_user("supervisor").post(reverse("console:tables-create"), BACCARAT)
    table = Table.objects.get(name="BAC-1")
    assert response.status_code == 302
    assert response.url == reverse("console:table", args=[table.pk])
    assert (table.game, table.seat_count) == ("ez_baccarat", 7)
    assert (table.minimum_cents, table.maximum_cents, table.chip_unit_cents) == (2000, 200_000, 500)
    assert table.game_options == {
        "decks": 6,
        "tie_pays": 9,
        "dragon_7_pays": 40,
        "panda_8_pays": 25,
        "cut_card": 16,
        "side_wager_maximum_cents": 10_000,
    }
    floor = as_user("dealer").get(reverse("console:floor")).content.decode()
    assert "EZ Baccarat" in floor and "7 seats" in floor


@pytest.mark.parametrize(
    "change, text",
    [
        (
            {"cut_card": "3"},
            "the cut card's place from the end of the shoe must be a whole "
            "number from 6 to 104 cards, not 3 (rule: ",
        ),
        (
            {"side_wager_maximum_cents": "5000"},
            "the side wagers' maximum of $5,000.00 is above the table maximum of $2,000.00",
        ),
        (
            {"side_wager_maximum_cents": "10"},
            "the side wagers' maximum of $10.00 is below the table minimum of $20.00",
        ),
        ({"dragon_7_pays": "0"}, "the Dragon 7's pay must be a whole number from 1 to"),
        ({"seats": "5"}, "Seats: Select a valid choice"),
        ({"decks": "7"}, "Decks in the shoe: Select a valid choice"),
        ({"minimum_cents": "3000"}, "the table minimum is above the table maximum"),
        ({"game": "blackjack"}, "Game: Select a valid choice"),
    ],
    ids=["cut_card", "side_above", "side_below", "dragon", "seats", "decks", "limits", "game"],
)
def test_a_refused_table_says_why_in_the_floors_words_and_nothing_is_stored(as_user, change, text):
    response = as_user("supervisor").post(reverse("console:tables-create"), {**BACCARAT, **change})
    assert response.status_code == 400
    body = html.unescape(response.content.decode())
    assert text in body
    assert "ez_baccarat" not in body.split('name="game" value=')[0][-200:]
    assert "cents" not in body.split('id="new-table-form"')[1].split("</form>")[0].replace(
        "_cents", ""
    )
    assert not Table.objects.filter(name="BAC-1").exists()


def test_only_a_supervisor_opens_a_table(as_user):
    assert as_user("dealer").post(reverse("console:tables-create"), BACCARAT).status_code == 403
    assert not Table.objects.exists()


def test_a_baccarat_tables_options_sheet_is_its_games(as_user, staff):
    from tables.models import TableOptionChange
    from tests.builders.floor import open_floor

    bac = open_floor(
        "PP.......", staff=staff, game="ez_baccarat", name="BAC-2", open_game=False,
        minimum_cents=2_000, maximum_cents=200_000, chip_unit_cents=500,
    )  # fmt: skip
    client = as_user("supervisor")
    url = reverse("console:table-options", args=[bac.table_id])
    page = client.get(url)
    assert page.status_code == 200
    text = html.unescape(page.content.decode())
    assert "EZ Baccarat: seats, shoe and wagers" in text
    assert "Trips pay table" not in text and "Pre-flop Play" not in text
    assert "<th>Game</th><td>EZ Baccarat</td>" in text
    assert "<th>Tie pays</th><td>8 to 1</td>" in text
    assert (
        "<th>Side wager maximum</th><td>each side wager up to the bettor's base wager</td>" in text
    )
    form = {
        "minimum_cents": "20.00", "maximum_cents": "2000.00", "chip_unit_cents": "5.00",
        "deal_mode": "rng", "seats": "9", "decks": "8", "tie_pays": "9", "dragon_7_pays": "40",
        "panda_8_pays": "25", "cut_card": "14", "side_wager_maximum_cents": "",
        "max_consecutive_hands": "2", "offer_every_hand": "on", "max_tppp_per_table": "1",
        "rotation_window_minutes": "40", "min_non_tppp_dealers_in_window": "2",
    }  # fmt: skip
    response = client.post(url, {**form, "tie_pays": "9"})
    assert response.status_code == 302
    change = TableOptionChange.objects.get(table_id=bac.table_id)
    assert (change.option, change.old_value, change.new_value) == ("tie_pays", 8, 9)
    # A seat taken beyond the new count, a cut card out of range: refused, nothing changed.
    refused = client.post(url, {**form, "cut_card": "200"})
    assert refused.status_code == 400
    assert "the cut card's place from the end of the shoe must be a whole number from 6 to 104" in (
        html.unescape(refused.content.decode())
    )
    assert TableOptionChange.objects.filter(table_id=bac.table_id).count() == 1
