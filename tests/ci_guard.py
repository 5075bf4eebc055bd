"""Make skipped tests fail a CI run.

A skip is how a test says "I could not check this here". Locally that is convenient (no
PostgreSQL, no Redis); in CI it would let a green run hide untested code, so with CI=true
every skip turns the run red. ``conftest.py`` wires one ``SkipGuard`` into pytest's hooks;
the logic lives here so ``test_ci_guard.py`` can exercise it directly.
"""

from collections.abc import Mapping
from typing import Any

import pytest

_TRUTHY = {"1", "true", "yes", "on"}


def ci_enabled(environ: Mapping[str, str]) -> bool:
    """True when the environment says this is a CI run (CI=true, as CI services set it)."""
    return environ.get("CI", "").strip().lower() in _TRUTHY


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
            self.skipped.append(f"{report.nodeid} ({_skip_reason(report)})")

    def finish(self, session: Any, environ: Mapping[str, str]) -> str | None:
        """Fail the session if CI is on and anything was skipped; return the message."""
        if not (ci_enabled(environ) and self.skipped):
            return None
        # Only upgrade success (or "no tests ran"); keep a worse exit status as it is.
        if session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        listed = "".join(f"\n  SKIPPED IN CI: {entry}" for entry in self.skipped)
        return f"CI=true forbids skipped tests; failing the run ({len(self.skipped)}):{listed}"
