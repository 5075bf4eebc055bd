"""Celery application for the cardroom project.

Configuration lives in Django settings under the ``CELERY_`` prefix, so the web process and
the worker read one source of truth (see ``cardroom/settings.py``).
"""

import os

from celery import Celery

# An embedded beat (``celery worker --beat``) ends with its worker (cardroom/beat.py).
from cardroom import beat  # noqa: F401

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")

app = Celery("cardroom")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Finds ``tasks.py`` in every installed app, including ``cardroom.tasks``.
app.autodiscover_tasks()
