"""The CI skip policy that conftest.py wires into pytest's hooks."""

import os
import subprocess
import sys
from types import SimpleNamespace

import pytest

from tests import conftest
from tests.ci_guard import SkipGuard, SkipGuardPlugin, ci_enabled
from tests.helpers import BASE_DIR


def _report(nodeid, *, skipped=True, **extra):
    return SimpleNamespace(
        nodeid=nodeid, skipped=skipped, longrepr=("f.py", 1, "Skipped: no redis"), **extra
    )


@pytest.mark.parametrize(("value", "expected"), [("true", True), ("1", True), ("", False)])
def test_ci_enabled_reads_the_ci_variable(value, expected):
    assert ci_enabled({"CI": value}) is expected


def test_a_skip_fails_a_passing_session_under_ci():
    guard = SkipGuard()
    guard.record(_report("tests/test_x.py::test_a"))
    guard.record(_report("tests/test_x.py::test_b", skipped=False))
    session = SimpleNamespace(exitstatus=pytest.ExitCode.OK)

    message = guard.finish(session, {"CI": "true"})

    assert session.exitstatus == pytest.ExitCode.TESTS_FAILED
    assert message is not None
    assert "tests/test_x.py::test_a (Skipped: no redis)" in message
    assert "test_b" not in message


def test_skips_are_allowed_outside_ci():
    guard = SkipGuard()
    guard.record(_report("tests/test_x.py::test_a"))
    session = SimpleNamespace(exitstatus=pytest.ExitCode.OK)

    assert guard.finish(session, {}) is None
    assert session.exitstatus == pytest.ExitCode.OK


def test_xfail_is_not_counted_as_a_skip():
    guard = SkipGuard()
    guard.record(_report("tests/test_x.py::test_a", wasxfail="known bug"))
    assert guard.skipped == []


def test_a_worse_exit_status_is_kept():
    guard = SkipGuard()
    guard.record(_report("tests/test_x.py::test_a"))
    session = SimpleNamespace(exitstatus=pytest.ExitCode.INTERRUPTED)
    guard.finish(session, {"CI": "true"})
    assert session.exitstatus == pytest.ExitCode.INTERRUPTED


def test_conftest_registers_the_guard_plugin(pytestconfig):
    # The plugin must be registered under its name, or nothing is enforced.
    plugin = pytestconfig.pluginmanager.get_plugin(conftest.SKIP_GUARD)
    assert isinstance(plugin, SkipGuardPlugin)
    for hook in ("pytest_runtest_logreport", "pytest_collectreport", "pytest_sessionfinish"):
        assert callable(getattr(plugin, hook))


def test_a_collection_skip_replayed_by_every_worker_counts_once():
    guard = SkipGuard()
    guard.record(_report("tests/test_x.py"))
    guard.record(_report("tests/test_x.py"))
    assert guard.skipped == ["tests/test_x.py (Skipped: no redis)"]


PROBE_CONFTEST = """
from tests.ci_guard import SkipGuardPlugin

def pytest_configure(config):
    config.pluginmanager.register(SkipGuardPlugin(), "cardroom-skip-guard")
"""
PROBE_TESTS = """
import pytest

@pytest.mark.parametrize("n", range(6))
def test_passes(n):
    pass

def test_skips():
    pytest.skip("no broker here")
"""
PROBE_MODULE_SKIP = """
import pytest

pytest.importorskip("a_module_nobody_installed")

def test_never_collected():
    pass
"""


def _parallel_probe(tmp_path, ci: str) -> subprocess.CompletedProcess:
    """A session of its own, with the guard, run on two pytest-xdist workers."""
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "conftest.py").write_text(PROBE_CONFTEST)
    (tmp_path / "test_probe.py").write_text(PROBE_TESTS)
    (tmp_path / "test_probe_module.py").write_text(PROBE_MODULE_SKIP)
    # Only xdist of the installed plugins: the probe needs no other, and loads in seconds.
    env = {
        **os.environ,
        "CI": ci,
        "PYTHONPATH": str(BASE_DIR),
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    }
    env.pop("DJANGO_SETTINGS_MODULE", None)
    command = [
        sys.executable, "-m", "pytest", "-p", "xdist", "-n", "2", "-p", "no:cacheprovider",
        "-q", "-rs", str(tmp_path),
    ]  # fmt: skip
    return subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )


def test_under_xdist_the_controller_fails_the_run_for_a_skip_on_any_worker(tmp_path):
    ran = _parallel_probe(tmp_path, "true")
    output = ran.stdout + ran.stderr
    assert ran.returncode == pytest.ExitCode.TESTS_FAILED, output
    assert output.count("CI=true forbids skipped tests; failing the run (2)") == 1, output
    assert "SKIPPED IN CI: test_probe.py::test_skips (Skipped: no broker here)" in output, output
    assert "SKIPPED IN CI: test_probe_module.py" in output


def test_under_xdist_skips_pass_outside_ci(tmp_path):
    ran = _parallel_probe(tmp_path, "")
    assert ran.returncode == pytest.ExitCode.OK, ran.stdout + ran.stderr
    assert "forbids skipped tests" not in ran.stdout + ran.stderr


class _Item:
    """What ``xdist_groups`` reads of a collected test."""

    def __init__(self, nodeid: str, *fixtures: str, module_scoped: bool = False) -> None:
        self.nodeid = nodeid
        self.fixturenames = [*fixtures, "_django_setup_unittest"]
        scope = "module" if module_scoped else "function"
        ours = {name: [SimpleNamespace(scope=scope, baseid="tests")] for name in fixtures}
        # pytest-django's class-scoped autouse fixture, in every test: a plugin's, no base id.
        plugins = {"_django_setup_unittest": [SimpleNamespace(scope="class", baseid="")]}
        self._fixtureinfo = SimpleNamespace(name2fixturedefs={**ours, **plugins})


def test_parallel_groups_keep_the_celery_worker_and_module_fixtures_on_one_worker():
    plain = _Item("tests/a/test_a.py::test_one", "db")
    worker = _Item("tests/r/test_r.py::test_run", "celery_worker_process")
    browser = _Item("tests/e2e/test_p.py::test_page", "browser", module_scoped=True)
    with_worker = _Item("tests/e2e/test_q.py::test_report", "celery_worker_process", "browser")
    beside_it = _Item("tests/e2e/test_q.py::test_page", "browser", module_scoped=True)

    groups = conftest.xdist_groups([plain, worker, browser, with_worker, beside_it])

    assert plain not in groups
    assert groups[worker] == groups[with_worker] == groups[beside_it] == "celery-worker"
    assert groups[browser] == "tests/e2e/test_p.py"
