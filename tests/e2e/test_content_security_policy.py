"""The console and the API's documentation page work in a real browser under the
Content-Security-Policy, with DEBUG off (pytest-django runs the live server so): nothing is
refused (``new_page`` fails a test on any refusal chromium reports), htmx still polls, the
card picker's script still runs, Swagger UI still draws the schema."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from playwright.sync_api import expect

from cardroom.roles import Role
from tables.models import DealMode
from tables.services import floor
from tests.builders.factories import UserFactory
from tests.builders.fees import table_schedule
from tests.e2e.conftest import sign_in

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]


def policy_of(response) -> dict[str, str]:
    header = response.headers["content-security-policy"]
    return dict(part.strip().split(" ", 1) for part in header.split(";"))


def test_the_console_works_under_the_policy(live_server, new_page, shoot):
    assert settings.DEBUG is False
    supervisor = UserFactory(username="sup", role=Role.FLOOR_SUPERVISOR)
    table = floor.create_table(
        name="UTH-CSP", by=supervisor, options={"deal_mode": DealMode.CARD_ENTRY}
    )
    table_schedule(table, by=supervisor)
    page = new_page()

    response = page.goto(f"{live_server.url}/console/sign-in/")
    assert policy_of(response)["script-src"] == "'self'"
    assert policy_of(response)["style-src"] == "'self'"
    # The sign-in panel keeps its width with no style attribute (console.css).
    assert page.locator(".panel.narrow").evaluate("e => getComputedStyle(e).maxWidth") != "none"
    sign_in(page, live_server.url, "sup")

    # The floor map polls with htmx (a script from /static) and redraws in place.
    expect(page.locator("[data-table='UTH-CSP']")).to_be_visible()
    with page.expect_response(re.compile(r"/console/$")):
        pass  # the next 5-second poll

    # The table page: the card picker and the keyboard shortcuts come from console.js.
    page.get_by_role("link", name="UTH-CSP").click()
    expect(page.locator("h1")).to_contain_text("UTH-CSP")
    shoot(page, "30-table-under-csp")

    # The fee schedules page, whose layout the templates once set in style attributes.
    response = page.goto(f"{live_server.url}/console/fees/")
    assert policy_of(response)["style-src"] == "'self'"
    page.locator("details.new-version summary").first.click()
    check = page.locator("label.check").first
    expect(check).to_be_visible()
    assert check.evaluate("e => getComputedStyle(e).flexDirection") == "row"
    assert page.locator("input.rate").first.evaluate("e => e.offsetWidth") < 150
    shoot(page, "31-fees-under-csp")


def test_the_api_docs_page_works_under_the_policy(live_server, new_page, shoot):
    page = new_page()
    response = page.goto(f"{live_server.url}/api/docs/")
    policy = policy_of(response)
    assert policy["script-src"] == "'self'"
    assert policy["style-src"].startswith("'self' 'nonce-")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Cardroom management API")
    expect(page.locator(".opblock-tag-section").first).to_be_visible()
    # The token sign-in is documented, and the scheme to send it with.
    expect(page.get_by_text("/api/auth/token/")).to_be_visible()
    expect(page.locator(".btn.authorize")).to_be_visible()
    shoot(page, "32-api-docs-under-csp")


def test_the_table_board_works_under_the_policy(live_server, new_page, settings):
    """The board (no sign-in) is served under the same policy and still polls with htmx."""
    settings.CARDROOM_BOARD_TOKEN = "csp-board"
    page = new_page(viewport={"width": 1920, "height": 1080})
    response = page.goto(f"{live_server.url}/board/csp-board/")
    assert policy_of(response)["script-src"] == "'self'"
    assert policy_of(response)["style-src"] == "'self'"
    expect(page.locator("#board")).to_be_visible()
    with page.expect_response(re.compile(r"/board/csp-board/panel/$")):
        pass  # the next 5-second poll
