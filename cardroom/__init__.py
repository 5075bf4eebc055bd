"""Project package of the cardroom management system.

The Celery app is imported here so that it is created whenever Django starts, which makes
``@shared_task`` functions bind to it (the standard Django + Celery layout).
"""

from .celery import app as celery_app

__all__ = ("celery_app",)
