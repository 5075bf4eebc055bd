"""Fixtures for the console's view tests: a user of every role to sign in as, a table ready
to play (the staff and the settings are tests/conftest.py's)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from cardroom.roles import Role
from tables.models import DealMode
from tests.builders.factories import UserFactory
from tests.builders.money import money_table


@pytest.fixture
def users(supervisor, dealer, compliance, administrator) -> dict[str, User]:
    """One staff user per role, plus a staff user with no role and a non-staff user."""
    made = {
        "supervisor": supervisor,
        "dealer": dealer,
        "compliance": compliance,
        "administrator": administrator,
    }
    made["no_role"] = UserFactory(username="no_role")
    made["not_staff"] = UserFactory(username="not_staff", is_staff=False, role=Role.HOUSE_DEALER)
    return made


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
