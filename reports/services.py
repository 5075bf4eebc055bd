"""Report requests: asked for, run by a worker, stored with a checksum, downloaded.

- ``request_report``: one row per report type and parameters while queued or running
  (a partial unique constraint, and the row locked); a new row is enqueued on commit. A
  running row whose lease has expired is a dead run (its worker was killed): asking
  again re-enqueues it instead of returning a run that will never finish.
- ``run_report`` (the Celery task's body): claims the row, generates the file from one
  consistent snapshot of the database, stores it through Django's storage API and
  records the checksum. Generation is deterministic, so a retry after a crash gives the
  same bytes and the same checksum.
- ``download``: the stored file, checksum verified first, every download recorded.
"""

from __future__ import annotations

import hashlib
import logging
import tempfile
import uuid
from dataclasses import dataclass
from datetime import date, timedelta

from django.conf import settings
from django.core.files import File
from django.core.files.storage import default_storage
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from cardroom.clock import now, today
from cardroom.errors import Rule, RuleError, State, StateError
from cardroom.gaming_day import gaming_day_of
from reports.models import (
    IN_FLIGHT_STATUSES,
    ReportDownload,
    ReportRequest,
    ReportStatus,
    ReportType,
)

from . import registry
from .parameters import normalise, parameters_key, period_of
from .writers import WRITERS

log = logging.getLogger(__name__)
COPY_CHUNK = 1 << 20


def _years_after(day: date, years: int) -> date:
    try:
        return day.replace(year=day.year + years)
    except ValueError:  # 29 February: keep it one day longer rather than one day shorter
        return date(day.year + years, 3, 1)


def retention_until(report_type: str, requested: date) -> date:
    accounting = registry.REGISTRY[report_type].accounting
    years = (
        settings.REPORTS_ACCOUNTING_RETENTION_YEARS
        if accounting
        else settings.REPORTS_RETENTION_YEARS
    )
    return _years_after(requested, years)


def _lease():
    return now() + timedelta(
        seconds=settings.REPORTS_HARD_TIME_LIMIT + settings.REPORTS_LEASE_GRACE
    )


def _enqueue(report: ReportRequest) -> None:
    from reports.tasks import generate_report

    generate_report.apply_async(args=[report.pk], task_id=report.task_id)


@dataclass(frozen=True)
class Requested:
    report: ReportRequest
    created: bool  # False: an identical request was already queued or running


def request_report(*, report_type: str, parameters: dict, by, scheduled: bool = False) -> Requested:
    kind = registry.kind_of(report_type)
    if kind is None:
        known = ", ".join(sorted(registry.REGISTRY))
        raise RuleError(
            f"{report_type!r} is not a report this system produces ({known})",
            rule=Rule.REPORTS,
            field="report_type",
        )
    moment = now()
    normalised = normalise(
        report_type, parameters, formats=kind.formats, today=gaming_day_of(moment)
    )
    key = parameters_key(normalised)
    with transaction.atomic():
        in_flight = ReportRequest.objects.select_for_update().filter(
            report_type=report_type, parameters_key=key, status__in=IN_FLIGHT_STATUSES
        )
        existing = in_flight.first()
        if existing is None:
            try:
                with transaction.atomic():
                    report = ReportRequest.objects.create(
                        report_type=report_type,
                        parameters=normalised,
                        parameters_key=key,
                        requested_by=by,
                        requested_at=moment,
                        scheduled=scheduled,
                        task_id=str(uuid.uuid4()),
                        retention_until=retention_until(report_type, timezone.localdate(moment)),
                    )
            except IntegrityError:
                # A concurrent identical request committed first: that one is the run
                # (it may even have finished already: answer it all the same).
                same = ReportRequest.objects.filter(report_type=report_type, parameters_key=key)
                return Requested(same.latest("requested_at", "id"), created=False)
            transaction.on_commit(lambda: _enqueue(report))
            return Requested(report, created=True)
        lease = existing.lease_expires_at
        if existing.status == ReportStatus.RUNNING and (lease is None or lease <= moment):
            log.warning("report %s: run %s outlived its lease; re-enqueued", existing.pk,
                        existing.task_id)  # fmt: skip
            existing.status = ReportStatus.QUEUED
            existing.task_id = str(uuid.uuid4())  # the dead run's late answer is ignored
            existing.failure_reason = (
                f"attempt {existing.attempts} stopped answering (lease expired "
                f"{existing.lease_expires_at.isoformat()}); re-enqueued"
            )
            existing.save(update_fields=["status", "task_id", "failure_reason"])
            transaction.on_commit(lambda: _enqueue(existing))
        return Requested(existing, created=False)


def _claim(report_id: int, task_id: str) -> ReportRequest | None:
    """Mark the row running for this task, or None if this task no longer owns it.

    A running row with this task's own id is the same message delivered again: the broker
    redelivers only a task whose worker died (the hard time limit is far below Redis's
    visibility timeout), so that earlier run is dead and this one takes over.
    """
    with transaction.atomic():
        report = ReportRequest.objects.select_for_update().get(pk=report_id)
        if report.task_id != task_id or report.status not in IN_FLIGHT_STATUSES:
            log.info("report %s: task %s no longer owns it (%s)", report_id, task_id,
                     report.status)  # fmt: skip
            return None
        report.status = ReportStatus.RUNNING
        report.attempts += 1
        report.started_at = now()
        report.lease_expires_at = _lease()
        report.save(update_fields=["status", "attempts", "started_at", "lease_expires_at"])
        return report


def file_name(report: ReportRequest) -> str:
    parameters = report.parameters
    days = parameters["from_day"]
    if parameters["to_day"] != parameters["from_day"]:
        days += f"_to_{parameters['to_day']}"
    scope = "all-tables" if parameters["table"] is None else f"table-{parameters['table']}"
    slug = registry.REGISTRY[report.report_type].slug
    return f"{slug}_{days}_{scope}.{WRITERS[parameters['format']][2]}"


@dataclass(frozen=True)
class Generated:
    rows: int
    sha256: str
    size: int
    period_open: bool


def generate(report_type: str, parameters: dict, out) -> Generated:
    """Write the report for ``parameters`` into the binary file ``out``.

    One read-only REPEATABLE READ transaction on PostgreSQL: every section sees the same
    snapshot, and its cursors stream without being materialised (no WITH HOLD).
    """
    period = period_of(parameters)
    is_open = period.is_open(now())
    kind = registry.REGISTRY[report_type]
    if kind.render is not None:
        data, rows = kind.render(period, parameters["format"])
        out.write(data)
        return Generated(rows, hashlib.sha256(data).hexdigest(), len(data), is_open)
    writer = WRITERS[parameters["format"]][0]
    outermost = not connection.in_atomic_block  # inside a test's transaction: no SET
    with transaction.atomic():
        if connection.vendor == "postgresql" and outermost:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        written = writer(registry.build(report_type, period, is_open=is_open), out)
    return Generated(written.rows, written.sha256, written.size, is_open)


def run_report(report_id: int, *, task_id: str) -> ReportRequest | None:
    report = _claim(report_id, task_id)
    if report is None:
        return None
    name = file_name(report)
    with tempfile.TemporaryFile() as out:
        generated = generate(report.report_type, report.parameters, out)
        out.seek(0)
        # The checksum is in the path: a retry after a crash finds its identical file.
        path = f"reports/{report.report_type}/{report.pk}/{generated.sha256[:16]}/{name}"
        if not default_storage.exists(path):
            path = default_storage.save(path, File(out, name=name))
    with transaction.atomic():
        report = ReportRequest.objects.select_for_update().get(pk=report_id)
        if report.task_id != task_id or report.status != ReportStatus.RUNNING:
            log.info("report %s: finished by another run; task %s's result dropped",
                     report_id, task_id)  # fmt: skip
            return None
        report.status = ReportStatus.DONE
        report.finished_at = now()
        report.lease_expires_at = None
        report.row_count = generated.rows
        report.period_open = generated.period_open
        report.file = path
        report.file_name = name
        report.content_type = WRITERS[report.parameters["format"]][1]
        report.size_bytes = generated.size
        report.sha256 = generated.sha256
        report.failure_reason = ""
        report.save()
        return report


def fail(report_id: int, *, task_id: str, reason: str) -> None:
    """Record why a run failed; the row leaves the in-flight set, so asking again starts anew."""
    with transaction.atomic():
        report = ReportRequest.objects.select_for_update().get(pk=report_id)
        if report.task_id != task_id or report.status not in IN_FLIGHT_STATUSES:
            return
        report.status = ReportStatus.FAILED
        report.finished_at = now()
        report.lease_expires_at = None
        report.failure_reason = reason[:2000]
        report.save(update_fields=["status", "finished_at", "lease_expires_at", "failure_reason"])


# --- Downloads ------------------------------------------------------------------------------


def download(*, report_id: int, by, remote_addr: str = "") -> tuple[ReportRequest, object]:
    """A verified copy of the stored file (a temporary file, positioned at 0), download logged.

    The file is hashed while it is copied, and the copy is what is served: what the
    client receives is exactly what was verified.
    """
    report = ReportRequest.objects.get(pk=report_id)
    if report.file_purged_at is not None:
        raise StateError(
            f"report {report.pk} was kept until {report.retention_until.isoformat()}; its file "
            f"was deleted on {timezone.localdate(report.file_purged_at).isoformat()}",
            state=State.REPORT_PURGED,
            rule=Rule.RETENTION,
        )
    if report.status != ReportStatus.DONE:
        raise StateError(
            f"report {report.pk} is {report.status}; it can be downloaded once done",
            state=State(report.status),
            rule=Rule.REPORT_INTEGRITY,
        )
    digest = hashlib.sha256()
    copy = tempfile.TemporaryFile()  # noqa: SIM115 - handed to the response, which closes it
    try:
        with default_storage.open(report.file.name, "rb") as stored:
            while chunk := stored.read(COPY_CHUNK):
                digest.update(chunk)
                copy.write(chunk)
    except FileNotFoundError:
        copy.close()
        log.error("report %s: stored file %s is missing", report.pk, report.file.name)
        raise StateError(
            f"the stored file of report {report.pk} is missing; it is not served",
            state=State.FILE_MISSING,
            rule=Rule.REPORT_INTEGRITY,
        ) from None
    if digest.hexdigest() != report.sha256:
        copy.close()
        log.error("report %s: checksum mismatch (stored %s, recorded %s)", report.pk,
                  digest.hexdigest(), report.sha256)  # fmt: skip
        raise StateError(
            f"the stored file of report {report.pk} does not match its recorded SHA-256 "
            f"({report.sha256}); it has been altered or damaged and is not served",
            state=State.CHECKSUM_MISMATCH,
            rule=Rule.REPORT_INTEGRITY,
        )
    ReportDownload.objects.create(
        report=report,
        downloaded_by=by,
        downloaded_at=now(),
        sha256=report.sha256,
        remote_addr=remote_addr[:64],
    )
    copy.seek(0)
    return report, copy


# --- Retention ------------------------------------------------------------------------------


def purge_report_file(*, report_id: int) -> ReportRequest:
    """Delete a stored file whose retention has passed (docs/rules.md §10.6); refused before.

    The request row stays, with its checksum and download log: the record that the report
    existed and what it was outlives the file. Purging twice does nothing more.
    """
    with transaction.atomic():
        report = ReportRequest.objects.select_for_update().get(pk=report_id)
        if refusal := report.retention_refusal(today()):
            raise refusal
        if report.file_purged_at is not None:
            return report
        name = report.file.name
        report.file_purged_at = now()
        report.save(update_fields=["file_purged_at"])
        if name:
            transaction.on_commit(lambda: default_storage.delete(name))
        return report


def expired_reports(*, on: date | None = None):
    """Reports whose retention has passed by ``on`` (today) and whose file is still stored."""
    return ReportRequest.objects.filter(
        retention_until__lte=on or today(), file_purged_at__isnull=True
    ).exclude(file="")


def purge_expired_reports() -> list[int]:
    """Purge every file past its retention (the daily beat schedule runs this)."""
    purged = []
    for report_id in expired_reports().values_list("pk", flat=True):
        purge_report_file(report_id=report_id)
        purged.append(report_id)
    return purged


# --- The daily schedule ---------------------------------------------------------------------


SCHEDULER_USERNAME = "report-scheduler"


def scheduler_user():
    """The user recorded as requester of scheduled reports (no password, no roles)."""
    from django.contrib.auth import get_user_model

    user, created = get_user_model().objects.get_or_create(username=SCHEDULER_USERNAME)
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def request_daily_reports(*, by=None, day: date | None = None) -> list[Requested]:
    """Every daily report (all tables, default format) for the gaming day that just closed."""
    by = by or scheduler_user()
    if day is None:
        day = gaming_day_of(now()) - timedelta(days=1)
    return [
        request_report(
            report_type=report_type,
            parameters={"gaming_day": day.isoformat()},
            by=by,
            scheduled=True,
        )
        for report_type, kind in registry.REGISTRY.items()
        if kind.daily
    ]


__all__ = ["ReportType", "download", "generate", "request_report", "run_report"]
