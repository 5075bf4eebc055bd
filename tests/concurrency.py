"""Races for the concurrency tests (PostgreSQL row locks, real commits).

``race(*calls)`` runs each call in its own thread, with its own database connection,
released together by a barrier; ``one_winner`` checks that exactly one call succeeded and
the other was refused with the expected error.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import connections

BARRIER_TIMEOUT = 30.0  # seconds for every thread to be ready
JOIN_TIMEOUT = 120.0  # seconds for each call to return


@dataclass
class Outcome:
    value: Any = None
    error: BaseException | None = None


def race(*calls: Callable[[], Any]) -> list[Outcome]:
    """Run ``calls`` in as many threads, released at once; each thread closes its connection."""
    barrier = threading.Barrier(len(calls))
    outcomes = [Outcome() for _ in calls]

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=BARRIER_TIMEOUT)
            outcomes[index].value = call()
        except BaseException as error:  # reported to the test, whatever it is
            outcomes[index].error = error
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=run, args=(i, call), daemon=True) for i, call in enumerate(calls)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=JOIN_TIMEOUT)
        assert not thread.is_alive(), "a racing call never returned (deadlock?)"
    return outcomes


def one_winner(outcomes: list[Outcome], loser: type[Exception]) -> tuple[Any, BaseException]:
    """Exactly one call succeeded and the other raised ``loser``."""
    errors = [o.error for o in outcomes if o.error is not None]
    winners = [o.value for o in outcomes if o.error is None]
    assert len(winners) == 1 and len(errors) == 1, outcomes
    assert isinstance(errors[0], loser), repr(errors[0])
    return winners[0], errors[0]
