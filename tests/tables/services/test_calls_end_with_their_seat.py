"""A call ends with its seat, and a list is never left without a table (docs/rules.md §3.6):
a called seat filled another way, a table closed or changing its limits, through the
services, each ending recorded with its reason."""

from __future__ import annotations

import itertools

import pytest

from cardroom.errors import Rule, RuleError, StateError
from tables.models import Waitlist, WaitlistEvent
from tables.rules.waitlist import Reason
from tables.selectors import waitlist_view
from tables.services import floor, waitlists
from tests.builders.floor import make_player, open_floor

pytestmark = pytest.mark.django_db

_stakes = itertools.count(7001)


def _stakes_pair():
    low = 100 * next(_stakes)
    return low, low * 100


def _table_and_list(staff, layout="PPPP..", stakes=None):
    low, high = stakes or _stakes_pair()
    f = open_floor(layout, staff=staff, minimum_cents=low, maximum_cents=high, open_game=False)
    row = Waitlist.objects.filter(minimum_cents=low, maximum_cents=high).first()
    if row is None:
        row = waitlists.open_waitlist(minimum_cents=low, maximum_cents=high, by=staff.supervisor)
    return f, row


def _join(row, staff, count, **kwargs):
    players = [make_player() for _ in range(count)]
    for p in players:
        waitlists.join(waitlist_id=row.pk, player_id=p.pk, by=staff.supervisor, **kwargs)
    return players


def _last(row, player):
    event = WaitlistEvent.objects.filter(waitlist=row, player=player).order_by("-at", "-id")[0]
    return event.kind, event.reason


def test_a_called_seat_filled_directly_ends_the_call_and_the_player_keeps_the_top(clock, staff):
    f, row = _table_and_list(staff)
    pia, bo = _join(row, staff, 2)
    waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=6, by=staff.supervisor)
    walk_in = make_player()
    floor.seat_player(table_id=f.table_id, seat=6, player_id=walk_in.pk, by=staff.supervisor)
    assert _last(row, pia) == ("withdrawn", Reason.SEAT_FILLED)
    view = waitlist_view(waitlist_id=row.pk)
    assert view.now.players == (pia.pk, bo.pk)  # back at the top, the call not held against her
    assert view.now.entry(pia.pk).call is None and view.now.entry(pia.pk).misses == 0
    # The next open seat calls her first.
    assert (
        waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=5, by=staff.supervisor)
    ).player_id == pia.pk


def test_the_called_player_seated_directly_is_seated_not_withdrawn(clock, staff):
    f, row = _table_and_list(staff)
    (pia,) = _join(row, staff, 1)
    waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=6, by=staff.supervisor)
    floor.seat_player(table_id=f.table_id, seat=6, player_id=pia.pk, by=staff.supervisor)
    assert _last(row, pia) == ("seated", "")
    assert waitlist_view(waitlist_id=row.pk).now.players == ()


def test_a_seat_filled_elsewhere_at_the_table_leaves_the_call(clock, staff):
    f, row = _table_and_list(staff)
    (pia,) = _join(row, staff, 1)
    waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=6, by=staff.supervisor)
    floor.seat_player(table_id=f.table_id, seat=5, player_id=make_player().pk, by=staff.supervisor)
    assert waitlist_view(waitlist_id=row.pk).now.entry(pia.pk).call.seat == 6


def test_the_floors_withdrawal_names_its_reason(clock, staff):
    f, row = _table_and_list(staff)
    (pia,) = _join(row, staff, 1)
    waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=6, by=staff.supervisor)
    waitlists.withdraw(waitlist_id=row.pk, player_id=pia.pk, by=staff.supervisor)
    assert _last(row, pia) == ("withdrawn", Reason.BY_FLOOR)


def test_a_player_back_to_a_held_seat_ends_its_call_naming_why(clock, staff):
    f, row = _table_and_list(staff, layout="PPPPPP")
    (pia,) = _join(row, staff, 1)
    waitlists.hold_seat(table_id=f.table_id, seat=1, by=staff.supervisor, minutes=1)
    clock.advance(minutes=2)
    waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=1, by=staff.supervisor)
    waitlists.release_hold(table_id=f.table_id, seat=1, by=staff.supervisor)
    assert _last(row, pia) == ("withdrawn", Reason.PLAYER_RETURNED)


def test_a_table_changing_limits_ends_its_calls_and_the_list_stays_while_played(clock, staff):
    stakes = _stakes_pair()
    f, row = _table_and_list(staff, stakes=stakes)
    _g, same = _table_and_list(staff, stakes=stakes)
    assert same == row
    pia, bo = _join(row, staff, 2)
    waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=6, by=staff.supervisor)
    table = floor.change_table_options(
        table_id=f.table_id,
        by=staff.supervisor,
        changes={"minimum_cents": stakes[0] * 2, "maximum_cents": stakes[1] * 2},
    )
    assert table.waitlist_moved is None  # another table still plays the old stakes
    assert _last(row, pia) == ("withdrawn", Reason.LIMITS_CHANGED)
    assert waitlist_view(waitlist_id=row.pk).now.players == (pia.pk, bo.pk)


def test_the_last_table_changing_limits_moves_its_list_to_the_new_limits(clock, staff):
    old = _stakes_pair()
    f, row = _table_and_list(staff, stakes=old)
    waitlists.change_policy(
        waitlist_id=row.pk, by=staff.supervisor, response_minutes=5, pass_over="to_bottom"
    )
    pia, bo = _join(row, staff, 2)
    (cal,) = _join(row, staff, 1, by_phone=True)
    waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=6, by=staff.supervisor)
    table = floor.change_table_options(
        table_id=f.table_id,
        by=staff.supervisor,
        changes={"minimum_cents": old[0] * 2, "maximum_cents": old[1] * 2},
    )
    source, target, moved = table.waitlist_moved
    assert source == row and moved == [pia.pk, bo.pk, cal.pk]
    assert (target.minimum_cents, target.maximum_cents) == (old[0] * 2, old[1] * 2)
    assert (target.response_seconds, target.pass_over) == (300, "to_bottom")  # its policy
    assert waitlist_view(waitlist_id=row.pk).now.players == ()
    view = waitlist_view(waitlist_id=target.pk)
    assert view.now.players == (pia.pk, bo.pk, cal.pk)
    assert not view.now.entry(cal.pk).in_the_room  # a call-in stays a call-in
    assert _last(row, pia) == ("removed", Reason.LIST_MOVED)
    assert _last(target, pia) == ("joined", Reason.LIST_MOVED)
    kinds = list(
        WaitlistEvent.objects.filter(waitlist=row, player=pia).values_list("kind", "reason")
    )
    assert ("withdrawn", Reason.LIMITS_CHANGED) in kinds  # the call ended first


def test_a_moved_list_goes_after_those_waiting_at_the_new_limits(clock, staff):
    old, new = _stakes_pair(), _stakes_pair()
    f, row = _table_and_list(staff, stakes=old)
    _g, other = _table_and_list(staff, stakes=new)
    (ann,) = _join(other, staff, 1)
    pia, both = _join(row, staff, 2)
    waitlists.join(waitlist_id=other.pk, player_id=both.pk, by=staff.supervisor)
    table = floor.change_table_options(
        table_id=f.table_id,
        by=staff.supervisor,
        changes={"minimum_cents": new[0], "maximum_cents": new[1]},
    )
    assert table.waitlist_moved[1] == other and table.waitlist_moved[2] == [pia.pk]
    assert waitlist_view(waitlist_id=other.pk).now.players == (ann.pk, both.pk, pia.pk)


def test_closing_the_last_table_keeps_its_list_and_ends_its_calls(clock, staff):
    f, row = _table_and_list(staff, layout="......")
    (pia,) = _join(row, staff, 1)
    waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=6, by=staff.supervisor)
    floor.mark_table_closed(table_id=f.table_id, by=staff.supervisor)
    assert _last(row, pia) == ("withdrawn", Reason.TABLE_CLOSED)
    view = waitlist_view(waitlist_id=row.pk)
    assert view.now.players == (pia.pk,) and view.tables == ()


def test_the_lists_refusals_name_players_by_name_never_by_id(clock, staff):
    f, row = _table_and_list(staff)
    pia = make_player(name="Pia Park")
    bo = make_player(name="Bo Bell")
    for player in (pia, bo):
        waitlists.join(waitlist_id=row.pk, player_id=player.pk, by=staff.supervisor)
    with pytest.raises(RuleError) as twice:
        waitlists.join(waitlist_id=row.pk, player_id=pia.pk, by=staff.supervisor)
    assert twice.value.message == "Pia Park is already on this list (number 1)"
    assert (twice.value.rule, twice.value.field) == (Rule.WAITLIST_ONCE, "player")
    with pytest.raises(RuleError) as out_of_turn:
        waitlists.call(
            waitlist_id=row.pk, table_id=f.table_id, seat=6, player_id=bo.pk, by=staff.supervisor
        )
    assert out_of_turn.value.message == "Pia Park is first to be called, not Bo Bell"
    with pytest.raises(StateError) as not_called:
        waitlists.withdraw(waitlist_id=row.pk, player_id=bo.pk, by=staff.supervisor)
    assert str(bo.pk) not in not_called.value.message
