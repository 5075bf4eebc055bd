"""The project kernel: settings, the Celery app, the clock, roles, typed refusals, the API
toolkit, idempotency keys, the gaming day and its shifts, money shown as dollars.

Nothing is imported here, so the plain-Python kernel modules (``cardroom.errors``,
``cardroom.money``) load without Django; the Celery app is created when Django starts
(``CardroomConfig.ready``).
"""
