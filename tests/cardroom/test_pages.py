"""The home page, the OpenAPI schema and self-hosted API docs are served."""

import pytest

pytestmark = pytest.mark.django_db


def test_home_page_says_what_the_system_is(client):
    response = client.get("/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "Ultimate Texas Hold'em" in body
    assert "player-dealer" in body


def test_schema_is_served(client):
    response = client.get("/api/schema/")
    assert response.status_code == 200
    assert b"openapi" in response.content


def test_api_docs_use_no_cdn(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "drf_spectacular_sidecar/swagger-ui-dist" in body
    assert "cdn." not in body
