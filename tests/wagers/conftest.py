"""The money API's tests share the floor API's clients, staff and floor builder."""

from tests.tables.conftest import (  # noqa: F401  (fixtures, registered by import)
    Floor,
    _fast_passwords,
    administrator,
    api,
    as_compliance,
    as_dealer,
    as_supervisor,
    compliance,
    dealer,
    on_floor,
    supervisor,
)
