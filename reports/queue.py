"""The report queue: handing a report's task to the broker, and asking whether it answers.

A hand-over is one attempt on a fresh connection (made from the current broker settings),
bounded by the broker's connect and socket timeouts (``BROKER_CONNECT_TIMEOUT``,
``BROKER_SOCKET_TIMEOUT`` in ``CELERY_BROKER_TRANSPORT_OPTIONS``), with no publish retry: an
unreachable broker costs the caller at most a few seconds and is reported, never raised.
The row stays queued and the sweeper hands it over once the broker is back
(``reports.services.sweep``).

Without a broker (no ``REDIS_URL``) tasks run inline, as everywhere in the project: the
hand-over runs the task, and its errors propagate to the caller.

``held_task_ids`` asks the broker which report tasks it still holds: those waiting in the
report queue, and those a worker has taken and not yet acknowledged (the tasks are
``acks_late``: acknowledged when the run ends). A task handed over and held by neither was
lost (Redis restarted empty, its data lost): the sweeper hands it over again
(``reports.services``).
"""

from __future__ import annotations

import json
import logging

from kombu.exceptions import KombuError

log = logging.getLogger(__name__)

# Broker errors reach us as kombu's (its library errors wrap the transport's) or, below
# them, as socket errors.
BROKER_ERRORS = (KombuError, OSError)


# The connection's own retries (kombu retries connecting for up to the connect timeout)
# are off too: one refused connection is an answer.
ONE_ATTEMPT = {"max_retries": 0}


def _describe(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"[:2000]


def hand_over(report_id: int, task_id: str, *, countdown: int | None = None) -> str | None:
    """Send the report's task with the row's task id (to run ``countdown`` seconds from now):
    None once the broker took it, else why it could not."""
    from cardroom.celery import app
    from reports.tasks import generate_report

    if app.conf.task_always_eager:
        generate_report.apply_async(args=[report_id], task_id=task_id)
        return None
    try:
        with app.connection_for_write(transport_options=ONE_ATTEMPT) as connection:
            generate_report.apply_async(
                args=[report_id],
                task_id=task_id,
                countdown=countdown,
                connection=connection,
                retry=False,
            )
    except BROKER_ERRORS as error:
        log.warning("report %s: the report queue cannot be reached (%s); it stays queued "
                    "for the sweeper", report_id, _describe(error))  # fmt: skip
        return _describe(error)
    return None


def unreachable() -> str | None:
    """Why the broker cannot be reached right now (one connection attempt), or None."""
    from cardroom.celery import app

    if app.conf.task_always_eager:
        return None
    try:
        with app.connection_for_write(transport_options=ONE_ATTEMPT) as connection:
            connection.ensure_connection(max_retries=0)
    except BROKER_ERRORS as error:
        return _describe(error)
    return None


def _task_id(raw: bytes | str) -> str | None:
    """The task id of a message as kombu's Redis transport stores it (a JSON envelope whose
    headers name the task, Celery's message protocol 2), or None."""
    try:
        message = json.loads(raw)
        if isinstance(message, list):  # a taken message: [message, exchange, routing key]
            message = message[0]
        return message["headers"]["id"]
    except (ValueError, TypeError, KeyError, IndexError):
        return None


def held_task_ids() -> frozenset[str] | None:
    """The ids of the report tasks the broker holds now: waiting in the report queue (at any
    priority) or taken by a worker and not acknowledged yet. None when it cannot be told: tasks
    run inline, the broker is not Redis, or it does not answer (one attempt, as a hand-over)."""
    from cardroom.celery import app
    from reports.tasks import generate_report

    if app.conf.task_always_eager:
        return None
    queue = app.amqp.router.route({}, generate_report.name, (), {})["queue"].name
    try:
        with app.connection_for_read(transport_options=ONE_ATTEMPT) as connection:
            if connection.transport.driver_type != "redis":
                return None
            channel = connection.default_channel
            client = channel.client
            held = [
                raw
                for priority in channel.priority_steps
                for raw in client.lrange(channel._q_for_pri(queue, priority), 0, -1)
            ]
            held += client.hvals(channel.unacked_key)
    except BROKER_ERRORS as error:
        log.warning("the report queue cannot be asked what it holds (%s)", _describe(error))
        return None
    return frozenset(task_id for raw in held if (task_id := _task_id(raw)) is not None)
