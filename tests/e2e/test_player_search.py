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


def test_a_supervisor_registers_a_tppp_player(live_server, new_page, shoot):
    UserFactory(username="sup", role=Role.FLOOR_SUPERVISOR)
    page = new_page()
    sign_in(page, live_server.url, "sup")
    page.get_by_role("link", name="Players and bankrolls").click()
    page.locator("#new-player summary").click()
    form = page.locator("#new-player form")
    form.get_by_label("Player number").fill("TP-5150")
    form.get_by_label("Name").fill("Quinn Quade")
    form.get_by_label("TPPP", exact=True).check()
    form.get_by_label("TPPP business").fill("Quade Proposition Services")
    form.get_by_label("Badge number").fill("B-5150")
    form.get_by_label("Badge expires on").fill("2027-12-31")
    shoot(page, "49-register-a-player")
    with page.expect_navigation():
        form.get_by_role("button", name="Register").click()
    expect(page.locator(".messages")).to_contain_text("Quinn Quade (TP-5150) registered")
    page.get_by_label("Name or player number").fill("TP-5150")
    page.get_by_role("button", name="Search").click()
    expect(page.locator("table.data tbody tr").first).to_contain_text("Quade Proposition Services")


def test_a_supervisor_registers_a_player_with_id_and_sees_it_masked(live_server, new_page, shoot):
    """The ID number is typed in full once, then shown only masked (docs/rules.md §3.3)."""
    UserFactory(username="sup", role=Role.FLOOR_SUPERVISOR)
    page = new_page()
    sign_in(page, live_server.url, "sup")
    page.get_by_role("link", name="Players and bankrolls").click()
    page.locator("#new-player summary").click()
    form = page.locator("#new-player form")
    form.get_by_label("Player number").fill("PL-8101")
    form.get_by_label("Name").fill("Maria Garcia")
    form.get_by_label("ID type").select_option("driver_license")
    form.get_by_label("ID number").fill("D1234567")
    form.get_by_label("Issued by").fill("California")
    form.get_by_label("Date of birth").fill("2010-05-17")  # under 21: refused, on the form
    with page.expect_navigation():
        form.get_by_role("button", name="Register").click()
    expect(page.locator("#new-player .error")).to_contain_text(
        "the day registered; the minimum age is 21"
    )
    expect(page.locator("#new-player .error")).to_contain_text("rule: identifying a player")
    shoot(page, "52-register-a-player-under-21-refused")

    form = page.locator("#new-player form")
    form.get_by_label("Date of birth").fill("1990-05-17")
    with page.expect_navigation():
        form.get_by_role("button", name="Register").click()
    expect(page.locator(".messages")).to_contain_text("Maria Garcia (PL-8101) registered")
    page.get_by_label("Name or player number").fill("PL-8101")
    page.get_by_role("button", name="Search").click()
    row = page.locator("table.data tbody tr").first
    expect(row).to_contain_text("Driver's license ••••4567 (California)")
    expect(row).to_contain_text("1990-05-17")
    expect(page.locator("body")).not_to_contain_text("D1234567")
    shoot(page, "53-players-with-id-masked")

    row.get_by_role("link", name="Maria Garcia").click()
    expect(page.locator("#identification")).to_contain_text("Driver's license ••••4567")
    page.locator("#edit-identification summary").click()
    number = page.locator("#edit-identification").get_by_label("ID number")
    expect(number).to_have_value("")
    expect(number).to_have_attribute("placeholder", "••••4567")
    expect(page.locator("body")).not_to_contain_text("D1234567")
    shoot(page, "54-player-identification")
