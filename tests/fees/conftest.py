"""Fixtures for the fee tests: the money tests' staff and clock, cheap password hashing."""

from __future__ import annotations

from tests.money.conftest import _fast_password_hashing, clock, staff  # noqa: F401
