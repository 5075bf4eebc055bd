"""The collection schedule version in force (docs/rules.md §9.5), from its one rule.

A table's own schedule comes before the schedule of its limit class (tables whose minimum
and maximum are the class's limits); within a schedule, the latest version that has taken
effect. The same rule answers for one table, for every table in one query, and for the
schedules page (each version marked in force, and where, past or scheduled).
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from fees import selectors
from fees.services import schedules
from tables.services import floor
from tests.builders.rules import STANDARD

pytestmark = pytest.mark.django_db


def table(name, staff, minimum=500, maximum=50_000):
    return floor.create_table(
        name=name, by=staff.supervisor, options={"minimum_cents": minimum, "maximum_cents": maximum}
    )


def version(schedule, staff, **extra):
    return schedules.create_version(
        schedule_id=schedule.pk,
        rates=STANDARD,
        player_dealer_basis="per_betting_square",
        by=staff.supervisor,
        **extra,
    )


@pytest.fixture
def floor_(staff, clock):
    """T1 and T2 share the 5-500 limits; T2 has its own schedule; T3 has other limits.

    The class schedule has a past version and a version in force; T2's own schedule has a
    version in force and one scheduled for tomorrow.
    """
    t1, t2, t3 = (table("T1", staff), table("T2", staff), table("T3", staff, 100, 10_000))
    by = staff.supervisor
    limit_class = schedules.create_schedule(
        name="5-500 tables", class_minimum_cents=500, class_maximum_cents=50_000, by=by
    )
    own = schedules.create_schedule(name="T2 fees", table_id=t2.pk, by=by)
    class_v1 = version(limit_class, staff)
    clock.advance(hours=1)
    class_v2 = version(limit_class, staff)
    own_v1 = version(own, staff)
    own_v2 = version(own, staff, effective_at=clock.moment + timedelta(days=1))
    return {
        "tables": (t1, t2, t3),
        "versions": (class_v1, class_v2, own_v1, own_v2),
        "schedules": (limit_class, own),
    }


def test_the_table_before_its_class_and_the_latest_version_in_effect(floor_, clock):
    t1, t2, t3 = floor_["tables"]
    class_v1, class_v2, own_v1, own_v2 = floor_["versions"]
    now = clock.moment
    assert selectors.schedule_in_force(t1, now) == class_v2
    assert selectors.schedule_in_force(t2, now) == own_v1
    assert selectors.schedule_in_force(t3, now) is None  # no class for its limits
    before = class_v2.effective_at - timedelta(seconds=1)
    assert selectors.schedule_in_force(t1, before) == class_v1
    assert selectors.schedule_in_force(t2, before) == class_v1  # its own not yet in effect
    tomorrow = own_v2.effective_at
    assert selectors.schedule_in_force(t2, tomorrow) == own_v2
    assert selectors.schedule_in_force(t1, tomorrow) == class_v2


def test_every_table_in_one_query_by_the_same_rule(floor_, clock, django_assert_num_queries):
    t1, t2, t3 = floor_["tables"]
    _, class_v2, own_v1, _ = floor_["versions"]
    with django_assert_num_queries(1):
        in_force = selectors.versions_in_force(clock.moment)
    assert in_force == {t1.pk: class_v2.pk, t2.pk: own_v1.pk}
    for t in (t1, t2, t3):
        one = selectors.schedule_in_force(t, clock.moment)
        assert in_force.get(t.pk) == (one.pk if one else None)


def test_the_schedules_page_marks_each_version(floor_, clock, django_assert_num_queries):
    class_v1, class_v2, own_v1, own_v2 = floor_["versions"]
    # in force by table, the tables' names, each schedule's current version, the schedules,
    # their versions, the versions' rates and authors: seven, however many schedules
    with django_assert_num_queries(7):
        rows = selectors.schedule_overview(clock.moment)
    marked = {
        row.schedule.name: [(v.version.pk, v.status, v.tables) for v in row.versions]
        for row in rows
    }
    assert marked == {
        "5-500 tables": [(class_v2.pk, "in force", ["T1"]), (class_v1.pk, "past", [])],
        "T2 fees": [(own_v2.pk, "scheduled", []), (own_v1.pk, "in force", ["T2"])],
    }


def test_a_class_version_overridden_at_every_table_is_in_force_at_no_table(staff, clock):
    only = table("ONLY", staff)
    by = staff.supervisor
    limit_class = schedules.create_schedule(
        name="class", class_minimum_cents=500, class_maximum_cents=50_000, by=by
    )
    class_version = version(limit_class, staff)
    own = schedules.create_schedule(name="own", table_id=only.pk, by=by)
    own_version = version(own, staff)
    statuses = {
        v.version.pk: (v.status, v.tables)
        for row in selectors.schedule_overview(clock.moment)
        for v in row.versions
    }
    assert statuses == {
        class_version.pk: ("in force at no table", []),
        own_version.pk: ("in force", ["ONLY"]),
    }


def test_the_snapshot_a_hand_freezes_is_the_version_in_force_with_its_rates(floor_, clock):
    t1, _, t3 = floor_["tables"]
    _, class_v2, _, _ = floor_["versions"]
    snapshot = selectors.snapshot_in_force(t1, clock.moment)
    assert (snapshot["version_id"], snapshot["number"]) == (class_v2.pk, 2)
    assert [rate["position"] for rate in snapshot["rates"]] == [1, 2, 3]
    assert selectors.snapshot_in_force(t3, clock.moment) is None
