"""Benchmark: the console's floor map and table view under concurrent staff (docs/benchmarks.md).

Against a real server: gunicorn with ``--workers`` (2) sync workers, DEBUG off, on the
database in DATABASE_URL (PostgreSQL). ``--prepare`` first migrates, loads the simulate
data (``manage.py simulate --tables 10``) and makes the signed-in user; ``--serve`` starts
gunicorn itself (and stops it at the end). ``--users`` (20) threads each sign in through
the real sign-in page (CSRF, django-axes, a session cookie), then request the floor map and
a table view in turn, on keep-alive connections, for ``--seconds`` (30): each right after
the last (closed loop, the default) or one every ``--interval`` seconds (paced staff)::

    createdb -h 127.0.0.1 -U postgres cardroom_console_bench
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cardroom_console_bench \\
        .venv/bin/python bench/console_load.py --prepare --serve [--users 20] [--seconds 30]

Printed: requests per second and p50/p90/p99 latency per page and overall, and the error
count. The load generator runs on the same machine as the server and competes with it for
the CPU (read the figures as lower bounds). Add ``?conn_max_age=60`` to DATABASE_URL for
persistent database connections (django-environ reads it), as a deployment should.
It prints figures only; it asserts nothing.
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import secrets
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
BENCH_USER = "bench-supervisor"
BENCH_PASSWORD = "bench-" + "password-not-a-secret"


def manage(*args: str, env: dict) -> None:
    subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env, check=True)


def prepare(env: dict, tables: int, rounds: int) -> None:
    manage("migrate", "--noinput", "-v0", env=env)
    code = (
        "from django.contrib.auth.models import Group, User\n"
        "from cardroom.roles import Role\n"
        "from tables.models import Table\n"
        f"u, _ = User.objects.get_or_create(username={BENCH_USER!r})\n"
        "u.is_staff = True\n"
        f"u.set_password({BENCH_PASSWORD!r}); u.save()\n"
        "group = Group.objects.get_or_create(name=Role.FLOOR_SUPERVISOR.group_name)[0]\n"
        "u.groups.add(group)\n"
        "print('COUNT:', Table.objects.filter(name__startswith='BENCH').count())\n"
    )
    out = subprocess.run(
        [PYTHON, "manage.py", "shell", "-c", code], cwd=ROOT, env=env, check=True,
        capture_output=True, text=True,
    ).stdout  # fmt: skip
    count = next(x for x in out.splitlines() if x.startswith("COUNT:")).split()[1]
    if int(count) < tables:
        manage("simulate", "--tables", str(tables), "--rounds", str(rounds), "--seed", "7",
               "--prefix", "BENCH", env=env)  # fmt: skip


def serve(env: dict, port: int, workers: int) -> subprocess.Popen:
    command = [
        PYTHON, "-m", "gunicorn", "cardroom.wsgi:application", "--workers", str(workers),
        "--bind", f"127.0.0.1:{port}", "--log-level", "warning",
    ]  # fmt: skip
    proc = subprocess.Popen(command, cwd=ROOT, env=env)
    for _ in range(100):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/console/sign-in/")
            connection.getresponse().read()
            return proc
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit("gunicorn did not start")


class Staff:
    """One signed-in browser: a keep-alive connection and the session cookie."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: str | None = None) -> tuple[int, bytes]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Referer"] = "http://127.0.0.1/console/sign-in/"
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        data = response.read()
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        return response.status, data

    def sign_in(self) -> None:
        _, page = self.request("GET", "/console/sign-in/")
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        form = {"csrfmiddlewaretoken": token.decode(), "username": BENCH_USER,
                "password": BENCH_PASSWORD}  # fmt: skip
        status, _ = self.request("POST", "/console/sign-in/", urlencode(form))
        if status != 302:
            raise SystemExit(f"sign-in failed with {status}")


def table_ids(env: dict) -> list[int]:
    code = (
        "from tables.models import Table\n"
        "ids = Table.objects.filter(name__startswith='BENCH').values_list('pk', flat=True)\n"
        "print('IDS:' + ' '.join(str(t) for t in ids))"
    )
    out = subprocess.run(
        [PYTHON, "manage.py", "shell", "-c", code], cwd=ROOT, env=env, check=True,
        capture_output=True, text=True,
    ).stdout  # fmt: skip
    line = next(x for x in out.splitlines() if x.startswith("IDS:"))
    return [int(x) for x in line[4:].split()]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def run(port: int, users: int, seconds: float, tables: list[int], interval: float) -> None:
    samples: dict[str, list[float]] = {"floor map": [], "table view": []}
    errors: list[int] = []
    lock = threading.Lock()
    start = threading.Barrier(users + 1)
    stop_at = [0.0]

    def staff(index: int) -> None:
        member = Staff(port)
        member.sign_in()
        start.wait()
        own = {"floor map": [], "table view": []}
        bad = []
        turn = index
        # Paced users start one request every ``interval`` seconds, staggered evenly.
        next_at = time.monotonic() + interval * index / users
        while time.monotonic() < stop_at[0]:
            if interval:
                time.sleep(max(0.0, next_at - time.monotonic()))
                next_at += interval
            if turn % 2:
                name, path = "table view", f"/console/tables/{tables[turn % len(tables)]}/"
            else:
                name, path = "floor map", "/console/"
            began = time.perf_counter()
            status, _ = member.request("GET", path)
            own[name].append(time.perf_counter() - began)
            if status != 200:
                bad.append(status)
            turn += 1
        with lock:
            for key, values in own.items():
                samples[key].extend(values)
            errors.extend(bad)

    threads = [threading.Thread(target=staff, args=(i,)) for i in range(users)]
    for thread in threads:
        thread.start()
    stop_at[0] = time.monotonic() + 1e9
    start.wait()
    began = time.monotonic()
    stop_at[0] = began + seconds
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - began
    everything = samples["floor map"] + samples["table view"]
    pacing = f"one request per {interval:g} s each" if interval else "closed loop, no pause"
    persistent = "conn_max_age" in os.environ.get("DATABASE_URL", "")
    print(f"database connections: {'persistent' if persistent else 'one per request'}")
    print(f"{users} users ({pacing}), {seconds:.0f} s, {len(tables)} tables; errors: {len(errors)}")
    print(f"{'page':<12} {'requests':>9} {'req/s':>8} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8}")
    for name, values in [*samples.items(), ("all", everything)]:
        if not values:
            continue
        print(
            f"{name:<12} {len(values):>9} {len(values) / elapsed:>8.1f} "
            f"{statistics.median(values) * 1000:>8.1f} {percentile(values, 0.9) * 1000:>8.1f} "
            f"{percentile(values, 0.99) * 1000:>8.1f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=300, help="simulate rounds (--prepare)")
    parser.add_argument(
        "--interval", type=float, default=0.0,
        help="seconds between one user's requests (0: closed loop, each right after the last)",
    )  # fmt: skip
    parser.add_argument("--prepare", action="store_true")
    parser.add_argument("--serve", action="store_true")
    args = parser.parse_args()
    if "DATABASE_URL" not in os.environ:
        raise SystemExit("set DATABASE_URL (PostgreSQL)")
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
        "LOG_LEVEL": "WARNING",
        # Plain HTTP on loopback stands in for the TLS-terminating proxy (README, Settings).
        "SECURE_SSL_REDIRECT": "false",
        "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false",
    }
    if args.prepare:
        prepare({**env, "DEBUG": "true"}, args.tables, args.rounds)
    server = serve(env, args.port, args.workers) if args.serve else None
    try:
        run(args.port, args.users, args.seconds, table_ids(env), args.interval)
    finally:
        if server is not None:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
