"""Locked-out sign-ins (django-axes, ``cardroom.lockouts``): a floor supervisor or an
administrator sees each user name locked at an address (since when, how many failures, when it
ends by itself) and unlocks it; the unlock is on the audit trail; no other role may."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from cardroom import lockouts
from console.models import StaffAction

pytestmark = pytest.mark.django_db

TERMINAL = "10.0.0.5"


def fail_to_sign_in(client, username: str, times: int, address: str = TERMINAL) -> None:
    for _ in range(times):
        client.post(
            reverse("console:login"), {"username": username, "password": "x"}, REMOTE_ADDR=address
        )


def sign_in(client, username: str, address: str = TERMINAL) -> int:
    form = {"username": username, "password": "pw"}
    return client.post(reverse("console:login"), form, REMOTE_ADDR=address).status_code


@pytest.fixture
def locked(client, users, settings):
    """The dealer locked at the terminal (the limit of failures reached): when, by axes' clock
    (Django's), which stamps the failures."""
    before = timezone.now()
    fail_to_sign_in(client, "dealer", settings.AXES_FAILURE_LIMIT)
    (lock,) = lockouts.locked_out()
    assert before <= lock.last_failure <= timezone.now()
    return lock.last_failure


def test_a_supervisor_sees_who_is_locked_and_until_when(as_user, locked, settings):
    (lock,) = lockouts.locked_out()
    until = locked + timedelta(minutes=15)
    assert lock == lockouts.Lockout("dealer", TERMINAL, settings.AXES_FAILURE_LIMIT, locked, until)
    page = as_user("supervisor").get(reverse("console:locked-sign-ins"))
    assert page.status_code == 200
    body = page.content.decode()
    row = body[body.index('data-username="dealer"') :].split("</tr>")[0]
    local = timezone.localtime
    for shown in (
        "dealer",
        TERMINAL,
        local(locked).strftime("%Y-%m-%d %H:%M:%S"),
        f">{settings.AXES_FAILURE_LIMIT}<",
        local(until).strftime("%H:%M:%S"),
        "Unlock",
    ):
        assert shown in row
    assert "After 5 failed sign-ins" in body and "15 minutes after the last failure" in body


def test_unlocking_lets_the_user_sign_in_again_and_is_on_the_audit_trail(
    client, as_user, locked, users
):
    supervisor = as_user("supervisor")
    form = {"username": "dealer", "ip_address": TERMINAL}
    response = supervisor.post(reverse("console:unlock-sign-in"), form, follow=True)
    assert response.status_code == 200
    assert f"dealer may sign in again from {TERMINAL}" in response.content.decode()
    assert lockouts.locked_out() == []
    assert "No sign-in is locked out." in response.content.decode()
    row = StaffAction.objects.get(action="unlock a sign-in")
    assert (row.username, row.channel, row.outcome, row.status_code) == (
        "supervisor",
        "console",
        "done",
        302,
    )
    assert json.loads(row.detail) == form
    client.logout()
    assert sign_in(client, "dealer") == 302  # signed in


def test_unlocking_one_address_leaves_the_others_locked(as_user, client, locked, settings):
    fail_to_sign_in(client, "dealer", settings.AXES_FAILURE_LIMIT, address="10.0.0.6")
    form = {"username": "dealer", "ip_address": TERMINAL}
    as_user("administrator").post(reverse("console:unlock-sign-in"), form)
    assert [(lock.username, lock.ip_address) for lock in lockouts.locked_out()] == [
        ("dealer", "10.0.0.6")
    ]


def test_a_lock_ends_by_itself_at_the_end_of_its_cool_off_and_a_try_while_locked_extends_it(
    client, locked
):
    assert len(lockouts.locked_out(locked + timedelta(minutes=15) - timedelta(seconds=1))) == 1
    assert lockouts.locked_out(locked + timedelta(minutes=15)) == []
    assert sign_in(client, "dealer") == 429  # even with the right password: one more failure
    (lock,) = lockouts.locked_out()
    assert lock.failures == 6 and lock.last_failure > locked


def test_unlocking_what_is_not_locked_says_so_and_a_bad_address_is_refused(as_user, locked):
    supervisor = as_user("supervisor")
    form = {"username": "compliance", "ip_address": TERMINAL}
    response = supervisor.post(reverse("console:unlock-sign-in"), form, follow=True)
    assert f"compliance from {TERMINAL} was not locked out: nothing to unlock" in (
        response.content.decode()
    )
    refused = supervisor.post(
        reverse("console:unlock-sign-in"), {"username": "dealer", "ip_address": "terminal 5"}
    )
    assert refused.status_code == 400
    assert "nothing unlocked: Enter a valid IPv4 or IPv6 address." in refused.content.decode()
    assert len(lockouts.locked_out()) == 1  # still locked
    row = StaffAction.objects.filter(action="unlock a sign-in").latest("at", "id")
    assert (row.outcome, row.status_code) == ("refused", 400)


@pytest.mark.parametrize("who", ["dealer", "compliance", "no_role", "not_staff"])
def test_no_other_role_sees_or_unlocks_a_lock(as_user, locked, who):
    client = as_user(who)
    assert client.get(reverse("console:locked-sign-ins")).status_code == 403
    form = {"username": "dealer", "ip_address": TERMINAL}
    assert client.post(reverse("console:unlock-sign-in"), form).status_code == 403
    assert len(lockouts.locked_out()) == 1


def test_the_page_is_in_the_navigation_of_supervisors_only(as_user, users):
    link = reverse("console:locked-sign-ins")
    assert link in as_user("supervisor").get(reverse("console:floor")).content.decode()
    assert link not in as_user("dealer").get(reverse("console:floor")).content.decode()
