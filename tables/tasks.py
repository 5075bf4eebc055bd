"""The floor's clock work, on the beat schedule (CELERY_BEAT_SCHEDULE)."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="tables.sweep_waitlists")
def sweep_waitlists() -> int:
    """Calls not answered in time are passed over (and the next player called), call-ins
    not checked in lapse (docs/rules.md §3.6). Answers how many events were recorded."""
    from tables.services import waitlists

    return waitlists.sweep()
