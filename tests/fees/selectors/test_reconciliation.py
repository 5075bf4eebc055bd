"""The drop of each box reconciled with the fees recorded (docs/rules.md §10.4): a page of
boxes costs two queries whatever its size, and each box counts only its own table and
shift."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from fees import selectors
from fees.services import drop
from tests.builders.fees import table_schedule
from tests.builders.money import Wager, money_table, play_round

pytestmark = pytest.mark.django_db
DAY = date(2026, 11, 20)


@pytest.fixture
def boxes(staff, clock):
    """Two tables; a hand in the day shift at each, one more in the swing shift at the first;
    a box per table and shift played, the first table's day box counted 25 cents short."""
    made = {}
    for name in ("A", "B"):
        mt = money_table(
            staff,
            {1: 100_000, 2: 100_000},
            deal_mode="rng",
            name=f"DROP-{name}",
            rotation_window_minutes=None,
        )
        table_schedule(mt.table, by=staff.supervisor)
        made[name] = mt
    clock.advance(seconds=1)  # 10:00:01 local: the day shift
    for mt in made.values():
        play_round(mt, pd_seat=1, bank=50_000, wagers=[Wager(2, 1_000)])
    clock.advance(hours=4)  # 14:00:01 local: the swing shift
    play_round(made["A"], pd_seat=2, bank=50_000, wagers=[Wager(1, 1_000)])
    registered = {
        (name, shift): drop.register_box(
            box_number=f"{name}-{shift}",
            table_id=made[name].table.pk,
            gaming_day=DAY,
            shift=shift,
            by=staff.supervisor,
        )
        for name, shift in (("A", "day"), ("A", "swing"), ("B", "day"))
    }
    clock.set(datetime(2026, 11, 21, 8, 0, tzinfo=UTC))  # after both shifts ended
    drop.enter_count(
        box_id=registered["A", "day"].pk,
        amount_cents=150 - 25,
        counters=["Ann", "Bo"],
        counted_at=clock.moment,
        by=staff.supervisor,
    )
    return registered


def test_each_box_reconciles_its_own_table_and_shift(boxes):
    found = {
        (r.box.box_number): (r.recorded_cents, r.counted_cents, r.difference_cents, r.counts)
        for r in selectors.reconciliations(boxes.values())
    }
    # A hand of one 1,000-cent seat at the standard schedule's first rate: the player's fee
    # on the Ante and on the Blind (2 x 50) and the player-dealer's per square (2 x 25).
    assert found == {
        "A-day": (150, 125, -25, 1),
        "A-swing": (150, None, None, 0),
        "B-day": (150, None, None, 0),
    }


@pytest.mark.parametrize("how_many", [1, 3])
def test_a_page_of_boxes_costs_two_queries(boxes, how_many, django_assert_num_queries):
    page = list(selectors.drop_boxes().order_by("box_number"))[:how_many]
    with django_assert_num_queries(2):  # every count, and each box's drop over its shift
        reconciled = selectors.reconciliations(page)
    assert [r.box.pk for r in reconciled] == [box.pk for box in page]


def test_one_box_is_the_one_box_case(boxes):
    box = boxes["A", "day"]
    [many] = [r for r in selectors.reconciliations(boxes.values()) if r.box.pk == box.pk]
    assert selectors.reconcile(box) == many
