"""A player leaves with chips: the dealer cashes them out in the same step, or moves the
player to another table with them; nothing is left at the table."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.models import DealMode
from tests.builders.money import chips_of, money_table
from tests.e2e.conftest import sign_in, swapped
from wagers.models import LedgerTransaction, TransactionKind

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]


def test_a_player_leaves_with_chips_and_is_cashed_out(live_server, new_page, shoot, staff):
    first = money_table(staff, {1: 12_500, 2: 40_000}, deal_mode=DealMode.RNG, name="LEAVE-A")
    second = money_table(staff, {1: 10_000}, deal_mode=DealMode.RNG, name="LEAVE-B")
    leaving, moving = first.seated[1], first.seated[2]
    page = new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    sign_in(page, live_server.url, staff.dealer.username)
    page.goto(f"{live_server.url}/console/tables/{first.table.pk}/")
    seat = page.locator(".seat[data-seat='1']")
    expect(seat).to_contain_text("$125.00")
    shoot(page, "44-seat-with-chips")

    seat.get_by_text("Chips and seat").click()  # the seat's own panel
    with swapped(page):
        seat.get_by_role("button", name="Cash out and leave").click()
    expect(page.locator(".messages")).to_contain_text(
        f"{leaving.name} left seat 1; $125.00 in chips cashed out"
    )
    expect(page.locator(".seat.free[data-seat='1']")).to_contain_text("open")  # a free seat
    cashed = LedgerTransaction.objects.get(kind=TransactionKind.CASH_OUT)
    assert cashed.currency  # "cash paid" was ticked
    assert chips_of(leaving, first.table) == 0
    shoot(page, "45-cashed-out-and-left")

    form = page.locator("#move-form")
    form.locator("select[name=seat]").select_option("2")
    form.locator("select[name=to_table]").select_option(label="LEAVE-B")
    form.locator("select[name=to_seat]").select_option("4")
    with swapped(page):
        form.get_by_role("button", name="Move with the chips").click()
    expect(page.locator(".messages")).to_contain_text(
        f"{moving.name} left seat 2 for seat 4 at LEAVE-B, with $400.00 in chips"
    )
    assert chips_of(moving, second.table) == 40_000 and chips_of(moving, first.table) == 0
    shoot(page, "46-moved-with-the-chips")
