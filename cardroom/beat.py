"""The embedded beat (``celery worker --beat``) ends with its worker.

Celery runs an embedded beat as a child process of the worker's main process. If the worker
stops cleanly it stops its beat; if its main process is killed (SIGKILL, the OOM killer) the
beat used to live on, orphaned, and the next worker started a second one beside it: every
scheduled task (the daily reports, the sweepers) then ran twice. Now, as the beat process
starts (Celery's ``beat_embedded_init``):

- on Linux it asks the kernel for SIGTERM when its parent dies (``PR_SET_PDEATHSIG``), and
  SIGTERM stops the beat as Celery's own beat stops on it (the schedule saved, then exit);
- elsewhere a thread checks every second that its parent is still the worker;
- a parent already gone by then (it died while the beat was starting) stops it at once.

A standalone ``celery beat`` (production's one beat service) is not embedded and is left as it is.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import multiprocessing
import os
import signal
import sys
import threading

from celery.signals import beat_embedded_init

log = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1  # linux/prctl.h
POLL_SECONDS = 1.0


def _stop(signum=None, frame=None) -> None:
    raise SystemExit(0)  # celery.beat.Service.start saves the schedule and returns


def _ask_the_kernel() -> bool:
    """SIGTERM to this process when its parent dies (Linux); False where that is not offered."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int) -> None:
    """Elsewhere: poll for the parent's death, then stop as on SIGTERM."""

    def run() -> None:
        stopped = threading.Event()
        while not stopped.wait(POLL_SECONDS):
            if os.getppid() != parent:
                os.kill(os.getpid(), signal.SIGTERM)
                return

    threading.Thread(target=run, name="beat-parent-watch", daemon=True).start()


def end_with_the_worker(sender=None, **kwargs) -> None:
    """``beat_embedded_init``: in the embedded beat's process, tie its life to the worker's."""
    parent_process = multiprocessing.parent_process()
    parent = parent_process.pid if parent_process is not None else os.getppid()
    signal.signal(signal.SIGTERM, _stop)
    if not _ask_the_kernel():
        _watch(parent)
    if os.getppid() != parent:  # the worker died before the beat was tied to it
        log.warning("beat: the worker (pid %s) is gone; this beat stops", parent)
        _stop()
    log.info("beat: embedded in the worker (pid %s); it stops if the worker dies", parent)


beat_embedded_init.connect(end_with_the_worker, dispatch_uid="cardroom.beat")
