"""The beat's waitlist sweeper run by a real Celery worker (Redis, the test database): a call
not answered in time is passed over by the clock and the next player is called."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tables.models import WaitlistEvent
from tables.services import waitlists
from tables.tasks import sweep_waitlists
from tests.builders.floor import make_player, open_floor

pytestmark = [
    pytest.mark.requires_postgres,
    pytest.mark.requires_redis,
    pytest.mark.django_db(transaction=True),
]


def test_the_worker_passes_over_a_missed_call_and_calls_the_next(
    celery_worker_process, clock, staff
):
    # The call was made ten minutes ago (the worker reads the real clock).
    clock.set(timezone.now() - timedelta(minutes=10))
    f = open_floor("PPPP..", staff=staff, minimum_cents=4200, maximum_cents=420_000)
    row = waitlists.open_waitlist(minimum_cents=4200, maximum_cents=420_000, by=staff.supervisor)
    first, second = make_player(), make_player()
    for p in (first, second):
        waitlists.join(waitlist_id=row.pk, player_id=p.pk, by=staff.supervisor)
    waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=5, by=staff.supervisor)
    clock.stop()
    assert sweep_waitlists.delay().get(timeout=60) == 2
    passed, called = WaitlistEvent.objects.filter(waitlist=row).order_by("-id")[:2][::-1]
    assert (passed.kind, passed.player_id, passed.by) == ("passed_over", first.pk, None)
    assert (called.kind, called.player_id, called.seat) == ("called", second.pk, 5)
    # Its deadline, not the sweep's time: three minutes after the call.
    assert passed.at == WaitlistEvent.objects.get(waitlist=row, kind="called", player=first).at + (
        timedelta(minutes=3)
    )
