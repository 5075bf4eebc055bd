"""Fault by hand: PostgreSQL restarted in the middle of a round (docs/benchmarks.md, "Faults").

Run by hand, as root, on a machine whose PostgreSQL cluster ``pg_ctlcluster`` can restart,
against a database of that cluster; never against the shared cluster in the test suite (it
stops the database every other test uses)::

    createdb -h 127.0.0.1 -U postgres cardroom_fault
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cardroom_fault \\
        .venv/bin/python bench/fault_pg_restart.py

``--pgdata DIR`` restarts instead the server of that data directory with ``pg_ctl`` (as the
directory's owner), for a server started for the run and nothing else: the test suite's
smoke run (tests/bench/test_bench_smoke.py) starts one of its own on a free port, so it
never stops the database other tests use.

What it does: migrates; builds a table with a round in wagering through the services (the
player-dealer at seat 1, hands at seats 2 and 3); serves the app with gunicorn (DEBUG off,
2 workers) and signs the house dealer in for an API token; calls "no more bets"; then
restarts the cluster with ``pg_ctlcluster <version> main restart`` while a second thread
reads the round every 50 ms and the main thread sends the deal with an Idempotency-Key,
resending the same request on each 503 until it is answered. The hand is then played to
the end through the API (decisions, flop, turn and river, showdown, settlement) and
``manage.py verify_ledger`` checks every balance and every settlement.

Printed: how long the restart took, every answer by status code (reads and the deal),
whether the deal was applied once, the round's final state and verify_ledger's verdict.
The run holds when no answer is a 500, the deal was applied once, the round settled and
the ledger shows no difference; the exit code is 0 then, 1 otherwise.
"""

from __future__ import annotations

import argparse
import collections
import http.client
import json
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PYTHON = sys.executable
PASSWORD = "fault-" + "password-not-a-secret"


def _cluster() -> tuple[str, str]:
    version = sorted(os.listdir("/etc/postgresql"))[0]
    return version, "main"


def restart_command(pgdata: str | None) -> tuple[list[str], str]:
    """The command that restarts the database server, and what it restarts.

    By default the machine's cluster (``pg_ctlcluster <version> main restart``). With
    ``--pgdata`` a server of the caller's own, started with ``pg_ctl`` from that data
    directory (the test suite's smoke run starts one, so the shared cluster is never
    touched); ``pg_ctl`` runs as the directory's owner (PostgreSQL refuses root), its log
    in the directory, so the restarted server holds none of this process's output open.
    """
    if pgdata is None:
        version, cluster = _cluster()
        command = ["pg_ctlcluster", "--skip-systemctl-redirect", version, cluster, "restart"]
        return command, f"PostgreSQL {version}/{cluster}"
    import pwd
    import shutil

    pg_ctl = shutil.which("pg_ctl") or "pg_ctl"
    command = [pg_ctl, "-D", pgdata, "-l", os.path.join(pgdata, "restart.log"), "-m", "fast",
               "-w", "restart"]  # fmt: skip
    owner = os.stat(pgdata).st_uid
    if os.geteuid() != owner:
        command = ["runuser", "-u", pwd.getpwuid(owner).pw_name, "--", *command]
    return command, f"PostgreSQL at {pgdata}"


class Api:
    def __init__(self, port: int) -> None:
        self.port = port
        self.token = ""

    def call(self, method: str, path: str, body=None, key: str | None = None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        if key:
            headers["Idempotency-Key"] = key
        try:
            connection.request(method, path, json.dumps(body or {}), headers)
            response = connection.getresponse()
            data = response.read()
        except OSError as error:  # the server itself did not answer
            return f"no answer ({type(error).__name__})", None
        finally:
            connection.close()
        try:
            return response.status, json.loads(data or b"null")
        except ValueError:
            return response.status, data[:200]


def prepare() -> tuple[int, str]:
    """A round in wagering at a new table; the house dealer's user name."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
    django.setup()
    from django.db import connection

    from tests.builders.api import Floor
    from tests.builders.floor import make_staff

    staff = make_staff()
    staff.dealer.set_password(PASSWORD)
    staff.dealer.save()
    builder = Floor(staff=staff)
    round_ = builder.start(builder.ready_table())
    connection.close()
    return round_.pk, staff.dealer.username


def serve(env: dict, port: int) -> subprocess.Popen:
    command = [
        PYTHON, "-m", "gunicorn", "cardroom.wsgi:application", "--workers", "2",
        "--bind", f"127.0.0.1:{port}", "--log-level", "warning",
    ]  # fmt: skip
    server = subprocess.Popen(command, cwd=ROOT, env=env)
    api = Api(port)
    for _ in range(100):
        if isinstance(api.call("GET", "/api/schema/")[0], int):
            return server
        time.sleep(0.1)
    server.kill()
    raise SystemExit("gunicorn did not start")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=8767)
    parser.add_argument(
        "--pgdata",
        help="restart the server of this data directory (pg_ctl), not the machine's cluster",
    )
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit("set DATABASE_URL to a PostgreSQL database of the local cluster")
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
        "LOG_LEVEL": "ERROR",
        # Plain HTTP on loopback stands in for the TLS-terminating proxy (README, Settings).
        "SECURE_SSL_REDIRECT": "false",
    }
    os.environ.update(env)
    subprocess.run([PYTHON, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, check=True)
    round_id, dealer = prepare()
    server = serve(env, args.port)
    api = Api(args.port)
    answers: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    try:
        status, body = api.call(
            "POST", "/api/auth/token/", {"username": dealer, "password": PASSWORD}
        )
        assert status == 200, (status, body)
        api.token = body["token"]
        r = f"/api/rounds/{round_id}/"
        status, body = api.call("POST", f"{r}no-more-bets/")
        assert status == 200, (status, body)

        stop = threading.Event()

        def read_round() -> None:
            while not stop.is_set():
                answers["reads of the round"][api.call("GET", r)[0]] += 1
                time.sleep(0.05)

        reader = threading.Thread(target=read_round)
        reader.start()
        restart, restarted = restart_command(args.pgdata)
        started = time.monotonic()
        restarter = subprocess.Popen(restart)
        time.sleep(0.05)  # the restart is under way when the deal is sent
        key = f"fault-deal-{round_id}"
        while True:
            status, body = api.call("POST", f"{r}deal/", key=key)
            answers["the deal (one Idempotency-Key)"][status] += 1
            if status != 503 and isinstance(status, int):
                break
            time.sleep(0.2)
        restarter.wait()
        restart_seconds = time.monotonic() - started
        time.sleep(1)
        stop.set()
        reader.join()

        # The rest of the hand, through the API.
        steps = [
            ("decisions/", {"seat": 2, "action": "play", "multiple": 4}),
            ("decisions/", {"seat": 3, "action": "check"}),
            ("flop/", {}),
            ("decisions/", {"seat": 3, "action": "check"}),
            ("turn-river/", {}),
            ("decisions/", {"seat": 3, "action": "play", "multiple": 1}),
            ("showdown/", {}),
            ("settle/", {}),
        ]
        for step, payload in steps:
            status, body = api.call("POST", f"{r}{step}", payload)
            answers["the rest of the hand"][status] += 1
            if not isinstance(status, int) or status >= 300:
                print(f"{step} {payload}: {status} {str(body)[:300]}")
        status, final = api.call("GET", r)
        deals = [t for t in final.get("transitions", []) if t.get("to") == "preflop"]
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    verify = subprocess.run(
        [PYTHON, "manage.py", "verify_ledger"], cwd=ROOT, capture_output=True, text=True
    )

    print(f"{restarted} restarted in {restart_seconds:.1f} s")
    for what, counter in answers.items():
        shown = ", ".join(f"{code}: {n}" for code, n in sorted(counter.items(), key=str))
        print(f"{what}: {shown}")
    print(f"the deal applied {len(deals)} time(s); the round is {final.get('state')}")
    print(f"verify_ledger (exit {verify.returncode}): {verify.stdout.strip().splitlines()[-1]}")
    server_errors = sum(n for c in answers.values() for code, n in c.items() if code == 500)
    held = (
        server_errors == 0
        and len(deals) == 1
        and final.get("state") == "settled"
        and verify.returncode == 0
    )
    print("held" if held else "FAILED")
    return 0 if held else 1


if __name__ == "__main__":
    raise SystemExit(main())
