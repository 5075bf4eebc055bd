"""A compliance officer, on a 1024x768 tablet, filters the audit trail down to a refused
sign-in and exports it: the export is a compliance report run by a real Celery worker, its
file served with its checksum and the download recorded."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from playwright.sync_api import expect

from cardroom.clock import now
from cardroom.gaming_day import gaming_day_of
from cardroom.roles import Role
from console.models import Outcome, StaffAction
from reports.models import ReportDownload, ReportRequest
from tables.models import DealMode
from tests.builders.factories import UserFactory
from tests.builders.floor import make_staff
from tests.builders.money import Wager, money_table, play_round
from tests.e2e.conftest import fits_width, sign_in

pytestmark = [
    pytest.mark.requires_postgres,
    pytest.mark.requires_redis,
    pytest.mark.django_db(transaction=True),
]


def test_compliance_filters_the_trail_to_a_refused_sign_in_and_exports_it(
    live_server, new_page, shoot, celery_worker_process, worker_media
):
    staff = make_staff()
    UserFactory(username="officer", role=Role.COMPLIANCE_OFFICER)
    mt = money_table(staff, {1: 50_000, 2: 50_000, 3: 50_000}, deal_mode=DealMode.RNG)
    play_round(mt, pd_seat=2, bank=10_000, wagers=[Wager(1, 1_000), Wager(3, 1_000)])
    day = gaming_day_of(now()).isoformat()

    # Someone tries a name that is no account's at the sign-in page: refused.
    page = new_page()
    page.goto(f"{live_server.url}/console/sign-in/")
    page.fill("input[name=username]", "night-visitor")
    page.fill("input[name=password]", "guess-123")
    page.click("button:has-text('Sign in')")
    expect(page.locator(".alert")).to_be_visible()
    shoot(page, "90-refused-sign-in")
    StaffAction.objects.get(username="night-visitor", outcome=Outcome.REFUSED)

    officer = new_page()
    sign_in(officer, live_server.url, "officer")
    officer.get_by_role("link", name="Audit trail").click()
    expect(officer.locator("h1")).to_have_text("Audit trail")
    assert fits_width(officer)
    shoot(officer, "91-audit-trail")

    officer.fill("input[name=from_day]", day)
    officer.fill("input[name=to_day]", day)
    officer.select_option("select[name=outcome]", "refused")
    officer.select_option("select[name=channel]", "auth")
    officer.fill("input[name=username]", "night-visitor")
    with officer.expect_navigation():
        officer.get_by_role("button", name="Filter").click()
    rows = officer.locator("#audit tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("night-visitor")
    expect(rows.first).to_contain_text("Refused (400)")
    expect(rows.first).to_contain_text("unknown user name")
    assert "guess-123" not in officer.content()
    assert fits_width(officer)
    shoot(officer, "92-filtered-to-the-refused-sign-in")

    with officer.expect_navigation():
        officer.get_by_role("button", name="Export these rows (CSV)").click()
    expect(officer.locator("h1")).to_have_text("Compliance reports")
    expect(officer.locator(".messages")).to_contain_text("audit trail export requested")
    shoot(officer, "93-export-requested")

    row = officer.locator("#reports tr[data-report]").first
    expect(row).to_contain_text("Audit trail of staff actions")
    expect(row.locator(".status")).to_have_text("Done", timeout=120_000)
    shoot(officer, "94-export-done")

    report = ReportRequest.objects.get(report_type="staff_actions")
    assert report.parameters == {
        "format": "csv", "from_day": day, "to_day": day, "table": None,
        "username": "night-visitor", "outcome": "refused", "channel": "auth",
    }  # fmt: skip
    with officer.expect_download() as download:
        row.get_by_role("link", name=report.file_name).click()
    data = Path(download.value.path()).read_bytes()
    assert hashlib.sha256(data).hexdigest() == report.sha256 == row.locator(".sha256").inner_text()
    text = data.decode()
    assert "night-visitor" in text and "unknown user name" in text and "guess-123" not in text
    assert text.count("\nnight-visitor,") + text.count(",night-visitor,") == 1
    assert ReportDownload.objects.filter(report=report, downloaded_by__username="officer").exists()
    officer.get_by_role("link", name="Audit trail").click()
    shoot(officer, "95-audit-trail-after-the-export")
