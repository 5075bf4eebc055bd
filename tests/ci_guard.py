"""Make skipped tests fail a CI run.

A skip is how a test says "I could not check this here". Locally that is convenient (no
PostgreSQL, no Redis); in CI it would let a green run hide untested code, so with CI=true
every skip turns the run red. ``conftest.py`` registers one ``SkipGuardPlugin`` (a
``SkipGuard`` fed by pytest's hooks); the logic lives here so ``test_ci_guard.py`` can
exercise it directly, and in a real parallel run.

Under pytest-xdist every worker's test and collection reports are replayed on the controller
through the same hooks, so the controller's guard sees every skip of every worker and gives
the verdict once; a worker's own guard stays silent (its exit status is not the run's).
"""

import os
import sys
from collections.abc import Mapping
from typing import Any

import pytest

_TRUTHY = {"1", "true", "yes", "on"}


def ci_enabled(environ: Mapping[str, str]) -> bool:
    """True when the environment says this is a CI run (CI=true, as CI services set it)."""
    return environ.get("CI", "").strip().lower() in _TRUTHY


def is_xdist_worker(config: Any) -> bool:
    """True in a pytest-xdist worker process (its controller hands it ``workerinput``)."""
    return hasattr(config, "workerinput")


def _skip_reason(report: Any) -> str:
    # A skip's longrepr is (path, lineno, reason); anything else is shown as is.
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr)


class SkipGuard:
    """Collects skipped tests and, under CI, turns a passing session into a failing one."""

    def __init__(self) -> None:
        self.skipped: list[str] = []

    def record(self, report: Any) -> None:
        """Remember a test or collector report that was skipped (xfail is not a skip)."""
        if report.skipped and not hasattr(report, "wasxfail"):
            entry = f"{report.nodeid} ({_skip_reason(report)})"
            if entry not in self.skipped:  # xdist replays a collection skip once per worker
                self.skipped.append(entry)

    def finish(self, session: Any, environ: Mapping[str, str]) -> str | None:
        """Fail the session if CI is on and anything was skipped; return the message."""
        if not (ci_enabled(environ) and self.skipped):
            return None
        # Only upgrade success (or "no tests ran"); keep a worse exit status as it is.
        if session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        listed = "".join(f"\n  SKIPPED IN CI: {entry}" for entry in self.skipped)
        return f"CI=true forbids skipped tests; failing the run ({len(self.skipped)}):{listed}"


class SkipGuardPlugin:
    """The guard wired into pytest's hooks (registered by ``conftest.pytest_configure``)."""

    def __init__(self) -> None:
        self.guard = SkipGuard()

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.guard.record(report)

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        # Module-level skips (e.g. pytest.importorskip) are reported at collection time.
        self.guard.record(report)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if is_xdist_worker(session.config):
            return  # the controller has every worker's reports and decides
        message = self.guard.finish(session, os.environ)
        if message:
            reporter = session.config.pluginmanager.get_plugin("terminalreporter")
            if reporter is not None:
                reporter.line("")  # end the progress line first
                reporter.write_line(message, red=True, bold=True)
            else:
                print(message, file=sys.stderr)
