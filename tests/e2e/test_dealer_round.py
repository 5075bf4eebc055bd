"""A dealer runs a whole round in a real browser, down to a short bank's uncovered lines."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from cardroom.errors import State
from cardroom.roles import Role
from console.models import StaffAction
from console.templatetags.console import dollars
from fees.models import FeeLine
from tables.models import DealMode, Round
from tables.services import floor
from tests.builders.factories import UserFactory
from tests.builders.fees import table_schedule
from tests.e2e.conftest import PHONE, fits_width, sign_in, swapped
from wagers.models import SettlementLine

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def floor_setup():
    supervisor = UserFactory(username="sup", role=Role.FLOOR_SUPERVISOR)
    dealer = UserFactory(username="dealer1", role=Role.HOUSE_DEALER)
    table = floor.create_table(
        name="UTH-E2E", by=supervisor, options={"deal_mode": DealMode.CARD_ENTRY}
    )
    names = ["Alice Ames", "Bob Brown", "Carol Chen", "Dan Diaz"]
    players = [
        floor.create_player(player_number=f"E2E-{i}", name=name) for i, name in enumerate(names)
    ]
    floor.open_game_at(table_id=table.pk, first_offer_seat=1, by=supervisor)
    table_schedule(table, by=supervisor)  # collection fees at "no more bets" (docs/rules.md §9)
    return {"supervisor": supervisor, "dealer": dealer, "table": table, "players": players}


def post(page, form_selector: str, button: str) -> None:
    """Press a button in a form and wait for the table area it brings (swapped in place)."""
    with swapped(page):
        page.locator(form_selector).get_by_role("button", name=re.compile(button)).click()


def decide(page, seat: int, label: str) -> None:
    with swapped(page):
        page.locator(f"#decisions [data-seat='{seat}']").get_by_role("button", name=label).click()


def pick(page, form: str, cards: list[str]) -> None:
    for card in cards:
        button = page.locator(f"{form} button[data-card='{card}']")
        button.click()
        expect(button).to_be_disabled()  # picked once, it cannot be picked again


def test_dealer_runs_a_round_to_a_short_banks_settlement(live_server, new_page, shoot, floor_setup):
    base = live_server.url
    table = floor_setup["table"]
    page = new_page()

    # Sign-in: a wrong password is refused on the page, the right one opens the floor map.
    page.goto(f"{base}/console/")
    expect(page).to_have_url(re.compile(r"/console/sign-in/"))
    shoot(page, "01-sign-in")
    page.fill("input[name=username]", "dealer1")
    page.fill("input[name=password]", "wrong")
    page.click("button:has-text('Sign in')")
    expect(page.locator(".alert")).to_contain_text("correct username and password")
    sign_in(page, base, "dealer1")
    expect(page.locator("[data-table='UTH-E2E']")).to_contain_text("game open")
    shoot(page, "02-floor-map")
    # A dealer's page shows no supervisor actions and no audit trail link.
    expect(page.get_by_role("link", name="Audit trail")).to_have_count(0)

    # The dealer opens the table and seats four players, each buying in.
    page.get_by_role("link", name="UTH-E2E").click()
    expect(page.locator("h1")).to_contain_text("UTH-E2E")
    expect(page.get_by_role("button", name="Open the game")).to_have_count(0)
    expect(page.locator("#button-status")).to_contain_text("no player is seated")
    for seat, player in enumerate(floor_setup["players"], start=1):
        page.select_option("#seat-form select[name=seat]", str(seat))
        page.select_option(
            "#seat-form select[name=player]", label=f"{player.name} ({player.player_number})"
        )
        post(page, "#seat-form", "Seat the player")
        expect(page.locator(".messages")).to_contain_text(f"sits in seat {seat}")
        seat_box = page.locator(f".seat[data-seat='{seat}']")
        seat_box.get_by_text("Chips and seat").click()  # the seat's own panel
        seat_box.locator("form[data-chips=in] input[name=amount]").fill("100")
        post(page, f".seat[data-seat='{seat}'] form[data-chips=in]", "Buy in")
        expect(page.locator(f".seat[data-seat='{seat}']")).to_contain_text("$100.00")
    shoot(page, "03-table-seated")

    # The button: seat 1 declines, seat 2 accepts; the round starts.
    with swapped(page):
        page.keyboard.press("o")  # offer the button
    expect(page.locator("#button")).to_contain_text("Seat 1 (Alice Ames), do you take the bank?")
    shoot(page, "04-button-offer")
    post(page, "#button", "Decline")
    post(page, "#button", "Offer the button")
    expect(page.locator("#button")).to_contain_text("Seat 2 (Bob Brown)")
    post(page, "#button", "Accept")
    expect(page.locator("#button-status")).to_contain_text("seat 2 accepted")
    post(page, "#button", "Start the round")
    expect(page.locator("#round-state")).to_have_text("Wagering open")

    # A short bank: $5 against $10 wagers.
    page.fill("#bank input[name=amount]", "5")
    post(page, "#bank", "Post the bank")
    expect(page.locator("#bank-amount")).to_have_text("$5.00")

    # A wager the rules refuse is refused on the page, naming the rule.
    page.select_option("#bet-form select[name=seat]", "1")
    page.fill("#bet-form input[name=ante]", "10")
    page.fill("#bet-form input[name=blind]", "5")
    post(page, "#bet-form", "Place wagers")
    expect(page.locator("#refusal")).to_contain_text("must be equal")
    expect(page.locator("#refusal")).to_contain_text(
        "Ante ($10.00) and Blind ($5.00) must be equal (rule: Ante and Blind, docs/rules.md §4.1)"
    )
    shoot(page, "05-wager-refused")
    for seat in (1, 3, 4):
        page.select_option("#bet-form select[name=seat]", str(seat))
        page.fill("#bet-form input[name=ante]", "10")
        page.fill("#bet-form input[name=blind]", "10")
        post(page, "#bet-form", "Place wagers")
        expect(page.locator(".messages")).to_contain_text(f"wagers placed at seat {seat}")
    shoot(page, "06-wagers")
    with swapped(page):  # the keyboard shortcut shown on the button
        page.keyboard.press("n")
    expect(page.locator("#round-state")).to_have_text("No more bets")
    # The hand's fees, assessed at "no more bets" and already in the drop.
    fees = sum(line.amount_cents for line in FeeLine.objects.filter(round__table=table))
    assert fees > 0
    expect(page.locator("#fees-assessed")).to_have_text(dollars(fees))
    expect(page.locator(".messages")).to_contain_text(f"{dollars(fees)}, are in the drop")
    expect(page.locator("#fees .fee-lines tbody tr")).to_have_count(
        FeeLine.objects.filter(round__table=table).count()
    )

    # Card entry: the cards are dealt face down, nothing keyed until the showdown.
    shoot(page, "07-cards-dealt-face-down")
    post(page, "#deal-form", "Cards dealt")
    expect(page.locator("#round-state")).to_contain_text("pre-flop")

    # Only the legal decisions are offered: pre-flop check or Play 3x/4x, no fold.
    seat1 = page.locator("#decisions [data-seat='1']")
    expect(seat1.get_by_role("button")).to_have_text(["Check", "Play 3x", "Play 4x"])
    decide(page, 1, "Check")
    decide(page, 3, "Play 4x")
    decide(page, 4, "Check")
    expect(page.locator("#decisions [data-seat='3']")).to_contain_text("decided")
    pick(page, "#flop-form", ["7c", "8d", "9s"])
    post(page, "#flop-form", "Show the flop")
    expect(page.locator("#decisions [data-seat='1']").get_by_role("button")).to_have_text(
        ["Check", "Play 2x"]
    )
    decide(page, 1, "Check")
    decide(page, 4, "Play 2x")
    pick(page, "#turn-river-form", ["Jc", "Qd"])
    post(page, "#turn-river-form", "Show the turn and river")
    expect(page.locator("#decisions [data-seat='1']").get_by_role("button")).to_have_text(
        ["Play 1x", "Fold"]
    )
    shoot(page, "08-river-decisions")
    decide(page, 1, "Fold")
    # The showdown keys the cards turned face up with the picker: the player-dealer's two,
    # then seats 3 and 4; seat 1 folded with no Trips wager, so its cards are mucked.
    pick(page, "#showdown-form", ["2c", "3d", "Ah", "Ad", "Kh", "Kd"])
    expect(page.locator("#showdown-form button[data-card='Qs']")).to_be_disabled()  # 6 of 6
    expect(page.locator("#id_showdown_cards-slots")).to_contain_text(
        "player-dealer 2c 3d · seat 3 Ah Ad · seat 4 Kh Kd"
    )
    shoot(page, "08b-card-picker-at-the-showdown")
    post(page, "#showdown-form", "Show these cards")
    expect(page.locator("#round-state")).to_have_text("Showdown")
    shoot(page, "09-showdown")
    post(page, "form:has(input[name=round_id])", "Settle")

    # The settlement, in order, with the short bank's uncovered lines marked.
    round_ = Round.objects.get(table=table)
    assert round_.state == State.SETTLED
    lines = list(SettlementLine.objects.filter(round=round_).order_by("order"))
    uncovered = [x for x in lines if x.returned_uncovered_cents or x.unpaid_uncovered_cents]
    assert uncovered, "a $5 bank against $10 wagers leaves uncovered lines"
    rows = page.locator("#settlement-lines tbody tr")
    expect(rows).to_have_count(len(lines))
    expect(page.locator("#settlement-lines tr.uncovered")).to_have_count(len(uncovered))
    expect(page.locator("#settlement-lines")).to_contain_text("UNCOVERED")
    bank = round_.bank
    expect(page.locator("#pd-net")).to_have_text(dollars(bank.net_cents))
    expect(page.locator("#bank-remaining")).to_have_text(
        dollars(bank.amount_cents + bank.net_cents)
    )
    shoot(page, "10-settlement")
    assert fits_width(page)  # 1024x768: nothing runs off the side

    # Every action is on the audit trail, which a supervisor reads.
    assert StaffAction.objects.filter(username="dealer1", action="settle", outcome="done").exists()
    assert StaffAction.objects.filter(action="place wagers", outcome="refused").exists()
    page.locator(".seat[data-seat='2']").get_by_role("link", name="bankroll").click()
    expect(page.locator("h1")).to_contain_text("Bob Brown")
    expect(page.locator("#bankroll-chart canvas")).to_have_count(1)  # uPlot drew the chart
    shoot(page, "11-bankroll")

    supervisor = new_page()
    sign_in(supervisor, base, "sup")
    supervisor.get_by_role("link", name="Audit trail").click()
    expect(supervisor.locator("#audit")).to_contain_text("dealer1")
    expect(supervisor.locator("#audit")).to_contain_text("settle")
    shoot(supervisor, "12-audit")
    supervisor.get_by_role("link", name="Fee schedules").click()
    expect(supervisor.locator("[data-schedule]")).to_contain_text("in force")
    shoot(supervisor, "12b-fee-schedules")

    # The floor map on a phone: it fits the width and refreshes by itself (htmx polling).
    phone = new_page(PHONE)
    sign_in(phone, base, "sup")
    expect(phone.locator("[data-table='UTH-E2E']")).to_contain_text("Bob Brown")
    assert fits_width(phone)
    # A player sits down elsewhere on the floor: the open page shows it without a reload.
    eve = floor.create_player(player_number="E2E-5", name="Eve Evans")
    floor.seat_player(table_id=table.pk, seat=5, player_id=eve.pk, by=floor_setup["supervisor"])
    with phone.expect_response(polled_floor):
        pass  # the next htmx poll
    expect(phone.locator("[data-table='UTH-E2E']")).to_contain_text("Eve Evans")
    shoot(phone, "13-floor-map-phone")
    phone.get_by_role("link", name="UTH-E2E").click()
    expect(phone.locator("#settlement-lines")).to_contain_text("UNCOVERED")
    assert fits_width(phone)
    shoot(phone, "14-table-view-phone")
    phone.get_by_role("link", name="Players and bankrolls").click()
    expect(phone.locator("table.data")).to_contain_text("Bob Brown")
    shoot(phone, "15-players-phone")


def polled_floor(response) -> bool:
    return (
        response.url.endswith("/console/") and response.request.headers.get("hx-request") == "true"
    )
