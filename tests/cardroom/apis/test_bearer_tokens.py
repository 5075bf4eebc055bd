"""First contact with the API (cardroom/authentication.py, cardroom/tokens.py): the token works
as `Authorization: Bearer <token>` as well as `Token <token>`; a wrong one is 401, never 403;
the documentation page's sign-in body has the two fields to fill in."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from cardroom.roles import Role
from tests.builders.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "s3cret-pass"


@pytest.fixture
def token():
    UserFactory(username="terminal", password=PASSWORD, role=Role.HOUSE_DEALER)
    response = APIClient().post(
        "/api/auth/token/", {"username": "terminal", "password": PASSWORD}, format="json"
    )
    assert response.status_code == 200
    return response.data["token"]


def client_with(header: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    return client


@pytest.mark.parametrize("scheme", ["Bearer", "Token", "bearer"])
def test_the_token_works_with_either_scheme(token, scheme):
    response = client_with(f"{scheme} {token}").get("/api/tables/")
    assert response.status_code == 200


@pytest.mark.parametrize(
    "header", ["Bearer not-a-token", "Bearer", "Bearer two words", "Token not-a-token"]
)
def test_a_bad_token_is_401_with_the_challenge_not_403(token, header):
    response = client_with(header).get("/api/tables/")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert response.data["code"] == "authentication_failed"
    assert response.data["message"]


def test_an_expired_or_ended_bearer_token_is_401(token):
    bearer = client_with(f"Bearer {token}")
    assert bearer.post("/api/auth/logout/").status_code == 204
    response = bearer.get("/api/tables/")
    assert (response.status_code, response.data["code"]) == (401, "authentication_failed")


def test_another_scheme_is_not_a_token(token):
    response = client_with("Basic dGVybWluYWw6czNjcmV0").get("/api/tables/")
    assert (response.status_code, response.data["code"]) == (401, "not_authenticated")


def test_sign_out_everywhere_takes_a_bearer_token(token):
    assert client_with(f"Bearer {token}").post("/api/auth/logoutall/").status_code == 204
    assert client_with(f"Token {token}").get("/api/tables/").status_code == 401


@pytest.fixture
def schema():
    return APIClient().get("/api/schema/", HTTP_ACCEPT="application/json").json()


def test_the_docs_sign_in_body_has_the_user_name_and_password(schema):
    body = schema["paths"]["/api/auth/token/"]["post"]["requestBody"]["content"]
    (example,) = body["application/json"]["examples"].values()
    assert set(example["value"]) == {"username", "password"}
    assert all(example["value"].values())
    fields = schema["components"]["schemas"]["SignIn"]
    assert set(fields["required"]) == {"username", "password"}


def test_the_token_scheme_is_bearer_so_the_docs_dialog_takes_the_token_alone(schema):
    scheme = schema["components"]["securitySchemes"]["knoxApiToken"]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")
    assert "Token <token>" in scheme["description"]
