"""The one place the system reads the time, so tests can drive a controllable clock.

Every recorded timestamp (offers, transitions, seatings) comes from ``now()``;
the 40-minute rotation rule is checked against it too.
"""

from __future__ import annotations

from datetime import date, datetime

from django.utils import timezone

_frozen: datetime | None = None


def now() -> datetime:
    return _frozen if _frozen is not None else timezone.now()


def today() -> date:
    """The cardroom's local date now (TIME_ZONE), e.g. for retention dates and badges."""
    return timezone.localdate(now())


def freeze(moment: datetime | None) -> None:
    """Pin the clock at ``moment`` (None lets it run again). For tests and the simulator."""
    global _frozen
    _frozen = moment
