"""The reports page: compliance only, the reports app's refusals on the form, downloads."""

from __future__ import annotations

import hashlib

import pytest
from django.urls import reverse

from cardroom.clock import now
from cardroom.gaming_day import gaming_day_of
from reports import services
from reports.models import QUEUE_UNREACHABLE, ReportDownload, ReportRequest
from tests.broker import unreachable_broker

pytestmark = pytest.mark.django_db


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)


def today() -> str:
    return gaming_day_of(now()).isoformat()


@pytest.mark.parametrize(
    ("who", "status"),
    [("compliance", 200), ("administrator", 200), ("supervisor", 403), ("dealer", 403)],
)
def test_only_compliance_sees_the_reports(as_user, who, status):
    client = as_user(who)
    assert client.get(reverse("console:reports")).status_code == status
    response = client.post(
        reverse("console:reports-request"), {"report_type": "rotation", "gaming_day": today()}
    )
    assert response.status_code == (302 if status == 200 else 403)


def test_the_reports_link_is_shown_to_compliance_only(as_user):
    assert b"Reports</a>" in as_user("compliance").get(reverse("console:floor")).content
    assert b"Reports</a>" not in as_user("dealer").get(reverse("console:floor")).content


@pytest.mark.parametrize(
    ("data", "text"),
    [
        (
            {"from_day": "2026-11-10", "to_day": "2026-11-09"},
            "the last day is before the first day",
        ),
        ({}, "a report needs a gaming day, or a first and a last day"),
        ({"gaming_day": "2099-01-01"}, "has not begun"),
    ],
)
def test_a_bad_request_shows_the_reports_rule(as_user, data, text):
    response = as_user("compliance").post(
        reverse("console:reports-request"), {"report_type": "rotation", **data}
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert text in body
    assert (
        "(rule: requesting a report, docs/rules.md §10.5)" in body
    )  # the reports app's rule, named
    assert not ReportRequest.objects.exists()


def test_the_same_report_twice_is_one_run(as_user):
    client = as_user("compliance")
    for _ in range(2):
        response = client.post(
            reverse("console:reports-request"), {"report_type": "rotation", "gaming_day": today()}
        )
        assert response.status_code == 302
    assert ReportRequest.objects.count() == 1
    page = client.get(reverse("console:reports"), follow=True).content.decode()
    assert "Player-dealer rotation record" in page
    polled = client.get(reverse("console:reports"), HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in polled and "Queued" in polled


def test_a_report_is_downloaded_once_done_with_its_checksum(as_user, users, media):
    client = as_user("compliance")
    requested = services.request_report(
        report_type="rotation", parameters={"gaming_day": today()}, by=users["compliance"]
    )
    url = reverse("console:reports-download", args=[requested.report.pk])
    early = client.get(url, follow=True)
    assert "can be downloaded once done" in early.content.decode()
    services.run_report(requested.report.pk, task_id=requested.report.task_id)  # as the worker
    report = ReportRequest.objects.get()
    assert report.status == "done"
    response = client.get(url)
    assert response.status_code == 200
    body = b"".join(response.streaming_content)
    assert hashlib.sha256(body).hexdigest() == report.sha256 == response["X-Content-SHA256"]
    assert ReportDownload.objects.filter(report=report, downloaded_by=users["compliance"]).exists()
    page = client.get(reverse("console:reports")).content.decode()
    assert report.sha256 in page


def test_while_the_report_queue_is_unreachable_the_page_says_so(
    as_user, django_capture_on_commit_callbacks
):
    client = as_user("compliance")
    form = {"report_type": "rotation", "gaming_day": today()}
    with unreachable_broker(), django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("console:reports-request"), form, follow=True)
    report = ReportRequest.objects.get()
    assert response.status_code == 200  # saved and answered, not a server error
    assert (report.status, report.queue_state) == ("queued", "unreachable")
    page = response.content.decode()
    # The message after the request, and the notice over the list (which polls itself).
    assert f"{QUEUE_UNREACHABLE} (report {report.pk})" in page
    polled = client.get(reverse("console:reports"), HTTP_HX_REQUEST="true").content.decode()
    assert 'id="queue-unreachable"' in polled
    assert (
        "The report queue cannot be\n  reached: 1 request saved, to run when it is back." in polled
    )
    assert "waiting for the report queue" in polled
    # Once the queue has taken it, the notice is gone.
    ReportRequest.objects.filter(pk=report.pk).update(enqueue_error="", enqueued_at=now())
    polled = client.get(reverse("console:reports"), HTTP_HX_REQUEST="true").content.decode()
    assert "queue-unreachable" not in polled and "waiting for the report queue" not in polled
    assert "Queued" in polled


def test_asking_again_says_what_is_happening_to_the_queued_report(
    as_user, django_capture_on_commit_callbacks
):
    client = as_user("compliance")
    form = {"report_type": "rotation", "gaming_day": today()}
    with unreachable_broker(), django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("console:reports-request"), form, follow=True)  # its message shown
        again = client.post(reverse("console:reports-request"), form, follow=True)
    report = ReportRequest.objects.get()
    page = again.content.decode()
    assert f"the same report is already queued (report {report.pk}): queued since " in page
    assert "the report queue cannot be reached: handed over when it is back" in page
    assert f"{QUEUE_UNREACHABLE} (report {report.pk})" not in page  # said once, in the sentence
    # The list says it under the queued report too.
    row = page[page.index(f'data-report="{report.pk}"') :].split("</tr>")[0]
    assert 'class="queue-status">queued since ' in row
