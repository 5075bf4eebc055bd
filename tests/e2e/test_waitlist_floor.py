"""A floor supervisor fills a table from the waitlist in a real browser (docs/rules.md §3.6):
the first player misses the call and is passed over, the next is called and seated, and the
room's table board (a TV, 1920x1080) shows each change within seconds; a seated player steps
away (a seat hold), and another leaves with chips and is cashed out.

The live server runs in this process, so it reads the test's frozen clock: the response
time runs out when the test moves the clock on."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.models import DealMode, Seating
from tables.services import waitlists
from tests.builders.floor import make_player
from tests.builders.money import chips_of, money_table
from tests.e2e.conftest import fits_width, sign_in, swapped

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]

BOARD = {"width": 1920, "height": 1080}
TOKEN = "e2e-board-token"


def test_a_supervisor_fills_a_table_from_the_waitlist(
    live_server, new_page, shoot, staff, clock, settings
):
    settings.CARDROOM_BOARD_TOKEN = TOKEN
    table = money_table(
        staff,
        {1: 20_000, 2: 30_000, 3: 25_000, 4: 12_500},
        deal_mode=DealMode.RNG,
        name="UTH-9",
        minimum_cents=500,
        maximum_cents=50_000,
    )
    money_table(
        staff,
        {1: 50_000, 2: 50_000},
        deal_mode=DealMode.RNG,
        name="UTH-25",
        minimum_cents=2_500,
        maximum_cents=250_000,
    )
    row = waitlists.open_waitlist(
        minimum_cents=500, maximum_cents=50_000, by=staff.supervisor, response_minutes=1
    )
    ana = make_player(name="Ana Alvarez")
    ben = make_player(name="Ben Brown")
    cy = make_player(name="Cy Cole")
    for player in (ana, ben):
        waitlists.join(waitlist_id=row.pk, player_id=player.pk, by=staff.supervisor)
    waitlists.join(waitlist_id=row.pk, player_id=cy.pk, by=staff.supervisor, by_phone=True)

    board = new_page(viewport=BOARD)
    board.goto(f"{live_server.url}/board/{TOKEN}/")
    stakes = board.locator("[data-stakes='$5.00 - $500.00']")
    expect(stakes).to_contain_text("UTH-9")
    expect(stakes).to_contain_text("2 open seats")
    expect(stakes.locator("ol.waiting li")).to_have_text(["Ana A.", "Ben B.", "Cy C."])
    expect(board.locator("body")).not_to_contain_text("Alvarez")
    shoot(board, "70-board-waiting")

    page = new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    sign_in(page, live_server.url, staff.supervisor.username)
    page.get_by_role("link", name="Waitlists").click()
    panel = page.locator(f"[data-waitlist='{row.pk}']")
    expect(panel).to_contain_text("answer within 1 minute")
    expect(panel.locator("tr[data-player='Cy Cole']")).to_contain_text("phone — not checked in")
    assert fits_width(page)
    shoot(page, "71-waitlist-page")

    # Seat 5 opens to the list: Ana, the first eligible, is called.
    with page.expect_navigation():
        panel.locator("[data-seat='UTH-9-5']").get_by_role(
            "button", name="Call Ana Alvarez"
        ).click()
    ana_row = panel.locator("tr[data-player='Ana Alvarez']")
    expect(ana_row).to_contain_text("UTH-9 seat 5")
    expect(ana_row.locator("[data-answer-by]")).to_contain_text("left to answer")
    expect(ana_row.get_by_role("button", name="No answer")).to_be_disabled()
    expect(stakes.locator("[data-calling]")).to_contain_text("Calling Ana A. to UTH-9 seat 5")
    shoot(page, "72-waitlist-called")
    shoot(board, "73-board-calling")

    # She does not answer in time: once the minute is up the floor passes her over and the
    # next player is called to the same seat.
    clock.advance(minutes=1, seconds=1)
    expect(ana_row.get_by_role("button", name="No answer")).to_be_enabled(timeout=10_000)
    with page.expect_navigation():
        ana_row.get_by_role("button", name="No answer").click()
    expect(page.locator(".messages")).to_contain_text("Ana Alvarez passed over (no answer)")
    ben_row = panel.locator("tr[data-player='Ben Brown']")
    expect(ben_row).to_contain_text("UTH-9 seat 5")
    expect(panel.locator("tr[data-player='Ana Alvarez'] td").nth(4)).to_have_text("1")
    expect(stakes.locator("[data-calling]")).to_contain_text(
        "Calling Ben B. to UTH-9 seat 5", timeout=10_000
    )
    shoot(board, "74-board-next-called")

    with page.expect_navigation():
        ben_row.get_by_role("button", name="Seated").click()
    expect(page.locator(".messages")).to_contain_text("Ben Brown sits at UTH-9, seat 5")
    assert Seating.objects.filter(
        table_id=table.table.pk, seat=5, player=ben, left_at__isnull=True
    ).exists()
    expect(panel.locator("tr[data-player='Ben Brown']")).to_have_count(0)
    expect(stakes).to_contain_text("5 playing", timeout=10_000)
    expect(stakes.locator("[data-calling]")).to_have_count(0)
    expect(stakes.locator("ol.waiting li")).to_have_text(["Ana A.", "Cy C."])
    shoot(page, "75-waitlist-seated")
    shoot(board, "76-board-seated")

    # At the table: seat 1 steps away (a hold), seat 4 leaves with chips, cashed out.
    page.goto(f"{live_server.url}/console/tables/{table.table.pk}/")
    seat1 = page.locator(".seat[data-seat='1']")
    seat1.get_by_text("Chips and seat").click()  # the seat's own panel
    seat1.locator("input[name=minutes]").fill("10")
    with swapped(page):
        seat1.get_by_role("button", name="Hold seat").click()
    expect(page.locator(".seat[data-seat='1'] [data-hold]")).to_contain_text("10 min left")
    page.locator(".seat[data-seat='1']").get_by_text("Chips and seat").click()
    expect(page.locator(".seat[data-seat='1']").get_by_role("button", name="Back")).to_be_visible()
    shoot(page, "77-table-seat-held")

    leaving = table.seated[4]
    page.locator(".seat[data-seat='4']").get_by_text("Chips and seat").click()
    with swapped(page):
        page.locator(".seat[data-seat='4']").get_by_role(
            "button", name="Cash out and leave"
        ).click()
    expect(page.locator(".messages")).to_contain_text(
        f"{leaving.name} left seat 4; $125.00 in chips cashed out"
    )
    assert chips_of(leaving, table.table) == 0

    page.get_by_role("link", name="Floor map", exact=True).click()
    expect(page.locator("[data-table='UTH-9'] [data-held]")).to_contain_text("held 10 min")
    shoot(page, "78-floor-map-held-seat")

    # Seat 4 is open: the list offers it to Ana (she kept her place).
    page.get_by_role("link", name="Waitlists").click()
    expect(panel.locator("[data-seat='UTH-9-4']")).to_contain_text("next: Ana Alvarez")
    expect(stakes.locator("[data-table='UTH-9']")).to_contain_text(
        "4 playing · 2 open seats", timeout=10_000
    )
