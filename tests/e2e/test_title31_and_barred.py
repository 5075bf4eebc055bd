"""Title 31 and the barred list in a real browser, at the dealer's tablet size (1024x768):
a cash buy-in over $10,000 for a patron without ID is refused with the rule in words and a
floor supervisor records the ID on the spot; the tablet and the floor map warn before the
threshold; the compliance officer's Title 31 page lists the CTR due, the MTL and a review;
the barred list refuses a seat. Screenshots of each page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from cardroom.roles import Role
from tables.models import Player
from tables.services import exclusions
from tests.builders.factories import UserFactory
from tests.builders.floor import make_player, make_staff
from tests.builders.money import money_table
from tests.e2e.conftest import fits_width, sign_in

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]


def test_the_tablet_refuses_then_the_supervisor_records_the_id(live_server, new_page, shoot):
    staff = make_staff()
    UserFactory(username="sup", role=Role.FLOOR_SUPERVISOR)
    UserFactory(username="officer", role=Role.COMPLIANCE_OFFICER)
    mt = money_table(staff, {1: 50_000, 2: 50_000, 3: 50_000}, name="Main 1")
    patron = mt.seated[2]
    Player.objects.filter(pk=patron.pk).update(
        name="Nadia Novak", id_type="", id_number="", id_issued_by=""
    )

    page = new_page()
    sign_in(page, live_server.url, "sup")
    page.goto(f"{live_server.url}/console/tables/{mt.table.pk}/")
    panel = page.locator("details[data-seat-panel]").nth(1)
    panel.locator("summary").click()
    panel.locator("form[data-chips=in] input[name=amount]").fill("7600")
    panel.locator("form[data-chips=in] button").click()
    expect(page.locator("[data-ctr]").first).to_contain_text("approaching a CTR: cash in $8,100.00")
    shoot(page, "title31-tablet-approaching", full_page=False)

    panel = page.locator("details[data-seat-panel]").nth(1)
    if not panel.get_attribute("open"):
        panel.locator("summary").click()
    panel.locator("form[data-chips=in] input[name=amount]").fill("4500")
    panel.locator("form[data-chips=in] button").click()
    refusal = page.locator("#refusal")
    expect(refusal).to_contain_text("identification before a reportable cash transaction")
    expect(refusal).to_contain_text("$12,600.00")
    form = page.locator("#record-id")
    expect(form).to_be_visible()
    form.scroll_into_view_if_needed()
    shoot(page, "title31-tablet-refused-record-id", full_page=False)
    assert fits_width(page)

    form.locator("select[name=id_type]").select_option("driver_license")
    form.locator("input[name=id_number]").fill("D7654321")
    form.locator("input[name=id_issued_by]").fill("CA")
    form.locator("button[type=submit]").click()
    expect(page.locator(".messages")).to_contain_text("identification recorded; chips bought in")
    expect(page.locator("[data-ctr]").first).to_contain_text("CTR: cash in $12,600.00")
    shoot(page, "title31-tablet-after-id", full_page=False)

    page.goto(f"{live_server.url}/console/")
    expect(page.locator("[data-ctr]").first).to_contain_text("CTR: cash in $12,600.00")
    shoot(page, "title31-floor-map", full_page=False)

    officer = new_page()
    sign_in(officer, live_server.url, "officer")
    officer.get_by_role("link", name="Title 31").click()
    expect(officer.locator("#ctrs-due [data-ctr]")).to_have_count(1)
    expect(officer.locator("#ctrs-due")).to_contain_text("Nadia Novak")
    expect(officer.locator("#ctrs-due")).to_contain_text("••••4321")
    expect(officer.locator("#mtl [data-mtl]")).to_have_count(2)
    shoot(officer, "title31-compliance-page")
    assert fits_width(officer)
    officer.locator("#ctrs-due input[name=filing_number]").fill("31000123456789")
    officer.locator("#ctrs-due button").click()
    expect(officer.locator(".messages")).to_contain_text("is filed")
    expect(officer.locator("#ctrs-filed")).to_contain_text("31000123456789")


def test_the_barred_list_and_a_refused_seat(live_server, new_page, shoot):
    staff = make_staff()
    UserFactory(username="sup", role=Role.FLOOR_SUPERVISOR)
    mt = money_table(staff, {1: 50_000, 2: 50_000}, name="Main 2")
    barry = make_player(name="Barry Barred")
    lifted = make_player(name="Lena Lifted")
    entry = exclusions.exclude(
        player_id=lifted.pk, kind="self_restricted", reason="the Bureau's program",
        by=staff.supervisor, ends_on=__import__("datetime").date(2030, 1, 1),
    )  # fmt: skip
    exclusions.lift(exclusion_id=entry.pk, reason="entered in error", by=staff.supervisor)

    page = new_page()
    sign_in(page, live_server.url, "sup")
    page.get_by_role("link", name="Barred").click()
    form = page.locator("#exclude")
    form.locator("input[name=player_number]").fill(barry.player_number)
    form.locator("select[name=kind]").select_option("barred")
    form.locator("input[name=reason]").fill("marked cards at Main 4")
    form.locator("button[type=submit]").click()
    expect(page.locator(".messages")).to_contain_text("Barry Barred is barred from")
    expect(page.locator("#exclusions [data-exclusion]")).to_have_count(2)
    shoot(page, "barred-list")
    assert fits_width(page)

    page.goto(f"{live_server.url}/console/tables/{mt.table.pk}/")
    seat = page.locator("#seat-form")
    seat.locator("select[name=player]").select_option(str(barry.pk))
    seat.locator("select[name=seat]").select_option("4")
    seat.locator("button[type=submit]").click()
    expect(page.locator("#refusal")).to_contain_text("Barry Barred is barred from")
    expect(page.locator("#refusal")).to_contain_text(
        "barred and self-restricted patrons stay off the tables, docs/rules.md §3.9"
    )
    page.locator("#refusal").scroll_into_view_if_needed()
    shoot(page, "barred-seat-refused", full_page=False)
