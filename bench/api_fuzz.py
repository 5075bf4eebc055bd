"""Schemathesis against a real server: every API operation, as an administrator and as a
house dealer (docs/benchmarks.md, "The API under Schemathesis").

The test suite runs Schemathesis in-process with a bounded number of examples
(tests/cardroom/apis/test_schemathesis.py); this runs the command-line tool, with as many
examples as asked, against gunicorn (2 workers, DEBUG off) on the database in DATABASE_URL
(PostgreSQL), over the demo floor (``manage.py load_demo``)::

    createdb -h 127.0.0.1 -U postgres cardroom_fuzz
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cardroom_fuzz \\
        .venv/bin/python bench/api_fuzz.py [--examples 100] [--seed 1] \\
            [--phases examples,coverage,fuzzing,stateful] [--include-path-regex REGEX] \\
            [--no-demo]

Every check Schemathesis has runs (no server error, status codes, content types, headers
and bodies as documented, ...). Writes are real: use a database made for the run.
Printed: per caller, the operations tested, the requests sent, the answers by status class
and the failures by check, from Schemathesis's NDJSON event stream (kept under
``test-output/api-fuzz/``). It prints figures only; it asserts nothing.
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
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
PASSWORD = "fuzz-" + "password-not-a-secret"
CALLERS = {"administrator": "ADMINISTRATOR", "house dealer": "HOUSE_DEALER"}


def manage(*args: str, env: dict, capture: bool = False) -> str:
    done = subprocess.run(
        [PYTHON, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=capture,
        text=True,
    )  # fmt: skip
    return done.stdout if capture else ""


def prepare(env: dict, *, demo: bool = True) -> None:
    manage("migrate", "--noinput", "-v0", env=env)
    if demo:
        manage("load_demo", env={**env, "DEBUG": "true"})
    code = "from django.contrib.auth.models import Group, User\nfrom cardroom.roles import Role\n"
    for caller, role in CALLERS.items():
        name = "fuzz-" + caller.replace(" ", "-")
        code += (
            f"u, _ = User.objects.get_or_create(username={name!r})\n"
            f"u.set_password({PASSWORD!r}); u.save()\n"
            f"u.groups.set([Group.objects.get_or_create(name=Role.{role}.group_name)[0]])\n"
        )
    manage("shell", "-c", code, env=env)


def request(port: int, method: str, path: str, body: dict | None = None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        headers = {"Content-Type": "application/json"}
        connection.request(method, path, json.dumps(body) if body else None, headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def serve(env: dict, port: int) -> subprocess.Popen:
    command = [
        PYTHON, "-m", "gunicorn", "cardroom.wsgi:application", "--workers", "2",
        "--bind", f"127.0.0.1:{port}", "--log-level", "warning",
    ]  # fmt: skip
    server = subprocess.Popen(command, cwd=ROOT, env=env)
    for _ in range(100):
        try:
            request(port, "GET", "/api/schema/")
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("gunicorn did not start")


def token(port: int, caller: str) -> str:
    name = "fuzz-" + caller.replace(" ", "-")
    status, body = request(
        port, "POST", "/api/auth/token/", {"username": name, "password": PASSWORD}
    )
    if status != 200:
        raise SystemExit(f"sign-in as {name}: {status} {body[:200]!r}")
    return json.loads(body)["token"]


def summarise(events: Path) -> dict:
    """Requests, statuses and failures from Schemathesis's NDJSON events."""
    statuses: collections.Counter = collections.Counter()
    failures: collections.Counter = collections.Counter()
    operations: set[str] = set()
    for line in events.read_text().splitlines():
        event = json.loads(line)
        finished = event.get("ScenarioFinished")
        if not finished:
            continue
        recorder = finished.get("recorder") or {}
        label = recorder.get("label")
        if label:
            operations.add(label)
        for interactions in (recorder.get("interactions") or {}).values():
            response = interactions.get("response")
            if response:
                statuses[f"{response['status_code'] // 100}xx"] += 1
        for checks in (recorder.get("checks") or {}).values():
            for check in checks:
                if str(check.get("status")).lower() == "failure":
                    failures[check["name"]] += 1
    return {"operations": operations, "statuses": statuses, "failures": failures}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", type=int, default=100, help="per operation and phase")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--port", type=int, default=8768)
    parser.add_argument("--no-prepare", action="store_true")
    parser.add_argument(
        "--no-demo", action="store_true", help="prepare the callers only, not the demo floor"
    )
    parser.add_argument(
        "--phases", default="examples,coverage,fuzzing,stateful", help="Schemathesis's phases"
    )
    parser.add_argument(
        "--include-path-regex", default="", help="only the operations whose path matches"
    )
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit("set DATABASE_URL (PostgreSQL)")
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
        "LOG_LEVEL": "ERROR",
        # Plain HTTP on loopback stands in for the TLS-terminating proxy (README, Settings).
        "SECURE_SSL_REDIRECT": "false",
    }
    if not args.no_prepare:
        prepare(env, demo=not args.no_demo)
    out = ROOT / "test-output" / "api-fuzz"
    out.mkdir(parents=True, exist_ok=True)
    server = serve(env, args.port)
    try:
        for caller in CALLERS:
            events = out / f"{caller.replace(' ', '-')}.ndjson"
            started = time.monotonic()
            subprocess.run(
                [
                    str(Path(PYTHON).with_name("st")), "run",
                    f"http://127.0.0.1:{args.port}/api/schema/",
                    "--header", f"Authorization: Token {token(args.port, caller)}",
                    "--checks", "all", "--max-examples", str(args.examples),
                    "--seed", str(args.seed), "--continue-on-failure", "--no-color",
                    "--phases", args.phases,
                    *(["--include-path-regex", args.include_path_regex]
                      if args.include_path_regex else []),
                    "--report", "ndjson", "--report-ndjson-path", str(events),
                ],
                cwd=ROOT, env=env, stdout=subprocess.DEVNULL, check=False,
            )  # fmt: skip
            seconds = time.monotonic() - started
            summary = summarise(events)
            sent = sum(summary["statuses"].values())
            print(f"as {caller}: {len(summary['operations'])} operations, {sent} requests "
                  f"in {seconds:.0f} s")  # fmt: skip
            print(
                "  answers: "
                + ", ".join(f"{k} {v}" for k, v in sorted(summary["statuses"].items()))
            )
            failed = ", ".join(f"{k} {v}" for k, v in summary["failures"].most_common()) or "none"
            print(f"  failed checks: {failed}")
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
