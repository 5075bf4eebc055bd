"""Fixtures for the floor service tests: a frozen, steppable clock and the staff on duty."""

from __future__ import annotations

import pytest

from cardroom.roles import Role
from tests.factories import UserFactory
from tests.floor.builders import FrozenClock, Staff


@pytest.fixture
def clock():
    """Freeze the clock every service reads; the test advances it; unfrozen at teardown."""
    frozen = FrozenClock()
    frozen.start()
    try:
        yield frozen
    finally:
        frozen.stop()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """The staff factories hash a password; the default hasher costs ~0.5 s a user."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def staff(db) -> Staff:
    return Staff(
        supervisor=UserFactory(role=Role.FLOOR_SUPERVISOR),
        dealer=UserFactory(role=Role.HOUSE_DEALER),
    )
