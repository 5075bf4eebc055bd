"""A floor supervisor renews a TPPP's expired badge from the player's page, in a real browser
(docs/rules.md §8.7): a refusal on the form first, with the rule in words, nothing changed;
then the renewal, listed with what it replaced."""

from __future__ import annotations

from datetime import timedelta

import pytest
from playwright.sync_api import expect

from cardroom.clock import today
from cardroom.roles import Role
from tables.models import TPPPRegistration, TPPPRegistrationChange
from tables.services import floor
from tests.builders.factories import UserFactory
from tests.e2e.conftest import fits_width, sign_in

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]


def test_a_supervisor_renews_a_tppp_badge(live_server, new_page, shoot):
    UserFactory(username="sup", role=Role.FLOOR_SUPERVISOR)
    expired = today() - timedelta(days=1)
    renewed = today() + timedelta(days=365)
    floor.create_player(
        player_number="TP-5150",
        name="Quinn Quade",
        tppp={
            "business_name": "Quade Proposition Services",
            "badge_number": "B-5150",
            "badge_expires_on": expired,
        },
    )

    page = new_page()
    sign_in(page, live_server.url, "sup")
    page.get_by_role("link", name="Players and bankrolls").click()
    page.get_by_label("Name or player number").fill("TP-5150")
    page.get_by_role("button", name="Search").click()
    page.locator("table.data tbody tr").first.get_by_role("link", name="Quinn Quade").click()

    panel = page.locator("#tppp-registration")
    expect(panel).to_contain_text("Quade Proposition Services")
    expect(panel).to_contain_text(f"Badge B-5150, expires on {expired:%Y-%m-%d}")
    expect(panel).to_contain_text("expired")
    expect(panel).to_contain_text("Not seated at a table until the badge is renewed.")

    # An expired badge: the form to renew it is open, filled in with what is recorded.
    form = page.locator("#edit-tppp form")
    expect(form).to_be_visible()
    expect(form.get_by_label("TPPP business")).to_have_value("Quade Proposition Services")
    expect(form.get_by_label("Badge expires on")).to_have_value(f"{expired:%Y-%m-%d}")
    # The badge number emptied by mistake: refused on the form, nothing changed.
    form.get_by_label("Badge number").fill("")
    form.get_by_label("Badge expires on").fill(f"{renewed:%Y-%m-%d}")
    with page.expect_navigation():
        form.get_by_role("button", name="Save registration").click()
    error = page.locator("#edit-tppp .error")
    expect(error).to_contain_text("Badge number: a TPPP's registration records the badge number")
    expect(error).to_contain_text("rule: a registered TPPP, docs/rules.md §8.7")
    expect(page.locator("#tppp-registration")).to_contain_text("expired")
    shoot(page, "55-tppp-renewal-refused")
    assert TPPPRegistration.objects.get().badge_expires_on == expired

    form = page.locator("#edit-tppp form")
    form.get_by_label("Badge number").fill("B-5150")
    expect(form.get_by_label("Badge expires on")).to_have_value(f"{renewed:%Y-%m-%d}")
    with page.expect_navigation():
        form.get_by_role("button", name="Save registration").click()
    expect(page.locator(".messages")).to_contain_text(
        f"Quinn Quade's TPPP registration recorded: badge B-5150, valid through {renewed:%Y-%m-%d}"
    )
    panel = page.locator("#tppp-registration")
    expect(panel).to_contain_text(f"expires on {renewed:%Y-%m-%d}")
    expect(panel.locator(".pill")).to_have_text("valid")
    expect(panel).not_to_contain_text("Not seated")
    rows = page.locator("#tppp-changes tbody tr")
    expect(rows).to_have_count(1)
    cells = rows.first.locator("td")
    expect(cells.nth(1)).to_have_text("sup")
    expect(cells.nth(2)).to_have_text("badge expires on")
    expect(cells.nth(3)).to_have_text(f"{expired:%Y-%m-%d}")
    expect(cells.nth(4)).to_have_text(f"{renewed:%Y-%m-%d}")
    assert fits_width(page)
    shoot(page, "56-tppp-badge-renewed")
    (change,) = TPPPRegistrationChange.objects.all()
    assert change.changed_by.username == "sup"
