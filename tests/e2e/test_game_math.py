"""A floor supervisor opens a table's game math from its options sheet: each wager's pay table
with its figures and the strategy card, readable on a tablet (1024x768) and a desktop
(1440x900) without sideways scrolling (on a phone the chart scrolls by itself); a table
without a Bad Beat says it is not offered."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from cardroom.figures import percent
from tables.options import game_options
from tables.services import floor
from tests.e2e.conftest import PHONE, SCREENSHOTS, fits_width, sign_in
from wagers.rules.gamemath import game_math

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1440, "height": 900}


def test_a_supervisor_reads_the_game_math(live_server, new_page, shoot, staff):
    table = floor.create_table(
        name="MATH-1", by=staff.supervisor, options={"trips_paytable": "UTH-03"}
    )
    plain = floor.create_table(
        name="MATH-2", by=staff.supervisor, options={"bad_beat_paytable": None}
    )
    math = game_math(game_options(table))
    page = new_page()
    sign_in(page, live_server.url, staff.supervisor.username)
    page.goto(f"{live_server.url}/console/tables/{table.pk}/")
    with page.expect_navigation():
        page.get_by_role("link", name="Edit the options sheet").click()
    with page.expect_navigation():
        page.get_by_role("link", name="Game math for the options in force").click()
    expect(page.locator("h1")).to_contain_text("Game math · MATH-1")

    trips = page.locator("#math-trips")
    expect(trips).to_contain_text("pay table UTH-03")
    expect(trips.locator("tr", has_text="Royal flush")).to_contain_text("1 in 30,940")
    expect(trips.locator("dl")).to_contain_text("3.4979%")
    expect(page.locator("#math-bad-beat dl")).to_contain_text(percent(math.bad_beat.house_edge))
    expect(page.locator("#math-base-game dl")).to_contain_text(percent(math.base_game.house_edge))
    chart = page.locator("#preflop-chart")
    expect(chart.locator("td[data-hand]")).to_have_count(169)
    expect(chart.locator("td[data-hand='AA']")).to_have_attribute(
        "data-mark", f"{math.base_game.starting_hands[0].multiple}x"
        if math.base_game.starting_hands[0].multiple else "check",
    )  # fmt: skip
    expect(page.locator("#flop-decision")).to_contain_text("After checking pre-flop")
    assert fits_width(page)
    shoot(page, "70-game-math-1024")
    page.locator("#strategy-card").scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "71-game-math-1024-chart.png"))  # the viewport

    wide = new_page(DESKTOP)
    sign_in(wide, live_server.url, staff.supervisor.username)
    wide.goto(f"{live_server.url}/console/tables/{table.pk}/math/")
    expect(wide.locator("#preflop-chart td[data-hand]")).to_have_count(169)
    assert fits_width(wide)
    shoot(wide, "72-game-math-1440")

    phone = new_page(PHONE)  # the chart scrolls by itself, the page does not
    sign_in(phone, live_server.url, staff.supervisor.username)
    phone.goto(f"{live_server.url}/console/tables/{table.pk}/math/")
    expect(phone.locator("#preflop-chart td[data-hand]")).to_have_count(169)
    shoot(phone, "74-game-math-phone")
    assert fits_width(phone)

    page.goto(f"{live_server.url}/console/tables/{plain.pk}/math/")
    expect(page.locator("#math-bad-beat")).to_contain_text("Not offered at this table")
    expect(page.locator("#math-options")).to_contain_text("Bad Beat pay table: not offered")
    assert fits_width(page)
    shoot(page, "73-game-math-no-bad-beat")
