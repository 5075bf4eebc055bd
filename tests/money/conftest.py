"""Fixtures for the money tests: staff on duty, cheap password hashing, a pinned clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from cardroom.clock import freeze
from tests.money.builders import Staff, make_staff


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """The staff factories hash a password; the default hasher costs ~0.5 s a user."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def staff(db) -> Staff:
    return make_staff()


class SteppedClock:
    """The clock every service reads, pinned and moved only by ``step``."""

    def __init__(self, moment: datetime) -> None:
        self.moment = moment
        freeze(moment)

    def step(self, **delta: float) -> datetime:
        self.moment += timedelta(**delta)
        freeze(self.moment)
        return self.moment


@pytest.fixture
def clock():
    stepped = SteppedClock(datetime(2026, 11, 20, 18, 0, tzinfo=UTC))
    try:
        yield stepped
    finally:
        freeze(None)
