"""Schemathesis over every operation of the API (docs/api.md): requests generated from the
OpenAPI schema, valid and invalid, sent to the WSGI application in this process.

Each answer must be no server error (5xx), a status code the schema documents for the
operation, with the documented content type and a body that matches the documented schema.
The requests run over one seeded floor (a table with a round in wagering; another with a
round at "no more bets", its fees assessed and its drop box registered), whose ids the
generated paths use half the time; every request is rolled back, so none changes what the
next one finds.

Two callers: an administrator (every role; the coverage phase too: every boundary and every
kind of invalid value the schema implies) and a house dealer (random requests, most writes
refused). Under CI the generation is derandomized (tests/conftest.py's Hypothesis profile), so
a red run is reproduced by running it again.
"""

from __future__ import annotations

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from cardroom.gaming_day import gaming_day_of
from cardroom.roles import Role
from fees.models import FeeLine, FeeSchedule, FeeScheduleVersion
from fees.services import drop
from tables.models import ButtonOffer
from tests.builders.api import Floor, auth_header
from tests.builders.factories import UserFactory
from tests.builders.fees import assessed_round
from tests.builders.floor import FrozenClock, make_staff
from wagers.models import Account

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
FUZZED_PER_OPERATION = 12

# Ids of the seeded floor, by path parameter (filled by the ``floor`` fixture).
SEEDED: dict[str, list[int]] = {}


def _with_seeded_ids(context, path_parameters):
    """Half the time, the ids of rows that exist (a generated id is almost never one)."""
    known = {name: SEEDED[name] for name in path_parameters or () if SEEDED.get(name)}
    if not known:
        return st.just(path_parameters)
    seeded = st.fixed_dictionaries({name: st.sampled_from(ids) for name, ids in known.items()})
    return st.one_of(st.just(path_parameters), seeded.map(lambda ids: {**path_parameters, **ids}))


def _schema(*phases: str):
    loaded = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
    loaded.config.phases.update(phases=list(phases))
    # The coverage phase would also ask every path with the methods it does not have: Django
    # answers 405 before any of our code runs; left out to keep the run short.
    loaded.config.phases.coverage.unexpected_methods = set()
    loaded.hook("flatmap_path_parameters")(_with_seeded_ids)
    return loaded


administrator_schema = _schema("examples", "coverage", "fuzzing")
dealer_schema = _schema("examples", "fuzzing")


@pytest.fixture(scope="module")
def floor(django_db_setup, django_db_blocker):
    """One floor for every operation and both callers, rolled back after the module."""
    clock = FrozenClock()
    clock.start()
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        staff = make_staff()
        money, assessed = assessed_round(staff, clock)
        builder = Floor(staff=staff)
        wagering = builder.start(builder.ready_table())
        box = drop.register_box(
            box_number="BOX-1",
            table_id=money.table.pk,
            gaming_day=gaming_day_of(clock.now()),
            shift="day",
            by=staff.supervisor,
        )
        tables = [money.table.pk, wagering.table_id]
        SEEDED.update(
            table_id=tables,
            round_id=[assessed.pk, wagering.pk],
            player_id=[player.pk for player in money.players],
            account_id=[a.pk for a in Account.objects.filter(table_id__in=tables)],
            offer_id=list(ButtonOffer.objects.values_list("pk", flat=True)),
            fee_line_id=list(FeeLine.objects.values_list("pk", flat=True)),
            box_id=[box.pk],
            seat=[1, 2, 3, 4],
        )
        SEEDED["schedule_id"] = list(FeeSchedule.objects.values_list("pk", flat=True))
        SEEDED["version_id"] = list(FeeScheduleVersion.objects.values_list("pk", flat=True))
        headers = {
            "administrator": auth_header(UserFactory(role=Role.ADMINISTRATOR)),
            "dealer": auth_header(staff.dealer),
        }
    try:
        yield headers
    finally:
        SEEDED.clear()
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
        clock.stop()


@pytest.fixture
def in_process(db):
    """The requests run in this test's transaction: Django must not close the connection at
    the end of each one (its own test client disconnects the same handler)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def _call(case, headers) -> None:
    with transaction.atomic():
        case.call_and_validate(headers=headers, checks=CHECKS)
        transaction.set_rollback(True)  # nothing a request wrote is seen by the next


@administrator_schema.parametrize()
@settings(
    max_examples=FUZZED_PER_OPERATION,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_as_administrator(case, floor, in_process):
    _call(case, floor["administrator"])


@dealer_schema.parametrize()
@settings(
    max_examples=FUZZED_PER_OPERATION,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_as_house_dealer(case, floor, in_process):
    _call(case, floor["dealer"])
