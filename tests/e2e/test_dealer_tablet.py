"""A dealer plays a whole hand on a tablet (1024x768) without scrolling during a street: the
one next action on top, every action swapped in place with the scroll position kept, the
cards dealt face down and keyed at the showdown (a card undone in the picker, the folded
hand mucked), a Play the chips do not cover shown disabled, a short bank's uncovered action
shown before "no more bets", a fold, and the settlement."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from cardroom.errors import State
from tables.models import DealMode, Round
from tests.builders.money import money_table
from tests.e2e.conftest import TABLET, fits_width, sign_in, swapped

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]


def scroll_y(page) -> float:
    return page.evaluate("window.scrollY")


def act(page, press) -> None:
    """Do an action and check the page stayed where the dealer was (no jump to the top)."""
    before = scroll_y(page)
    with swapped(page):
        press()
    assert scroll_y(page) == before, "the action moved the dealer's place"


def tap(page, where: str, name: str) -> None:
    act(page, lambda: page.locator(where).get_by_role("button", name=re.compile(name)).click())


def key(page, letter: str) -> None:
    act(page, lambda: page.keyboard.press(letter))


def pick(page, form: str, cards: list[str]) -> None:
    for code in cards:
        page.locator(f"{form} button[data-card='{code}']").click()


def in_view(page, locator) -> bool:
    """Wholly on the 1024x768 screen as it is scrolled now."""
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= TABLET["height"]


def street_in_view(page) -> None:
    """Every decision button of the street is on screen at the top of the page."""
    page.evaluate("window.scrollTo(0, 0)")
    buttons = page.locator("#decisions button")
    assert buttons.count() > 0
    for i in range(buttons.count()):
        assert in_view(page, buttons.nth(i)), f"decision {i} needs scrolling"


def test_a_dealer_plays_a_hand_on_a_tablet_without_scrolling(live_server, new_page, shoot, staff):
    # Seat 1 banks a short $5; seat 4 has $30, so after $20 of wagers no 3x or 4x Play.
    mt = money_table(
        staff,
        {1: 5_000, 2: 10_000, 3: 10_000, 4: 3_000},
        deal_mode=DealMode.CARD_ENTRY,
        name="TABLET-1",
    )
    page = new_page(TABLET)
    sign_in(page, live_server.url, staff.dealer.username)
    page.goto(f"{live_server.url}/console/tables/{mt.table.pk}/")
    expect(page.locator("#seats .seat")).to_have_count(6)
    expect(page.locator("#next-action")).to_contain_text("Offer the button")
    assert in_view(page, page.get_by_role("button", name=re.compile("Offer the button")))
    shoot(page, "80-tablet-between-hands")

    # The button, by its keys; the page never reloads (no navigation) and stays put.
    key(page, "o")
    expect(page.locator("#button")).to_contain_text("do you take the bank?")
    key(page, "a")
    key(page, "r")
    expect(page.locator("#round-state")).to_have_text("Wagering open")
    page.fill("#bank input[name=amount]", "5")
    tap(page, "#bank", "Post the bank")
    expect(page.locator("#bank-amount")).to_have_text("$5.00")

    # Wagers, taken from a place further down the page: the dealer stays there.
    for seat in (2, 3, 4):
        page.select_option("#bet-form select[name=seat]", str(seat))
        page.fill("#bet-form input[name=ante]", "10")
        page.fill("#bet-form input[name=blind]", "10")
        page.evaluate("window.scrollTo(0, 60)")
        tap(page, "#bet-form", "Place wagers")
        expect(page.locator(f".seat[data-seat='{seat}']")).to_contain_text("Ante $10.00")
    # Before "no more bets": the action against the short bank, in dollars, two ways. Likely,
    # every hand wins: $10 Ante + $40 Play a seat, $150; the $5 bank pays $5 of it: red.
    # Worst, each seat at its best: $10 Ante + $40 Play + the $10 Blind at 500 to 1 = $5,050.
    exposure = page.locator("#exposure")
    expect(exposure).to_have_attribute("data-alarm", "likely")
    expect(page.locator("#exposure-likely-owed")).to_have_text("$150.00")
    expect(page.locator("#exposure-likely-uncovered")).to_have_text("$145.00 could go uncovered")
    expect(page.locator("#exposure-most")).to_have_text("$15,150.00")
    expect(page.locator("#exposure-paid")).to_have_text("$5.00")
    expect(page.locator("#exposure-uncovered")).to_have_text("$15,145.00 could go uncovered")
    page.evaluate("window.scrollTo(0, 0)")
    assert in_view(page, exposure)
    assert in_view(page, page.get_by_role("button", name=re.compile("No more bets")))
    shoot(page, "81-tablet-action-against-the-bank")
    key(page, "n")
    expect(page.locator("#round-state")).to_have_text("No more bets")

    # The deal: the cards go face down; nothing is keyed (docs/rules.md §2.3).
    expect(page.locator("#deal-note")).to_contain_text("No card is keyed now")
    assert in_view(page, page.get_by_role("button", name=re.compile("Cards dealt")))
    shoot(page, "82-tablet-cards-dealt-face-down")
    key(page, "d")
    expect(page.locator("#round-state")).to_contain_text("pre-flop")

    # Pre-flop: seat 4's chips cover no 3x or 4x Play: shown disabled, with the rule.
    street_in_view(page)
    seat4 = page.locator("#decisions [data-seat='4']")
    expect(seat4.get_by_role("button", name="Play 3x")).to_be_disabled()
    expect(seat4.get_by_role("button", name="Play 4x")).to_be_disabled()
    expect(seat4.get_by_role("button", name="Check")).to_be_enabled()
    expect(seat4).to_contain_text(
        "a Play of $30.00 is more than that (rule: only the chips in front of the player play"
    )
    shoot(page, "83-tablet-preflop-decisions")
    tap(page, "#decisions [data-seat='2']", "Play 4x")
    tap(page, "#decisions [data-seat='3']", "Check")
    tap(page, "#decisions [data-seat='4']", "Check")
    pick(page, "#flop-form", ["7c", "8d", "9s"])
    key(page, "f")
    expect(page.locator("#board")).to_contain_text("9")

    # The flop's decisions, then the turn and river's, each street on one screen.
    street_in_view(page)
    shoot(page, "84-tablet-flop-decisions")
    tap(page, "#decisions [data-seat='3']", "Check")
    tap(page, "#decisions [data-seat='4']", "Check")
    pick(page, "#turn-river-form", ["Jc", "4h"])
    key(page, "t")
    street_in_view(page)
    expect(page.locator("#decisions [data-seat='3']").get_by_role("button")).to_have_text(
        ["Play 1x", "Fold"]
    )
    shoot(page, "85-tablet-river-decisions")
    tap(page, "#decisions [data-seat='3']", "Fold")
    tap(page, "#decisions [data-seat='4']", "Play 1x")

    # The showdown: the cards turned face up are keyed with the picker, the player-dealer's
    # first; seat 3 folded with no Trips wager, so its cards are mucked, not keyed. A card
    # picked by mistake is undone, then picked right.
    expect(page.locator("#showdown-note")).to_contain_text("Mucked, not keyed: seat 3")
    pick(page, "#showdown-form", ["2c", "3d", "Qs"])
    expect(page.locator("#showdown-form button[data-card='Qs']")).to_be_disabled()
    page.get_by_role("button", name="Undo last card").click()
    expect(page.locator("#showdown-form button[data-card='Qs']")).to_be_enabled()
    expect(page.locator("#id_showdown_cards")).to_have_value("2c 3d")
    pick(page, "#showdown-form", ["Ah", "Ad", "Qh", "Qd"])
    expect(page.locator("#id_showdown_cards-slots")).to_contain_text(
        "player-dealer 2c 3d · seat 2 Ah Ad · seat 4 Qh Qd"
    )
    show = page.get_by_role("button", name=re.compile("Show these cards"))
    assert in_view(page, show)
    shoot(page, "85b-tablet-showdown-picker-after-an-undo")
    key(page, "s")
    expect(page.locator("#round-state")).to_have_text("Showdown")
    expect(page.locator(".seat[data-seat='2'] .hole")).to_contain_text("A")  # cards shown now
    shoot(page, "86-tablet-showdown")
    key(page, "e")

    # The settlement of the short bank, with its uncovered lines; the next hand's button.
    round_ = Round.objects.get(table=mt.table)
    assert round_.state == State.SETTLED
    expect(page.locator("#settlement-lines")).to_contain_text("UNCOVERED")
    expect(page.locator("#next-action")).to_contain_text("Offer the button")
    shoot(page, "87-tablet-settled")

    # A seat's own panel: chips and leaving, out of the flow of play.
    seat2 = page.locator(".seat[data-seat='2']")
    seat2.get_by_text("Chips and seat").click()
    expect(seat2.get_by_role("button", name="Buy in")).to_be_visible()
    expect(seat2.get_by_role("button", name="Cash out and leave")).to_be_visible()
    shoot(page, "88-tablet-seat-panel")
    assert fits_width(page)
