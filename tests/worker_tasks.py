"""Test-only tasks, loaded into the test worker with ``--include`` (never in production).

They let tests prove that the worker process reads the same test database the tests write.
"""

from celery import shared_task
from django.contrib.auth import get_user_model


@shared_task(name="tests.worker_tasks.usernames")
def usernames() -> list[str]:
    """Return every username the worker can see in its database."""
    return sorted(get_user_model().objects.values_list("username", flat=True))
