"""Parsing of the gaming-day boundary.

A cardroom's gaming day (the accounting day for fees and drops) starts at a fixed local
time rather than midnight. It is configured as ``HH:MM`` and kept strict: a typo here would
silently move money between days, so anything but a valid 24-hour ``HH:MM`` is refused.
"""

import datetime
import re

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
