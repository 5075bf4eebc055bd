"""A refused request in the log: one warning line saying who, what and where; no traceback.

Django logs a refusal raised in a view with its traceback (``PermissionDenied``, a 403: the
console's roles, the admin's permissions; ``SuspiciousOperation``, a 400: the admin's
disallowed lookup of a secret column, at ERROR), and a refusal the API answered without
saying who asked ("Forbidden: /api/reports/"). A refusal is the request's doing, not a fault
of the code: ``RefusalLines``, the filter of the console handler that ``django.request`` and
``django.security`` write to (``LOGGING``), rewrites each as one line at WARNING::

    refused 403: dealer from 10.0.0.7: GET /console/reports/ (your role may not do this (reports))
    refused 400: admin from 10.0.0.9: GET /admin/tables/round/ (Filtering by hole not allowed)

The query string is left out: it may hold what was typed (a search, a guessed card).
"""

from __future__ import annotations

import logging

REFUSALS = frozenset({400, 403})
LOGGERS = ("django.request", "django.security")


def who(request) -> str:
    """The user name of the request's user, or "anonymous"."""
    try:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            return user.get_username()
    except Exception:  # the session could not be read (the database is away): still log
        return "unknown"
    return "anonymous"


class RefusalLines(logging.Filter):
    """Rewrite a refused request's record (400 or 403 from Django) as one WARNING line."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        request = getattr(record, "request", None)
        if status not in REFUSALS or request is None or not record.name.startswith(LOGGERS):
            return True
        reason = str(record.exc_info[1]) if record.exc_info and record.exc_info[1] else ""
        record.msg = "refused %s: %s from %s: %s %s%s"
        record.args = (
            status,
            who(request),
            request.META.get("REMOTE_ADDR") or "an unknown address",
            request.method,
            request.path,
            f" ({reason})" if reason else "",
        )
        record.exc_info = record.exc_text = record.stack_info = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True
