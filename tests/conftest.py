"""Shared pytest setup: CI skip policy, Hypothesis profiles, service markers, a real worker,
and every fixture shared by more than one folder: one settings override for all tests, the
frozen clock, the staff and their API clients, the API tests' floor, tampering with a row."""

import dataclasses
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.conf import settings
from hypothesis import settings as hypothesis_settings
from rest_framework.test import APIClient

from cardroom.roles import Role
from tests.builders.api import Floor
from tests.builders.factories import UserFactory
from tests.builders.floor import FrozenClock, Staff
from tests.ci_guard import SkipGuardPlugin, ci_enabled

BASE_DIR = Path(__file__).resolve().parent.parent

# --- Hypothesis ---------------------------------------------------------------------------

# No deadline anywhere: timing on a shared 2-core CI machine is noise, not a failure.
# CI is also derandomized so a red run can be reproduced exactly.
# Example counts are a choice, not an accident: a pure property (rules, money arithmetic)
# runs EXAMPLES, Hypothesis's usual 100, at microseconds each; a property or state machine
# that writes to the database sets its own smaller count beside it, with why (a
# database example costs tens of milliseconds, a state machine's example a whole session
# of steps), and so does one that needs more to reach its rare cases.
EXAMPLES = 100
hypothesis_settings.register_profile("dev", deadline=None, max_examples=EXAMPLES)
hypothesis_settings.register_profile("ci", deadline=None, derandomize=True, max_examples=EXAMPLES)
hypothesis_settings.load_profile("ci" if ci_enabled(os.environ) else "dev")

# --- Skips fail CI -----------------------------------------------------------------------

SKIP_GUARD = "cardroom-skip-guard"


def pytest_configure(config: pytest.Config) -> None:
    # In every process of a parallel run too; only the controller's guard gives the verdict.
    config.pluginmanager.register(SkipGuardPlugin(), SKIP_GUARD)


# --- Service markers ----------------------------------------------------------------------


def _postgres_missing() -> str | None:
    from django.db import connections

    vendor = connections["default"].vendor
    if vendor == "postgresql":
        return None
    return f"needs PostgreSQL as the default database, have {vendor} (set DATABASE_URL)"


def _redis_missing() -> str | None:
    return None if settings.REDIS_URL else "needs a real broker (set REDIS_URL)"


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    # Checked before fixtures run, so a skipped test never starts a worker or a database.
    checks = {"requires_postgres": _postgres_missing, "requires_redis": _redis_missing}
    for marker, missing in checks.items():
        if item.get_closest_marker(marker) and (reason := missing()):
            pytest.skip(reason)


@pytest.fixture
def requires_postgres() -> None:
    """Fixture form of the ``requires_postgres`` marker."""
    if reason := _postgres_missing():
        pytest.skip(reason)


@pytest.fixture
def requires_redis() -> None:
    """Fixture form of the ``requires_redis`` marker."""
    if reason := _redis_missing():
        pytest.skip(reason)


# --- Running in parallel -------------------------------------------------------------------

# `make test` runs the suite on every core with pytest-xdist, ``--dist loadgroup``: tests go
# one by one to whichever worker is free, except those of one ``xdist_group``, which run on
# one worker. Each worker has its own test database (pytest-django suffixes its name with the
# worker's id, e.g. ``test_cardroom_gw0``), its own temporary directories and, when a test
# needs one, its own Celery worker on a queue named for its session. Grouped here:
# - every test of the session's real Celery worker: one worker process starts it, not each;
# - a module whose tests share a module-scoped fixture (a browser, a floor built once, a
#   computed slice): it is built once, on the worker that runs the module.
CELERY_WORKER_GROUP = "celery-worker"


def _module_of(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


def _shares_a_module_fixture(item: pytest.Item) -> bool:
    """A fixture of ours (a plugin's have no base id: pytest-django's class-scoped autouse
    one is in every test) set up once for several tests."""
    fixtures = getattr(item, "_fixtureinfo", None)
    definitions = fixtures.name2fixturedefs.values() if fixtures is not None else ()
    return any(
        d.scope in ("module", "class", "package") and d.baseid for defs in definitions for d in defs
    )


def xdist_groups(items: list[pytest.Item]) -> dict[pytest.Item, str]:
    """The group of each item that has one under ``--dist loadgroup`` (the others run
    anywhere). A module with a test of the Celery worker joins that group whole when its
    tests share a module fixture (a browser launched once, not once per group)."""
    with_worker = {_module_of(i) for i in items if "celery_worker_process" in i.fixturenames}
    groups = {}
    for item in items:
        module = _module_of(item)
        if "celery_worker_process" in item.fixturenames:
            groups[item] = CELERY_WORKER_GROUP
        elif _shares_a_module_fixture(item):
            groups[item] = CELERY_WORKER_GROUP if module in with_worker else module
    return groups


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups into the node ids
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    groups = xdist_groups(items)
    for item, group in groups.items():
        item.add_marker(pytest.mark.xdist_group(group))
    # The tests marked slow start first (workers take tests in this order): one of them left
    # for the end would keep one worker busy while the other has nothing to do. A test of a
    # group stays with its module (its module fixtures are set up once).
    items.sort(key=lambda item: item in groups or item.get_closest_marker("slow") is None)


# --- A real Celery worker -------------------------------------------------------------------

WORKER_START_TIMEOUT = 60.0


@dataclasses.dataclass(frozen=True)
class WorkerProcess:
    pid: int
    nodename: str
    queue: str
    database_url: str
    log_path: Path
    media_root: Path


def _worker_database_url(db: Mapping[str, Any], scratch: Path) -> str:
    """DATABASE_URL for the worker: the pytest-django test database, so it sees our writes.

    An SQLite test database lives in the test process's memory and cannot be shared; the
    worker then gets a throwaway file, and tests whose tasks touch the database must also
    be marked ``requires_postgres``. Connection OPTIONS are not carried over (none are used).
    """
    if db["ENGINE"] != "django.db.backends.postgresql":
        return f"sqlite:///{scratch / 'worker-unshared.sqlite3'}"
    auth = quote(db["USER"] or "", safe="")
    if db["PASSWORD"]:
        auth += ":" + quote(db["PASSWORD"], safe="")
    host = quote(db["HOST"] or "", safe="")
    port = f":{db['PORT']}" if db["PORT"] else ""
    return f"postgres://{auth}@{host}{port}/{quote(db['NAME'], safe='')}"


def worker_environment(scratch: Path, *, redis_url: str, queue: str, **extra: str) -> dict:
    """The environment of a real worker this test process starts: the test database (as
    ``_worker_database_url``), the broker at ``redis_url``, tasks sent to ``queue``."""
    from django.db import connection

    return {
        **os.environ,
        "DATABASE_URL": _worker_database_url(connection.settings_dict, scratch),
        "REDIS_URL": redis_url,
        "CELERY_QUEUE": queue,
        **extra,
    }


def _log_tail(path: Path, lines: int = 200) -> str:
    text = path.read_text(errors="replace") if path.exists() else "(no log)"
    return "\n".join(text.splitlines()[-lines:])


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()  # SIGTERM: Celery's warm shutdown
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _await_ping(app: Any, nodename: str, proc: subprocess.Popen) -> str | None:
    """Wait (bounded) until the worker answers a ping; describe the problem if it never does."""
    deadline = time.monotonic() + WORKER_START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return f"it exited with code {proc.returncode}"
        try:
            if app.control.ping(destination=[nodename], timeout=1.0):
                return None
        except Exception as exc:  # broker unreachable and the like: report, don't hang
            return f"pinging it failed: {exc!r}"
    return f"no answer to ping within {WORKER_START_TIMEOUT:.0f} s"


@pytest.fixture(scope="session")
def celery_worker_process(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    django_db_setup: None,
) -> Iterator[WorkerProcess]:
    """Start a real ``celery worker`` subprocess for the session and route tasks to it.

    A queue named uniquely for this session keeps tasks left in Redis by other runs (or a
    developer's ``make run`` worker) away from this worker, and ours away from theirs.
    """
    if reason := _redis_missing():
        pytest.skip(reason)

    from cardroom.celery import app

    queue = f"cardroom-test-{uuid.uuid4().hex[:12]}"
    nodename = f"{queue}@{socket.gethostname()}"
    scratch = tmp_path_factory.mktemp("celery-worker")
    log_path = scratch / "worker.log"
    # django_db_setup has run, so NAME is now the test database's name. What the worker
    # itself sends (its start's sweep) comes back to its queue.
    # Report files go under a media root of this session's own: another xdist worker's test
    # database hands out the same report ids, and its worker stores and purges files too.
    media_root = scratch / "media"
    env = worker_environment(
        scratch, redis_url=settings.REDIS_URL, queue=queue, MEDIA_ROOT=str(media_root)
    )
    database_url = env["DATABASE_URL"]
    command = [
        sys.executable, "-m", "celery", "-A", "cardroom", "worker",
        "--pool=solo", "--concurrency=1", "--loglevel=info",
        "--without-gossip", "--without-mingle", "--without-heartbeat",
        "-Q", queue, "-n", nodename, "--include", "tests.worker_tasks",
    ]  # fmt: skip
    with log_path.open("wb") as log:
        proc = subprocess.Popen(command, cwd=BASE_DIR, env=env, stdout=log, stderr=log)

    # This process must publish to the broker, not run tasks inline, and use our queue.
    saved = {key: app.conf[key] for key in ("task_always_eager", "task_default_queue")}
    app.conf.task_always_eager = False
    app.conf.task_default_queue = queue
    try:
        if problem := _await_ping(app, nodename, proc):
            _stop(proc)
            pytest.fail(f"Celery worker not ready: {problem}; its log:\n{_log_tail(log_path)}")
        yield WorkerProcess(proc.pid, nodename, queue, database_url, log_path, media_root)
    finally:
        _stop(proc)
        app.conf.update(saved)
        if request.session.testsfailed:
            reporter = request.config.pluginmanager.get_plugin("terminalreporter")
            if reporter is not None:
                reporter.write_sep("-", f"celery worker log ({log_path})")
                reporter.write_line(_log_tail(log_path))


@pytest.fixture
def worker_media(settings, celery_worker_process: WorkerProcess) -> None:
    """The media root the session's worker stores report files under (it was started with it)."""
    settings.MEDIA_ROOT = str(celery_worker_process.media_root)


# --- Every test -----------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _test_settings(settings) -> None:
    """Settings for every test: cheap password hashing (the default hasher costs ~0.5 s a
    user, and staff users are made by the dozen), and the console's floor map rendered
    afresh (its shared parts are tested apart, in tests/console/test_floor_cache.py)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.CONSOLE_FLOOR_CACHE_SECONDS = 0


@pytest.fixture
def clock() -> Iterator[FrozenClock]:
    """The clock every service reads, frozen at ``tests.builders.floor.PINNED``; the test moves
    it with ``clock.advance(...)`` (or pins another moment with ``clock.set(...)``). It runs
    again at teardown."""
    frozen = FrozenClock()
    frozen.start()
    try:
        yield frozen
    finally:
        frozen.stop()


# --- Staff, their API clients, the API tests' floor -----------------------------------------


def _signed_up(username: str, role: Role):
    """A fixture: the staff user ``username`` in ``role``'s group."""

    @pytest.fixture(name=username)
    def user(db):
        return UserFactory(username=username, role=role)

    return user


supervisor = _signed_up("supervisor", Role.FLOOR_SUPERVISOR)
dealer = _signed_up("dealer", Role.HOUSE_DEALER)
compliance = _signed_up("compliance", Role.COMPLIANCE_OFFICER)
administrator = _signed_up("administrator", Role.ADMINISTRATOR)


@pytest.fixture
def staff(supervisor, dealer) -> Staff:
    """The staff on duty: the ``supervisor`` and the ``dealer``."""
    return Staff(supervisor=supervisor, dealer=dealer)


@pytest.fixture
def api() -> Callable[..., APIClient]:
    """``api(user)``: a client authenticated as ``user``; ``api()`` an anonymous one."""

    def client_for(user=None) -> APIClient:
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        return client

    return client_for


@pytest.fixture
def as_supervisor(api, supervisor) -> APIClient:
    return api(supervisor)


@pytest.fixture
def as_dealer(api, dealer) -> APIClient:
    return api(dealer)


@pytest.fixture
def as_compliance(api, compliance) -> APIClient:
    return api(compliance)


@pytest.fixture
def on_floor(staff) -> Floor:
    """Tables, seats, offers and rounds made through the services by the ``staff``."""
    return Floor(staff=staff)


# --- Tampering with the books --------------------------------------------------------------


@pytest.fixture
def tamper():
    """``tamper(sql, params, undo_sql, undo_params)``: change a row behind the services' back.

    The change is undone at teardown: on PostgreSQL the test case's closing
    ``SET CONSTRAINTS ALL IMMEDIATE`` runs the deferred balance trigger over every entry
    the test inserted, and would itself refuse a tampered transaction. The statements run
    as an attacker with database access runs them (``tests.builders.tampering.raw``).
    """
    from tests.builders.tampering import raw as _raw

    undo: list[tuple[str, list]] = []

    def run(sql: str, params: list, undo_sql: str, undo_params: list | None = None) -> None:
        _raw(sql, params)
        undo.append((undo_sql, params if undo_params is None else undo_params))

    yield run
    for sql, params in reversed(undo):
        _raw(sql, params)
