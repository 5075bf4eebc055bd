"""Celery tasks of the compliance reports: thin wrappers around ``reports.services``.

``generate_report`` is ``acks_late`` with ``reject_on_worker_lost``: its message is
acknowledged only when the run ends, and if the pool process running it dies (SIGKILL, the
OOM killer) the worker hands the message back to the queue at once, so another process
takes the dead run over (``services._claim``). If the worker's main process dies, the
message stays unacknowledged in Redis until the visibility timeout (2 h): the sweeper does
not wait for it, it queues the dead run again under a new task id within
``REPORTS_HEARTBEAT_TIMEOUT`` (at once on this host), and the old message, when Redis
hands it back, is dropped. Its result is not stored (``ignore_result``): the row is the
result.
"""

import logging

from celery import shared_task
from celery.signals import worker_ready
from django.conf import settings

log = logging.getLogger(__name__)


def _transient_errors():
    from django.db import InterfaceError, OperationalError

    return (OperationalError, InterfaceError, OSError)


@shared_task(
    bind=True,
    name="reports.generate_report",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    soft_time_limit=settings.REPORTS_SOFT_TIME_LIMIT,
    time_limit=settings.REPORTS_HARD_TIME_LIMIT,
)
def generate_report(self, report_id: int) -> dict | None:
    from celery.exceptions import SoftTimeLimitExceeded

    from reports import services

    try:
        report = services.run_report(report_id, task_id=self.request.id)
    except SoftTimeLimitExceeded:
        services.fail(
            report_id,
            task_id=self.request.id,
            reason=f"stopped at the time limit ({settings.REPORTS_SOFT_TIME_LIMIT} s)",
        )
        raise
    except _transient_errors() as error:
        # Lost database connections and storage I/O errors are worth another attempt, with
        # exponential backoff (5 s, 10 s, 20 s, ...; the row queued meanwhile, the task
        # handed over again like any other) while the row has attempts left; anything else
        # (a bug, bad data) fails the report with its reason, visible to the requester.
        from django.db import close_old_connections, connection

        if not connection.in_atomic_block:  # (run eagerly inside a caller's transaction: kept)
            close_old_connections()  # a connection that failed is replaced, not reused
        if services.retry_later(report_id, task_id=self.request.id, error=error) is None:
            raise
        return None
    except Exception as error:
        services.fail(report_id, task_id=self.request.id, reason=repr(error))
        raise
    if report is None:
        return None
    return {"report": report.pk, "sha256": report.sha256, "rows": report.row_count}


@shared_task(name="reports.request_daily_reports")
def request_daily_reports() -> list[int]:
    """Run by the beat schedule after each gaming day closes (CELERY_BEAT_SCHEDULE)."""
    from reports import services

    return [requested.report.pk for requested in services.request_daily_reports()]


@shared_task(name="reports.purge_expired_reports")
def purge_expired_reports() -> list[int]:
    """Run by the beat schedule daily: files past their retention are deleted."""
    from reports import services

    return services.purge_expired_reports()


@shared_task(name="reports.sweep_reports")
def sweep_reports() -> dict:
    """Run by the beat schedule every REPORTS_SWEEP_INTERVAL seconds (docs/reports.md)."""
    from dataclasses import asdict

    from reports import services

    return asdict(services.sweep())


@worker_ready.connect
def sweep_when_a_worker_starts(sender=None, **kwargs) -> None:
    """A worker that starts sweeps once: what a dead worker left running, or what was
    requested while no broker answered, runs now rather than at the next beat."""
    from django.db import DatabaseError, connection

    from reports import services

    try:
        services.sweep()
    except DatabaseError:
        log.exception("reports: the sweep at worker start failed; the beat schedule retries")
    finally:
        connection.close()
