"""The production profile: with DEBUG off the system is secure by default (HTTPS only, HSTS,
secure cookies, a Content-Security-Policy), each protection switchable by its variable, and
``manage.py check --deploy`` has nothing to say (README, "Settings")."""

from __future__ import annotations

import subprocess
import sys

import pytest
from django.urls import reverse

from tests.builders.factories import UserFactory
from tests.helpers import BASE_DIR, read_settings

SECRET = "a-real-production-secret-0123456789abcdefghijklmnopqrstuvwxyz-ABCDEFG"
PRODUCTION = {"DEBUG": "false", "SECRET_KEY": SECRET}
SECURITY = [
    ("SECURE_SSL_REDIRECT", "settings.SECURE_SSL_REDIRECT", "True", "False"),
    ("SECURE_HSTS_SECONDS", "settings.SECURE_HSTS_SECONDS", "31536000", "0"),
    ("SECURE_HSTS_INCLUDE_SUBDOMAINS", "settings.SECURE_HSTS_INCLUDE_SUBDOMAINS", "True", "False"),
    ("SECURE_HSTS_PRELOAD", "settings.SECURE_HSTS_PRELOAD", "True", "False"),
    ("SESSION_COOKIE_SECURE", "settings.SESSION_COOKIE_SECURE", "True", "False"),
    ("CSRF_COOKIE_SECURE", "settings.CSRF_COOKIE_SECURE", "True", "False"),
    ("CONTENT_SECURITY_POLICY", "bool(settings.CONTENT_SECURITY_POLICY)", "True", "False"),
]
OFF = {"SECURE_HSTS_SECONDS": "0"}


def check_deploy(environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``manage.py check --deploy`` in an environment holding only ``environment``."""
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=BASE_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_check_deploy_is_clean_with_debug_off_and_a_real_secret_key_only():
    result = check_deploy(PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "System check identified no issues (0 silenced)."


def test_check_deploy_names_a_protection_turned_off():
    result = check_deploy({**PRODUCTION, "SECURE_SSL_REDIRECT": "false"})
    assert result.returncode != 0
    assert "security.W008" in result.stderr


@pytest.mark.parametrize(("variable", "expression", "on", "off"), SECURITY)
def test_each_protection_is_on_with_debug_off_and_switchable(variable, expression, on, off):
    code = f"from django.conf import settings; print({expression})"
    default = read_settings(code, env=PRODUCTION, unset=tuple(v for v, *_ in SECURITY))
    assert default.returncode == 0, default.stderr
    assert default.stdout.strip() == on
    switched = read_settings(code, env={**PRODUCTION, variable: OFF.get(variable, "false")})
    assert switched.returncode == 0, switched.stderr
    assert switched.stdout.strip() == off


def test_development_keeps_plain_http_but_the_content_security_policy():
    code = (
        "from django.conf import settings\n"
        "print(settings.SECURE_SSL_REDIRECT, settings.SECURE_HSTS_SECONDS,"
        " settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE,"
        " bool(settings.CONTENT_SECURITY_POLICY), settings.SECURE_PROXY_SSL_HEADER)"
    )
    result = read_settings(code, unset=("DEBUG", *(v for v, *_ in SECURITY)))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False 0 False False True None"


def test_a_tls_terminating_proxy_is_trusted_only_when_said():
    code = "from django.conf import settings; print(settings.SECURE_PROXY_SSL_HEADER)"
    assert read_settings(code, env=PRODUCTION).stdout.strip() == "None"
    trusted = read_settings(code, env={**PRODUCTION, "SECURE_PROXY_SSL_HEADER": "true"})
    assert trusted.stdout.strip() == "('HTTP_X_FORWARDED_PROTO', 'https')"


def test_the_api_token_lifetime_is_a_setting_and_must_be_positive():
    code = "from django.conf import settings; print(settings.REST_KNOX['TOKEN_TTL'])"
    assert read_settings(code, unset=("API_TOKEN_TTL_HOURS",)).stdout.strip() == "10:00:00"
    assert read_settings(code, env={"API_TOKEN_TTL_HOURS": "8"}).stdout.strip() == "8:00:00"
    refused = read_settings("", env={"API_TOKEN_TTL_HOURS": "0"})
    assert refused.returncode != 0
    assert "API_TOKEN_TTL_HOURS must be at least 1" in refused.stderr


# --- In process: what the browser receives ---------------------------------------------------

POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)


def directives(header: str) -> dict[str, str]:
    return dict(part.strip().split(" ", 1) for part in header.split(";"))


@pytest.mark.django_db
def test_console_pages_carry_the_policy(client):
    pages = [client.get(reverse("console:login"))]
    client.force_login(UserFactory(is_superuser=True))
    pages += [client.get(reverse("console:floor")), client.get(reverse("console:fees"))]
    for response in pages:
        assert response.status_code == 200
        assert directives(response["Content-Security-Policy"]) == directives(POLICY)


@pytest.mark.django_db
def test_the_api_docs_page_adds_a_nonce_for_its_style_and_data_images(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    policy = directives(response["Content-Security-Policy"])
    nonce = policy["style-src"].removeprefix("'self' 'nonce-").removesuffix("'")
    assert f'<style nonce="{nonce}">' in response.content.decode()
    assert (policy["script-src"], policy["img-src"]) == ("'self'", "'self' data:")
    assert "<script>" not in response.content.decode()  # the start-up script is a file
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200 and "SwaggerUIBundle" in script.content.decode()


@pytest.mark.django_db
def test_no_policy_header_when_switched_off(client, settings):
    settings.CONTENT_SECURITY_POLICY = None
    assert "Content-Security-Policy" not in client.get(reverse("console:login"))
