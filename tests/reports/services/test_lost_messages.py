"""A report task the broker lost is handed over again within two sweeps, and run once
(docs/reports.md, "A lost task").

The broker is a Redis server of this test's own (never the shared one), restarted empty as a
Redis without persistence is after a crash: the task it had taken is gone, while the row still
says it was handed over. The sweeper asks the broker which report tasks it holds (waiting in
the queue, or taken by a worker and not acknowledged), notices the task missing at one sweep
and hands it over again at the next; a repeated request says what is happening meanwhile. A
real worker then runs the report once. A task a consumer has taken, but not acknowledged, is
held: it is never handed over again.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import uuid
from datetime import timedelta

import pytest
import redis
from django.utils import timezone
from kombu import pools as kombu_pools

from reports import queue, services
from reports.models import ReportRequest
from tests.broker import unreachable_broker
from tests.builders.reports import DAY
from tests.conftest import BASE_DIR, _await_ping, _log_tail, _stop, worker_environment
from tests.reports.services.test_worker import WAIT, expected_sha, wait_for

pytestmark = [pytest.mark.requires_postgres, pytest.mark.requires_redis]

SWEEP = timedelta(seconds=60)  # REPORTS_SWEEP_INTERVAL


class ThrowawayRedis:
    """A redis-server of this test's own, on a free port, with nothing saved to disk."""

    def __init__(self, directory) -> None:
        self.directory = directory
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.server: subprocess.Popen | None = None

    def start(self) -> None:
        command = [
            shutil.which("redis-server") or "redis-server", "--port", str(self.port),
            "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
            "--dir", str(self.directory),
        ]  # fmt: skip
        self.server = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        client = redis.Redis(port=self.port, socket_connect_timeout=0.5, socket_timeout=0.5)
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            try:
                if client.ping():
                    return
            except redis.ConnectionError:
                time.sleep(0.05)
        pytest.fail("the throwaway redis-server did not start")

    def stop(self) -> None:
        if self.server is not None and self.server.poll() is None:
            self.server.terminate()
            self.server.wait(timeout=WAIT)

    def restart_empty(self) -> None:
        """As after a crash of a Redis that persists nothing: every key is gone."""
        self.stop()
        self.start()
        fresh_pools()


@pytest.fixture
def broker(tmp_path, settings):
    """The Celery app sends (not inline) to a throwaway Redis, on a queue of the test's own."""
    from cardroom.celery import app

    server = ThrowawayRedis(tmp_path)
    server.start()
    keys = ("broker_url", "task_always_eager", "task_default_queue")
    saved = {key: app.conf[key] for key in keys}
    app.conf.broker_url = server.url
    app.conf.task_always_eager = False
    app.conf.task_default_queue = f"cardroom-lost-{uuid.uuid4().hex[:12]}"
    fresh_pools()
    try:
        yield server
    finally:
        app.conf.update(saved)
        fresh_pools()
        server.stop()


def fresh_pools() -> None:
    """Pooled broker connections (a worker's ping publishes through them) are made anew for
    the broker now configured (or restarted), not kept from the one before."""
    from cardroom.celery import app

    kombu_pools.reset()  # closes and forgets every pool of this process
    app._pool = None
    app.amqp._producer_pool = None


def start_worker(server: ThrowawayRedis, tmp_path, settings) -> tuple[subprocess.Popen, str]:
    from cardroom.celery import app

    queue_name = app.conf.task_default_queue
    nodename = f"{queue_name}@{socket.gethostname()}"
    log_path = tmp_path / "worker.log"
    env = worker_environment(
        tmp_path, redis_url=server.url, queue=queue_name, MEDIA_ROOT=str(settings.MEDIA_ROOT)
    )
    command = [
        sys.executable, "-m", "celery", "-A", "cardroom", "worker", "--pool=solo",
        "--concurrency=1", "--loglevel=info", "--without-gossip", "--without-mingle",
        "--without-heartbeat", "-Q", queue_name, "-n", nodename,
    ]  # fmt: skip
    with log_path.open("wb") as log:
        proc = subprocess.Popen(command, cwd=BASE_DIR, env=env, stdout=log, stderr=log)
    if problem := _await_ping(app, nodename, proc):
        _stop(proc)
        pytest.fail(f"worker not ready: {problem}\n{_log_tail(log_path)}")
    return proc, str(log_path)


def clock_words(moment) -> str:
    return timezone.localtime(moment).strftime("%H:%M:%S")


@pytest.mark.django_db(transaction=True)
def test_a_task_the_broker_lost_is_handed_over_again_and_run_once(
    broker, tmp_path, settings, day, compliance, as_compliance, clock
):
    requested = services.request_report(
        report_type="banking", parameters={"gaming_day": DAY}, by=compliance
    )
    report = ReportRequest.objects.get(pk=requested.report.pk)
    handed = clock.now()
    assert (report.status, report.queue_state, report.hand_overs) == ("queued", "sent", 1)
    assert queue.held_task_ids() == {report.task_id}  # no worker yet: waiting in the queue
    clock.advance(seconds=60)
    assert services.sweep() == services.Swept([], [], [], [])  # held: nothing to do

    broker.restart_empty()  # the task is lost; the row still says it was handed over
    assert queue.held_task_ids() == frozenset()
    clock.advance(seconds=20)
    noticed = clock.now()
    again = as_compliance.post(
        "/api/reports/",
        {"report_type": "banking", "parameters": {"gaming_day": DAY}},
        format="json",
    )
    # The same request, and what is happening to it: lost, handed over at the next sweep.
    assert again.status_code == 200
    assert again.data["id"] == report.pk
    assert again.data["queue_status"] == (
        f"queued since {clock_words(handed)}; handed to the report queue once, last at "
        f"{clock_words(handed)}; the report queue lost it (noticed at {clock_words(noticed)}): "
        f"handed over again at the next sweep (by {clock_words(noticed + SWEEP)})"
    )
    assert (again.data["queue"], again.data["hand_overs"]) == ("sent", 1)
    assert again.data["message_missing_since"] is not None
    assert again.data["next_hand_over"] is not None

    clock.advance(seconds=40)  # the next sweep: still missing, so handed over again
    swept = services.sweep()
    assert (swept.handed_over, swept.missing, swept.requeued) == ([report.pk], [], [])
    report.refresh_from_db()
    assert (report.hand_overs, report.message_missing_since, report.attempts) == (2, None, 0)
    assert report.task_id == requested.report.task_id  # a late first message would be dropped
    assert queue.held_task_ids() == {report.task_id}

    worker, log = start_worker(broker, tmp_path, settings)
    try:
        report = wait_for(report.pk)
    finally:
        _stop(worker)
    assert (report.status, report.attempts) == ("done", 1), (report.failure_reason, log)
    assert report.sha256 == expected_sha(clock, "banking", gaming_day=DAY)


def handed_over(report_type: str, by, capture) -> ReportRequest:
    """A request, its task handed to the broker (the commit's callback run)."""
    with capture(execute=True):
        requested = services.request_report(
            report_type=report_type, parameters={"gaming_day": DAY}, by=by
        )
    return ReportRequest.objects.get(pk=requested.report.pk)


@pytest.mark.django_db
def test_a_task_taken_but_not_acknowledged_is_held_and_never_handed_over_again(
    broker, day, compliance, clock, django_capture_on_commit_callbacks
):
    from cardroom.celery import app

    requested = handed_over("rotation", compliance, django_capture_on_commit_callbacks)
    task_id = requested.task_id
    with app.connection_for_read() as connection:
        # A consumer takes the message and does not acknowledge it (as a worker does until
        # the run ends: acks_late): out of the queue, into the broker's unacknowledged set.
        taken = connection.SimpleQueue(app.conf.task_default_queue, no_ack=False).get(timeout=5)
        assert taken.headers["id"] == task_id
        client = connection.default_channel.client
        assert client.llen(app.conf.task_default_queue) == 0
        assert queue.held_task_ids() == {task_id}
        for _ in range(3):
            clock.advance(seconds=60)
            assert services.sweep() == services.Swept([], [], [], [])
    report = ReportRequest.objects.get(pk=requested.pk)
    assert (report.hand_overs, report.message_missing_since) == (1, None)


@pytest.mark.django_db
def test_a_broker_that_cannot_be_asked_falls_back_to_the_resend_delay(
    broker, day, compliance, clock, settings, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    requested = handed_over("currency", compliance, capture)
    assert requested.queue_state == "sent"
    with unreachable_broker():
        assert queue.held_task_ids() is None
        clock.advance(seconds=settings.REPORTS_RESEND_AFTER - 1)
        with capture(execute=True):
            assert services.sweep().handed_over == []
        clock.advance(seconds=1)
        with capture(execute=True):
            assert services.sweep().handed_over == [requested.pk]  # refused: kept queued
    report = ReportRequest.objects.get(pk=requested.pk)
    assert report.queue_state == "unreachable"
