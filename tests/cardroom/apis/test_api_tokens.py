"""API tokens (django-rest-knox, cardroom/tokens.py): signed in with a password, expiring after
API_TOKEN_TTL_HOURS, ended by a password change, staff status removed, a deactivation or a
sign-out; a caller without valid credentials is answered 401 with the token scheme's
challenge; a non-staff account holds no role (403)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from cardroom.roles import Role
from console.models import StaffAction
from tests.builders.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "s3cret-pass"
T0 = datetime(2026, 11, 20, 18, 0, tzinfo=UTC)


@pytest.fixture
def dealer():
    return UserFactory(username="terminal", password=PASSWORD, role=Role.HOUSE_DEALER)


def sign_in(username="terminal", password=PASSWORD):
    return APIClient().post(
        "/api/auth/token/", {"username": username, "password": password}, format="json"
    )


def with_token(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def assert_refused(response, code: str) -> None:
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert response.data["code"] == code


def test_a_token_is_signed_in_for_and_recorded_without_the_password(dealer):
    response = sign_in()
    assert response.status_code == 200
    assert set(response.data) == {"token", "expiry"}
    assert with_token(response.data["token"]).get("/api/tables/").status_code == 200
    (record,) = StaffAction.objects.filter(action="API token sign-in")
    assert (record.username, record.user, record.status_code) == ("terminal", dealer, 200)
    assert PASSWORD not in record.detail and response.data["token"] not in record.detail


def test_a_wrong_password_gets_no_token(dealer):
    response = sign_in(password="not-it")
    assert response.status_code == 400
    assert response.data["message"] == "unable to sign in with these credentials"
    assert not AuthToken.objects.exists()


def test_no_credentials_or_a_wrong_token_is_401_with_the_challenge(dealer):
    assert_refused(APIClient().get("/api/tables/"), "not_authenticated")
    assert_refused(APIClient().post("/api/tables/", {}, format="json"), "not_authenticated")
    assert_refused(with_token("not-a-token").get("/api/tables/"), "authentication_failed")


def test_the_console_still_sends_a_stranger_to_sign_in(client):
    response = client.get("/console/")
    assert response.status_code == 302
    assert response["Location"].startswith("/console/sign-in/")


def test_a_token_expires_after_the_ttl(dealer, monkeypatch, settings):
    assert settings.API_TOKEN_TTL_HOURS == 10
    monkeypatch.setattr(timezone, "now", lambda: T0)
    response = sign_in()
    token = response.data["token"]
    assert AuthToken.objects.get(user=dealer).expiry == T0 + timedelta(hours=10)
    monkeypatch.setattr(timezone, "now", lambda: T0 + timedelta(hours=10) - timedelta(seconds=1))
    assert with_token(token).get("/api/tables/").status_code == 200
    # Use does not lengthen it.
    assert AuthToken.objects.get(user=dealer).expiry == T0 + timedelta(hours=10)
    monkeypatch.setattr(timezone, "now", lambda: T0 + timedelta(hours=10, seconds=1))
    assert_refused(with_token(token).get("/api/tables/"), "authentication_failed")
    assert not AuthToken.objects.filter(user=dealer).exists()


def test_a_password_change_ends_every_token_of_the_user(dealer):
    first, second = sign_in().data["token"], sign_in().data["token"]
    other = UserFactory(role=Role.HOUSE_DEALER)
    _, others = AuthToken.objects.create(user=other)
    dealer.first_name = "Dee"
    dealer.save()  # saved, password unchanged: the tokens live on
    assert with_token(first).get("/api/tables/").status_code == 200
    dealer.set_password("a-new-pass-phrase")
    dealer.save()
    for token in (first, second):
        assert_refused(with_token(token).get("/api/tables/"), "authentication_failed")
    assert not AuthToken.objects.filter(user=dealer).exists()
    assert with_token(others).get("/api/tables/").status_code == 200


@pytest.mark.parametrize(
    ("change", "saved"),
    [
        ({"is_staff": False}, None),  # the admin's user page saves every field
        ({"is_staff": False}, ["is_staff"]),
        ({"is_active": False}, ["is_active"]),
    ],
)
def test_removing_staff_status_or_deactivating_ends_every_token_at_once(dealer, change, saved):
    tokens = [sign_in().data["token"], sign_in().data["token"]]
    for field, value in change.items():
        setattr(dealer, field, value)
    dealer.save(update_fields=saved)
    for token in tokens:
        assert_refused(with_token(token).get("/api/tables/"), "authentication_failed")
    assert not AuthToken.objects.filter(user=dealer).exists()
    # Given back, the access brings no token back: the user signs in anew.
    for field in change:
        setattr(dealer, field, True)
    dealer.save()
    assert with_token(tokens[0]).get("/api/tables/").status_code == 401
    assert with_token(sign_in().data["token"]).get("/api/tables/").status_code == 200


def test_a_save_that_changes_no_access_keeps_the_tokens(dealer):
    token = sign_in().data["token"]
    dealer.last_login = timezone.now()
    dealer.save(update_fields=["last_login"])  # each sign-in saves it
    dealer.is_superuser = True
    dealer.save()
    assert with_token(token).get("/api/tables/").status_code == 200


def test_a_non_staff_account_in_a_role_group_holds_no_role(dealer):
    """One place decides it (cardroom.roles): no role for an account that is not staff,
    whatever its groups, so the API answers its token 403 (and the console refuses it)."""
    token = AuthToken.objects.create(user=dealer)[1]
    type(dealer).objects.filter(pk=dealer.pk).update(is_staff=False)  # behind the signals' back
    refused = with_token(token).get("/api/tables/")
    assert (refused.status_code, refused.data["code"]) == (403, "permission_denied")
    client = APIClient()
    client.force_login(dealer)
    assert client.get("/api/tables/").status_code == 403
    assert client.get("/console/").status_code == 403


def test_sign_out_ends_the_token(dealer):
    token, kept = sign_in().data["token"], sign_in().data["token"]
    response = with_token(token).post("/api/auth/logout/")
    assert response.status_code == 204
    assert_refused(with_token(token).get("/api/tables/"), "authentication_failed")
    assert with_token(kept).get("/api/tables/").status_code == 200
    (record,) = StaffAction.objects.filter(action="API token sign-out")
    assert (record.username, record.status_code) == ("terminal", 204)


def test_sign_out_everywhere_ends_every_token_of_the_user(dealer):
    tokens = [sign_in().data["token"] for _ in range(3)]
    other = UserFactory(role=Role.HOUSE_DEALER)
    _, others = AuthToken.objects.create(user=other)
    assert with_token(tokens[0]).post("/api/auth/logoutall/").status_code == 204
    for token in tokens:
        assert_refused(with_token(token).get("/api/tables/"), "authentication_failed")
    assert with_token(others).get("/api/tables/").status_code == 200


def test_signing_out_needs_a_token():
    assert_refused(APIClient().post("/api/auth/logout/"), "not_authenticated")
    assert_refused(APIClient().post("/api/auth/logoutall/"), "not_authenticated")


def test_repeated_failures_lock_the_token_sign_in(dealer, settings):
    settings.AXES_FAILURE_LIMIT = 3
    for _ in range(2):
        assert sign_in(password="not-it").status_code == 400
    for password in ("not-it", PASSWORD):  # the right one too, until the cool-off ends
        locked = sign_in(password=password)
        assert locked.status_code == 429
        assert locked.json()["code"] == "throttled"
    assert not AuthToken.objects.exists()
