"""A refused request is one warning line in the log, who, what and where, with no traceback
(``cardroom.logs``): the console's and the admin's 403 (raised ``PermissionDenied``), the API's
403 (answered by DRF), the admin's 400 for a lookup on a secret column (Django's security
log). Read from the very handler the settings give Django's loggers."""

from __future__ import annotations

import io
import logging
import sys

import pytest

from cardroom.logs import RefusalLines
from tests.builders.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def log_lines():
    """What Django's request and security loggers write (and any traceback), through the
    configured handler (which writes the other loggers' lines too)."""
    configured = {
        name: [h for h in logging.getLogger(name).handlers if h.name == "console"]
        for name in ("django.request", "django.security")
    }
    (handler,) = configured["django.request"]  # the settings' console handler ...
    assert configured["django.security"] == [handler]
    assert any(isinstance(f, RefusalLines) for f in handler.filters)  # ... with its filter
    assert not logging.getLogger("django.request").propagate
    written = io.StringIO()
    previous = handler.setStream(written)
    try:
        yield lambda: [
            line
            for line in written.getvalue().splitlines()
            if " django.re" in line or " django.se" in line or line.startswith(("Traceback", " "))
        ]
    finally:
        handler.setStream(previous)


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("/console/reports/", " (your role may not do this (reports))"),
        ("/admin/tables/round/", ""),
        ("/api/reports/", ""),
    ],
)
def test_a_403_is_one_warning_line_saying_who_what_and_where(
    client, dealer, log_lines, path, reason
):
    client.force_login(dealer)
    assert client.get(path, {"q": "Ks"}, REMOTE_ADDR="10.0.0.7").status_code == 403
    lines = log_lines()
    assert len(lines) == 1, lines
    assert lines[0].endswith(
        f" WARNING django.request: refused 403: dealer from 10.0.0.7: GET {path}{reason}"
    )
    assert "Ks" not in lines[0]  # the query string is not logged


def test_the_admins_refused_secret_lookup_is_one_warning_line(client, log_lines):
    client.force_login(UserFactory(username="root", is_superuser=True))
    response = client.get("/admin/tables/round/", {"dealer_hole__icontains": "Ks"})
    assert response.status_code == 400
    (line,) = log_lines()
    assert line.endswith(
        " WARNING django.security.DisallowedModelAdminLookup: refused 400: root from 127.0.0.1: "
        "GET /admin/tables/round/ (Filtering by dealer_hole__icontains not allowed)"
    )


def test_a_server_error_keeps_its_traceback(rf):
    """Only refusals are rewritten: a 500 (or anything not a request's) is left as logged."""
    try:
        raise RuntimeError("the floor map broke")
    except RuntimeError:
        exc_info = sys.exc_info()
    record = logging.LogRecord(
        "django.request", logging.ERROR, __file__, 1, "Internal Server Error: %s", ("/",), exc_info
    )
    record.status_code, record.request = 500, rf.get("/")
    assert RefusalLines().filter(record)
    assert (record.levelname, record.getMessage(), record.exc_info) == (
        "ERROR",
        "Internal Server Error: /",
        exc_info,
    )
