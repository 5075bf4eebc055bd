"""The drop count page and a patron's own bankroll, in a real browser at the dealer's tablet
(1024x768) and a desktop (1440x900), with screenshots; the favicon is served."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import fits_width, sign_in
from tests.fees.selectors.test_reconciliation import DAY, boxes  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)
DESKTOP = {"width": 1440, "height": 900}


@pytest.mark.parametrize(("viewport", "name"), [(None, "1024"), (DESKTOP, "1440")])
def test_the_drop_count(live_server, new_page, shoot, boxes, viewport, name):  # noqa: F811
    page = new_page(viewport) if viewport else new_page()
    sign_in(page, live_server.url, "supervisor")
    page.get_by_role("link", name="Drop count").click()
    page.goto(f"{live_server.url}/console/drop/?gaming_day={DAY.isoformat()}")
    expect(page.locator("#drop-title")).to_contain_text("Gaming day Friday 20 November 2026")
    row = page.locator("tr[data-box='A-day']")
    expect(row).to_contain_text("DROP-A")
    expect(row).to_contain_text("short $0.25")
    expect(page.locator("#drop-recorded")).to_have_text("$4.50")
    assert fits_width(page)
    shoot(page, f"97-drop-count-{name}")
    # A count by one person is refused, in words, on the form.
    other = page.locator("tr[data-box='B-day']")
    other.locator("summary").click()
    other.locator("input[name=amount]").fill("1.50")
    other.locator("input[name=counters]").fill("Ann")
    other.locator("input[name=counted_at]").fill("2026-11-20T23:30")
    other.get_by_role("button", name="Enter the count").click()
    expect(page.locator("#refusal")).to_contain_text("Refused: enter a drop count.")
    expect(page.locator("#refusal")).to_contain_text("at least two different people")
    assert fits_width(page)
    shoot(page, f"97-drop-count-refused-{name}")


def test_a_patron_reads_their_own_bankroll(live_server, new_page, shoot, boxes):  # noqa: F811
    supervisor = new_page()
    sign_in(supervisor, live_server.url, "supervisor")
    player = boxes["A", "day"].table.seatings.first().player
    supervisor.goto(f"{live_server.url}/console/players/{player.pk}/")
    supervisor.locator("#patron-sign-in summary").click()
    supervisor.fill("#patron-sign-in input[name=username]", "own.bankroll")
    supervisor.fill("#patron-sign-in input[name=password]", "felt-and-chips-42")
    supervisor.get_by_role("button", name="Issue the sign-in").click()
    expect(supervisor.locator(".messages")).to_contain_text("can sign in as own.bankroll")
    shoot(supervisor, "98-patron-sign-in-issued")

    for viewport, name in ((None, "1024"), (DESKTOP, "1440")):
        patron = new_page(viewport) if viewport else new_page()
        patron.goto(f"{live_server.url}/console/sign-in/")
        patron.fill("input[name=username]", "own.bankroll")
        patron.fill("input[name=password]", "felt-and-chips-42")
        patron.click("button:has-text('Sign in')")
        patron.wait_for_url(f"{live_server.url}/console/me/")
        expect(patron.locator("h1")).to_contain_text(player.name)
        expect(patron.locator("#ledger")).to_contain_text("Buy-in")
        assert fits_width(patron)
        shoot(patron, f"98-own-bankroll-{name}")
    response = patron.goto(f"{live_server.url}/console/")
    assert response.status == 403
    icon = patron.request.get(f"{live_server.url}/favicon.ico")
    assert icon.status == 200 and "svg" in icon.headers["content-type"]
