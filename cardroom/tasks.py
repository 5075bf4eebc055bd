"""Project-wide Celery tasks."""

import os
import socket

from celery import shared_task


@shared_task(bind=True, name="cardroom.tasks.health_check")
def health_check(self) -> dict:
    """Report that a worker is alive and which process ran the task.

    The pid lets tests prove the task really ran in another process (a worker) rather
    than eagerly inside the caller.
    """
    return {
        "status": "ok",
        "worker": self.request.hostname or socket.gethostname(),
        "pid": os.getpid(),
    }
