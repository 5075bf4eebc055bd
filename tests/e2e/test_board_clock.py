"""The table board's wall clock shows the cardroom's time (settings.TIME_ZONE) on a TV whose
browser is set to another zone, when the page comes and after the panel's refreshes: the
clock runs from the server's stamp, read in the cardroom's offset.

The live server runs in this process, so it reads the test's frozen clock: 18:00 UTC, 10:00
in the cardroom (America/Los_Angeles), 03:00 the next day in the browser's Tokyo."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.builders.floor import open_floor
from tests.e2e.conftest import TABLET

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]

TOKEN = "e2e-board-clock"


def test_the_board_keeps_the_cardrooms_time_in_another_zone(
    live_server, new_page, shoot, staff, clock, settings
):
    assert settings.TIME_ZONE == "America/Los_Angeles"
    settings.CARDROOM_BOARD_TOKEN = TOKEN
    settings.CONSOLE_FLOOR_CACHE_SECONDS = 0
    open_floor("PPP...", staff=staff, name="UTH-CLOCK", minimum_cents=500, maximum_cents=50_000)
    page = new_page(viewport=TABLET, timezone_id="Asia/Tokyo")
    page.goto(f"{live_server.url}/board/{TOKEN}/")
    assert page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone") == "Asia/Tokyo"
    board_clock = page.locator("[data-clock]")
    expect(board_clock).to_have_text("10:00")
    page.evaluate(
        "document.body.addEventListener('htmx:afterSwap',"
        " () => { window.swaps = (window.swaps || 0) + 1; })"
    )
    # After the browser's own ticks and two refreshes of the panel: still the cardroom's time.
    page.wait_for_function("() => window.swaps >= 2", timeout=20_000)
    expect(board_clock).to_have_text("10:00")
    expect(page.locator("[data-table='UTH-CLOCK']")).to_contain_text("3 playing")
    shoot(page, "82-board-clock-tokyo-browser")
