"""The game a table plays, everywhere the floor sees the table (docs/console.md): the floor
map, the table's pages, the waitlist page (lists by game and stakes), the board."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from tables.models import Waitlist
from tables.services import waitlists
from tests.builders.floor import open_floor

pytestmark = pytest.mark.django_db

TOKEN = "board-token-for-the-tests-0123456789"


@pytest.fixture
def tables(staff):
    bac = open_floor(
        "PPP......", staff=staff, game="ez_baccarat", name="BAC-1", minimum_cents=2_000,
        maximum_cents=200_000,
    )  # fmt: skip
    uth = open_floor(
        "PP....", staff=staff, name="UTH-1", minimum_cents=2_000, maximum_cents=200_000
    )
    return bac, uth


def _text(response) -> str:
    return html.unescape(response.content.decode())


def _words(text: str) -> str:
    return " ".join(text.split())


def test_the_floor_map_names_each_tables_game(as_user, tables):
    response = as_user("dealer").get(reverse("console:floor"))
    assert response.status_code == 200
    text = _text(response)
    bac = _words(text.split('data-table="BAC-1"')[1].split("</section>")[0])
    uth = _words(text.split('data-table="UTH-1"')[1].split("</section>")[0])
    assert "EZ Baccarat</strong> · $20.00\u2013$2,000.00 · RNG deal · 9 seats" in bac
    assert "Ultimate Texas Hold'em</strong> · $20.00\u2013$2,000.00 · RNG deal</p>" in uth


@pytest.mark.parametrize("page", ["console:table-options", "console:table-math"])
def test_the_tables_pages_name_its_game(as_user, tables, page):
    bac, _uth = tables
    response = as_user("supervisor").get(reverse(page, args=[bac.table_id]))
    assert response.status_code == 200
    assert '<small class="game-name">EZ Baccarat</small>' in response.content.decode()


def test_the_waitlist_page_opens_and_shows_lists_by_game_and_stakes(as_user, tables, staff):
    client = as_user("supervisor")
    page = _text(client.get(reverse("console:waitlists")))
    assert '<option value="2000-200000@ez_baccarat">$20.00 - $2,000.00 EZ Baccarat</option>' in page
    assert "$20.00 - $2,000.00 Ultimate Texas Hold'em</option>" in page
    response = client.post(reverse("console:waitlists-open"), {"stakes": "2000-200000@ez_baccarat"})
    assert response.status_code == 302
    row = Waitlist.objects.get()
    assert row.game == "ez_baccarat"
    page = _text(client.get(reverse("console:waitlists")))
    assert '$20.00 - $2,000.00 EZ Baccarat <span class="pill">0 waiting</span>' in page
    assert "Open seats at $20.00 - $2,000.00 EZ Baccarat" in page
    assert '<option value="2000-200000@ez_baccarat">' not in page  # it has its list
    # Twice: the state, in the floor's words (409).
    again = client.post(reverse("console:waitlists-open"), {"stakes": "2000-200000@ez_baccarat"})
    assert again.status_code == 409
    assert "the $20.00 - $2,000.00 EZ Baccarat list is already open" in _text(again)
    # A game the room does not run: the rule, naming the game (400).
    wrong = client.post(reverse("console:waitlists-open"), {"stakes": "2000-200000@blackjack"})
    assert wrong.status_code == 400 and "the room runs no game 'blackjack'" in _text(wrong)


def test_the_board_names_the_game_of_each_stakes(client, tables, staff, settings):
    settings.CARDROOM_BOARD_TOKEN = TOKEN
    waitlists.open_waitlist(
        minimum_cents=2_000, maximum_cents=200_000, game="ez_baccarat", by=staff.supervisor
    )
    response = client.get(f"/board/{TOKEN}/")
    assert response.status_code == 200
    text = _text(response)
    assert (
        '<section class="stakes" data-stakes="$20.00 - $2,000.00" data-game="EZ Baccarat">' in text
    )
    bac = text.split('data-game="EZ Baccarat"')[1].split("</section>")[0]
    assert "BAC-1" in bac and "6 open seats" in bac and "UTH-1" not in bac
    uth = text.split('data-game="Ultimate Texas Hold\'em"')[1].split("</section>")[0]
    assert "UTH-1" in uth and "4 open seats" in uth and "No waiting list" in uth
