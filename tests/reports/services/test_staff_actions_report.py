"""The audit trail's CSV export (report type ``staff_actions``, registered by the console):
what the audit page filtered, in the floor's words, formula-safe, deterministic; run by a
real Celery worker like every report, checksummed, its download recorded."""

from __future__ import annotations

import io
import json
from datetime import date, datetime

import pytest
from django.core.files.storage import default_storage

from cardroom.errors import RuleError
from console.audit_export import KIND, REPORT_TYPE
from console.models import Outcome, StaffAction
from reports import registry, services
from reports.models import ReportDownload, ReportRequest
from reports.parameters import normalise
from tests.builders.reports import DAY, at
from tests.reports.helpers import read_csv

pytestmark = pytest.mark.django_db


def _row(when: datetime, **fields) -> StaffAction:
    defaults = {
        "username": "dealer", "channel": "console", "action": "place wagers", "method": "POST",
        "path": "/console/", "outcome": Outcome.DONE, "status_code": 302,
    }  # fmt: skip
    return StaffAction.objects.create(at=when, **{**defaults, **fields})


@pytest.fixture
def trail(day):
    table = day.table
    return [
        _row(at("2026-11-19T23:00:00"), username="supervisor"),  # the day before
        _row(
            at("2026-11-20T13:30:00"),
            channel="auth",
            action="sign in",
            method="POST",
            path="/console/sign-in/",
            username='=HYPERLINK("http://x","click")',
            outcome=Outcome.REFUSED,
            status_code=400,
            message="unknown user name",
        ),
        _row(
            at("2026-11-20T14:00:00"),
            table_id=table.pk,
            table_name=table.name,
            round_id=9,
            round_number=41,
            detail=json.dumps({"round_id": 9, "seat": 2, "ante_cents": 1000}),
            user=day.mt.staff.dealer,
        ),
    ]


def generate(**parameters) -> tuple[bytes, services.Generated]:
    normalised = normalise(
        REPORT_TYPE, parameters, formats=KIND.formats, today=date(2100, 1, 1), filters=KIND.filters
    )
    out = io.BytesIO()
    generated = services.generate(REPORT_TYPE, normalised, out)
    return out.getvalue(), generated


def test_the_console_registers_the_export_with_the_reports_pipeline():
    kind = registry.kind_of(REPORT_TYPE)
    assert kind is KIND and kind.formats == ("csv",) and not kind.daily
    assert registry.title_of(REPORT_TYPE) == "Audit trail of staff actions"


def test_the_export_has_the_filtered_rows_in_the_floor_s_words(trail, day):
    data, generated = generate(gaming_day=DAY)
    header, sections = read_csv(data)
    assert header["report"] == "Audit trail of staff actions" and header["filters"] == "none"
    rows = sections["Staff actions"]
    assert generated.rows == len(rows) == 2
    refused, wagers = rows
    # A formula-looking user name reaches the spreadsheet as text (cardroom/csvsafe.py).
    assert refused["staff_member"] == '\'=HYPERLINK("http://x",\'"click")'
    assert (refused["outcome"], refused["status"], refused["message"]) == (
        "Refused", "400", "unknown user name",
    )  # fmt: skip
    assert (wagers["table"], wagers["hand"], wagers["detail"]) == (
        day.table.name, "hand 41", "seat 2 · ante $10.00",
    )  # fmt: skip
    assert wagers["signed_in_account"] == day.mt.staff.dealer.username
    assert "round_id" not in data.decode() and "ante_cents" not in data.decode()
    assert wagers["at"] == "2026-11-20T14:00:00-08:00"


def test_the_export_follows_the_filters(trail, day):
    data, _ = generate(gaming_day=DAY, outcome="refused", channel="auth")
    header, sections = read_csv(data)
    assert header["filters"] == "outcome Refused; channel sign-in"
    assert [r["action"] for r in sections["Staff actions"]] == ["sign in"]
    data, _ = generate(gaming_day=DAY, table=day.table.pk)
    assert [r["hand"] for r in read_csv(data)[1]["Staff actions"]] == ["hand 41"]


def test_the_same_filters_give_the_same_bytes(trail):
    assert generate(gaming_day=DAY)[0] == generate(gaming_day=DAY)[0]


@pytest.mark.parametrize(
    ("parameters", "field"),
    [
        ({"outcome": "maybe"}, "outcome"),
        ({"channel": "fax"}, "channel"),
        ({"username": "x" * 151}, "username"),
        ({"action": "a\x00b"}, "action"),
        ({"username": 7}, "username"),
        ({"colour": "red"}, "colour"),
        ({"format": "pdf"}, "format"),
    ],
)
def test_bad_filters_are_refused_naming_the_field(day, compliance, parameters, field):
    with pytest.raises(RuleError) as refused:
        services.request_report(
            report_type=REPORT_TYPE, parameters={"gaming_day": DAY, **parameters}, by=compliance
        )
    assert refused.value.field == field
    assert not ReportRequest.objects.exists()


def test_other_reports_still_refuse_the_audit_filters(day, compliance):
    with pytest.raises(RuleError, match="unknown parameter"):
        services.request_report(
            report_type="banking", parameters={"gaming_day": DAY, "outcome": "done"}, by=compliance
        )


def test_requested_run_stored_checksummed_and_the_download_recorded(trail, compliance):
    requested = services.request_report(
        report_type=REPORT_TYPE, parameters={"gaming_day": DAY, "outcome": "refused"}, by=compliance
    )
    report = ReportRequest.objects.get(pk=requested.report.pk)
    if report.status == "queued":  # handed to the queue on commit: run here
        services.run_report(report.pk, task_id=report.task_id)
        report.refresh_from_db()
    assert report.status == "done", report.failure_reason
    assert report.file_name == f"audit-trail_{DAY}_all-tables_filtered.csv"
    assert report.row_count == 1
    assert report.sha256 == generate(gaming_day=DAY, outcome="refused")[1].sha256
    served, copy = services.download(report_id=report.pk, by=compliance, remote_addr="10.0.0.9")
    assert copy.read() == generate(gaming_day=DAY, outcome="refused")[0]
    (logged,) = ReportDownload.objects.filter(report=served)
    assert (logged.downloaded_by, logged.sha256) == (compliance, report.sha256)


@pytest.mark.requires_postgres
@pytest.mark.requires_redis
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_generates_the_export(
    celery_worker_process, worker_media, trail, compliance, clock
):
    from tests.reports.services.test_worker import wait_for

    requested = services.request_report(
        report_type=REPORT_TYPE, parameters={"gaming_day": DAY, "outcome": "refused"}, by=compliance
    )
    report = wait_for(requested.report.pk, log=celery_worker_process.log_path)
    assert report.status == "done", report.failure_reason
    clock.stop()  # the worker's clock is the real one: the same period status
    expected, generated = generate(gaming_day=DAY, outcome="refused")
    assert report.sha256 == generated.sha256
    with default_storage.open(report.file.name, "rb") as stored:
        assert stored.read() == expected
