"""The audit trail that stands up to an investigation (issue 14, item 4): every sign-in attempt
with the name typed and why a refused one was refused; every refusal with its message, console
and API; tables and hands by name and number; details in the floor's words; the page's filters;
the CSV export through the reports pipeline."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from django.urls import reverse

from console import audit
from console.audit_words import detail_words
from console.models import Outcome, StaffAction
from reports.models import ReportRequest
from tests.builders.money import start

pytestmark = pytest.mark.django_db

LOGIN = "console:login"


def sign_in(client, username, password):
    return client.post(reverse(LOGIN), {"username": username, "password": password})


def last() -> StaffAction:
    return StaffAction.objects.order_by("-id").first()


# --- Every sign-in attempt, console and API ---------------------------------------------------


def test_a_console_sign_in_with_a_bad_password_is_refused_with_why(client, users):
    response = sign_in(client, "dealer", "not-the-password")
    assert response.status_code == 400
    row = last()
    assert (row.action, row.username, row.user, row.outcome, row.status_code, row.message) == (
        "sign in", "dealer", None, Outcome.REFUSED, 400, audit.BAD_PASSWORD,
    )  # fmt: skip
    assert "not-the-password" not in row.detail + row.message


def test_a_console_sign_in_under_an_unknown_name_is_kept_as_typed(client, users):
    assert sign_in(client, "Nobody Here", "guess").status_code == 400
    row = last()
    assert (row.username, row.outcome, row.message) == (
        "Nobody Here", Outcome.REFUSED, audit.UNKNOWN_USER,
    )  # fmt: skip


def test_a_non_staff_account_is_refused_at_the_console_sign_in(client, users):
    response = sign_in(client, "not_staff", "pw")
    assert response.status_code == 400
    assert "not a staff account" in response.content.decode()
    assert "_auth_user_id" not in client.session
    row = last()
    assert (row.username, row.outcome, row.message) == (
        "not_staff", Outcome.REFUSED, audit.NOT_STAFF,
    )  # fmt: skip


def test_a_locked_out_sign_in_is_refused_as_locked_out(client, users, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        sign_in(client, "dealer", "wrong")
    assert sign_in(client, "dealer", "pw").status_code == 429
    row = last()
    assert (row.username, row.outcome, row.status_code, row.message) == (
        "dealer", Outcome.REFUSED, 429, audit.LOCKED_OUT,
    )  # fmt: skip


def test_a_successful_console_sign_in_is_done_with_the_user(client, users):
    assert sign_in(client, "supervisor", "pw").status_code == 302
    row = last()
    assert (row.user, row.username, row.outcome, row.message) == (
        users["supervisor"], "supervisor", Outcome.DONE, "",
    )  # fmt: skip


def _token(client, username, password):
    return client.post(
        "/api/auth/token/",
        {"username": username, "password": password},
        content_type="application/json",
    )


def test_api_token_sign_ins_are_recorded_with_the_name_typed_and_why(client, users):
    assert _token(client, "dealer", "pw").status_code == 200
    assert _token(client, "dealer", "bad-secret").status_code == 400
    assert _token(client, "ghost", "bad-secret").status_code == 400
    done, bad, unknown = StaffAction.objects.filter(action="API token sign-in").order_by("id")
    assert (done.user, done.username, done.outcome) == (users["dealer"], "dealer", Outcome.DONE)
    assert (bad.user, bad.username, bad.outcome, bad.status_code) == (
        None, "dealer", Outcome.REFUSED, 400,
    )  # fmt: skip
    assert bad.message == "unable to sign in with these credentials (bad password)"
    assert unknown.message == "unable to sign in with these credentials (unknown user name)"
    for row in (done, bad, unknown):
        assert "bad-secret" not in row.detail + row.message and row.detail == ""


def test_a_locked_out_api_sign_in_is_refused_as_locked_out(client, users, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _token(client, "dealer", "wrong")
    assert _token(client, "dealer", "pw").status_code == 429
    row = last()
    assert (row.action, row.username, row.outcome, row.message) == (
        "API token sign-in", "dealer", Outcome.REFUSED, audit.LOCKED_OUT,
    )  # fmt: skip


# --- Every refusal with its message; tables and hands by name and number ---------------------


def test_an_api_refusal_is_recorded_with_the_message_of_its_error_body(as_user, card_table):
    round_ = start(card_table, 1, 20_000)
    client = as_user("dealer")
    response = client.post(f"/api/rounds/{round_.pk}/deal/", {}, content_type="application/json")
    assert response.status_code == 409
    row = last()
    assert (row.channel, row.outcome, row.status_code) == ("api", Outcome.REFUSED, 409)
    assert row.message == response.json()["message"] != ""
    assert (row.table_id, row.table_name, row.round_id, row.round_number) == (
        card_table.table.pk, card_table.table.name, round_.pk, round_.number,
    )  # fmt: skip
    assert row.where == f"{card_table.table.name}, hand {round_.number}"


def test_an_api_role_refusal_has_its_message_too(as_user, card_table):
    client = as_user("compliance")
    response = client.post(
        f"/api/tables/{card_table.table.pk}/button/offer/", {}, content_type="application/json"
    )
    assert response.status_code == 403
    row = last()
    assert (row.outcome, row.message) == (Outcome.REFUSED, response.json()["message"])
    assert row.message and row.table_name == card_table.table.name


def test_a_console_round_action_names_the_table_and_the_hand(as_user, card_table):
    round_ = start(card_table, 1, 20_000)
    client = as_user("dealer")
    url = reverse("console:table-action", args=[card_table.table.pk, "deal"])
    client.post(url, {"round_id": round_.pk})  # wagering: not the time to deal
    row = last()
    assert row.outcome == Outcome.REFUSED and row.message
    assert row.where == f"{card_table.table.name}, hand {round_.number}"
    page = as_user("supervisor").get(reverse("console:audit")).content.decode()
    assert f"{card_table.table.name}, hand {round_.number}" in page


def test_details_are_shown_in_the_floor_s_words():
    recorded = json.dumps({"round_id": 7, "seat": 5, "ante_cents": 1000, "cash": True})
    assert detail_words(recorded) == "seat 5 · ante $10.00 · cash yes"
    assert (
        detail_words(str({"minimum_cents": 500, "player": "PL-3"})) == "minimum $5.00 · player PL-3"
    )
    assert detail_words("(body not JSON)") == "(body not JSON)"
    for text in (detail_words(recorded), detail_words(str({"bank_cents": 250_000}))):
        assert "round_id" not in text and "_cents" not in text


# --- The page's filters -----------------------------------------------------------------------


def _row(at, **fields):
    defaults = {
        "username": "dealer", "channel": "console", "action": "seat a player", "method": "POST",
        "path": "/console/", "outcome": Outcome.DONE, "status_code": 302,
    }  # fmt: skip
    return StaffAction.objects.create(at=at, **{**defaults, **fields})


@pytest.fixture
def trail(card_table):
    table = card_table.table
    return {
        "old": _row(datetime(2026, 11, 18, 20, 0, tzinfo=UTC), username="supervisor"),
        # 13:30 local on 2026-11-20 (UTC-8): gaming day 2026-11-20.
        "refused": _row(
            datetime(2026, 11, 20, 21, 30, tzinfo=UTC),
            channel="auth",
            action="sign in",
            username="intruder",
            outcome=Outcome.REFUSED,
            status_code=400,
            message=audit.UNKNOWN_USER,
        ),
        "at_table": _row(
            datetime(2026, 11, 20, 22, 0, tzinfo=UTC), table_id=table.pk, table_name=table.name
        ),
        # 05:30 local on 2026-11-21: still gaming day 2026-11-20 (it starts at 06:00).
        "before_six": _row(datetime(2026, 11, 21, 13, 30, tzinfo=UTC), action="place wagers"),
    }


def shown(client, **params) -> tuple[int, str]:
    response = client.get(reverse("console:audit"), params)
    return response.status_code, response.content.decode()


def test_the_trail_is_filtered_by_gaming_days_table_staff_action_and_outcome(
    as_user, trail, card_table
):
    client = as_user("compliance")
    status, page = shown(client, from_day="2026-11-20", to_day="2026-11-20")
    assert status == 200
    assert "intruder" in page and "place wagers" in page and "2026-11-18" not in page
    _, page = shown(client, table=card_table.table.pk)
    assert page.count('<tr class="outcome-') == 1 and card_table.table.name in page
    _, page = shown(client, username="INTRUDER", outcome="refused")
    assert page.count('<tr class="outcome-') == 1 and audit.UNKNOWN_USER in page
    _, page = shown(client, action="place wagers")
    assert page.count('<tr class="outcome-') == 1
    _, page = shown(client, outcome="refused", channel="auth", from_day="2026-11-21")
    assert "Nothing recorded matches these filters" in page


@pytest.mark.parametrize(
    "params",
    [
        {"username": "bad\x00name"},
        {"from_day": "yesterday"},
        {"from_day": "2026-11-21", "to_day": "2026-11-20"},
        {"table": "999999999"},
        {"outcome": "maybe"},
        {"action": "never recorded"},
    ],
)
def test_a_filter_nothing_can_match_answers_400_with_why(as_user, trail, params):
    status, page = shown(as_user("supervisor"), **params)
    assert status == 400
    assert 'class="messages"' in page or "error" in page
    assert '<tr class="outcome-' not in page


def test_the_page_is_for_supervisors_and_compliance(as_user):
    assert as_user("dealer").get(reverse("console:audit")).status_code == 403


# --- The export -------------------------------------------------------------------------------


def test_compliance_exports_what_is_filtered_as_a_report(as_user, trail, card_table, compliance):
    client = as_user("compliance")
    page = shown(client, outcome="refused")[1]
    assert 'id="audit-export"' in page
    response = client.post(
        reverse("console:audit-export"),
        {"from_day": "2026-11-20", "to_day": "2026-11-20", "outcome": "refused"},
    )
    assert response.status_code == 302 and response["Location"] == reverse("console:reports")
    report = ReportRequest.objects.get()
    assert report.report_type == "staff_actions"
    assert report.parameters == {
        "format": "csv", "from_day": "2026-11-20", "to_day": "2026-11-20", "table": None,
        "outcome": "refused",
    }  # fmt: skip
    assert report.get_report_type_display() == "Audit trail of staff actions"
    requested = last()
    assert (requested.action, requested.outcome) == ("export the audit trail", Outcome.DONE)
    assert requested.detail_words == (
        "gaming days 2026-11-20 · table all tables · filters outcome Refused"
    )
    listing = client.get(reverse("console:reports")).content.decode()
    assert "Audit trail of staff actions" in listing and "outcome Refused" in listing


def test_an_export_without_days_covers_today_s_gaming_day(as_user, trail, clock):
    client = as_user("compliance")
    client.post(reverse("console:audit-export"), {"username": "intruder"})
    report = ReportRequest.objects.get()
    assert report.parameters["from_day"] == report.parameters["to_day"]
    assert report.parameters["username"] == "intruder"


def test_a_supervisor_reads_the_trail_but_does_not_export_it(as_user, trail):
    client = as_user("supervisor")
    assert 'id="audit-export"' not in shown(client)[1]
    assert client.post(reverse("console:audit-export"), {}).status_code == 403
    assert not ReportRequest.objects.exists()


def test_a_refused_export_says_why_and_requests_nothing(as_user, trail):
    client = as_user("compliance")
    response = client.post(reverse("console:audit-export"), {"from_day": "2999-01-01"})
    assert response.status_code == 400
    assert "export refused" in response.content.decode()
    assert not ReportRequest.objects.exists()
    assert last().outcome == Outcome.REFUSED


@pytest.mark.requires_postgres
def test_the_database_refuses_to_edit_or_delete_a_staff_action(trail):
    from django.db import DatabaseError, transaction

    row = trail["refused"]
    for change in (
        lambda: StaffAction.objects.filter(pk=row.pk).update(message="edited"),
        lambda: StaffAction.objects.filter(pk=row.pk).delete(),
    ):
        with pytest.raises(DatabaseError, match="history"), transaction.atomic():
            change()
    assert StaffAction.objects.get(pk=row.pk).message == audit.UNKNOWN_USER
