"""In a real browser: a card-entry hand played to the flop shows no hole card on the tablet
(docs/rules.md §2.6). The flop picker greys out none of the cards dealt; a hole card picked
for the flop is refused by the service, on the page, without naming it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from cardroom.errors import State
from console.templatetags.console import card
from tables.models import DealMode, Round
from tests.builders.floor import make_staff
from tests.builders.money import Wager, money_table, play_round
from tests.e2e.conftest import SCREENSHOTS, TABLET, sign_in, swapped

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]

PLAYER_DEALER = ["2c", "3d"]  # seat 2 banks
SEATS = {1: ["Ah", "Ad"], 3: ["Kc", "Qc"]}
HOLES = [*PLAYER_DEALER, *SEATS[1], *SEATS[3]]


def screenshot(page, name: str, selector: str):
    """The tablet's screen (1024x768, not the full page) with ``selector`` in view."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(selector).scroll_into_view_if_needed()
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    return path


def post(page, form: str, button: str) -> None:
    with swapped(page):
        page.locator(form).get_by_role("button", name=re.compile(button)).click()


def pick(page, form: str, cards: list[str]) -> None:
    for code in cards:
        page.locator(f"{form} button[data-card='{code}']").click()


def test_the_flop_picker_shows_no_hole_card_and_refuses_one(live_server, new_page):
    staff = make_staff()
    mt = money_table(
        staff, dict.fromkeys((1, 2, 3, 4), 50_000), deal_mode=DealMode.CARD_ENTRY, name="SECRET"
    )
    round_ = play_round(
        mt,
        pd_seat=2,
        bank=10_000,
        wagers=[Wager(1, 1_000), Wager(3, 1_000)],
        until=State.NO_MORE_BETS,
    )
    base = live_server.url
    page = new_page(TABLET)
    sign_in(page, base, staff.dealer.username)
    page.goto(f"{base}/console/tables/{mt.table.pk}/")
    expect(page.locator("#round-state")).to_have_text("No more bets")

    # The deal: the house dealer keys the player-dealer's two, then seats 1 and 3.
    pick(page, "#deal-form", HOLES)
    post(page, "#deal-form", "Deal these cards")
    expect(page.locator("#round-state")).to_contain_text("pre-flop")
    for seat in (1, 3):
        with swapped(page):
            page.locator(f"#decisions [data-seat='{seat}']").get_by_role(
                "button", name="Check"
            ).click()

    # The flop picker: 52 cards, none greyed out; no hole card anywhere on the page.
    buttons = page.locator("#flop-form button[data-card]")
    expect(buttons).to_have_count(52)
    expect(page.locator("#flop-form button[data-card][data-used='1']")).to_have_count(0)
    for code in HOLES:
        expect(page.locator(f"#flop-form button[data-card='{code}']")).to_be_enabled()
    shown = page.locator("span.card").all_inner_texts()
    assert not {card(code) for code in HOLES} & set(shown)
    shot = screenshot(page, "secret-01-flop-picker", "#flop-form")
    assert shot.exists()

    # A hole card picked for the flop: the service refuses it on submit, naming no card.
    pick(page, "#flop-form", ["Kc", "8d", "9s"])
    post(page, "#flop-form", "Show the flop")
    refusal = page.locator("#refusal")
    expect(refusal).to_contain_text("Refused: flop.")
    expect(refusal).to_contain_text(
        "Community cards: one of these cards is already in a hand dealt this round (which one "
        "stays secret until the showdown): check the cards turned up and enter them again, or "
        "call the floor supervisor if the deck holds a card twice (rule: each card is dealt once, "
        "docs/rules.md §1.2)"
    )
    expect(refusal).not_to_contain_text("Kc")
    expect(page.locator("#flop-form button[data-card][data-used='1']")).to_have_count(0)
    screenshot(page, "secret-02-flop-refused", "#refusal")
    assert Round.objects.get(pk=round_.pk).board == []

    # The right cards: the flop is shown, and the turn and river picker greys out only it.
    pick(page, "#flop-form", ["7c", "8d", "9s"])
    post(page, "#flop-form", "Show the flop")
    expect(page.locator("#board")).to_contain_text(card("7c"))
    for seat in (1, 3):  # the flop's decisions come first, then the next cards
        with swapped(page):
            page.locator(f"#decisions [data-seat='{seat}']").get_by_role(
                "button", name="Check"
            ).click()
    greyed = page.locator("#turn-river-form button[data-used='1']")
    expect(greyed).to_have_count(3)
    assert sorted(greyed.evaluate_all("bs => bs.map(b => b.dataset.card)")) == ["7c", "8d", "9s"]
    for code in HOLES:
        expect(page.locator(f"#turn-river-form button[data-card='{code}']")).to_be_enabled()
    screenshot(page, "secret-03-turn-river-picker", "#turn-river-form")
