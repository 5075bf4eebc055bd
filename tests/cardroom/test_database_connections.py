"""A kept connection the database server closed is replaced before a request uses it
(``CONN_HEALTH_CHECKS``, on by default; README, "Settings").

gunicorn serves the app as in production (one sync worker, DEBUG off) and keeps its connection
between requests (``?conn_max_age=60``); the test ends that connection from the server's side
(``pg_terminate_backend`` on the worker's own backend, found by the application name only it
uses), as a PostgreSQL restart or an idle timeout would. With the checks on, the next request
is answered 200. With them off the same request fails (503: the test would catch their loss),
and only the one after it succeeds: "the first request on each worker" of the issue.
"""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import time
import uuid

import pytest
from django.db import connection
from knox.models import AuthToken

from cardroom.roles import Role
from tests.builders.factories import UserFactory
from tests.conftest import BASE_DIR, _worker_database_url

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]

BOUND = 60.0  # seconds: a server that does not start or a backend that does not end fails


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get(port: int, token: str) -> int:
    server = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        server.request("GET", "/api/tables/", headers={"Authorization": f"Token {token}"})
        return server.getresponse().status
    finally:
        server.close()


def serve(application: str, *, health_checks: bool, tmp_path) -> tuple[subprocess.Popen, int]:
    port = free_port()
    url = _worker_database_url(connection.settings_dict, tmp_path)
    env = {
        **os.environ,
        "DATABASE_URL": f"{url}?conn_max_age=60&application_name={application}",
        "CONN_HEALTH_CHECKS": "true" if health_checks else "false",
        "DEBUG": "false",
        "SECRET_KEY": "a-test-secret-" + uuid.uuid4().hex * 2,
        "SECURE_SSL_REDIRECT": "false",
        "SECURE_HSTS_SECONDS": "0",
    }
    command = [
        sys.executable, "-m", "gunicorn", "cardroom.wsgi:application", "--workers", "1",
        "--bind", f"127.0.0.1:{port}", "--log-level", "warning",
    ]  # fmt: skip
    server = subprocess.Popen(command, cwd=BASE_DIR, env=env, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server, port
        except OSError:
            if server.poll() is not None:
                break
            time.sleep(0.1)
    server.kill()
    pytest.fail("gunicorn did not start")


def end_its_connection(application: str) -> None:
    """Terminate the server's kept connection (only ours: found by its application name)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE application_name = %s AND datname = current_database()",
            [application],
        )
        assert cursor.fetchone()[0] == 1  # one worker, one kept connection
        deadline = time.monotonic() + BOUND
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [application]
            )
            if cursor.fetchone()[0] == 0:
                return
            time.sleep(0.05)
    pytest.fail("the backend did not end")


@pytest.mark.parametrize(("health_checks", "answers"), [(True, [200, 200]), (False, [503, 200])])
def test_a_request_after_the_server_closed_the_connection(tmp_path, health_checks, answers):
    user = UserFactory(role=Role.HOUSE_DEALER)
    _, token = AuthToken.objects.create(user=user)
    application = f"cardroom-test-{uuid.uuid4().hex[:12]}"
    server, port = serve(application, health_checks=health_checks, tmp_path=tmp_path)
    try:
        assert get(port, token) == 200  # the worker connects, and keeps the connection
        end_its_connection(application)
        assert [get(port, token), get(port, token)] == answers
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_the_checks_are_on_by_default(settings):
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True
