"""Fixtures for the console's view tests: staff of every role, a table ready to play."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache

from cardroom.roles import Role
from console.views.pages import FLOOR_CACHE_KEY
from tables.models import DealMode
from tests.factories import UserFactory
from tests.money.builders import Staff, money_table


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_floor_map(settings):
    """Every test sees the floor as it is (the shared floor-map cache is tested apart)."""
    settings.CONSOLE_FLOOR_CACHE_SECONDS = 0
    cache.delete(FLOOR_CACHE_KEY)


ROLES = {
    "supervisor": Role.FLOOR_SUPERVISOR,
    "dealer": Role.HOUSE_DEALER,
    "compliance": Role.COMPLIANCE_OFFICER,
    "administrator": Role.ADMINISTRATOR,
}


@pytest.fixture
def users(db) -> dict[str, User]:
    """One staff user per role, plus a staff user with no role and a non-staff user."""
    made = {name: UserFactory(username=name, role=role) for name, role in ROLES.items()}
    made["no_role"] = UserFactory(username="no_role")
    made["not_staff"] = UserFactory(username="not_staff", is_staff=False, role=Role.HOUSE_DEALER)
    return made


@pytest.fixture
def staff(users) -> Staff:
    return Staff(supervisor=users["supervisor"], dealer=users["dealer"])


@pytest.fixture
def as_user(client, users):
    def sign_in(name: str):
        client.force_login(users[name])
        return client

    return sign_in


@pytest.fixture
def card_table(staff):
    """Seats 1-4 seated with $500 each, card entry, a game open (offers start at seat 1)."""
    return money_table(
        staff, {1: 50_000, 2: 50_000, 3: 50_000, 4: 50_000}, deal_mode=DealMode.CARD_ENTRY
    )
