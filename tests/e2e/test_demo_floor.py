"""``make run`` opens on a live floor: a new dealer signs in with the demo credentials, sees
games opened now, and runs the button to a hand without being told the game has ended."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from rounds.management.commands.load_demo import CARD_TABLE, WAITING
from tables.models import Table
from tables.selectors import waitlist_views
from tests.e2e.conftest import sign_in, swapped

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]


def test_the_demo_floor_is_live_for_a_new_dealer(live_server, new_page, shoot, settings):
    settings.DEBUG = True  # load_demo refuses without it (a demo credential)
    call_command("load_demo")
    names = list(Table.objects.order_by("name").values_list("name", flat=True))
    # People on the waitlist, the first called to the card table's open seat.
    (waiting,) = [v for v in waitlist_views() if v.waitlist.game == "ultimate_texas_holdem"]
    assert len(waiting.now.entries) == len(WAITING)
    assert waiting.now.entries[0].call.table == Table.objects.get(name=CARD_TABLE).pk
    page = new_page()
    sign_in(page, live_server.url, "dealer", "dealer")

    for name in names:
        panel = page.locator(f"[data-table='{name}']")
        expect(panel).to_contain_text("game open")
        minutes = int(re.search(r"game open (\d+) min", panel.inner_text()).group(1))
        assert minutes < 5, (name, minutes)
    expect(page.locator("p.warning")).to_have_count(0)  # no 40-minute warning
    expect(page.locator(f"[data-table='{CARD_TABLE}']")).to_contain_text("Ana Alvarez")
    shoot(page, "41-demo-floor-map")

    first = next(name for name in names if name != CARD_TABLE)
    page.get_by_role("link", name=first).click()
    expect(page.locator("h1")).to_contain_text(first)  # the table page, before its shortcuts
    with swapped(page):
        page.keyboard.press("o")  # offer the button
    expect(page.locator("#button")).to_contain_text("do you take the bank?")
    with swapped(page):
        page.locator("#button").get_by_role("button", name="Accept").click()
    expect(page.locator("#button-status")).to_contain_text("accepted")
    with swapped(page):
        page.locator("#button").get_by_role("button", name="Start the round").click()
    expect(page.locator("#round-state")).to_have_text("Wagering open")
    expect(page.locator("body")).not_to_contain_text("game has ended")
    shoot(page, "42-demo-table-hand-started")

    page.goto(f"{live_server.url}/console/")
    page.get_by_role("link", name=CARD_TABLE).click()
    expect(page.locator("h1")).to_contain_text(CARD_TABLE)
    expect(page.locator("body")).to_contain_text("Card entry")
    shoot(page, "43-demo-card-entry-table")
