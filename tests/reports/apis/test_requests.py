"""Report requests through the API and the service: run, dedupe, Idempotency-Key, fail, dead
runs, retention, download permissions, checksum verification and the download log.

Without REDIS_URL Celery runs tasks inline; the tasks here run when the request's
transaction commits (``django_capture_on_commit_callbacks(execute=True)``).
"""

from __future__ import annotations

import hashlib
import os
import socket
import subprocess
import sys
from datetime import date, timedelta
from functools import partial

import pytest
from django.core.files.storage import default_storage

from cardroom.errors import Rule
from reports import registry, services
from reports.models import QUEUE_UNREACHABLE, ReportDownload, ReportRequest, RetentionError
from tests.broker import unreachable_broker
from tests.builders.reports import DAY, at, compliance_day
from tests.concurrency import race
from tests.reports.helpers import generate_bytes

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _inline_tasks():
    """These tests run the task in this process, even when REDIS_URL names a broker
    (test_worker.py runs it in a real worker)."""
    from cardroom.celery import app

    saved = {key: app.conf[key] for key in ("task_always_eager", "task_eager_propagates")}
    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    yield
    app.conf.update(saved)


URL = "/api/reports/"


def request(client, report_type="rotation", **parameters):
    parameters = parameters or {"gaming_day": DAY}
    return client.post(URL, {"report_type": report_type, "parameters": parameters}, format="json")


def run(client, capture, report_type="rotation", **parameters):
    with capture(execute=True):
        response = request(client, report_type, **parameters)
    assert response.status_code == 202, response.data
    return client.get(f"{URL}{response.data['id']}/").data


def test_a_request_runs_and_stores_its_file_with_the_checksum(
    day, as_compliance, compliance, django_capture_on_commit_callbacks
):
    report = run(as_compliance, django_capture_on_commit_callbacks)
    assert report["status"] == "done", report
    assert report["requested_by"] == "compliance"
    assert report["parameters"] == {
        "format": "csv", "from_day": DAY, "to_day": DAY, "table": None
    }  # fmt: skip
    assert (report["attempts"], report["period_open"], report["failure_reason"]) == (1, False, "")
    assert report["file_name"] == "rotation-record_2026-11-20_all-tables.csv"
    assert report["content_type"] == "text/csv"
    expected, generated = generate_bytes("rotation", gaming_day=DAY)
    row = ReportRequest.objects.get(pk=report["id"])
    with default_storage.open(row.file.name, "rb") as stored:
        assert stored.read() == expected
    assert report["sha256"] == hashlib.sha256(expected).hexdigest() == generated.sha256
    assert report["size_bytes"] == len(expected)
    assert report["row_count"] == 7 + 4  # seven record events, four rule checks
    assert report["requested_at"] and report["started_at"] and report["finished_at"]


def test_retention_five_years_seven_for_accounting_reports(
    day, as_compliance, django_capture_on_commit_callbacks, clock
):
    requested_on = clock.now().date()  # 2026-11-21
    rotation = run(as_compliance, django_capture_on_commit_callbacks)
    banking = run(as_compliance, django_capture_on_commit_callbacks, "banking")
    assert rotation["retention_until"] == requested_on.replace(year=2031).isoformat()
    assert banking["retention_until"] == requested_on.replace(year=2033).isoformat()
    accounting = {slug for slug, kind in registry.REGISTRY.items() if kind.accounting}
    assert accounting == {"banking", "table_activity", "audit"}


def test_a_report_is_never_deleted_before_its_retention(
    day, as_compliance, django_capture_on_commit_callbacks, clock
):
    report = ReportRequest.objects.get(
        pk=run(as_compliance, django_capture_on_commit_callbacks)["id"]
    )
    with pytest.raises(RetentionError):
        report.delete()
    with pytest.raises(RetentionError):
        ReportRequest.objects.filter(pk=report.pk).delete()
    with pytest.raises(RetentionError):
        services.purge_report_file(report_id=report.pk)
    assert default_storage.exists(report.file.name)
    report.refresh_from_db()
    assert report.file_purged_at is None
    clock.set(at("2031-11-22T12:00:00"))  # one day past the five years
    # The file is deleted once the purge commits; the request's record stays.
    with django_capture_on_commit_callbacks(execute=True):
        services.purge_report_file(report_id=report.pk)
    assert not default_storage.exists(report.file.name)
    report.refresh_from_db()
    assert report.file_purged_at == clock.now()


def test_the_same_request_while_queued_is_the_same_row(day, as_compliance, administrator, api):
    first = request(as_compliance)
    assert first.status_code == 202
    # Written another way, and by someone else: still the same report.
    again = request(api(administrator), from_day=DAY, to_day=DAY, format="csv", table=None)
    assert again.status_code == 200
    assert again.data["id"] == first.data["id"]
    assert again.data["status"] == "queued"
    assert ReportRequest.objects.count() == 1
    # Other parameters are another report.
    other = request(as_compliance, gaming_day=DAY, format="pdf")
    assert other.status_code == 202 and other.data["id"] != first.data["id"]


def test_once_done_asking_again_makes_a_new_run_with_the_same_checksum(
    day, as_compliance, django_capture_on_commit_callbacks
):
    first = run(as_compliance, django_capture_on_commit_callbacks)
    second = run(as_compliance, django_capture_on_commit_callbacks)
    assert second["id"] != first["id"]
    assert second["sha256"] == first["sha256"]


def test_a_request_while_the_queue_is_unreachable_is_saved_and_says_so(
    day, as_compliance, django_capture_on_commit_callbacks
):
    """The broker does not answer: the request is answered at once (no 500), the row stays
    queued with the reason, and it says so; asking again hands it over again. Once the broker
    is back, the sweeper hands it over and it runs."""
    with unreachable_broker():
        with django_capture_on_commit_callbacks(execute=True):
            first = request(as_compliance)
        assert first.status_code == 202, first.data
        assert (first.data["status"], first.data["queue"]) == ("queued", "unreachable")
        assert first.data["queue_message"] == QUEUE_UNREACHABLE
        assert first.data["enqueued_at"] is None
        saved = ReportRequest.objects.get(pk=first.data["id"])
        assert (saved.status, saved.enqueued_at) == ("queued", None)
        assert "Connection refused" in saved.enqueue_error
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            again = request(as_compliance)
        assert again.status_code == 200 and again.data["id"] == first.data["id"]
        assert again.data["queue"] == "unreachable" and len(callbacks) == 1  # tried again
        # With an Idempotency-Key the answer is stored before the hand-over (at the commit):
        # it asks the broker, and says the same.
        with django_capture_on_commit_callbacks(execute=True):
            keyed = as_compliance.post(
                URL,
                {"report_type": "banking", "parameters": {"gaming_day": DAY}},
                format="json",
                HTTP_IDEMPOTENCY_KEY="while-down",
            )
        assert keyed.status_code == 202
        assert (keyed.data["queue"], keyed.data["queue_message"]) == (
            "unreachable",
            QUEUE_UNREACHABLE,
        )
        with django_capture_on_commit_callbacks(execute=True):
            swept = services.sweep()  # tries again, in vain
        assert sorted(swept.handed_over) == sorted([first.data["id"], keyed.data["id"]])
    rows = ReportRequest.objects.order_by("pk")
    assert [(r.status, r.queue_state, r.attempts) for r in rows] == [
        ("queued", "unreachable", 0)
    ] * 2
    # The broker is back (tasks run inline here; test_worker.py has the real worker).
    with django_capture_on_commit_callbacks(execute=True):
        swept = services.sweep()
    assert sorted(swept.handed_over) == [r.pk for r in rows] and swept.requeued == []
    for report in ReportRequest.objects.all():
        assert (report.status, report.attempts, report.enqueue_error) == ("done", 1, "")
        assert report.enqueued_at is not None
    shown = as_compliance.get(f"{URL}{first.data['id']}/").data
    assert (shown["queue"], shown["queue_message"]) == (None, None)


def a_dead_pid() -> int:
    """The pid of a process of this host that has ended (and been reaped)."""
    ended = subprocess.Popen([sys.executable, "-c", ""])
    ended.wait()
    return ended.pid


@pytest.mark.parametrize(
    ("signs_of_life", "why"),
    [
        ({"lease_expires_at": -1}, "its lease expired"),
        ({"heartbeat_at": -151}, "no heartbeat for over 150 s"),
        ({"runner": "dead"}, "is gone"),
    ],
    ids=["lease-expired", "heartbeat-stale", "process-gone"],
)
def test_a_running_report_whose_run_is_dead_is_queued_again(
    day, as_compliance, django_capture_on_commit_callbacks, clock, signs_of_life, why
):
    first = request(as_compliance).data
    dead_task = ReportRequest.objects.get(pk=first["id"]).task_id
    # As if a worker claimed it and died: running, with one sign of its death.
    alive = {
        "lease_expires_at": clock.now() + timedelta(minutes=30),
        "heartbeat_at": clock.now() - timedelta(seconds=10),
        "runner": "another-host pid 7",
    }
    for field, value in signs_of_life.items():
        if field == "runner":
            alive[field] = f"{socket.gethostname()} pid {a_dead_pid()}"
        else:
            alive[field] = clock.now() + timedelta(seconds=value)
    ReportRequest.objects.filter(pk=first["id"]).update(status="running", attempts=1, **alive)
    with django_capture_on_commit_callbacks(execute=True):
        again = request(as_compliance)
    assert again.status_code == 200 and again.data["id"] == first["id"]
    report = ReportRequest.objects.get(pk=first["id"])
    assert report.status == "done" and report.attempts == 2
    assert report.task_id != dead_task  # the dead run's late answer would be ignored
    assert report.sha256 == generate_bytes("rotation", gaming_day=DAY)[1].sha256


@pytest.mark.parametrize("runner", ["another-host pid 7", "this-process"])
def test_a_running_report_whose_run_lives_is_returned_not_re_enqueued(
    day, as_compliance, django_capture_on_commit_callbacks, clock, runner
):
    first = request(as_compliance).data
    task_id = ReportRequest.objects.get(pk=first["id"]).task_id
    if runner == "this-process":
        runner = f"{socket.gethostname()} pid {os.getpid()}"
    ReportRequest.objects.filter(pk=first["id"]).update(
        status="running",
        attempts=1,
        lease_expires_at=clock.now() + timedelta(minutes=5),
        heartbeat_at=clock.now() - timedelta(seconds=149),
        runner=runner,
    )
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        again = request(as_compliance)
    assert again.data["id"] == first["id"] and again.data["status"] == "running"
    assert again.data["queue"] is None and again.data["runner"] == runner
    assert callbacks == []
    assert ReportRequest.objects.get(pk=first["id"]).task_id == task_id


def test_the_same_idempotency_key_and_body_is_one_request_and_one_run(
    day, as_compliance, django_capture_on_commit_callbacks
):
    body = {"report_type": "rotation", "parameters": {"gaming_day": DAY}}
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        first = as_compliance.post(URL, body, format="json", HTTP_IDEMPOTENCY_KEY="report-1")
    assert first.status_code == 202 and len(callbacks) == 1  # one hand-over: one run
    report = ReportRequest.objects.get()
    assert (report.status, report.attempts) == ("done", 1)
    # The repeat replays the first answer; it makes no request, not even a second run of the
    # report now that the first is done (without the key, asking again would run it again).
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        again = as_compliance.post(URL, body, format="json", HTTP_IDEMPOTENCY_KEY="report-1")
    assert again.status_code == 202 and again["Idempotent-Replayed"] == "true"
    assert again.data == first.data and callbacks == []
    assert ReportRequest.objects.count() == 1
    assert ReportRequest.objects.get().attempts == 1


def test_the_same_idempotency_key_with_another_body_is_refused(day, as_compliance):
    first = as_compliance.post(
        URL,
        {"report_type": "rotation", "parameters": {"gaming_day": DAY}},
        format="json",
        HTTP_IDEMPOTENCY_KEY="report-2",
    )
    assert first.status_code == 202
    other = as_compliance.post(
        URL,
        {"report_type": "banking", "parameters": {"gaming_day": DAY}},
        format="json",
        HTTP_IDEMPOTENCY_KEY="report-2",
    )
    assert other.status_code == 422
    assert other.data["code"] == "key_reused"
    assert list(ReportRequest.objects.values_list("report_type", flat=True)) == ["rotation"]


def test_a_superseded_task_does_not_touch_the_row(day, as_compliance):
    report = ReportRequest.objects.get(pk=request(as_compliance).data["id"])
    assert services.run_report(report.pk, task_id="a-task-that-lost-its-claim") is None
    report.refresh_from_db()
    assert (report.status, report.attempts, report.sha256) == ("queued", 0, "")


def test_a_failure_is_recorded_with_its_reason_and_asking_again_starts_anew(
    day, as_compliance, django_capture_on_commit_callbacks, monkeypatch
):
    def broken(period, *, is_open):
        raise ValueError("the drop box count is missing")

    kind = registry.REGISTRY["rotation"]
    monkeypatch.setitem(
        registry.REGISTRY, "rotation", kind.__class__(**{**kind.__dict__, "build": broken})
    )
    with pytest.raises(ValueError), django_capture_on_commit_callbacks(execute=True):
        response = request(as_compliance)
    report = ReportRequest.objects.get()
    assert report.status == "failed"
    assert "the drop box count is missing" in report.failure_reason
    shown = as_compliance.get(f"{URL}{report.pk}/").data
    assert shown["status"] == "failed" and "drop box" in shown["failure_reason"]
    assert shown["download_url"] is None
    monkeypatch.setitem(registry.REGISTRY, "rotation", kind)
    with django_capture_on_commit_callbacks(execute=True):
        response = request(as_compliance)
    assert response.status_code == 202 and response.data["id"] != report.pk


@pytest.mark.parametrize(
    ("report_type", "parameters", "field"),
    [
        ("rotation", {}, "from_day"),
        ("rotation", {"gaming_day": "20-11-2026"}, "gaming_day"),
        ("rotation", {"gaming_day": DAY, "from_day": DAY}, "gaming_day"),
        ("rotation", {"from_day": DAY, "to_day": "2026-11-19"}, "to_day"),
        ("rotation", {"gaming_day": "2026-11-22"}, "to_day"),  # not begun at 06:30 on 11-21
        ("rotation", {"from_day": "2025-01-01", "to_day": DAY}, "to_day"),  # over 400 days
        ("rotation", {"gaming_day": DAY, "table": 999_999}, "table"),
        ("rotation", {"gaming_day": DAY, "table": "one"}, "table"),
        ("rotation", {"gaming_day": DAY, "format": "xlsx"}, "format"),
        ("audit", {"gaming_day": DAY, "format": "pdf"}, "format"),
        ("rotation", {"gaming_day": DAY, "tables": 1}, "tables"),
        ("payroll", {"gaming_day": DAY}, "report_type"),
    ],
    ids=[
        "no-day", "bad-date", "both-forms", "reversed", "future", "too-long", "no-table",
        "table-not-id", "format-unknown", "audit-is-csv-only", "unknown-parameter",
        "unknown-type",
    ],
)  # fmt: skip
def test_bad_requests_answer_400_naming_the_field(
    day, as_compliance, report_type, parameters, field
):
    response = as_compliance.post(
        URL, {"report_type": report_type, "parameters": parameters}, format="json"
    )
    assert response.status_code == 400, response.data
    assert response.data["field"] == field
    if field == "report_type":  # not a choice of the request's serializer
        assert (response.data["code"], response.data["rule"]) == ("invalid", None)
        assert set(response.data["errors"]) == {"report_type"}
    else:  # the parameters, checked by the reports service
        assert (response.data["code"], response.data["rule"]) == ("rule_broken", Rule.REPORTS)
    assert ReportRequest.objects.count() == 0


@pytest.mark.parametrize("who", ["dealer", "supervisor"])
def test_other_roles_may_not_request_list_or_download(
    day, api, who, request, as_compliance, django_capture_on_commit_callbacks
):
    report = run(as_compliance, django_capture_on_commit_callbacks)
    client = api(request.getfixturevalue(who))
    assert request_report(client).status_code == 403
    assert client.get(URL).status_code == 403
    assert client.get(f"{URL}{report['id']}/").status_code == 403
    assert client.get(f"{URL}{report['id']}/download/").status_code == 403
    assert ReportDownload.objects.count() == 0


def request_report(client):
    return request(client)


def test_anonymous_is_refused(day, api):
    anonymous = api().get(URL)
    assert anonymous.status_code == 401 and anonymous["WWW-Authenticate"] == "Token"
    assert anonymous.data["code"] == "not_authenticated"


@pytest.mark.parametrize("who", ["compliance", "administrator"])
def test_compliance_and_administrators_download_and_each_download_is_logged(
    day, api, who, request, as_compliance, django_capture_on_commit_callbacks
):
    report = run(as_compliance, django_capture_on_commit_callbacks, gaming_day=DAY, format="pdf")
    user = request.getfixturevalue(who)
    client = api(user)
    for _ in range(2):
        response = client.get(f"{URL}{report['id']}/download/")
        assert response.status_code == 200
        body = b"".join(response.streaming_content)
        assert body.startswith(b"%PDF")
        assert hashlib.sha256(body).hexdigest() == report["sha256"]
        assert response["Content-Type"] == "application/pdf"
        assert response["Content-Disposition"] == (
            'attachment; filename="rotation-record_2026-11-20_all-tables.pdf"'
        )
        assert response["X-Content-SHA256"] == report["sha256"]
    logged = ReportDownload.objects.filter(report_id=report["id"]).order_by("id")
    assert [(d.downloaded_by, d.sha256) for d in logged] == [(user, report["sha256"])] * 2
    listed = client.get(f"{URL}{report['id']}/downloads/").data
    assert [d["downloaded_by"] for d in listed] == [user.username] * 2


def test_a_tampered_file_is_refused_and_not_logged(
    day, as_compliance, django_capture_on_commit_callbacks
):
    report = ReportRequest.objects.get(
        pk=run(as_compliance, django_capture_on_commit_callbacks)["id"]
    )
    path = default_storage.path(report.file.name)
    with open(path, "r+b") as stored:
        stored.seek(40)
        stored.write(b"X")
    response = as_compliance.get(f"{URL}{report.pk}/download/")
    assert response.status_code == 409
    assert response.data["code"] == "checksum_mismatch"
    assert report.sha256 in response.data["message"]
    assert ReportDownload.objects.count() == 0


def test_a_missing_file_is_refused(day, as_compliance, django_capture_on_commit_callbacks):
    report = ReportRequest.objects.get(
        pk=run(as_compliance, django_capture_on_commit_callbacks)["id"]
    )
    default_storage.delete(report.file.name)
    response = as_compliance.get(f"{URL}{report.pk}/download/")
    assert (response.status_code, response.data["code"]) == (409, "file_missing")


def test_a_report_not_done_cannot_be_downloaded(day, as_compliance):
    report = request(as_compliance).data
    response = as_compliance.get(f"{URL}{report['id']}/download/")
    assert (response.status_code, response.data["code"]) == (409, "queued")


def test_list_and_filter(day, as_compliance, django_capture_on_commit_callbacks):
    done = run(as_compliance, django_capture_on_commit_callbacks)
    queued = request(as_compliance, "currency", gaming_day="2026-11-19").data
    listed = as_compliance.get(URL).data
    assert [r["id"] for r in listed["results"]] == [queued["id"], done["id"]]
    assert [r["id"] for r in as_compliance.get(URL, {"status": "done"}).data["results"]] == [
        done["id"]
    ]
    by_type = as_compliance.get(URL, {"report_type": "currency"}).data["results"]
    assert [r["id"] for r in by_type] == [queued["id"]]
    by_day = as_compliance.get(URL, {"gaming_day": "2026-11-19"}).data["results"]
    assert [r["id"] for r in by_day] == [queued["id"]]
    assert as_compliance.get(URL, {"status": "lost"}).status_code == 400
    refused = as_compliance.get(URL, {"gaming_day": "2026-11-1x"})
    assert refused.status_code == 400
    assert (refused.data["code"], refused.data["field"]) == ("invalid", "gaming_day")
    assert set(refused.data["errors"]) == {"gaming_day"}


def test_generation_is_deterministic_csv_and_pdf(day, clock):
    for report_type in ("rotation", "banking", "audit", "currency"):
        first, _ = generate_bytes(report_type, gaming_day=DAY)
        assert generate_bytes(report_type, gaming_day=DAY)[0] == first
    for report_type in ("rotation", "banking", "currency"):
        first, _ = generate_bytes(report_type, gaming_day=DAY, format="pdf")
        assert first.startswith(b"%PDF")
        # A later clock changes nothing in the body: no generation time inside.
        clock.set(at("2027-01-01T12:00:00"))
        assert generate_bytes(report_type, gaming_day=DAY, format="pdf")[0] == first
        clock.set(at("2026-11-21T06:30:00"))


def test_daily_reports_are_requested_for_the_day_that_closed(day, clock):
    from celery.schedules import crontab
    from django.conf import settings

    clock.set(at("2026-11-21T06:15:00"))
    requested = services.request_daily_reports()
    reports = sorted((r.report.report_type, r.report.parameters["from_day"]) for r in requested)
    daily = [t for t, kind in registry.REGISTRY.items() if kind.daily]
    assert reports == sorted((t, DAY) for t in daily)
    assert "fee_filing" not in daily  # filed when schedules change, on request
    assert {r.report.requested_by.username for r in requested} == {"report-scheduler"}
    assert all(r.report.scheduled for r in requested)
    schedule = settings.CELERY_BEAT_SCHEDULE["daily-compliance-reports"]
    assert schedule["task"] == "reports.request_daily_reports"
    assert schedule["schedule"] == crontab(hour=6, minute=15)
    # Run twice (a beat restarted): still one row per report while they are queued.
    services.request_daily_reports()
    assert ReportRequest.objects.count() == len(daily)


def test_pdf_for_an_open_period_differs_only_by_what_it_says(day):
    """The header's period status is in the body; the PDF is still deterministic."""
    open_pdf, generated = generate_bytes("currency", gaming_day="2026-11-21", format="pdf")
    assert generated.period_open is True
    assert generate_bytes("currency", gaming_day="2026-11-21", format="pdf")[0] == open_pdf


def test_retention_on_29_february_is_kept_longer_not_shorter():
    assert services._years_after(date(2028, 2, 29), 5) == date(2033, 3, 1)


def test_the_database_refuses_a_second_in_flight_row(day, compliance):
    from django.db import IntegrityError, transaction

    first = services.request_report(
        report_type="rotation", parameters={"gaming_day": DAY}, by=compliance
    ).report
    duplicate = {
        field: getattr(first, field)
        for field in ("report_type", "parameters", "parameters_key", "requested_at",
                      "retention_until")
    }  # fmt: skip
    with pytest.raises(IntegrityError), transaction.atomic():
        ReportRequest.objects.create(**duplicate, requested_by=compliance, status="running")
    # Once the first is done, a new row for the same parameters is allowed.
    ReportRequest.objects.filter(pk=first.pk).update(status="failed")
    ReportRequest.objects.create(**duplicate, requested_by=compliance, status="queued")


@pytest.mark.requires_postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_identical_requests_make_one_row(compliance, administrator, monkeypatch, clock):
    """Two sessions ask at the same moment: one row, both answered with it."""
    enqueued = []
    # Runs are not what this test is about: keep the row queued while both ask.
    monkeypatch.setattr(services, "_hand_over", enqueued.append)

    compliance_day(clock)
    outcomes = race(
        *(
            partial(
                services.request_report,
                report_type="currency",
                parameters={"gaming_day": DAY},
                by=user,
            )
            for user in (compliance, administrator)
        )
    )
    assert [o.error for o in outcomes] == [None, None], outcomes
    answers = [o.value for o in outcomes]
    assert len(answers) == 2
    assert sorted(a.created for a in answers) == [False, True]
    assert len({a.report.pk for a in answers}) == 1
    assert ReportRequest.objects.filter(report_type="currency").count() == 1
    assert [report.pk for report in enqueued] == [answers[0].report.pk]
