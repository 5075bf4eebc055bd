"""A house dealer locks themself out at a terminal; the floor supervisor, on a 1024x768
tablet, finds the lock on the "Locked sign-ins" page and unlocks it; the dealer signs in."""

from __future__ import annotations

import pytest
from django.conf import settings
from playwright.sync_api import expect

from cardroom.roles import Role
from console.models import StaffAction
from tests.builders.factories import UserFactory
from tests.e2e.conftest import fits_width, sign_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_supervisor_unlocks_a_dealer_locked_out_at_a_terminal(live_server, new_page, shoot):
    UserFactory(username="maria.s", role=Role.HOUSE_DEALER)
    UserFactory(username="floor.lead", role=Role.FLOOR_SUPERVISOR)

    terminal = new_page()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        terminal.goto(f"{live_server.url}/console/sign-in/")
        terminal.fill("input[name=username]", "maria.s")
        terminal.fill("input[name=password]", "mistyped")
        terminal.click("button:has-text('Sign in')")
    expect(terminal.locator("h1")).to_have_text("Sign-in locked")

    supervisor = new_page()
    sign_in(supervisor, live_server.url, "floor.lead")
    supervisor.get_by_role("link", name="Locked sign-ins").click()
    expect(supervisor.locator("h1")).to_have_text("Locked sign-ins")
    row = supervisor.locator("#locked-sign-ins tr[data-username='maria.s']")
    expect(row).to_contain_text("127.0.0.1")
    expect(row.locator("td.num")).to_have_text(str(settings.AXES_FAILURE_LIMIT))
    assert fits_width(supervisor)
    shoot(supervisor, "95-locked-sign-ins")

    row.get_by_role("button", name="Unlock").click()
    expect(supervisor.locator(".messages")).to_contain_text(
        "maria.s may sign in again from 127.0.0.1"
    )
    expect(supervisor.locator("#locked-sign-ins")).to_contain_text("No sign-in is locked out.")
    shoot(supervisor, "96-sign-in-unlocked")
    assert StaffAction.objects.filter(action="unlock a sign-in", username="floor.lead").exists()

    sign_in(terminal, live_server.url, "maria.s")  # the right password now lets her in
