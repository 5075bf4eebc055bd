"""A compliance officer requests the rotation report in a real browser, watches it finish
(a real Celery worker), and downloads it with the right checksum; while the report queue
cannot be reached, the page says so, and the report runs once it is back."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from cardroom.clock import now
from cardroom.gaming_day import gaming_day_of
from cardroom.roles import Role
from reports import services
from reports.models import QUEUE_UNREACHABLE, ReportDownload, ReportRequest
from tables.models import DealMode
from tests.broker import unreachable_broker
from tests.builders.factories import UserFactory
from tests.builders.floor import make_staff
from tests.builders.money import Wager, money_table, play_round
from tests.e2e.conftest import sign_in

pytestmark = [
    pytest.mark.requires_postgres,
    pytest.mark.requires_redis,
    pytest.mark.django_db(transaction=True),
]


def test_compliance_requests_watches_and_downloads_the_rotation_report(
    live_server, new_page, shoot, celery_worker_process, worker_media
):
    staff = make_staff()
    UserFactory(username="officer", role=Role.COMPLIANCE_OFFICER)
    mt = money_table(staff, {1: 50_000, 2: 50_000, 3: 50_000}, deal_mode=DealMode.RNG)
    play_round(mt, pd_seat=2, bank=10_000, wagers=[Wager(1, 1_000), Wager(3, 1_000)])
    day = gaming_day_of(now()).isoformat()

    page = new_page()
    sign_in(page, live_server.url, "officer")
    page.get_by_role("link", name="Reports").click()
    expect(page.locator("h1")).to_have_text("Compliance reports")
    page.select_option("select[name=report_type]", "rotation")
    page.fill("input[name=gaming_day]", day)
    with page.expect_navigation():
        page.get_by_role("button", name="Request").click()
    expect(page.locator(".messages")).to_contain_text("requested")
    shoot(page, "20-report-requested")

    # The status changes on the open page (htmx polling): no reload, no click.
    page.evaluate("window.stillTheSamePage = true")
    row = page.locator("#reports tr[data-report]").first
    expect(row.locator(".status")).to_have_text("Done", timeout=120_000)
    assert page.evaluate("window.stillTheSamePage === true")
    shoot(page, "21-report-done")

    report = ReportRequest.objects.get(report_type="rotation")
    shown = row.locator(".sha256").inner_text().strip()
    assert re.fullmatch(r"[0-9a-f]{64}", shown)
    assert shown == report.sha256
    with page.expect_download() as download:
        row.get_by_role("link", name=report.file_name).click()
    data = Path(download.value.path()).read_bytes()
    assert hashlib.sha256(data).hexdigest() == report.sha256
    assert download.value.suggested_filename == report.file_name
    assert ReportDownload.objects.filter(report=report, downloaded_by__username="officer").exists()


def test_the_page_says_plainly_when_the_report_queue_is_unreachable(
    live_server, new_page, shoot, celery_worker_process, worker_media
):
    staff = make_staff()
    UserFactory(username="officer", role=Role.COMPLIANCE_OFFICER)
    mt = money_table(staff, {1: 50_000, 2: 50_000, 3: 50_000}, deal_mode=DealMode.RNG)
    play_round(mt, pd_seat=2, bank=10_000, wagers=[Wager(1, 1_000), Wager(3, 1_000)])
    day = gaming_day_of(now()).isoformat()

    page = new_page()
    sign_in(page, live_server.url, "officer")
    page.goto(f"{live_server.url}/console/reports/")
    with unreachable_broker():
        page.select_option("select[name=report_type]", "banking")
        page.fill("input[name=gaming_day]", day)
        with page.expect_navigation():
            page.get_by_role("button", name="Request").click()
        report = ReportRequest.objects.get(report_type="banking")
        expect(page.locator(".messages")).to_contain_text(
            f"{QUEUE_UNREACHABLE} (report {report.pk})"
        )
        notice = page.locator("#queue-unreachable")
        expect(notice).to_have_text(  # over the list, which polls itself
            "The report queue cannot be reached: 1 request saved, to run when it is back."
        )
        row = page.locator(f"#reports tr[data-report='{report.pk}']")
        expect(row.locator(".status")).to_contain_text("Queued")
        expect(row.locator(".status")).to_contain_text("waiting for the report queue")
        expect(row.locator(".queue-status")).to_contain_text("the report queue cannot be reached")
        shoot(page, "22-report-queue-unreachable")
        # Asked again, the page says what is happening to the request already saved.
        page.select_option("select[name=report_type]", "banking")
        page.fill("input[name=gaming_day]", day)
        with page.expect_navigation():
            page.get_by_role("button", name="Request").click()
        expect(page.locator(".messages")).to_contain_text(
            f"the same report is already queued (report {report.pk}): queued since "
        )
        expect(page.locator(".messages")).to_contain_text("handed over when it is back")
        shoot(page, "22b-report-asked-again")

    # The broker is back: the sweeper hands the request over and the worker runs it, and
    # the open page follows without a reload.
    assert services.sweep().handed_over == [report.pk]
    expect(row.locator(".status")).to_have_text("Done", timeout=120_000)
    expect(notice).to_have_count(0)
    shoot(page, "23-report-run-once-the-queue-is-back")
