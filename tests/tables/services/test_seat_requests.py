"""Must-move tables and table changes through the services (docs/rules.md §3.6): who is
offered an open seat before the list, the move, the passes, the refusals and how each ends."""

from __future__ import annotations

import itertools

import pytest
from django.db import IntegrityError, connection, transaction

from cardroom.errors import Rule, RuleError, State, StateError
from tables.models import MustMove, Seating, SeatPass, TableChange
from tables.rules.seat_requests import End, Line
from tables.selectors import seat_requests as lines
from tables.services import floor, seat_requests, waitlists
from tests.builders.floor import make_player, open_floor
from wagers.services.leaving import leave_seat

pytestmark = pytest.mark.django_db

_stakes = itertools.count(8001)


def _stakes_pair():
    low = 100 * next(_stakes)
    return {"minimum_cents": low, "maximum_cents": low * 100}


def _tables(staff, *layouts, stakes=None):
    stakes = stakes or _stakes_pair()
    return [open_floor(layout, staff=staff, open_game=False, **stakes) for layout in layouts]


def _seat(f, seat):
    return Seating.objects.get(table_id=f.table_id, seat=seat, left_at__isnull=True).player


def _move(f, seat, to, to_seat, staff):
    return leave_seat(
        table_id=f.table_id,
        seat=seat,
        by=staff.dealer,
        chips="carry",
        to_table_id=to.table_id,
        to_seat=to_seat,
    )


def test_a_must_move_table_feeds_its_main_game_first_come_first_moved(clock, staff):
    main, must = _tables(staff, "PPPPP.", "......")
    # Players sit down at the must-move table in this order.
    arrivals = [make_player() for _ in range(3)]
    for seat, player in zip((4, 1, 2), arrivals, strict=True):
        clock.advance(minutes=1)
        floor.seat_player(
            table_id=must.table_id, seat=seat, player_id=player.pk, by=staff.supervisor
        )
    link = seat_requests.start_must_move(
        table_id=must.table_id, main_table_id=main.table_id, by=staff.supervisor
    )
    offer = lines().offered(main.table_id, 6)
    assert [m.player for m in offer.movers] == [p.pk for p in arrivals]
    assert {m.line for m in offer.movers} == {Line.MUST_MOVE}
    # The list cannot call to that seat: it goes to the must-move line first.
    row = waitlists.open_waitlist(
        minimum_cents=main.table.minimum_cents,
        maximum_cents=main.table.maximum_cents,
        by=staff.supervisor,
    )
    waitlists.join(waitlist_id=row.pk, player_id=make_player().pk, by=staff.supervisor)
    with pytest.raises(StateError) as refused:
        waitlists.call(waitlist_id=row.pk, table_id=main.table_id, seat=6, by=staff.supervisor)
    assert (refused.value.state, refused.value.rule) == (State.SEAT_OFFERED, Rule.MUST_MOVE)
    assert arrivals[0].name in refused.value.message
    # The first to arrive moves, with their chips.
    _move(must, 4, main, 6, staff)
    assert _seat(main, 6) == arrivals[0]
    assert lines().offered(main.table_id, 6) is None  # the main game is full
    floor.unseat_player(table_id=main.table_id, seat=1, by=staff.supervisor)
    assert lines().offered(main.table_id, 1).first.player == arrivals[1].pk
    assert MustMove.objects.get(pk=link.pk).ended_at is None


def test_a_pass_gives_the_seat_to_the_next_then_to_the_list(clock, staff):
    main, must = _tables(staff, "PPPPP.", "PP....")
    seat_requests.start_must_move(
        table_id=must.table_id, main_table_id=main.table_id, by=staff.supervisor
    )
    first, second = _seat(must, 1), _seat(must, 2)
    with pytest.raises(StateError) as refused:  # only the first offered passes
        seat_requests.pass_seat(
            table_id=main.table_id, seat=6, player_id=second.pk, by=staff.supervisor
        )
    assert refused.value.state is State.SEAT_OFFERED and first.name in refused.value.message
    seat_requests.pass_seat(table_id=main.table_id, seat=6, player_id=first.pk, by=staff.supervisor)
    assert lines().offered(main.table_id, 6).first.player == second.pk
    seat_requests.pass_seat(
        table_id=main.table_id, seat=6, player_id=second.pk, by=staff.supervisor
    )
    assert lines().offered(main.table_id, 6) is None
    row = waitlists.open_waitlist(
        minimum_cents=main.table.minimum_cents,
        maximum_cents=main.table.maximum_cents,
        by=staff.supervisor,
    )
    waiting = make_player()
    waitlists.join(waitlist_id=row.pk, player_id=waiting.pk, by=staff.supervisor)
    called = waitlists.call(waitlist_id=row.pk, table_id=main.table_id, seat=6, by=staff.supervisor)
    assert called.player_id == waiting.pk
    assert SeatPass.objects.filter(table_id=main.table_id, seat=6).count() == 2
    # A pass holds for that opening only: the seat's next opening offers them again.
    waitlists.answer(waitlist_id=row.pk, player_id=waiting.pk, by=staff.supervisor, take=True)
    clock.advance(minutes=1)
    floor.unseat_player(table_id=main.table_id, seat=6, by=staff.supervisor)
    assert lines().offered(main.table_id, 6).first.player == first.pk


def test_a_table_change_is_offered_after_the_must_move_line_and_ends_when_moved(clock, staff):
    main, must, other = _tables(staff, "PPPPP.", "P.....", "PPP...")
    seat_requests.start_must_move(
        table_id=must.table_id, main_table_id=main.table_id, by=staff.supervisor
    )
    changer = _seat(other, 2)
    change = seat_requests.ask_table_change(
        player_id=changer.pk, to_table_id=main.table_id, by=staff.supervisor
    )
    offer = lines().offered(main.table_id, 6)
    assert [(m.player, m.line) for m in offer.movers] == [
        (_seat(must, 1).pk, Line.MUST_MOVE),
        (changer.pk, Line.TABLE_CHANGE),
    ]
    seat_requests.pass_seat(
        table_id=main.table_id, seat=6, player_id=_seat(must, 1).pk, by=staff.supervisor
    )
    left = _move(other, 2, main, 6, staff)
    change.refresh_from_db()
    assert (change.end, change.moved_to) == (End.MOVED, left.next_seating)
    assert change.ended_by == staff.dealer


def test_a_table_change_to_any_table_of_the_stakes(clock, staff):
    a, b, c = _tables(staff, "PPPPPP", "PPPPP.", "PPPP..")
    changer = _seat(a, 3)
    seat_requests.ask_table_change(player_id=changer.pk, by=staff.supervisor)
    requests = lines()
    assert requests.offered(b.table_id, 6).first.player == changer.pk
    assert requests.offered(c.table_id, 5).first.player == changer.pk
    # Other stakes are not offered to them.
    (d,) = _tables(staff, "PPPPP.")
    assert lines().offered(d.table_id, 6) is None


def test_a_player_who_leaves_without_moving_ends_their_table_change(clock, staff):
    a, b = _tables(staff, "PPPPPP", "PPPPP.")
    changer = _seat(a, 1)
    change = seat_requests.ask_table_change(player_id=changer.pk, by=staff.supervisor)
    leave_seat(table_id=a.table_id, seat=1, by=staff.dealer, chips="cash_out")
    change.refresh_from_db()
    assert change.end == End.LEFT
    assert lines().offered(b.table_id, 6) is None


def test_cancel_a_table_change(clock, staff):
    a, _b = _tables(staff, "PPPPPP", "PPPPP.")
    change = seat_requests.ask_table_change(player_id=_seat(a, 1).pk, by=staff.supervisor)
    seat_requests.cancel_table_change(table_change_id=change.pk, by=staff.supervisor)
    change.refresh_from_db()
    assert change.end == End.CANCELLED
    with pytest.raises(StateError) as again:
        seat_requests.cancel_table_change(table_change_id=change.pk, by=staff.supervisor)
    assert again.value.state is State.ALREADY_RECORDED


def test_table_change_refusals(clock, staff):
    a, b = _tables(staff, "PPPPPP", "PPPPP.")
    (other_stakes,) = _tables(staff, "P.....")
    seated = _seat(a, 1)
    cases = [
        (dict(player_id=make_player().pk), Rule.TABLE_CHANGE, "player"),  # not seated
        (dict(player_id=seated.pk, to_table_id=a.table_id), Rule.TABLE_CHANGE, "to_table"),
        (
            dict(player_id=seated.pk, to_table_id=other_stakes.table_id),
            Rule.TABLE_CHANGE,
            "to_table",
        ),
    ]
    for kwargs, rule, field in cases:
        with pytest.raises(RuleError) as refused:
            seat_requests.ask_table_change(by=staff.supervisor, **kwargs)
        assert (refused.value.rule, refused.value.field) == (rule, field)
    seat_requests.ask_table_change(player_id=seated.pk, to_table_id=b.table_id, by=staff.supervisor)
    with pytest.raises(StateError) as twice:
        seat_requests.ask_table_change(player_id=seated.pk, by=staff.supervisor)
    assert (twice.value.state, twice.value.rule) == (State.ALREADY_RECORDED, Rule.TABLE_CHANGE)
    assert TableChange.objects.filter(player=seated).count() == 1


def test_must_move_refusals(clock, staff):
    main, must, third = _tables(staff, "PPPPP.", "P.....", "P.....")
    (other_stakes,) = _tables(staff, "P.....")
    for table, main_table, field in [
        (must, must, "main_table"),
        (must, other_stakes, "main_table"),
    ]:
        with pytest.raises(RuleError) as refused:
            seat_requests.start_must_move(
                table_id=table.table_id, main_table_id=main_table.table_id, by=staff.supervisor
            )
        assert (refused.value.rule, refused.value.field) == (Rule.MUST_MOVE, field)
    seat_requests.start_must_move(
        table_id=must.table_id, main_table_id=main.table_id, by=staff.supervisor
    )
    with pytest.raises(StateError) as twice:  # one must-move table per main game
        seat_requests.start_must_move(
            table_id=third.table_id, main_table_id=main.table_id, by=staff.supervisor
        )
    assert twice.value.state is State.ALREADY_RECORDED
    with pytest.raises(RuleError) as chain:  # no chain: the main game is a must-move
        seat_requests.start_must_move(
            table_id=third.table_id, main_table_id=must.table_id, by=staff.supervisor
        )
    assert (chain.value.rule, chain.value.field) == (Rule.MUST_MOVE, "main_table")


def test_closing_or_changing_limits_ends_the_links_and_changes(clock, staff):
    main, must, other = _tables(staff, "PPPPP.", "P.....", "PP....")
    link = seat_requests.start_must_move(
        table_id=must.table_id, main_table_id=main.table_id, by=staff.supervisor
    )
    change = seat_requests.ask_table_change(
        player_id=_seat(other, 1).pk, to_table_id=main.table_id, by=staff.supervisor
    )
    floor.change_table_options(
        table_id=main.table_id,
        by=staff.supervisor,
        changes={"minimum_cents": main.table.minimum_cents + 100},
    )
    link.refresh_from_db()
    change.refresh_from_db()
    assert (link.end, change.end) == (End.LIMITS_CHANGED, End.LIMITS_CHANGED)
    link = seat_requests.start_must_move(
        table_id=must.table_id, main_table_id=other.table_id, by=staff.supervisor
    )
    leave_seat(table_id=must.table_id, seat=1, by=staff.dealer, chips="cash_out")
    floor.mark_table_closed(table_id=must.table_id, by=staff.supervisor)
    link.refresh_from_db()
    assert link.end == End.TABLE_CLOSED
    with pytest.raises(StateError) as ended:
        seat_requests.end_must_move(must_move_id=link.pk, by=staff.supervisor)
    assert ended.value.state is State.ALREADY_RECORDED


def _refused(edit, words: str) -> None:
    with pytest.raises(IntegrityError, match=words), transaction.atomic():
        edit()


def _delete(table: str, pk: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {table} WHERE id = %s", [pk])


@pytest.mark.requires_postgres
def test_the_database_lets_a_must_move_link_change_only_to_end_once(clock, staff):
    """History is never edited (docs/rules.md §10.1): a must-move link changes once, when
    it ends (who, when, why); PostgreSQL refuses every other UPDATE and every DELETE."""
    main, must, other = _tables(staff, "PPPPP.", "P.....", "P.....")
    link = seat_requests.start_must_move(
        table_id=must.table_id, main_table_id=main.table_id, by=staff.supervisor
    )
    rows = MustMove.objects.filter(pk=link.pk)
    _refused(lambda: rows.update(main_table_id=other.table_id), "but to end it")
    _refused(lambda: rows.update(ended_by=staff.dealer), "but to end it")
    _refused(
        lambda: rows.update(ended_at=clock.now(), end=End.ENDED, started_by=staff.dealer),
        "ending it sets only ended_at, ended_by_id, end",
    )
    _refused(lambda: _delete("tables_mustmove", link.pk), "cannot be changed")
    clock.advance(minutes=5)
    seat_requests.end_must_move(must_move_id=link.pk, by=staff.supervisor)
    for edit in (
        lambda: rows.update(end=End.CANCELLED),
        lambda: rows.update(ended_at=clock.now()),
        lambda: rows.update(ended_by=staff.dealer),
        lambda: rows.update(ended_at=None, ended_by=None, end=""),  # reopened
        lambda: _delete("tables_mustmove", link.pk),
    ):
        _refused(edit, "cannot be changed")
    assert rows.values_list("main_table_id", "ended_by", "end").get() == (
        main.table_id,
        staff.supervisor.pk,
        End.ENDED,
    )


@pytest.mark.requires_postgres
def test_the_database_lets_a_table_change_change_only_to_end_once(clock, staff):
    main, other = _tables(staff, "PPPPP.", "PPP...")
    change = seat_requests.ask_table_change(
        player_id=_seat(other, 2).pk, to_table_id=main.table_id, by=staff.supervisor
    )
    rows = TableChange.objects.filter(pk=change.pk)
    somewhere = Seating.objects.filter(table_id=other.table_id, seat=1).get()
    _refused(lambda: rows.update(moved_to=somewhere), "but to end it")
    _refused(lambda: rows.update(to_table=None), "but to end it")
    _refused(
        lambda: rows.update(ended_at=clock.now(), end=End.MOVED, minimum_cents=1),
        "ending it sets only ended_at, ended_by_id, end, moved_to_id",
    )
    _refused(lambda: _delete("tables_tablechange", change.pk), "cannot be changed")
    left = _move(other, 2, main, 6, staff)  # the service ends it: moved, in one UPDATE
    for edit in (
        lambda: rows.update(moved_to=somewhere),
        lambda: rows.update(end=End.CANCELLED),
        lambda: rows.update(ended_at=None),
        lambda: _delete("tables_tablechange", change.pk),
    ):
        _refused(edit, "cannot be changed")
    assert rows.values_list("end", "moved_to", "ended_by").get() == (
        End.MOVED,
        left.next_seating.pk,
        staff.dealer.pk,
    )


@pytest.mark.requires_postgres
def test_the_database_refuses_to_edit_or_delete_a_seat_pass(clock, staff):
    main, must = _tables(staff, "PPPPP.", "PP....")
    seat_requests.start_must_move(
        table_id=must.table_id, main_table_id=main.table_id, by=staff.supervisor
    )
    first = _seat(must, 1)
    passed = seat_requests.pass_seat(
        table_id=main.table_id, seat=6, player_id=first.pk, by=staff.supervisor
    )
    rows = SeatPass.objects.filter(pk=passed.pk)
    for edit in (
        lambda: rows.update(player=_seat(must, 2)),
        lambda: rows.update(at=clock.now()),
        lambda: _delete("tables_seatpass", passed.pk),
    ):
        _refused(edit, "cannot be changed")
    assert rows.values_list("player", "seat").get() == (first.pk, 6)
