"""A dispute: the supervisor opens a settled hand in the settlement calculator from its
table, sees the settlement in order, changes the bank and settles it again; nothing is
written."""

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

    hand = json.loads(page.locator("#hand").input_value())
    hand["player_dealer"]["bank"] = 100_000
    page.locator("#hand").fill(json.dumps(hand, indent=2))
    with page.expect_navigation():
        page.get_by_role("button", name="Settle").click()
    expect(page.locator("#calculator-result")).to_contain_text("Bank $1,000.00")
    page.locator("#hand").fill('{"options": {}}')
    with page.expect_navigation():
        page.get_by_role("button", name="Settle").click()
    expect(page.locator("#calculator-error")).to_contain_text("the format of the calculator")
    shoot(page, "48-calculator-refused")
    assert LedgerTransaction.objects.count() == written  # nothing written
