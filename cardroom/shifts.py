"""Shifts of the gaming day, a setting of the cardroom (docs/rules.md §10.4: the drop is
counted per table and shift).

``CARDROOM_SHIFTS`` (env ``CARDROOM_SHIFTS``) lists each shift's name and local start time in
the order they run, e.g. ``day=06:00,swing=14:00,graveyard=22:00``. The first shift starts
when the gaming day starts (``GAMING_DAY_START``); each runs until the next one starts, the
last until the next gaming day. Unset, three eight-hour shifts start at the gaming day start.
Times are wall-clock times in the cardroom's TIME_ZONE, so a shift across a daylight-saving
change is an hour shorter or longer, like the gaming day itself.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Sequence

from django.core.exceptions import ImproperlyConfigured

from cardroom.errors import Rule, RuleError
from cardroom.gaming_day import gaming_day_of, gaming_day_start

_ENTRY = re.compile(
    r"^(?P<name>[a-z][a-z0-9_-]{0,31})=(?P<hour>[01]\d|2[0-3]):(?P<minute>[0-5]\d)$"
)
DEFAULT_NAMES = ("day", "swing", "graveyard")

Shifts = tuple[tuple[str, datetime.time], ...]


def _minutes(value: datetime.time) -> int:
    return value.hour * 60 + value.minute


def parse_shifts(value: str, day_start: datetime.time) -> Shifts:
    """The shifts in order, or ImproperlyConfigured: a typo here would move money between boxes."""
    if not value.strip():
        start = _minutes(day_start)
        return tuple(
            (name, _time((start + 8 * 60 * i) % (24 * 60))) for i, name in enumerate(DEFAULT_NAMES)
        )
    shifts = []
    for entry in value.split(","):
        match = _ENTRY.match(entry.strip())
        if match is None:
            raise ImproperlyConfigured(
                "CARDROOM_SHIFTS is a comma-separated list of name=HH:MM (lower-case names), "
                f"e.g. day=06:00,swing=14:00,graveyard=22:00; got {entry.strip()!r}"
            )
        shifts.append((match["name"], datetime.time(int(match["hour"]), int(match["minute"]))))
    names = [name for name, _ in shifts]
    if len(set(names)) != len(names):
        raise ImproperlyConfigured(f"CARDROOM_SHIFTS names each shift once, got {names}")
    if shifts[0][1] != day_start:
        raise ImproperlyConfigured(
            f"the first shift ({shifts[0][0]}) must start when the gaming day starts "
            f"({day_start:%H:%M}), not at {shifts[0][1]:%H:%M}"
        )
    offsets = [_offset(start, day_start) for _, start in shifts]
    if offsets != sorted(offsets) or len(set(offsets)) != len(offsets):
        raise ImproperlyConfigured(
            "CARDROOM_SHIFTS lists the shifts in the order they run within the gaming day"
        )
    return tuple(shifts)


def _time(minutes: int) -> datetime.time:
    return datetime.time(minutes // 60, minutes % 60)


def _offset(start: datetime.time, day_start: datetime.time) -> int:
    """Minutes from the gaming day start to ``start``."""
    return (_minutes(start) - _minutes(day_start)) % (24 * 60)


def _settings() -> tuple[Shifts, datetime.time]:
    from django.conf import settings

    day_start = settings.CARDROOM_GAMING_DAY_START
    configured = getattr(settings, "CARDROOM_SHIFTS", None) or parse_shifts("", day_start)
    if configured[0][1] != day_start:
        raise ImproperlyConfigured(
            f"CARDROOM_SHIFTS starts at {configured[0][1]:%H:%M} but the gaming day at "
            f"{day_start:%H:%M}"
        )
    return configured, day_start


def names() -> list[str]:
    return [name for name, _ in _settings()[0]]


def locate(moment: datetime.datetime) -> tuple[datetime.date, str]:
    """The (gaming day, shift) ``moment`` falls in."""
    from django.utils import timezone

    shifts, day_start = _settings()
    local = timezone.localtime(moment)
    since = _offset(local.time().replace(second=0, microsecond=0), day_start)
    current = shifts[0][0]
    for name, start in shifts:
        if _offset(start, day_start) <= since:
            current = name
    return gaming_day_of(moment), current


def window(gaming_day: datetime.date, shift: str) -> tuple[datetime.datetime, datetime.datetime]:
    """When ``shift`` of ``gaming_day`` starts and ends (end excluded), as aware datetimes."""
    shifts, day_start = _settings()
    offsets: Sequence[int] = [_offset(start, day_start) for _, start in shifts]
    names_ = [name for name, _ in shifts]
    if shift not in names_:
        raise RuleError(
            f"{shift!r} is not a shift of this cardroom ({', '.join(names_)})",
            rule=Rule.SHIFTS,
            field="shift",
        )
    index = names_.index(shift)
    end = offsets[index + 1] if index + 1 < len(offsets) else 24 * 60
    return (
        gaming_day_start(gaming_day, minutes=offsets[index]),
        gaming_day_start(gaming_day, minutes=end),
    )
