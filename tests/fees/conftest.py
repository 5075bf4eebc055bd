"""Fixtures for the fee tests: the money tests' staff and clock, the API tests' clients."""

from __future__ import annotations

from tests.money.conftest import _fast_password_hashing, clock, staff  # noqa: F401
from tests.tables.conftest import (  # noqa: F401  (fixtures, registered by import)
    _fast_passwords,
    api,
    as_compliance,
    as_dealer,
    as_supervisor,
    compliance,
    dealer,
    on_floor,
    supervisor,
)
