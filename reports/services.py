"""Report requests: asked for, run by a worker, stored with a checksum, downloaded.

- ``request_report``: one row per report type and parameters while queued or running
  (a partial unique constraint, and the row locked); a new row is handed to the queue on
  commit, and answered whether or not the broker took it (``reports.queue``). Asking
  again for a row the broker never took hands it over again; for a dead run (its process
  gone, its heartbeat stale, its lease passed) queues it again.
- ``sweep`` (the beat schedule every minute, and each worker as it starts): the same for
  every row in flight: queued rows the broker never took (or took long ago) are handed
  over, dead runs are queued again with a fresh task id, or failed once they have had
  ``REPORTS_MAX_ATTEMPTS`` attempts.
- ``run_report`` (the Celery task's body): claims the row (refused while another live
  process runs it), generates the file from one consistent snapshot of the database while
  a heartbeat thread marks the row alive, stores it through Django's storage API and
  records the checksum. Generation is deterministic, so a re-run after a crash gives the
  same bytes and the same checksum.
- ``download``: the stored file, checksum verified first, every download recorded.
"""

from __future__ import annotations

import hashlib
import logging
import tempfile
import uuid
from dataclasses import dataclass, field
from datetime import date, timedelta

from django.conf import settings
from django.core.files import File
from django.core.files.storage import default_storage
from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone

from cardroom.clock import now, today
from cardroom.errors import Rule, RuleError, State, StateError
from cardroom.gaming_day import gaming_day_of
from reports.models import (
    IN_FLIGHT_STATUSES,
    QueueState,
    ReportDownload,
    ReportRequest,
    ReportStatus,
    ReportType,
)

from . import queue, registry, runs
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


def _hand_over(report: ReportRequest, countdown: int | None = None) -> None:
    """Hand the row's task to the queue (after the commit that queued it) and record how
    it went, on the row and on ``report``. A failure leaves the row queued for the sweeper."""
    error = queue.hand_over(report.pk, report.task_id, countdown=countdown)
    mine = ReportRequest.objects.filter(pk=report.pk, task_id=report.task_id)
    if error is None:
        report.enqueued_at, report.enqueue_error = now(), ""
        report.hand_overs += 1
        report.message_missing_since = None
        mine.update(
            enqueued_at=report.enqueued_at,
            enqueue_error="",
            hand_overs=F("hand_overs") + 1,
            message_missing_since=None,
        )
    else:
        report.enqueue_error = error
        mine.filter(status=ReportStatus.QUEUED).update(enqueue_error=error)


# A message a worker is taking is out of the queue, and not yet recorded as taken, for an
# instant: a task is judged lost only when the broker held it at neither of two looks this far
# apart (the sweeper's, a sweep interval apart; or a repeated request's).
MISSING_GRACE = timedelta(seconds=1)


def _needs_hand_over(
    report: ReportRequest, moment, *, pending: bool, held: frozenset[str] | None
) -> bool:
    """A queued row whose task the broker refused, lost or (``pending``) never got.

    A task the broker took is lost when it no longer holds it (``held``: the task ids it holds,
    asked before ``moment``): noticed at one look (``message_missing_since``), handed over at
    the next, ``MISSING_GRACE`` later at least. When the broker cannot be asked (``held`` is
    None), a task it took ``REPORTS_RESEND_AFTER`` ago is handed over again."""
    state = report.queue_state
    if state == QueueState.UNREACHABLE:
        return True
    if state == QueueState.PENDING:
        return pending
    if held is None:
        resend = timedelta(seconds=settings.REPORTS_RESEND_AFTER)
        return report.enqueued_at <= moment - resend
    if report.task_id in held or report.enqueued_at >= moment:  # held, or handed over since
        if report.message_missing_since is not None:
            report.message_missing_since = None
            report.save(update_fields=["message_missing_since"])
        return False
    if report.message_missing_since is None:
        log.warning("report %s: the report queue no longer holds its task %s (handed over at "
                    "%s); handed over again if still missing at the next look", report.pk,
                    report.task_id, report.enqueued_at.isoformat())  # fmt: skip
        report.message_missing_since = moment
        report.save(update_fields=["message_missing_since"])
        return False
    return report.message_missing_since <= moment - MISSING_GRACE


def _run_lost(report: ReportRequest, why: str, moment) -> bool:
    """A dead run (``why``): fail the row once its attempts are used up (True), else leave it
    for the caller to run again (False)."""
    if report.attempts < settings.REPORTS_MAX_ATTEMPTS:
        return False
    log.error("report %s: attempt %s stopped (%s); no attempt left", report.pk,
              report.attempts, why)  # fmt: skip
    report.status = ReportStatus.FAILED
    report.finished_at = moment
    report.lease_expires_at = None
    report.failure_reason = (
        f"attempt {report.attempts} stopped ({why}); {report.attempts} attempts made, the "
        f"most allowed (REPORTS_MAX_ATTEMPTS)"
    )
    report.save(update_fields=["status", "finished_at", "lease_expires_at", "failure_reason"])
    return True


def _recover(
    report: ReportRequest, moment, *, pending: bool, held: frozenset[str] | None = None
) -> str | None:
    """Under the row's lock: queue a dead run again (new task id; "requeued"), or fail it
    ("failed"); hand a queued row the broker did not take, or lost, over again (same task id,
    so a second message is harmless: only one delivery claims the row; "handed_over"); None
    for a row that is fine as it is (``_needs_hand_over``: ``held`` is what the broker holds)."""
    if report.status == ReportStatus.RUNNING:
        why = runs.why_dead(report, moment)
        if why is None:
            return None
        if _run_lost(report, why, moment):
            return "failed"
        log.warning("report %s: attempt %s stopped (%s); queued again", report.pk,
                    report.attempts, why)  # fmt: skip
        report.status = ReportStatus.QUEUED
        report.task_id = str(uuid.uuid4())  # the dead run's late answer is ignored
        report.lease_expires_at = report.heartbeat_at = report.enqueued_at = None
        report.message_missing_since = None
        report.queued_at = moment
        report.runner = report.enqueue_error = ""
        report.failure_reason = f"attempt {report.attempts} stopped ({why}); queued again"
        report.save(update_fields=[
            "status", "task_id", "lease_expires_at", "heartbeat_at", "enqueued_at", "runner",
            "enqueue_error", "failure_reason", "queued_at", "message_missing_since",
        ])  # fmt: skip
        transaction.on_commit(lambda: _hand_over(report))
        return "requeued"
    if report.status != ReportStatus.QUEUED:
        return None
    if _needs_hand_over(report, moment, pending=pending, held=held):
        transaction.on_commit(lambda: _hand_over(report))
        return "handed_over"
    return "missing" if report.message_missing_since == moment else None


@dataclass(frozen=True)
class Requested:
    report: ReportRequest
    created: bool  # False: an identical request was already queued or running
    # What the answer says of the queue: the row's ``queue_state``, except that a row not
    # handed over yet (the caller's transaction has not committed) is "unreachable" when the
    # broker does not answer now.
    queue: QueueState | None = None


def _answer(report: ReportRequest, *, created: bool) -> Requested:
    state = report.queue_state
    if state == QueueState.PENDING and queue.unreachable() is not None:
        state = QueueState.UNREACHABLE
    return Requested(report, created=created, queue=state)


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
        report_type,
        parameters,
        formats=kind.formats,
        today=gaming_day_of(moment),
        filters=kind.filters,
    )
    key = parameters_key(normalised)
    in_flight = ReportRequest.objects.filter(
        report_type=report_type, parameters_key=key, status__in=IN_FLIGHT_STATUSES
    )
    # Asked again for a report whose task the broker took: does it still hold it? (Asked
    # before the row is locked: the broker may be slow to answer.)
    seen = in_flight.only("status", "enqueued_at", "enqueue_error").first()
    held = queue.held_task_ids() if seen and seen.queue_state == QueueState.SENT else None
    # Committed here unless the caller holds a transaction (an Idempotency-Key's): then the
    # hand-over waits for the caller's commit, and the answer asks the broker instead.
    with transaction.atomic():
        report = in_flight.select_for_update().first()
        created = report is None
        if created:
            try:
                with transaction.atomic():
                    report = ReportRequest.objects.create(
                        report_type=report_type,
                        parameters=normalised,
                        parameters_key=key,
                        requested_by=by,
                        requested_at=moment,
                        queued_at=moment,
                        scheduled=scheduled,
                        task_id=str(uuid.uuid4()),
                        retention_until=retention_until(report_type, timezone.localdate(moment)),
                    )
            except IntegrityError:
                # A concurrent identical request committed first: that one is the run
                # (it may even have finished already: answer it all the same).
                same = ReportRequest.objects.filter(report_type=report_type, parameters_key=key)
                report, created = same.latest("requested_at", "id"), False
            else:
                transaction.on_commit(lambda: _hand_over(report))
        else:
            # The row in flight answers; if the broker never took it, lost it, or its run is
            # dead, it is handed over (again) first. A row just made by another request is
            # left to it.
            _recover(report, moment, pending=False, held=held)
    return _answer(report, created=created)


@dataclass(frozen=True)
class Swept:
    handed_over: list[int]  # queued rows handed to the queue (again)
    requeued: list[int]  # dead runs queued again
    failed: list[int]  # dead runs out of attempts
    # Queued rows whose task the broker took and no longer holds, noticed at this sweep:
    # handed over again at the next if still missing.
    missing: list[int] = field(default_factory=list)


def sweep() -> Swept:
    """Every row in flight that needs it: queued rows the broker did not take, or lost,
    handed over, dead runs queued again or failed (docs/reports.md). Run by the beat schedule
    every ``REPORTS_SWEEP_INTERVAL`` seconds and by each worker as it starts; safe to run
    anywhere at any time (each row is taken under its lock, a row locked by a claim is left to
    the next sweep; the broker is asked once, before the rows are read)."""
    moment = now()
    swept: dict[str, list[int]] = {"handed_over": [], "requeued": [], "failed": [], "missing": []}
    in_flight = ReportRequest.objects.filter(status__in=IN_FLIGHT_STATUSES)
    sent = in_flight.filter(status=ReportStatus.QUEUED, enqueued_at__isnull=False, enqueue_error="")
    held = queue.held_task_ids() if sent.exists() else None
    for report_id in in_flight.order_by("requested_at", "pk").values_list("pk", flat=True):
        with transaction.atomic():
            locked = ReportRequest.objects.select_for_update(skip_locked=True)
            report = locked.filter(pk=report_id, status__in=IN_FLIGHT_STATUSES).first()
            outcome = None if report is None else _recover(report, moment, pending=True, held=held)
        if outcome is not None:
            swept[outcome].append(report_id)
    if any(swept.values()):
        log.info("reports swept: %s", swept)
    return Swept(**swept)


def _claim(report_id: int, task_id: str) -> ReportRequest | None:
    """Mark the row running for this task, or None if this task may not run it.

    Only the row's own task runs it. A running row with this task's own id is the same
    message delivered twice: while that run lives (``runs.why_dead``) this delivery is
    dropped; a dead one (the broker hands a task back when its pool process dies) is taken
    over, as another attempt.
    """
    moment = now()
    with transaction.atomic():
        report = ReportRequest.objects.select_for_update().get(pk=report_id)
        if report.task_id != task_id or report.status not in IN_FLIGHT_STATUSES:
            log.info("report %s: task %s no longer owns it (%s)", report_id, task_id,
                     report.status)  # fmt: skip
            return None
        if report.status == ReportStatus.RUNNING:
            why = runs.why_dead(report, moment)
            if why is None:
                log.info("report %s: task %s is already running in %s; this delivery is "
                         "dropped", report_id, task_id, report.runner)  # fmt: skip
                return None
            if _run_lost(report, why, moment):
                return None
            log.warning("report %s: attempt %s stopped (%s); task %s takes over", report_id,
                        report.attempts, why, task_id)  # fmt: skip
        report.status = ReportStatus.RUNNING
        report.attempts += 1
        report.started_at = report.heartbeat_at = moment
        report.runner = runs.runner()
        report.lease_expires_at = _lease()
        report.save(update_fields=[
            "status", "attempts", "started_at", "heartbeat_at", "runner", "lease_expires_at",
        ])  # fmt: skip
        return report


def file_name(report: ReportRequest) -> str:
    parameters = report.parameters
    days = parameters["from_day"]
    if parameters["to_day"] != parameters["from_day"]:
        days += f"_to_{parameters['to_day']}"
    scope = "all-tables" if parameters["table"] is None else f"table-{parameters['table']}"
    if period_of(parameters).filters:  # a registered report's own filters were given
        scope += "_filtered"
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
    with runs.Heartbeat(report_id, task_id), tempfile.TemporaryFile() as out:
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


def retry_later(report_id: int, *, task_id: str, error: BaseException) -> int | None:
    """After a transient error: the row queued again and its task handed over to run after
    a countdown (5, 10, 20, ... seconds; returned); or None, the row failed with the error
    once its attempts are used up (or no longer this task's)."""
    with transaction.atomic():
        report = ReportRequest.objects.select_for_update().get(pk=report_id)
        if report.task_id != task_id or report.status != ReportStatus.RUNNING:
            return None
        if report.attempts >= settings.REPORTS_MAX_ATTEMPTS:
            report.status = ReportStatus.FAILED
            report.finished_at = now()
            report.lease_expires_at = None
            report.failure_reason = (
                f"gave up after {report.attempts} attempts (REPORTS_MAX_ATTEMPTS): {error!r}"
            )[:2000]
            report.save(
                update_fields=["status", "finished_at", "lease_expires_at", "failure_reason"]
            )
            return None
        countdown = 5 * 2 ** (report.attempts - 1)
        # Queued, not running: no run is alive until the next attempt claims the row.
        log.warning("report %s: attempt %s: %r; tried again in %s s", report_id,
                    report.attempts, error, countdown)  # fmt: skip
        report.status = ReportStatus.QUEUED
        report.lease_expires_at = report.heartbeat_at = report.enqueued_at = None
        report.message_missing_since = None
        report.queued_at = now()
        report.runner = report.enqueue_error = ""
        report.failure_reason = (
            f"attempt {report.attempts}: {error!r}; tried again in {countdown} s"
        )[:2000]
        report.save(update_fields=[
            "status", "lease_expires_at", "heartbeat_at", "runner", "enqueue_error",
            "enqueued_at", "failure_reason", "queued_at", "message_missing_since",
        ])  # fmt: skip
        transaction.on_commit(lambda: _hand_over(report, countdown))
        return countdown


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


__all__ = ["ReportType", "download", "generate", "request_report", "run_report", "sweep"]
