"""Shifts of the gaming day, drop boxes and their counts, and the Example Table filing."""

from __future__ import annotations

import csv
import io
import itertools
from datetime import UTC, date, datetime, time

import pytest
from django.core.exceptions import ImproperlyConfigured

from cardroom import shifts
from cardroom.errors import RuleError, State, StateError
from cardroom.gaming_day import gaming_day_window
from fees import filing
from fees.models import DropCount
from fees.selectors import fee_lines, filed_in_force, filed_version, reconcile
from fees.services import drop, waivers
from tests.builders.fees import ACTION, table_schedule
from tests.builders.floor import advance
from tests.builders.money import Wager, money_table, play_round
from tests.spreadsheet import live_cells

pytestmark = pytest.mark.django_db

# The cardroom is in America/Los_Angeles (PST, UTC-8 in November); the gaming day starts 06:00.


@pytest.mark.parametrize(
    ("moment", "day", "shift"),
    [
        (datetime(2026, 11, 20, 14, 0, tzinfo=UTC), date(2026, 11, 20), "day"),  # 06:00 local
        (datetime(2026, 11, 20, 21, 59, tzinfo=UTC), date(2026, 11, 20), "day"),  # 13:59
        (datetime(2026, 11, 20, 22, 0, tzinfo=UTC), date(2026, 11, 20), "swing"),  # 14:00
        (datetime(2026, 11, 21, 6, 0, tzinfo=UTC), date(2026, 11, 20), "graveyard"),  # 22:00
        (datetime(2026, 11, 21, 13, 59, tzinfo=UTC), date(2026, 11, 20), "graveyard"),  # 05:59
        (datetime(2026, 11, 21, 14, 0, tzinfo=UTC), date(2026, 11, 21), "day"),
    ],
)
def test_a_moment_falls_in_one_gaming_day_and_shift(moment, day, shift):
    assert shifts.locate(moment) == (day, shift)
    start, end = shifts.window(day, shift)
    assert start <= moment < end


def test_the_shifts_tile_the_gaming_day():
    day = date(2026, 11, 20)
    start, end = gaming_day_window(day)
    windows = [shifts.window(day, name) for name in shifts.names()]
    assert windows[0][0] == start and windows[-1][1] == end
    assert all(a[1] == b[0] for a, b in itertools.pairwise(windows))


def test_shifts_are_a_setting(settings):
    settings.CARDROOM_SHIFTS = shifts.parse_shifts("early=06:00,late=18:00", time(6, 0))
    assert shifts.names() == ["early", "late"]
    assert shifts.locate(datetime(2026, 11, 21, 3, 0, tzinfo=UTC)) == (date(2026, 11, 20), "late")
    with pytest.raises(RuleError) as caught:
        shifts.window(date(2026, 11, 20), "swing")
    assert caught.value.field == "shift"


@pytest.mark.parametrize(
    "value",
    [
        "day=07:00,swing=14:00",
        "day=06:00,day=14:00",
        "day=06:00,swing=25:00",
        "Day=06:00",
        "day=06:00,late=22:00,swing=14:00",
    ],
)
def test_bad_shift_settings_are_refused(value):
    with pytest.raises(ImproperlyConfigured):
        shifts.parse_shifts(value, time(6, 0))


def test_default_shifts_follow_the_gaming_day_start():
    assert shifts.parse_shifts("", time(8, 0)) == (
        ("day", time(8, 0)),
        ("swing", time(16, 0)),
        ("graveyard", time(0, 0)),
    )


def test_a_box_reconciles_its_count_with_the_fees_recorded(staff, clock):
    mt = money_table(
        staff, {1: 100_000, 2: 100_000, 3: 100_000}, deal_mode="rng", rotation_window_minutes=None
    )
    table_schedule(mt.table, by=staff.supervisor)  # clock: 2026-11-20 18:00 UTC = 10:00 day
    clock.advance(seconds=1)
    first = play_round(
        mt,
        pd_seat=1,
        bank=50_000,
        wagers=[Wager(2, 1_000), Wager(3, 5_000)],
        until=State.NO_MORE_BETS,
    )
    line = fee_lines(first).first()
    waivers.waive_fee(fee_line_id=line.pk, reason="promotion", by=staff.supervisor)
    advance(first, State.SETTLED, by=mt.staff.dealer)
    clock.advance(hours=4)  # 14:00:01 local: the swing shift
    play_round(mt, pd_seat=2, bank=50_000, wagers=[Wager(3, 1_000)])
    day_box = drop.register_box(
        box_number="D-0001",
        table_id=mt.table.pk,
        gaming_day=date(2026, 11, 20),
        shift="day",
        by=staff.supervisor,
    )
    swing_box = drop.register_box(
        box_number="D-0002",
        table_id=mt.table.pk,
        gaming_day=date(2026, 11, 20),
        shift="swing",
        by=staff.supervisor,
    )
    with pytest.raises(StateError):
        drop.register_box(
            box_number="D-0003",
            table_id=mt.table.pk,
            gaming_day=date(2026, 11, 20),
            shift="day",
            by=staff.supervisor,
        )
    with pytest.raises(StateError):
        drop.register_box(
            box_number="D-0001",
            table_id=mt.table.pk,
            gaming_day=date(2026, 11, 21),
            shift="day",
            by=staff.supervisor,
        )
    assert reconcile(day_box).recorded_cents == 2 * (50 + 25) + 2 * (100 + 50) - 50
    assert reconcile(swing_box).recorded_cents == 2 * (50 + 25)
    assert reconcile(day_box).difference_cents is None
    counted = datetime(2026, 11, 20, 22, 30, tzinfo=UTC)  # after the day shift ended
    clock.advance(hours=1)
    with pytest.raises(RuleError) as caught:
        drop.enter_count(
            box_id=day_box.pk,
            amount_cents=400,
            counters=["Ann"],
            counted_at=counted,
            by=staff.supervisor,
        )
    assert caught.value.field == "counters"
    with pytest.raises(RuleError) as caught:
        drop.enter_count(
            box_id=swing_box.pk,
            amount_cents=150,
            counters=["Ann", "Bo"],
            counted_at=counted,
            by=staff.supervisor,
        )
    assert caught.value.field == "counted_at"  # the swing shift is still on
    drop.enter_count(
        box_id=day_box.pk,
        amount_cents=375,
        counters=["Ann", "Bo"],
        counted_at=counted,
        by=staff.supervisor,
    )
    assert reconcile(day_box).difference_cents == -25  # 25 short
    clock.advance(hours=1)
    drop.enter_count(
        box_id=day_box.pk,
        amount_cents=400,
        counters=["Ann", "Cy"],
        counted_at=counted,
        by=staff.supervisor,
        note="recount",
    )
    result = reconcile(day_box)
    assert (result.counted_cents, result.difference_cents, result.counts) == (400, 0, 2)
    assert DropCount.objects.filter(box=day_box).count() == 2


def test_the_filing_is_the_example_table_and_the_same_bytes_each_time(staff, clock):
    mt = money_table(staff, {1: 10_000}, deal_mode="rng")
    version = table_schedule(
        mt.table,
        by=staff.supervisor,
        rates=ACTION,
        basis="total_table_action",
        note="Trips & Bad Beat <charged>",
    )
    filed = filed_version(version)
    text = filing.filing_csv(filed).decode()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][4:10] == list(filing.COLUMNS)
    assert rows[1][4:10] == [
        "$5.00 - $500.00",
        "$5.00 - $100.00",
        "$1.00",
        "",
        "OR",
        "$1.00 on $0.00 - $99.99",
    ]
    assert rows[2][4:10] == [
        "$5.00 - $500.00",
        "$100.01 - $500.00",
        "$2.00",
        "",
        "OR",
        "$3.00 on $100.00 and above",
    ]
    assert len(rows) == 3
    pdf = filing.filing_pdf(filed)
    assert pdf.startswith(b"%PDF") and filing.filing_pdf(filed) == pdf
    assert filing.filing_csv(filed_in_force(clock.moment)) == filing.filing_csv(filed)
    assert filing.filing_pdf([]) != pdf


def test_the_filing_csv_writes_formula_names_as_text(staff, clock):
    """docs/reports.md: a table or schedule named like a formula is text in the filing."""
    mt = money_table(staff, {1: 10_000}, deal_mode="rng", name='=HYPERLINK("http://x","a")')
    filed = filed_version(table_schedule(mt.table, by=staff.supervisor))
    rows = list(csv.reader(io.StringIO(filing.filing_csv(filed).decode())))
    # An apostrophe before the formula, and after the comma before a quote (docs/reports.md).
    assert rows[1][:2] == ['\'=HYPERLINK("http://x",\'"a")', '\'=HYPERLINK("http://x",\'"a") fees']
    assert rows[1][4:7] == ["$5.00 - $500.00", "$5.00 - $25.00", "$0.50"]


def test_the_filing_csv_writes_a_line_break_before_a_formula_as_text(staff, clock):
    """docs/reports.md: a table named ``Bob\\r=1+2`` (its schedule ``Bob\\r=1+2 fees``) is
    text in the filing, read by RFC 4180 or by a spreadsheet that breaks rows at a bare CR."""
    mt = money_table(staff, {1: 10_000}, deal_mode="rng", name="Bob\r=1+2")
    data = filing.filing_csv(filed_version(table_schedule(mt.table, by=staff.supervisor)))
    assert live_cells(data) == []
    rows = list(csv.reader(io.StringIO(data.decode(), newline="")))
    assert rows[1][:2] == ["Bob\r'=1+2", "Bob\r'=1+2 fees"]
