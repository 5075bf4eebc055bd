"""The CI skip policy that conftest.py wires into pytest's hooks."""

from types import SimpleNamespace

import pytest

from tests import conftest
from tests.ci_guard import SkipGuard, ci_enabled


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


def test_conftest_feeds_its_guard_from_pytest_hooks():
    # The hooks must exist under pytest's names and share one guard, or nothing is enforced.
    assert isinstance(conftest._skip_guard, SkipGuard)
    for hook in ("pytest_runtest_logreport", "pytest_collectreport", "pytest_sessionfinish"):
        assert callable(getattr(conftest, hook))
