"""A real broker that does not answer: the Celery app pointed at a closed port of this host.

``with unreachable_broker(): ...`` sends tasks (not inline) to ``redis://127.0.0.1:<a closed
port>``: every connection is refused, as when Redis is down. Nothing is mocked, and it needs
no Redis server.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator


@contextlib.contextmanager
def unreachable_broker() -> Iterator[str]:
    from cardroom.celery import app

    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    saved = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}
    app.conf.broker_url = f"redis://127.0.0.1:{port}/0"
    app.conf.task_always_eager = False
    try:
        yield app.conf.broker_url
    finally:
        app.conf.update(saved)
