"""Sign-ins locked out by django-axes, and unlocking one (docs/console.md, "Throttling").

``AXES_FAILURE_LIMIT`` failed sign-ins for one user name from one address lock that pair (the
console's sign-in and the API's token sign-in alike) for ``AXES_COOLOFF_MINUTES`` after the
last failure. axes keeps one ``AccessAttempt`` row per pair: its failures, and the time of the
last one (a try while locked counts as one). A floor supervisor (or an administrator) sees the
pairs locked now and may unlock one before the cool-off ends (the console's "Locked sign-ins"
page); the unlock, like every write, is on the staff-action trail.

- ``locked_out(moment)``: the pairs locked at ``moment`` (at least the limit of failures, the
  last within the cool-off), the longest locked first. Times are axes' own (Django's clock:
  it stamps the failures), not the cardroom's clock the services read.
- ``unlock(username, ip_address)``: the pair's failures forgotten (its rows deleted, as
  ``manage.py axes_reset_username`` does for a user name from every address); how many rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from axes.helpers import get_cool_off, get_failure_limit
from axes.models import AccessAttempt
from axes.utils import reset
from django.utils import timezone


@dataclass(frozen=True)
class Lockout:
    username: str
    ip_address: str
    failures: int
    last_failure: datetime  # the lock ends a cool-off after it (a try while locked is one)
    until: datetime  # when it ends by itself (the cool-off after the last failure)


def locked_out(moment: datetime | None = None) -> list[Lockout]:
    """Every user name and address locked out at ``moment`` (now)."""
    moment = moment or timezone.now()
    cool_off = get_cool_off()
    attempts = AccessAttempt.objects.filter(failures_since_start__gte=get_failure_limit(None, None))
    if cool_off is not None:
        attempts = attempts.filter(attempt_time__gt=moment - cool_off)
    return [
        Lockout(
            username=attempt.username or "",
            ip_address=attempt.ip_address or "",
            failures=attempt.failures_since_start,
            last_failure=attempt.attempt_time,
            until=attempt.attempt_time + cool_off if cool_off is not None else None,
        )
        for attempt in attempts.order_by("attempt_time", "id")
    ]


def unlock(*, username: str, ip_address: str) -> int:
    """Forget the failed sign-ins of ``username`` from ``ip_address``: it may sign in at once.
    Both are required (one pair, never every address of a user); 0 when none was recorded."""
    if not username or not ip_address:
        raise ValueError("a lock is one user name from one address: both are needed")
    return reset(username=username, ip=ip_address)
