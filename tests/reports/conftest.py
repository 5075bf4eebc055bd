"""Fixtures for the report tests: the compliance day, staff clients, a clean clock."""

from __future__ import annotations

import pytest

from cardroom import clock
from tests.tables.conftest import (  # noqa: F401  (fixtures, registered by import)
    _fast_passwords,
    administrator,
    api,
    as_compliance,
    as_dealer,
    as_supervisor,
    compliance,
    dealer,
    supervisor,
)

from .builders import compliance_day


@pytest.fixture(autouse=True)
def _clock():
    yield
    clock.freeze(None)


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def day(db):
    return compliance_day()
