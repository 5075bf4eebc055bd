"""A compliance officer keeps the TPPP contracts in a real browser, at the tablet's size
(docs/rules.md §8.7): the list flags the contract to renew; a renewal typed with its end
before its start is refused on that field, in words, nothing written; then recorded and
listed, and the flag is gone. Screenshots of each step."""

from __future__ import annotations

from datetime import timedelta

import pytest
from playwright.sync_api import expect

from cardroom.clock import today
from cardroom.roles import Role
from tables.models import TPPPContract
from tables.services import floor
from tables.services.contracts import record_contract
from tests.builders.factories import TableFactory, UserFactory
from tests.e2e.conftest import fits_width, sign_in

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]


def test_an_officer_renews_a_tppp_contract(live_server, new_page, shoot):
    UserFactory(username="officer", role=Role.COMPLIANCE_OFFICER)
    for name in ("Main 1", "Main 2", "Main 3"):
        TableFactory(name=name)
    day = today()
    player = floor.create_player(
        player_number="TP-5150",
        name="Quinn Quade",
        tppp={
            "business_name": "Quade Proposition Services",
            "badge_number": "B-5150",
            "badge_expires_on": day + timedelta(days=365),
        },
    )
    ending = day + timedelta(days=30)
    record_contract(
        player_id=player.pk, starts_on=day - timedelta(days=335), ends_on=ending,
        approved_on=day - timedelta(days=340), approval_number="GEGC-2025-0007",
    )  # fmt: skip

    page = new_page()
    sign_in(page, live_server.url, "officer")
    page.get_by_role("link", name="TPPP contracts").click()
    rows = page.locator("#contracts tbody tr[data-contract]")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Quinn Quade")
    expect(rows.first).to_contain_text("every table")
    expect(rows.first.locator("[data-renew]")).to_have_text(f"renew by {ending:%Y-%m-%d}")
    shoot(page, "57-tppp-contracts-renew-by")
    assert fits_width(page)

    # The renewal typed with its end before its start: refused on "Until", nothing written.
    form = page.locator("#record-contract form")
    form.get_by_label("TPPP's player number").fill("TP-5150")
    form.get_by_label("Tables (none chosen: every table)").select_option(label=["Main 1", "Main 2"])
    form.get_by_label("From", exact=True).fill(f"{ending + timedelta(days=1):%Y-%m-%d}")
    form.get_by_label("Until", exact=True).fill(f"{ending:%Y-%m-%d}")
    form.get_by_label("Hours from (empty: any hour)").fill("18:00")
    form.get_by_label("Hours to").fill("02:00")
    form.get_by_label("Approved by the Bureau on").fill(f"{day:%Y-%m-%d}")
    form.get_by_label("Bureau approval number").fill("GEGC-2026-0042")
    with page.expect_navigation():
        form.get_by_role("button", name="Record").click()
    expect(page.locator("#refusal")).to_contain_text("Refused: record a TPPP contract.")
    until = page.locator('#record-contract [data-field="ends_on"]')
    expect(until.locator(".error")).to_contain_text(
        f"the contract ends on {ending:%Y-%m-%d}, before it starts on "
        f"{ending + timedelta(days=1):%Y-%m-%d} (rule: a TPPP plays within its contract"
    )
    expect(page.get_by_label("Bureau approval number")).to_have_value("GEGC-2026-0042")
    page.set_viewport_size({"width": 1024, "height": 768})
    until.scroll_into_view_if_needed()
    shoot(page, "58-tppp-contract-refused", full_page=False)
    assert fits_width(page)
    assert TPPPContract.objects.count() == 1

    form = page.locator("#record-contract form")
    renewed_until = ending + timedelta(days=365)
    form.get_by_label("Until", exact=True).fill(f"{renewed_until:%Y-%m-%d}")
    with page.expect_navigation():
        form.get_by_role("button", name="Record").click()
    expect(page.locator(".messages")).to_contain_text(
        f"Quinn Quade's contract recorded: {ending + timedelta(days=1):%Y-%m-%d} to "
        f"{renewed_until:%Y-%m-%d}, Main 1, Main 2, 18:00 to 02:00"
    )
    rows = page.locator("#contracts tbody tr[data-contract]")
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text("Main 1, Main 2")
    expect(rows.first).to_contain_text("18:00 to 02:00")
    expect(rows.first).to_contain_text("starts later")
    expect(page.locator("#contracts [data-renew]")).to_have_count(0)
    shoot(page, "59-tppp-contract-renewed")
    assert fits_width(page)
