"""Celery tasks of the compliance reports: thin wrappers around ``reports.services``."""

from celery import shared_task
from django.conf import settings

# Lost database connections and storage I/O errors are worth retrying; anything else
# (a bug, bad data) fails the report with its reason, visible to the requester.
REPORT_RETRIES = 5


def _transient_errors():
    from django.db import InterfaceError, OperationalError

    return (OperationalError, InterfaceError, OSError)


@shared_task(
    bind=True,
    name="reports.generate_report",
    acks_late=True,
    reject_on_worker_lost=True,
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
        if self.request.retries >= REPORT_RETRIES:
            services.fail(report_id, task_id=self.request.id, reason=f"gave up: {error!r}")
            raise
        # Exponential backoff: 5 s, 10 s, 20 s, ... (the row stays running meanwhile).
        raise self.retry(exc=error, countdown=5 * 2**self.request.retries) from error
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
