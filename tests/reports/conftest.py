"""Fixtures for the report tests: the compliance day, a media directory of their own."""

from __future__ import annotations

import pytest

from tests.builders.reports import compliance_day


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def day(db, clock):
    return compliance_day(clock)
