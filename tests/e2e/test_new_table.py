"""A supervisor opens a new table from the floor map, with its first options."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from cardroom.roles import Role
from tables.models import Table
from tests.builders.factories import UserFactory
from tests.e2e.conftest import sign_in

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]


def test_a_supervisor_opens_a_new_table(live_server, new_page, shoot):
    UserFactory(username="sup", role=Role.FLOOR_SUPERVISOR)
    page = new_page()
    sign_in(page, live_server.url, "sup")
    page.locator("#new-table summary").click()
    form = page.locator("#new-table form")
    form.get_by_label("Name").fill("HIGH-1")
    form.get_by_label("Minimum ($)").fill("100")
    form.get_by_label("Maximum ($)").fill("50")
    with page.expect_navigation():
        form.get_by_role("button", name="Create the table").click()
    expect(page.locator("#new-table .error")).to_contain_text("the options sheet of a table")
    shoot(page, "50-new-table-refused")
    page.locator("#new-table form").get_by_label("Maximum ($)").fill("5000")
    with page.expect_navigation():
        page.locator("#new-table form").get_by_role("button", name="Create the table").click()
    expect(page.locator("h1")).to_contain_text("HIGH-1")
    expect(page.locator(".messages")).to_contain_text("table HIGH-1 created")
    expect(page.locator("body")).to_contain_text("$5,000.00 per wager")
    assert Table.objects.get(name="HIGH-1").maximum_cents == 500_000
    shoot(page, "51-new-table")
