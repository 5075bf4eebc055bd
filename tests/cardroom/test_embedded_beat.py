"""The embedded beat ends with its worker (``cardroom.beat``): a real ``celery worker --beat``
whose main process is killed (SIGKILL) leaves no beat behind, so the next worker's beat is
the only one (scripts/serve.sh, ``make run``)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings

from tests.conftest import BASE_DIR, _log_tail, _stop, worker_environment

pytestmark = [pytest.mark.requires_redis, pytest.mark.requires_postgres]

BOUND = 60.0


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Running (a zombie, ended but not yet reaped, counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def until(condition, what: str, log: Path) -> None:
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    pytest.fail(f"{what} within {BOUND:.0f} s; the worker's log:\n{_log_tail(log)}")


@pytest.mark.django_db
def test_killing_the_workers_main_process_ends_its_embedded_beat(tmp_path):
    queue = f"cardroom-beat-{uuid.uuid4().hex[:12]}"
    log = tmp_path / "worker.log"
    env = worker_environment(tmp_path, redis_url=settings.REDIS_URL, queue=queue)
    command = [
        sys.executable, "-m", "celery", "-A", "cardroom", "worker", "--beat",
        "--schedule", str(tmp_path / "beat-schedule"), "--pool=solo", "--loglevel=info",
        "--without-gossip", "--without-mingle", "--without-heartbeat",
        "-Q", queue, "-n", f"{queue}@{socket.gethostname()}",
    ]  # fmt: skip
    with log.open("wb") as output:
        worker = subprocess.Popen(command, cwd=BASE_DIR, env=env, stdout=output, stderr=output)
    beats = []
    try:
        # The solo pool runs tasks in the main process: its one child is the beat.
        until(lambda: "it stops if the worker dies" in log.read_text(), "no beat started", log)
        beats[:] = children(worker.pid)
        (beat,) = beats
        assert alive(beat)
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=BOUND)
        until(lambda: not alive(beat), f"the beat (pid {beat}) outlived its worker", log)
    finally:
        _stop(worker)
        for pid in beats:  # a beat that outlived the test's worker is ended here
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        from cardroom.celery import app

        with app.connection_for_write() as broker:  # only this test's own queue
            broker.default_channel.client.delete(queue)
