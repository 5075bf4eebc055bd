"""A report run's signs of life: who runs it, its heartbeat, and when it counts as dead.

- ``runner()``: this process, as recorded on the row it claims (``<host> pid <n>``).
- ``Heartbeat``: while a run generates its file, a thread of the same process writes
  ``heartbeat_at`` on the row every ``REPORTS_HEARTBEAT_INTERVAL`` seconds, on its own
  database connection (the run's snapshot transaction is read-only and long), and only
  while the row is still this task's running row.
- ``why_dead(report, moment)``: why a running row's run is dead, or None while it lives:
  its lease passed (no run outlives its hard time limit), its heartbeat is older than
  ``REPORTS_HEARTBEAT_TIMEOUT``, or its process is gone from this host (checked at once,
  without waiting for the heartbeat to go stale).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from datetime import datetime, timedelta
from pathlib import Path

from django.conf import settings

from cardroom.clock import now

log = logging.getLogger(__name__)
PID = " pid "


def runner() -> str:
    return f"{socket.gethostname()}{PID}{os.getpid()}"


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: it exists
        return True
    # A killed process its parent has not reaped yet (a zombie) still answers kill(pid, 0).
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[-1].split()[0] != "Z"


def process_gone(recorded: str) -> bool:
    """Whether the process recorded as ``recorded`` ran on this host and is gone. A process
    on another host, or an unknown one, is not judged here: its heartbeat is."""
    host, _, pid = recorded.rpartition(PID)
    if os.name != "posix" or host != socket.gethostname() or not pid.isdigit():
        return False
    return not _process_alive(int(pid))


def _stamp(moment: datetime | None) -> str:
    return "never" if moment is None else moment.isoformat(timespec="seconds")


def why_dead(report, moment: datetime) -> str | None:
    """Why ``report``'s run (a running row) is dead at ``moment``, or None while it lives."""
    if report.lease_expires_at is not None and report.lease_expires_at <= moment:
        return f"its lease expired at {_stamp(report.lease_expires_at)}"
    timeout = settings.REPORTS_HEARTBEAT_TIMEOUT
    if report.heartbeat_at is None or report.heartbeat_at <= moment - timedelta(seconds=timeout):
        return f"no heartbeat for over {timeout} s (last {_stamp(report.heartbeat_at)})"
    if report.runner and process_gone(report.runner):
        return f"its process ({report.runner}) is gone"
    return None


class Heartbeat:
    """``with Heartbeat(report_id, task_id):`` a thread writes the row's heartbeat meanwhile."""

    def __init__(self, report_id: int, task_id: str) -> None:
        self.report_id, self.task_id = report_id, task_id
        self.interval = settings.REPORTS_HEARTBEAT_INTERVAL
        self.lost = False  # the row stopped being this task's running row
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._run, name=f"report-{report_id}-heartbeat", daemon=True
        )

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._stop.set()
        self._thread.join()

    def beat(self) -> bool:
        from reports.models import ReportRequest, ReportStatus

        owned = ReportRequest.objects.filter(
            pk=self.report_id, task_id=self.task_id, status=ReportStatus.RUNNING
        )
        return owned.update(heartbeat_at=now()) == 1

    def _run(self) -> None:
        from django.db import DatabaseError, connection

        try:
            while not self._stop.wait(self.interval):
                try:
                    if not self.beat():
                        log.warning("report %s: task %s no longer runs it; heartbeat stopped",
                                    self.report_id, self.task_id)  # fmt: skip
                        self.lost = True
                        return
                except DatabaseError as error:  # the next beat may get through
                    log.warning("report %s: heartbeat not written: %r", self.report_id, error)
        finally:
            connection.close()  # this thread's own connection
