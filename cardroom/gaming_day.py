"""Parsing of the gaming-day boundary.

A cardroom's gaming day (the accounting day for fees and drops) starts at a fixed local
time rather than midnight. It is configured as ``HH:MM`` and kept strict: a typo here would
silently move money between days, so anything but a valid 24-hour ``HH:MM`` is refused.
"""

import datetime
import re
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

_HH_MM = re.compile(r"^(?P<hour>[01]\d|2[0-3]):(?P<minute>[0-5]\d)$")


def parse_gaming_day_start(value: str) -> datetime.time:
    """Return the ``datetime.time`` for an ``HH:MM`` string or raise ImproperlyConfigured."""
    match = _HH_MM.match(value.strip())
    if match is None:
        raise ImproperlyConfigured(
            f"GAMING_DAY_START must be a 24-hour time written HH:MM (e.g. 06:00), got {value!r}"
        )
    return datetime.time(int(match["hour"]), int(match["minute"]))


def gaming_day_start(day: datetime.date, *, minutes: int = 0) -> datetime.datetime:
    """The instant gaming day ``day`` begins (GAMING_DAY_START, local time), or the instant
    ``minutes`` of wall-clock time later (a shift's start: an hour shorter or longer across a
    daylight-saving change, like the gaming day itself)."""
    start = datetime.datetime.combine(day, settings.CARDROOM_GAMING_DAY_START)
    return (start + datetime.timedelta(minutes=minutes)).replace(
        tzinfo=ZoneInfo(settings.TIME_ZONE)
    )


def gaming_day_window(day: datetime.date) -> tuple[datetime.datetime, datetime.datetime]:
    """When gaming day ``day`` starts and ends (end excluded)."""
    return gaming_day_start(day), gaming_day_start(day + datetime.timedelta(days=1))


def gaming_day_of(moment: datetime.datetime) -> datetime.date:
    """The gaming day an instant belongs to."""
    local = moment.astimezone(ZoneInfo(settings.TIME_ZONE))
    if local.time() < settings.CARDROOM_GAMING_DAY_START:
        return local.date() - datetime.timedelta(days=1)
    return local.date()
