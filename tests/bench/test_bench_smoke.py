"""Every benchmark in bench/ runs, in a smoke size: a few rounds, a few tables, seconds.

Nothing else runs the benchmarks, so without this a bench that no longer starts (an import
renamed, a service's signature changed) would only be found the day someone needs its
figures. Each runs here as its own process, as a person runs it, with small arguments
(``SMOKE``); the test asserts that it exits 0 and prints its figures, never how fast it was
(timing on a shared 2-core machine is noise; docs/benchmarks.md says how to measure).

Every file in bench/ must have an entry: a new bench without one fails
``test_every_bench_has_a_smoke_size``. The benches run against a PostgreSQL database of
this module's own (the test database's name + ``_bench``, migrated once, dropped at the
end), without Redis (tasks inline, caches in process: a bench's messages never reach the
suite's broker), and only on loopback ports found free. The load benches are bounded by
their own arguments (seconds, not minutes). ``fault_pg_restart.py`` restarts a PostgreSQL
server this test starts for it, in a temporary directory, on a port of its own: never the
cluster the suite's databases live on.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import BASE_DIR, _worker_database_url

# django_db: so the test database is set up even when only this module runs (pytest-django
# makes none for tests that ask for none), and the benches' database is named after it.
pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db]

BENCH = BASE_DIR / "bench"
BENCHES = sorted(path.name for path in BENCH.glob("*.py"))
BOUND = 300  # seconds: a smoke run that has not ended by then has hung
PORT = "{port}"  # a free loopback port, found when the command runs
PGDATA = "{pgdata}"  # the data directory of the PostgreSQL server started for the run


@dataclass(frozen=True)
class Smoke:
    """The commands (arguments after ``bench/<name>``) run in order, and what the output
    must show: a pattern per figure the bench exists to print."""

    commands: list[list[str]]
    prints: list[str] = field(default_factory=list)
    # "shared": the database the benches share; "own": a database of its own (what it writes
    # would upset another bench); "own_postgres": a server of its own (it restarts it).
    database: str = "shared"


SMOKE: dict[str, Smoke] = {
    "api_fuzz.py": Smoke(
        [
            [
                "--examples",
                "1",
                "--phases",
                "examples,fuzzing",
                "--port",
                PORT,
                "--include-path-regex",
                "^/api/tables/$",
                "--no-demo",
            ]
        ],
        [
            r"as administrator: \d+ operations, \d+ requests",
            r"as house dealer: \d+ operations",
            r"failed checks: ",
        ],
    ),
    "console_load.py": Smoke(
        [
            [
                "--prepare",
                "--serve",
                "--users",
                "2",
                "--seconds",
                "2",
                "--tables",
                "2",
                "--rounds",
                "4",
                "--workers",
                "1",
                "--port",
                PORT,
            ]
        ],
        [r"2 users .* errors: 0", r"page\s+requests\s+req/s"],
    ),
    "fault_pg_restart.py": Smoke(
        [["--port", PORT, "--pgdata", PGDATA]],
        [r"PostgreSQL at .* restarted in [\d.]+ s", r"the deal applied 1 time", r"^held$"],
        database="own_postgres",
    ),
    "floor_rounds.py": Smoke(
        [["--rounds", "6", "--tables", "2", "--window", "3"]],
        [r"6 rounds over 2 tables in [\d.]+ s", r"queries per call, by service"],
    ),
    "game_math.py": Smoke([["--calls", "2"]], [r"first call", r"manage\.py game_math"]),
    "game_math_counts.py": Smoke(
        [["--hands", "1000", "--boards", "2", "--flops", "2"]],
        [
            r"evaluator: 1,000 random hands",
            r"monotone boards slice: 2 boards",
            r"trips flops slice \(As Ks\): 2 flops",
        ],
    ),
    "hand_evaluation.py": Smoke(
        [["--hands", "1000", "--repeats", "1", "--breakdown"]], [r"ratio", r"rounds?|hands"]
    ),
    "reports_export.py": Smoke(
        [["load", "--rounds", "40", "--tables", "2"], ["generate", "--report", "audit"]],
        [r"lines", r"peak|ru_maxrss|RSS"],
        # Its loader writes settlements without their ledger entries (no report reads them):
        # verify_ledger, which simulate_rounds.py and verify_ledger.py run, would count them.
        database="own",
    ),
    "room_load.py": Smoke(
        [
            ["--prepare", "--tables", "2", "--baccarat-tables", "2", "--patrons", "5"],
            [
                "--serve",
                "--tables",
                "2",
                "--baccarat-tables",
                "2",
                "--baccarat-seconds",
                "3",
                "--viewers",
                "1",
                "--boards",
                "1",
                "--minutes",
                "0.1",
                "--gap",
                "0.05",
                "--workers",
                "1",
                "--port",
                PORT,
            ],
        ],
        [
            r"rounds started \d+, settled \d+",
            r"baccarat hands started [1-9]\d*, settled [1-9]",
            r"^bac showdown\s+[1-9]",
            r"errors: 0",
            r"targets",
        ],
    ),
    "settle_table.py": Smoke(
        [["--rounds", "50", "--repeats", "1", "--stages", "--profile", "--top", "5"]],
        [r"play_out: [\d,]+ rounds/s", r"settlement lines"],
    ),
    "simulate_rounds.py": Smoke(
        [["--tables", "2", "--rounds", "4", "--processes", "2"]],
        [r"4 rounds in [\d.]+ s", r"verify_ledger: .*exit 0"],
    ),
    "verify_ledger.py": Smoke([["--runs", "1"]], [r"the whole command: [\d.]+ s; 0 difference"]),
    "waitlist_pages.py": Smoke(
        [["--requests", "3", "--tables", "2", "--waiting", "3"]],
        [r"room ready in", r"floor map\s+\d+", r"board fragment\s+\d+"],
    ),
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _bench_environment(database_url: str) -> dict[str, str]:
    env = {**os.environ, "DATABASE_URL": database_url, "LOG_LEVEL": "ERROR"}
    for name in ("REDIS_URL", "CACHE_URL", "CELERY_QUEUE"):  # no broker: tasks run inline
        env.pop(name, None)
    return env


def _manage(*args: str, env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env, check=True, timeout=BOUND
    )


@contextlib.contextmanager
def _scratch_database(suffix: str, blocker, scratch: Path) -> Iterator[str]:
    """A migrated PostgreSQL database named after the test database (per xdist worker) +
    ``suffix``; its DATABASE_URL, dropped at the end."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("the benches need PostgreSQL (set DATABASE_URL)")
    name = f"{connection.settings_dict['NAME']}{suffix}"

    def run(sql: str) -> None:
        with blocker.unblock(), connection._nodb_cursor() as cursor:
            cursor.execute(sql)

    run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    run(f'CREATE DATABASE "{name}"')
    url = _worker_database_url({**connection.settings_dict, "NAME": name}, scratch)
    try:
        _manage("migrate", "--noinput", "-v0", env=_bench_environment(url))
        yield url
    finally:
        run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def bench_database(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[str]:
    """The database the benches share, one after another (each tags what it makes)."""
    with _scratch_database("_bench", django_db_blocker, tmp_path_factory.mktemp("bench")) as url:
        yield url


@pytest.fixture
def own_database(django_db_setup, django_db_blocker, tmp_path) -> Iterator[str]:
    """A database for one bench alone."""
    with _scratch_database("_bench_own", django_db_blocker, tmp_path) as url:
        yield url


def _pg_binary(name: str) -> str:
    found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
    return str(found[-1]) if found else (shutil.which(name) or name)


@pytest.fixture
def own_postgres() -> Iterator[tuple[str, str]]:
    """A PostgreSQL server for this test only: a fresh data directory (as the ``postgres``
    user when the suite runs as root: the server refuses root), on a free loopback port,
    with one database. Yields its DATABASE_URL and data directory; stopped and removed after."""
    as_root = os.geteuid() == 0
    owner = pwd.getpwnam("postgres") if as_root else None
    home = Path(tempfile.mkdtemp(prefix="cardroom-bench-pg-"))
    data = home / "data"
    if owner is not None:
        os.chown(home, owner.pw_uid, owner.pw_gid)

    def as_owner(*command: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if as_root else []
        subprocess.run([*prefix, *command], check=True, capture_output=True, timeout=120)

    port = free_port()
    options = f"-p {port} -k {home} -c listen_addresses=127.0.0.1 -c fsync=off"
    try:
        as_owner(_pg_binary("initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
                 "--no-sync", "-E", "UTF8")  # fmt: skip
        as_owner(_pg_binary("pg_ctl"), "-D", str(data), "-o", options,
                 "-l", str(data / "server.log"), "-w", "start")  # fmt: skip
        url = f"postgres://postgres@127.0.0.1:{port}/cardroom_fault"
        as_owner(_pg_binary("createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres",
                 "cardroom_fault")  # fmt: skip
        yield url, str(data)
    finally:
        if (data / "postmaster.pid").exists():
            as_owner(_pg_binary("pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(home, ignore_errors=True)


def test_every_bench_has_a_smoke_size():
    assert BENCHES, "no benchmarks found"
    missing = sorted(set(BENCHES) - set(SMOKE))
    assert not missing, f"give each bench a smoke size in SMOKE (this file): {missing}"
    assert not set(SMOKE) - set(BENCHES), "SMOKE names a bench that is gone"


@pytest.mark.parametrize("name", BENCHES)
def test_the_bench_runs_in_its_smoke_size(name, bench_database, request):
    if name not in SMOKE:
        pytest.fail(f"bench/{name} has no smoke size: add it to SMOKE in {__file__}")
    smoke = SMOKE[name]
    database_url, pgdata = bench_database, ""
    if smoke.database == "own":
        database_url = request.getfixturevalue("own_database")
    elif smoke.database == "own_postgres":
        database_url, pgdata = request.getfixturevalue("own_postgres")
    env = _bench_environment(database_url)
    output = ""
    for arguments in smoke.commands:
        filled = [a.format(port=free_port(), pgdata=pgdata) for a in arguments]
        command = [sys.executable, str(BENCH / name), *filled]
        ran = subprocess.run(
            command, cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=BOUND
        )
        output += ran.stdout
        assert ran.returncode == 0, (
            f"{' '.join(command[1:])} exited {ran.returncode}\n{ran.stdout}\n{ran.stderr[-4000:]}"
        )
    for pattern in smoke.prints:
        assert re.search(pattern, output, re.MULTILINE), f"no {pattern!r} in:\n{output}"
