"""The floor finds a player by the number on their card, in a real browser."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from cardroom.roles import Role
from tables.services import floor
from tests.builders.factories import UserFactory
from tests.e2e.conftest import sign_in

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]


def test_a_supervisor_finds_a_player_by_player_number(live_server, new_page, shoot):
    UserFactory(username="sup", role=Role.FLOOR_SUPERVISOR)
    floor.create_player(player_number="PL-7301", name="Grace Gomez")
    floor.create_player(player_number="PL-7302", name="Hector Hale")
    floor.create_player(player_number="VIP-9", name="Ivy Ito")

    page = new_page()
    sign_in(page, live_server.url, "sup")
    page.get_by_role("link", name="Players and bankrolls").click()
    page.get_by_label("Name or player number").fill("7302")
    page.get_by_role("button", name="Search").click()
    rows = page.locator("table.data tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("PL-7302")
    expect(rows.first).to_contain_text("Hector Hale")
    shoot(page, "40-players-search-by-number")

    page.get_by_label("Name or player number").fill("pl-730")
    page.get_by_role("button", name="Search").click()
    expect(rows).to_have_count(2)
    expect(page.locator("table.data")).not_to_contain_text("Ivy Ito")
