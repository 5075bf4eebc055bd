"""A full table on the dealer's tablet (1024x768): six seats, five of them wagering Ante,
Blind, Trips and Bad Beat with backline bettors behind three of them, collection fees in
force, card entry. Through the whole hand, the board (the community cards) and the one next
action are both on screen without scrolling, in every state: the bank, wagering, no more
bets and the deal, pre-flop, the flop's picker and its decisions, the turn and river, the
river's decisions, the showdown's picker, the showdown, and the hand settled; then the table
on a phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tables.models import DealMode
from tests.builders.fees import table_schedule
from tests.builders.money import Wager, money_table, place
from tests.e2e.conftest import PHONE, TABLET, fits_width, sign_in, swapped

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]

# Seat 1 banks; seats 2 to 6 wager the four opening squares; three backline bettors.
SEATS = {2: (2_500, 500, 500), 3: (1_000, 500, 500), 4: (5_000, 1_000, 500),
         5: (2_500, 500, 500), 6: (10_000, 2_500, 1_000)}  # fmt: skip
BEHIND = [Wager(2, 1_000, trips=500, behind=0), Wager(4, 0, trips=500, behind=1),
          Wager(6, 2_500, behind=2)]  # fmt: skip
# The hole cards keyed at the showdown, in picker order: the player-dealer's, then seats 2-6.
HOLES = ["2c", "7d", "Ah", "Ad", "Kh", "Qd", "9s", "9c", "Jh", "Td", "5s", "6s"]


def on_screen(page, selector: str) -> dict:
    """The element's box, which must lie wholly within the 1024x768 screen at the top."""
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not shown"
    assert box["y"] >= 0 and box["y"] + box["height"] <= TABLET["height"], (
        f"{selector} spans y={box['y']:.0f} to {box['y'] + box['height']:.0f}: below the fold"
    )
    assert box["x"] >= 0 and box["x"] + box["width"] <= TABLET["width"], selector
    return box


def state_in_view(page, shoot, name: str) -> None:
    """The board and the one next action on screen, scrolled to the top; a screenshot of
    the screen as the dealer sees it (not the whole page)."""
    page.evaluate("window.scrollTo(0, 0)")
    on_screen(page, "#board")
    on_screen(page, "#next-action")
    shoot(page, name, full_page=False)


def act(page, press) -> None:
    with swapped(page):
        press()


def tap(page, where: str, name: str) -> None:
    act(page, lambda: page.locator(where).get_by_role("button", name=re.compile(name)).click())


def pick(page, form: str, cards: list[str]) -> None:
    for code in cards:
        page.locator(f"{form} button[data-card='{code}']").click()


def decide(page, choices: dict[int, str]) -> None:
    for seat, label in choices.items():
        tap(page, f"#decisions [data-seat='{seat}']", f"^{label}$")


def test_a_full_table_keeps_the_board_and_the_next_action_on_screen(
    live_server, new_page, shoot, staff
):
    mt = money_table(
        staff,
        dict.fromkeys(range(1, 7), 500_000),
        deal_mode=DealMode.CARD_ENTRY,
        backliners=[100_000, 100_000, 100_000],
        name="TABLET-FULL",
    )
    table_schedule(mt.table, by=staff.supervisor)
    page = new_page(TABLET)
    sign_in(page, live_server.url, staff.dealer.username)
    page.goto(f"{live_server.url}/console/tables/{mt.table.pk}/")
    for letter in "oar":  # offer, seat 1 accepts, start the round
        act(page, lambda letter=letter: page.keyboard.press(letter))
    expect(page.locator("#round-state")).to_have_text("Wagering open")
    state_in_view(page, shoot, "90-full-bank")
    page.fill("#bank input[name=amount]", "3000")
    tap(page, "#bank", "Post the bank")

    # The seated players' wagers on the form, the backline bettors' as the wager sheet takes
    # them (the sheet's own tests drive its form).
    for seat, (ante, trips, bad_beat) in SEATS.items():
        page.select_option("#bet-form select[name=seat]", str(seat))
        page.fill("#bet-form input[name=ante]", str(ante // 100))
        page.fill("#bet-form input[name=blind]", str(ante // 100))
        page.fill("#bet-form input[name=trips]", str(trips // 100))
        page.fill("#bet-form input[name=bad_beat]", str(bad_beat // 100))
        tap(page, "#bet-form", "Place wagers")
    place(mt, mt.table.rounds.get(), BEHIND)
    page.reload()
    expect(page.locator(".seat[data-seat='6'] .bets")).to_have_count(2)
    expect(page.locator("#exposure")).to_have_attribute("data-alarm", "worst")
    state_in_view(page, shoot, "91-full-wagering")
    act(page, lambda: page.keyboard.press("n"))
    expect(page.locator("#round-state")).to_have_text("No more bets")

    state_in_view(page, shoot, "92-full-no-more-bets")
    tap(page, "#deal-form", "Cards dealt")  # card entry keys no card at the deal
    expect(page.locator("#round-state")).to_contain_text("pre-flop")
    state_in_view(page, shoot, "93-full-preflop")
    decide(page, {2: "Play 4x", 3: "Check", 4: "Check", 5: "Play 3x", 6: "Check"})

    pick(page, "#flop-form", ["8h", "4c", "3d"])
    state_in_view(page, shoot, "94-full-flop-picker")
    tap(page, "#flop-form", "Show the flop")
    expect(page.locator("#board .card")).to_have_count(3)
    state_in_view(page, shoot, "95-full-flop")
    decide(page, {3: "Check", 4: "Play 2x", 6: "Check"})

    pick(page, "#turn-river-form", ["Kc", "2h"])
    state_in_view(page, shoot, "96-full-turn-river-picker")
    tap(page, "#turn-river-form", "Show the turn and river")
    expect(page.locator("#board .card")).to_have_count(5)
    state_in_view(page, shoot, "97-full-river")
    decide(page, {3: "Play 1x", 6: "Fold"})

    expect(page.locator("#next-action")).to_contain_text("Turn the cards face up")
    state_in_view(page, shoot, "98-full-before-showdown")
    # The hands turned face up are keyed now: the player-dealer's, then seats 2 to 6 (seat 6
    # folded with a Trips wager, so it is turned up too).
    pick(page, "#showdown-form", HOLES)
    state_in_view(page, shoot, "98b-full-showdown-picker")
    tap(page, "#showdown-form", "Show these cards")
    expect(page.locator("#round-state")).to_have_text("Showdown")
    state_in_view(page, shoot, "99-full-showdown")
    act(page, lambda: page.keyboard.press("e"))
    expect(page.locator("#settlement-lines")).to_be_attached()
    expect(page.locator("#board .card")).to_have_count(5)  # the hand just settled
    state_in_view(page, shoot, "99z-full-settled")

    # The same table on a phone: the felt first, nothing wider than the screen.
    phone = new_page(PHONE)
    sign_in(phone, live_server.url, staff.supervisor.username)
    phone.goto(f"{live_server.url}/console/tables/{mt.table.pk}/")
    expect(phone.locator("#board .card")).to_have_count(5)
    assert fits_width(phone)
    shoot(phone, "99zz-full-settled-phone")
