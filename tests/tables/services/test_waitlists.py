"""Waitlists, seat calls and seat holds through the services (docs/rules.md §3.6).

Each test opens a table at its own stakes, so its list sees only that table's seats.
"""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest

from cardroom.errors import Rule, RuleError, State, StateError
from tables.models import HoldEnd, SeatHold, Seating, WaitlistEvent
from tables.selectors import replay_waitlist, waitlist_view
from tables.services import floor, waitlists
from tests.builders.floor import make_player, open_floor

pytestmark = pytest.mark.django_db

_stakes = itertools.count(1)


def _table_and_list(staff, layout="PPPP..", **policy):
    low = 100 * next(_stakes)
    f = open_floor(layout, staff=staff, minimum_cents=low, maximum_cents=low * 100)
    row = waitlists.open_waitlist(
        minimum_cents=low, maximum_cents=low * 100, by=staff.supervisor, **policy
    )
    return f, row


def _join(row, staff, count, **kwargs):
    players = [make_player() for _ in range(count)]
    for p in players:
        waitlists.join(waitlist_id=row.pk, player_id=p.pk, by=staff.supervisor, **kwargs)
    return players


def _kinds(row):
    return [
        (e.kind, e.player_id, e.seat)
        for e in WaitlistEvent.objects.filter(waitlist=row).order_by("at", "id")
    ]


def test_the_first_player_is_called_and_takes_the_seat_leaving_every_list(clock, staff):
    f, row = _table_and_list(staff)
    a, b = _join(row, staff, 2)
    called = waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=5, by=staff.supervisor)
    assert (called.kind, called.player_id, called.seat) == ("called", a.pk, 5)
    seating = waitlists.answer(waitlist_id=row.pk, player_id=a.pk, by=staff.supervisor, take=True)
    assert (seating.seat, seating.player_id) == (5, a.pk)
    view = waitlist_view(waitlist_id=row.pk)
    assert view.now.players == (b.pk,)
    assert _kinds(row)[-1] == ("seated", a.pk, 5)


def test_a_player_seated_anywhere_leaves_all_their_lists(clock, staff):
    _f, first = _table_and_list(staff)
    g, second = _table_and_list(staff)
    player = make_player()
    for row in (first, second):
        waitlists.join(waitlist_id=row.pk, player_id=player.pk, by=staff.supervisor)
    floor.seat_player(table_id=g.table_id, seat=6, player_id=player.pk, by=staff.supervisor)
    for row in (first, second):
        assert waitlist_view(waitlist_id=row.pk).now.players == ()
        assert _kinds(row)[-1] == ("seated", player.pk, 6)


def test_a_decline_calls_the_next_player_to_the_same_seat(clock, staff):
    f, row = _table_and_list(staff)
    a, b, c = _join(row, staff, 3)
    waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=5, by=staff.supervisor)
    waitlists.answer(waitlist_id=row.pk, player_id=a.pk, by=staff.supervisor, take=False)
    view = waitlist_view(waitlist_id=row.pk)
    assert view.now.entry(b.pk).call.seat == 5
    assert view.now.players == (a.pk, b.pk, c.pk)  # keeps their place by default
    # b declines too: c is called; a, already called to this seat, is skipped and named.
    waitlists.answer(waitlist_id=row.pk, player_id=b.pk, by=staff.supervisor, take=False)
    last = WaitlistEvent.objects.filter(waitlist=row).latest("id")
    assert (last.kind, last.player_id, sorted(last.skipped)) == ("called", c.pk, [a.pk, b.pk])


def test_no_answer_in_time_passes_over_by_the_clock_and_calls_the_next(clock, staff):
    f, row = _table_and_list(staff, response_minutes=2, pass_over="to_bottom")
    a, b = _join(row, staff, 2)
    waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=5, by=staff.supervisor)
    with pytest.raises(RuleError) as early:
        waitlists.pass_over(waitlist_id=row.pk, player_id=a.pk, by=staff.supervisor)
    assert early.value.rule is Rule.WAITLIST_CALL
    clock.advance(minutes=2)
    assert waitlists.sweep() == 2
    kinds = _kinds(row)
    assert kinds[-2:] == [("passed_over", a.pk, None), ("called", b.pk, 5)]
    passed = WaitlistEvent.objects.filter(waitlist=row, kind="passed_over").get()
    assert passed.by is None  # the clock
    assert waitlist_view(waitlist_id=row.pk).now.players == (b.pk, a.pk)  # to the bottom


def test_the_floor_passes_over_after_the_timer_and_the_next_is_called(clock, staff):
    f, row = _table_and_list(staff)
    a, b = _join(row, staff, 2)
    waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=6, by=staff.supervisor)
    clock.advance(minutes=3)
    event = waitlists.pass_over(waitlist_id=row.pk, player_id=a.pk, by=staff.supervisor)
    assert event.by == staff.supervisor
    assert waitlist_view(waitlist_id=row.pk).now.entry(b.pk).call.seat == 6


@pytest.mark.parametrize(
    "call, error, code",
    [
        ({"seat": 1}, StateError, State.SEAT_TAKEN),
        ({"seat": 9}, RuleError, Rule.SEATS),
    ],
    ids=["taken_seat", "no_such_seat"],
)
def test_a_call_only_for_an_open_seat(clock, staff, call, error, code):
    f, row = _table_and_list(staff)
    _join(row, staff, 1)
    before = _kinds(row)
    with pytest.raises(error) as refused:
        waitlists.call(waitlist_id=row.pk, table_id=f.table_id, by=staff.supervisor, **call)
    assert getattr(refused.value, "state", None) == code or refused.value.rule == code
    assert _kinds(row) == before


def test_a_call_for_a_full_table_is_refused(clock, staff):
    f, row = _table_and_list(staff, layout="PPPPPP")
    _join(row, staff, 1)
    for seat in range(1, 7):
        with pytest.raises(StateError) as refused:
            waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=seat, by=staff.supervisor)
        assert refused.value.state == State.SEAT_TAKEN


def test_a_call_at_other_stakes_is_refused(clock, staff):
    _f, row = _table_and_list(staff)
    g, _ = _table_and_list(staff)
    _join(row, staff, 1)
    with pytest.raises(RuleError) as refused:
        waitlists.call(waitlist_id=row.pk, table_id=g.table_id, seat=5, by=staff.supervisor)
    assert (refused.value.rule, refused.value.field) == (Rule.WAITLIST_STAKES, "table")


def test_nobody_to_call_and_two_calls_for_one_seat(clock, staff):
    f, row = _table_and_list(staff)
    with pytest.raises(StateError) as empty:
        waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=5, by=staff.supervisor)
    assert empty.value.state == State.NOBODY_TO_CALL
    _join(row, staff, 2)
    waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=5, by=staff.supervisor)
    with pytest.raises(StateError) as twice:
        waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=5, by=staff.supervisor)
    assert twice.value.state == State.CALLED


def test_a_call_in_is_called_only_once_checked_in_and_lapses(clock, staff):
    f, row = _table_and_list(staff, call_in_minutes=20)
    (phone,) = _join(row, staff, 1, by_phone=True)
    (desk,) = _join(row, staff, 1)
    called = waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=5, by=staff.supervisor)
    assert (called.player_id, called.skipped) == (desk.pk, [])  # not in the room: not eligible
    clock.advance(minutes=20)
    with pytest.raises(RuleError) as late:
        waitlists.check_in(waitlist_id=row.pk, player_id=phone.pk, by=staff.supervisor)
    assert late.value.rule is Rule.WAITLIST_CALL_IN
    waitlists.sweep()
    assert ("lapsed", phone.pk, None) in _kinds(row)


def test_policy_refusals_change_nothing(clock, staff):
    _f, row = _table_and_list(staff)
    for values, field in (
        ({"response_minutes": -1}, "response_minutes"),
        ({"call_in_minutes": 0}, "call_in_minutes"),
        ({"pass_over": "sideways"}, "pass_over"),
    ):
        with pytest.raises(RuleError) as refused:
            waitlists.change_policy(waitlist_id=row.pk, by=staff.supervisor, **values)
        assert (refused.value.rule, refused.value.field) == (Rule.WAITLIST_POLICY, field)
    row.refresh_from_db()
    assert (row.response_seconds, row.call_in_seconds, row.pass_over) == (180, 1800, "keep_place")
    with pytest.raises(RuleError) as unknown:
        waitlists.open_waitlist(minimum_cents=123, maximum_cents=4567, by=staff.supervisor)
    assert unknown.value.rule is Rule.WAITLIST_STAKES


def test_a_policy_change_applies_from_then_on_and_replays(clock, staff):
    f, row = _table_and_list(staff)
    _a, b = _join(row, staff, 2)
    waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=5, by=staff.supervisor)
    waitlists.change_policy(waitlist_id=row.pk, by=staff.supervisor, response_minutes=10)
    clock.advance(minutes=3)  # the call made under 3 minutes runs out
    waitlists.sweep()
    # b is called under the new policy: ten minutes to answer.
    assert waitlist_view(waitlist_id=row.pk).now.entry(b.pk).call.answer_by == clock.now() + (
        timedelta(minutes=10)
    )


def test_holds(clock, staff):
    f, row = _table_and_list(staff, layout="PPPPPP")
    (waiting,) = _join(row, staff, 1)
    with pytest.raises(RuleError) as bad:
        waitlists.hold_seat(table_id=f.table_id, seat=2, by=staff.supervisor, minutes=0)
    assert bad.value.rule is Rule.SEAT_HOLD
    hold = waitlists.hold_seat(table_id=f.table_id, seat=2, by=staff.supervisor, minutes=10)
    with pytest.raises(StateError) as held:
        waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=2, by=staff.supervisor)
    assert held.value.state == State.SEAT_HELD
    clock.advance(minutes=10)
    # Run out: the seat is offered to the list, but the absent player is picked up first.
    waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=2, by=staff.supervisor)
    with pytest.raises(StateError) as occupied:
        waitlists.answer(waitlist_id=row.pk, player_id=waiting.pk, by=staff.supervisor, take=True)
    assert occupied.value.state == State.SEAT_HELD
    floor.unseat_player(table_id=f.table_id, seat=2, by=staff.supervisor)
    hold.refresh_from_db()
    assert hold.end == HoldEnd.PICKED_UP
    waitlists.answer(waitlist_id=row.pk, player_id=waiting.pk, by=staff.supervisor, take=True)
    assert Seating.objects.get(table=f.table, seat=2, left_at__isnull=True).player == waiting


def test_a_hold_on_an_empty_seat_and_a_returning_player(clock, staff):
    f, _ = _table_and_list(staff)
    with pytest.raises(RuleError) as empty:
        waitlists.hold_seat(table_id=f.table_id, seat=6, by=staff.supervisor)
    assert (empty.value.rule, empty.value.field) == (Rule.SEAT_HOLD, "seat")
    waitlists.hold_seat(table_id=f.table_id, seat=1, by=staff.supervisor)
    with pytest.raises(StateError):
        waitlists.hold_seat(table_id=f.table_id, seat=1, by=staff.supervisor)
    hold = waitlists.release_hold(table_id=f.table_id, seat=1, by=staff.supervisor)
    assert hold.end == HoldEnd.RETURNED
    assert not SeatHold.objects.filter(table=f.table, ended_at__isnull=True).exists()


def test_the_list_from_its_last_empty_point_equals_the_full_replay(clock, staff):
    f, row = _table_and_list(staff, layout="PP....")
    players = _join(row, staff, 3)
    for seat, player in zip((3, 4, 5), players, strict=True):
        waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=seat, by=staff.supervisor)
        waitlists.answer(waitlist_id=row.pk, player_id=player.pk, by=staff.supervisor, take=True)
        clock.advance(seconds=5)
    row.refresh_from_db()
    assert row.empty_after_event == WaitlistEvent.objects.filter(waitlist=row).latest("id").pk
    late = _join(row, staff, 1)
    full = replay_waitlist(
        list(WaitlistEvent.objects.filter(waitlist=row).order_by("at", "id")),
        list(row.policies.order_by("at", "id")),
    )
    assert waitlist_view(waitlist_id=row.pk).recorded.entries == full.entries
    assert full.players == (late[0].pk,)


def test_a_player_back_after_the_hold_ran_out_has_the_call_to_the_seat_withdrawn(clock, staff):
    f, row = _table_and_list(staff, layout="PPPPPP", pass_over="to_bottom")
    a, b = _join(row, staff, 2)
    waitlists.hold_seat(table_id=f.table_id, seat=3, by=staff.supervisor, minutes=5)
    clock.advance(minutes=5)
    waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=3, by=staff.supervisor)
    waitlists.release_hold(table_id=f.table_id, seat=3, by=staff.supervisor)
    assert _kinds(row)[-1] == ("withdrawn", a.pk, None)
    view = waitlist_view(waitlist_id=row.pk)
    # a keeps the top of the list (no miss counted, even going to the bottom on a miss).
    assert view.now.players == (a.pk, b.pk)
    assert view.now.entry(a.pk).misses == 0 and view.now.entry(a.pk).call is None


def test_the_floor_withdraws_a_call(clock, staff):
    f, row = _table_and_list(staff)
    (a,) = _join(row, staff, 1)
    with pytest.raises(StateError) as not_called:
        waitlists.withdraw(waitlist_id=row.pk, player_id=a.pk, by=staff.supervisor)
    assert not_called.value.state == State.WAITING
    waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=5, by=staff.supervisor)
    event = waitlists.withdraw(waitlist_id=row.pk, player_id=a.pk, by=staff.supervisor)
    assert (event.kind, event.by) == ("withdrawn", staff.supervisor)
    # Callable again, to this seat or another.
    waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=6, by=staff.supervisor)
    assert waitlist_view(waitlist_id=row.pk).now.entry(a.pk).call.seat == 6
