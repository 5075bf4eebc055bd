"""The sweeper and the run's signs of life, in this process (tasks run inline when handed
over; ``test_worker.py`` has the same faults with real workers).

- queued rows the broker never took, or took long ago, are handed over again (same task id);
  rows it took recently are left alone;
- a running row whose run is dead (heartbeat stale, process gone, lease passed) is queued
  again under a new task id and run; a live one is not touched;
- a dead run out of attempts fails with the reason;
- a second delivery of a live run is dropped; of a dead run, it takes over;
- the heartbeat is written only while the task owns the running row;
- a transient error queues the row again until its attempts are used up.
"""

from __future__ import annotations

import socket
import subprocess
import sys
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import OperationalError

from reports import registry, runs, services
from reports.models import ReportRequest
from tests.builders.reports import DAY
from tests.reports.helpers import generate_bytes

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _inline_tasks():
    from cardroom.celery import app

    saved = {key: app.conf[key] for key in ("task_always_eager", "task_eager_propagates")}
    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    yield
    app.conf.update(saved)


def queued(report_type: str, by, capture) -> ReportRequest:
    """A request whose hand-over never happened (its process died before the commit's
    callback ran): queued, pending."""
    with capture(execute=False):
        requested = services.request_report(
            report_type=report_type, parameters={"gaming_day": DAY}, by=by
        )
    report = ReportRequest.objects.get(pk=requested.report.pk)
    assert (report.status, report.queue_state) == ("queued", "pending")
    return report


def sweep(capture) -> services.Swept:
    with capture(execute=True):
        return services.sweep()


def running(report: ReportRequest, clock, **signs) -> ReportRequest:
    """As if a worker had claimed ``report`` (attempt 1); ``signs`` of life override."""
    fields = {
        "status": "running",
        "attempts": 1,
        "started_at": clock.now() - timedelta(minutes=5),
        "heartbeat_at": clock.now() - timedelta(seconds=10),
        "runner": "another-host pid 7",
        "lease_expires_at": clock.now() + timedelta(minutes=26),
        "enqueued_at": clock.now() - timedelta(minutes=5),
        **signs,
    }
    ReportRequest.objects.filter(pk=report.pk).update(**fields)
    report.refresh_from_db()
    return report


def dead_pid() -> int:
    ended = subprocess.Popen([sys.executable, "-c", ""])
    ended.wait()
    return ended.pid


def test_queued_rows_the_broker_did_not_take_are_handed_over(
    day, compliance, clock, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    pending = queued("rotation", compliance, capture)
    refused = queued("banking", compliance, capture)
    ReportRequest.objects.filter(pk=refused.pk).update(enqueue_error="OperationalError: refused")
    sent_now = queued("currency", compliance, capture)
    ReportRequest.objects.filter(pk=sent_now.pk).update(enqueued_at=clock.now())
    sent_long_ago = queued("audit", compliance, capture)
    resend = timedelta(seconds=settings.REPORTS_RESEND_AFTER)
    ReportRequest.objects.filter(pk=sent_long_ago.pk).update(enqueued_at=clock.now() - resend)

    swept = sweep(capture)

    assert swept.handed_over == [pending.pk, refused.pk, sent_long_ago.pk]
    assert (swept.requeued, swept.failed) == ([], [])
    for report in (pending, refused, sent_long_ago):
        before = report.task_id
        report.refresh_from_db()
        # The same task id: should the first message turn up after all, only one runs.
        assert (report.status, report.attempts, report.task_id) == ("done", 1, before)
        assert (report.enqueued_at, report.enqueue_error) == (clock.now(), "")
    sent_now.refresh_from_db()
    assert (sent_now.status, sent_now.queue_state) == ("queued", "sent")  # left to its message


def test_a_running_row_whose_heartbeat_is_stale_is_run_again_and_a_live_one_is_not(
    day, compliance, clock, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    timeout = timedelta(seconds=settings.REPORTS_HEARTBEAT_TIMEOUT)
    stale = running(
        queued("rotation", compliance, capture), clock, heartbeat_at=clock.now() - timeout
    )
    live = running(
        queued("banking", compliance, capture),
        clock,
        heartbeat_at=clock.now() - timeout + timedelta(seconds=1),
    )
    gone = running(
        queued("currency", compliance, capture),
        clock,
        runner=f"{socket.gethostname()} pid {dead_pid()}",  # a fresh heartbeat, but gone
    )

    swept = sweep(capture)

    assert swept.requeued == [stale.pk, gone.pk]
    assert (swept.handed_over, swept.failed) == ([], [])
    for report, report_type in ((stale, "rotation"), (gone, "currency")):
        dead_task = report.task_id
        report.refresh_from_db()
        assert (report.status, report.attempts) == ("done", 2)
        assert report.task_id != dead_task  # the dead run's late answer is dropped
        assert report.runner == runs.runner()
        assert report.sha256 == generate_bytes(report_type, gaming_day=DAY)[1].sha256
    before = (live.status, live.task_id, live.heartbeat_at, live.attempts)
    live.refresh_from_db()
    assert (live.status, live.task_id, live.heartbeat_at, live.attempts) == before
    assert sweep(capture) == services.Swept([], [], [])  # nothing left to do


def test_a_dead_run_out_of_attempts_fails_with_the_reason(
    day, compliance, clock, django_capture_on_commit_callbacks, settings
):
    settings.REPORTS_MAX_ATTEMPTS = 3
    capture = django_capture_on_commit_callbacks
    report = running(
        queued("rotation", compliance, capture),
        clock,
        attempts=3,
        lease_expires_at=clock.now() - timedelta(seconds=1),
    )
    swept = sweep(capture)
    assert (swept.failed, swept.requeued) == ([report.pk], [])
    report.refresh_from_db()
    assert (report.status, report.finished_at) == ("failed", clock.now())
    assert report.failure_reason == (
        f"attempt 3 stopped (its lease expired at "
        f"{(clock.now() - timedelta(seconds=1)).isoformat(timespec='seconds')}); 3 attempts "
        "made, the most allowed (REPORTS_MAX_ATTEMPTS)"
    )
    # It has left the in-flight set: asking again starts a new request.
    again = services.request_report(
        report_type="rotation", parameters={"gaming_day": DAY}, by=compliance
    )
    assert again.created and again.report.pk != report.pk


def test_a_second_delivery_of_a_live_run_is_dropped_and_of_a_dead_run_takes_over(
    day, compliance, clock, django_capture_on_commit_callbacks
):
    report = running(queued("rotation", compliance, django_capture_on_commit_callbacks), clock)
    assert services.run_report(report.pk, task_id=report.task_id) is None  # it lives
    report.refresh_from_db()
    assert (report.status, report.attempts, report.runner) == ("running", 1, "another-host pid 7")
    # The broker hands the task back because its pool process died: that run is gone.
    ReportRequest.objects.filter(pk=report.pk).update(
        runner=f"{socket.gethostname()} pid {dead_pid()}"
    )
    done = services.run_report(report.pk, task_id=report.task_id)
    assert (done.status, done.attempts, done.runner) == ("done", 2, runs.runner())


def test_the_heartbeat_is_written_only_while_the_task_owns_the_running_row(
    day, compliance, clock, django_capture_on_commit_callbacks
):
    report = running(queued("rotation", compliance, django_capture_on_commit_callbacks), clock)
    heartbeat = runs.Heartbeat(report.pk, report.task_id)
    clock.advance(seconds=30)
    assert heartbeat.beat()
    report.refresh_from_db()
    assert report.heartbeat_at == clock.now()
    ReportRequest.objects.filter(pk=report.pk).update(task_id="a-newer-task")
    clock.advance(seconds=30)
    assert not heartbeat.beat()
    report.refresh_from_db()
    assert report.heartbeat_at == clock.now() - timedelta(seconds=30)


def test_a_transient_error_queues_the_row_again_until_its_attempts_are_used_up(
    day, compliance, clock, django_capture_on_commit_callbacks, monkeypatch, settings
):
    settings.REPORTS_MAX_ATTEMPTS = 3
    kind = registry.REGISTRY["rotation"]
    attempts = []

    def flaky(period, *, is_open):
        attempts.append(ReportRequest.objects.get().attempts)
        raise OperationalError("the server closed the connection unexpectedly")

    monkeypatch.setitem(
        registry.REGISTRY, "rotation", kind.__class__(**{**kind.__dict__, "build": flaky})
    )
    with pytest.raises(OperationalError), django_capture_on_commit_callbacks(execute=True):
        services.request_report(
            report_type="rotation", parameters={"gaming_day": DAY}, by=compliance
        )
    assert attempts == [1, 2, 3]  # each attempt queued the next (5 s, then 10 s later)
    report = ReportRequest.objects.get()
    assert (report.status, report.attempts) == ("failed", 3)
    assert report.failure_reason == (
        "gave up after 3 attempts (REPORTS_MAX_ATTEMPTS): OperationalError('the server closed "
        "the connection unexpectedly')"
    )


def test_the_sweeper_is_on_the_beat_schedule_and_runs_when_a_worker_starts():
    from celery.signals import worker_ready

    from reports import tasks

    entry = settings.CELERY_BEAT_SCHEDULE["report-sweeper"]
    assert entry["task"] == tasks.sweep_reports.name == "reports.sweep_reports"
    assert entry["schedule"] == timedelta(seconds=settings.REPORTS_SWEEP_INTERVAL)
    assert any(
        receiver() is tasks.sweep_when_a_worker_starts
        for _, receiver in worker_ready.receivers
        if callable(receiver)
    )
