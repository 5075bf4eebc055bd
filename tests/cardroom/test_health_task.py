"""The health task runs in a real worker when Redis is configured, and inline without it."""

import json
import os

import pytest
from django.contrib.auth import get_user_model

from cardroom.tasks import health_check
from tests.helpers import run_django
from tests.worker_tasks import usernames


@pytest.mark.requires_redis
def test_health_check_runs_in_a_separate_worker_process(celery_worker_process):
    payload = health_check.delay().get(timeout=30)

    assert payload["status"] == "ok"
    # The solo pool runs tasks in the worker's main process: the one the fixture started.
    assert payload["pid"] != os.getpid()
    assert payload["pid"] == celery_worker_process.pid
    assert payload["worker"] == celery_worker_process.nodename


@pytest.mark.requires_postgres
@pytest.mark.requires_redis
@pytest.mark.django_db(transaction=True)
def test_worker_reads_the_test_database(celery_worker_process):
    # transaction=True commits the row, so the worker's own connection can see it.
    get_user_model().objects.create_user("worker-visible")

    assert usernames.delay().get(timeout=30) == ["worker-visible"]


def test_without_redis_url_tasks_run_eagerly_in_the_caller():
    result = run_django(
        "import json, os\n"
        "from cardroom.tasks import health_check\n"
        "outcome = health_check.delay()\n"
        "print(json.dumps({'kind': type(outcome).__name__, 'pid': os.getpid(),"
        " 'payload': outcome.get()}))",
        unset=("REDIS_URL",),
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["kind"] == "EagerResult"
    assert report["payload"]["status"] == "ok"
    assert report["payload"]["pid"] == report["pid"]
