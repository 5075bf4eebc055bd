"""The settlement calculator in the browser. A dispute: the supervisor opens a settled hand
from its table, sees the settlement in order, changes the bank on the form and settles it
again, then the JSON for experts; nothing is written. And a hand entered on the form with the
card pickers (a card picked in one hand is not offered in another), settled as a table in
dollars, then refused on the field the rule names."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tables.models import DealMode
from tests.builders.money import Wager, money_table, play_round
from tests.e2e.conftest import sign_in
from wagers.models import LedgerTransaction, SettlementLine

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]


def test_a_supervisor_checks_a_settled_hand(live_server, new_page, shoot, staff):
    mt = money_table(
        staff, {1: 50_000, 2: 50_000, 3: 50_000}, deal_mode=DealMode.RNG, name="DISPUTE"
    )
    settled = play_round(mt, pd_seat=1, bank=1_500, wagers=[Wager(2, 1_000), Wager(3, 1_000)])
    lines = SettlementLine.objects.filter(round=settled).count()
    written = LedgerTransaction.objects.count()
    page = new_page()
    sign_in(page, live_server.url, staff.supervisor.username)
    page.goto(f"{live_server.url}/console/tables/{mt.table.pk}/")
    with page.expect_navigation():
        page.get_by_role("link", name="Check it in the settlement calculator").click()
    expect(page.locator("h1")).to_have_text("Settlement calculator")
    expect(page.locator("#calculator-lines tbody tr")).to_have_count(lines)
    expect(page.locator(".helptext").first).to_contain_text(f"DISPUTE round {settled.number}")
    shoot(page, "47-calculator-opened")

    # The hand fills the form; the bank changed there settles again.
    expect(page.locator("#id_pd_seat")).to_have_value("1")
    expect(page.locator("#id_bank")).to_have_value("15.00")
    page.locator("#id_bank").fill("1000")
    with page.expect_navigation():
        page.locator("#calculator-settle").click()
    expect(page.locator("#calculator-result")).to_contain_text("Bank $1,000.00")
    # The JSON, for experts, behind its disclosure: the same hand.
    page.get_by_text("The hand as the calculator's JSON").click()
    hand = json.loads(page.locator("#hand").input_value())
    assert hand["player_dealer"]["bank"] == 100_000
    page.locator("#hand").fill('{"options": {}}')
    with page.expect_navigation():
        page.get_by_role("button", name="Settle the JSON").click()
    expect(page.locator("#calculator-error")).to_contain_text("the format of the calculator")
    expect(page.locator("#hand")).to_be_visible()  # left open on the JSON refused
    shoot(page, "48-calculator-refused")
    assert LedgerTransaction.objects.count() == written  # nothing written


def pick(page, field: str, cards: list[str]) -> None:
    """Open the field's picker and pick ``cards`` on it."""
    wrap = page.locator(f".picker-wrap[data-picker-for='{field}']")
    page.locator(".calc-cards", has=page.locator(f"#{field}")).get_by_text("Pick").click()
    for code in cards:
        wrap.locator(f"button[data-card='{code}']").click()
    expect(page.locator(f"#{field}")).to_have_value(" ".join(cards))


def test_a_hand_entered_on_the_form_settles_in_dollars(live_server, new_page, shoot, staff):
    page = new_page()
    sign_in(page, live_server.url, staff.supervisor.username)
    page.goto(f"{live_server.url}/console/calculator/")
    expect(page.locator("#calculator-json")).not_to_have_attribute("open", "")
    # docs/rules.md §7.3's worked example: the player-dealer in seat 6 banks $100.
    page.select_option("#id_pd_seat", "6")
    expect(page.locator(".calc-seat[data-seat='6']")).to_contain_text("no wagers here")
    page.fill("#id_bank", "100")
    pick(page, "id_pd_hole", ["Kd", "Qs"])
    pick(page, "id_board", ["2h", "7h", "9h", "Kc", "4d"])
    page.fill("#id_s1_hole", "3c 8s")
    page.fill("#id_s1_ante", "25")
    expect(page.locator("#id_s1_blind")).to_have_value("25")  # the Blind follows the Ante
    page.select_option("#id_s1_decision", "fold")
    # A card in the player-dealer's hand, on the board or in seat 1's is not offered again.
    page.locator(".calc-cards", has=page.locator("#id_s2_hole")).get_by_text("Pick").click()
    seat2 = page.locator(".picker-wrap[data-picker-for='id_s2_hole']")
    for taken in ("Kd", "Kc", "3c"):
        expect(seat2.locator(f"button[data-card='{taken}']")).to_be_disabled()
    for code in ("Ah", "5h"):
        seat2.locator(f"button[data-card='{code}']").click()
    page.fill("#id_s2_ante", "25")
    page.fill("#id_s2_trips", "10")
    page.select_option("#id_s2_decision", "4")
    shoot(page, "49-calculator-form")
    with page.expect_navigation():
        page.locator("#calculator-settle").click()
    lines = page.locator("#calculator-lines tbody tr")
    expect(lines).to_have_count(6)
    expect(lines.nth(5)).to_contain_text("Trips")
    expect(lines.nth(5)).to_contain_text("UNCOVERED $70.00 unpaid")
    expect(page.locator("#calc-net")).to_have_text("-$100.00")
    expect(page.locator("#calculator-result")).to_contain_text("bank exhausted")
    expect(page.locator("#id_s2_hole")).to_have_value("Ah 5h")  # the form keeps the hand
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, "50-calculator-settled")

    # A Blind apart from its Ante: refused on that field, with the rule, in dollars.
    page.fill("#id_s2_blind", "20")
    with page.expect_navigation():
        page.locator("#calculator-settle").click()
    expect(page.locator("#calculator-error")).to_have_text(
        "Refused: Seat 2 · Blind ($): Ante ($25.00) and Blind ($20.00) must be equal (rule: "
        "Ante and Blind, docs/rules.md §4.1)"
    )
    expect(page.locator(".calc-seat[data-seat='2'] .errorlist")).to_contain_text("must be equal")
    expect(page.locator("#calculator-result")).to_have_count(0)
    shoot(page, "51-calculator-form-refused")
