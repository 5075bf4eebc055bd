"""A dealer runs an EZ Baccarat hand on the tablet at 1024x768: the button, the bank, the
wagers, "no more bets", the coup keyed as it is turned face up, the settlement; each step
fits the screen without scrolling (screenshots in test-output/screenshots)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from cardroom.roles import Role
from tables.models import DealMode
from tables.services import floor
from tests.builders.factories import UserFactory
from tests.builders.fees import table_schedule
from tests.builders.floor import bring_chips
from tests.e2e.conftest import fits_width, sign_in, swapped
from wagers.models import SettlementLine

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]

NAMES = ["Ann Avery", "Ben Bell", "Cy Cole", "Di Dunn", "Ed Ely", "Flo Fox", "Gus Gray"]


@pytest.fixture
def baccarat_floor():
    supervisor = UserFactory(username="sup", role=Role.FLOOR_SUPERVISOR)
    dealer = UserFactory(username="dealer1", role=Role.HOUSE_DEALER)
    table = floor.create_table(
        name="BAC-E2E",
        by=supervisor,
        game="ez_baccarat",
        options={
            "deal_mode": DealMode.CARD_ENTRY,
            "seats": 9,
            "minimum_cents": 500,
            "maximum_cents": 50_000,
        },
    )
    for seat, name in enumerate(NAMES, start=1):
        player = floor.create_player(player_number=f"B-{seat}", name=name)
        floor.seat_player(table_id=table.pk, seat=seat, player_id=player.pk, by=supervisor)
        bring_chips(table.pk, player, 200_000, by=dealer)
    floor.open_game_at(table_id=table.pk, first_offer_seat=1, by=supervisor)
    table_schedule(table, by=supervisor)
    return table


def post(page, selector: str, button: str) -> None:
    with swapped(page):
        page.locator(selector).get_by_role("button", name=re.compile(button)).click()


def no_scroll(page) -> bool:
    """The hand fits the screen: the next action, the felt and every seat end above its
    bottom edge, and nothing overflows sideways (the table's own drawer lies below)."""
    return page.evaluate(
        "document.querySelector('#seats').getBoundingClientRect().bottom <= window.innerHeight"
        " && document.documentElement.scrollWidth <= window.innerWidth + 1"
    )


def bet(page, seat: int, **squares: str) -> None:
    page.select_option("#bet-form select[name=seat]", str(seat))
    for name, amount in squares.items():
        page.fill(f"#bet-form input[name={name}]", amount)
    post(page, "#bet-form", "Place")
    expect(page.locator(".messages")).to_contain_text(f"wagers placed at seat {seat}")


def test_a_baccarat_hand_on_the_tablet(live_server, new_page, shoot, baccarat_floor):
    base = live_server.url
    page = new_page()
    sign_in(page, base, "dealer1")
    page.goto(f"{base}/console/tables/{baccarat_floor.pk}/")
    expect(page.locator("h1")).to_contain_text("EZ Baccarat")
    expect(page.locator("#seats .seat")).to_have_count(9)
    shoot(page, "bac-00-table", full_page=False)
    post(page, "#next-action", "Offer the button")
    post(page, "#next-action", "Accept")
    post(page, "#next-action", "Start the round")
    page.fill("#bank input[name=amount]", "1000")
    post(page, "#bank", "Post the bank")
    bet(page, 2, banker="20", dragon_7="5")
    bet(page, 3, player_wager="50", tie="10", panda_8="10")
    bet(page, 5, banker="100")
    bet(page, 7, player_wager="25")
    expect(page.locator(".seat[data-seat='3']")).to_contain_text("Tie $10.00")
    shoot(page, "bac-01-wagers", full_page=False)
    assert no_scroll(page)
    post(page, "#next-action", "No more bets")
    expect(page.locator("#round-state")).to_have_text("No more bets")
    shoot(page, "bac-02-no-more-bets", full_page=False)
    assert no_scroll(page)
    # A coup the drawing rules refuse: the refusal names the rule, nothing is recorded.
    page.fill("#coup-form input[name=cards]", "9h 2c Kd 5s 4d")
    post(page, "#coup-form", "Record the coup")
    expect(page.locator("#refusal")).to_contain_text("drawing rules")
    shoot(page, "bac-03-coup-refused", full_page=False)
    # Player 2+3+6 = 1, Banker 4+K+3 = 7 with three cards: a Dragon 7.
    page.fill("#coup-form input[name=cards]", "2h 4d 3c Ks 6s 3h")
    post(page, "#coup-form", "Record the coup")
    expect(page.locator("#coup-outcome")).to_contain_text("Banker wins, 7 to 1: a Dragon 7")
    expect(page.locator("#player-hand")).to_contain_text("1")
    shoot(page, "bac-04-the-coup", full_page=False)
    assert no_scroll(page)
    post(page, "#next-action", "Settle")
    expect(page.locator(".messages")).to_contain_text("settled")
    expect(page.locator(".seat[data-seat='2']")).to_contain_text("+$200.00")
    shoot(page, "bac-05-settled", full_page=False)
    assert no_scroll(page) and fits_width(page)
    assert SettlementLine.objects.filter(round__table=baccarat_floor).count() == 7
