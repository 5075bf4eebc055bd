"""Two supervisors on the same lists at the same instant (PostgreSQL row locks, real commits).

Each race is repeated on fresh rows: exactly one call wins, the other gets a 409 naming the
state, and the lists hold exactly one call or one seating.
"""

from __future__ import annotations

import itertools
from functools import partial

import pytest

from cardroom.errors import State, StateError
from tables.models import Seating, WaitlistEvent
from tables.services import waitlists
from tests.builders.floor import make_player, make_staff, open_floor
from tests.concurrency import one_winner, race

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]

REPEATS = 6
_stakes = itertools.count(1)


def _table_and_list(staff):
    low = 100 * next(_stakes)
    f = open_floor("PPPP..", staff=staff, minimum_cents=low, maximum_cents=low * 100)
    row = waitlists.open_waitlist(minimum_cents=low, maximum_cents=low * 100, by=staff.supervisor)
    return f, row


def test_two_supervisors_call_for_the_same_open_seat(clock, staff):
    other = make_staff().supervisor
    for _ in range(REPEATS):
        f, row = _table_and_list(staff)
        for _ in range(2):
            waitlists.join(waitlist_id=row.pk, player_id=make_player().pk, by=staff.supervisor)
        outcomes = race(
            *(
                partial(waitlists.call, waitlist_id=row.pk, table_id=f.table_id, seat=5, by=by)
                for by in (staff.supervisor, other)
            )
        )
        _, refused = one_winner(outcomes, StateError)
        assert refused.state == State.CALLED
        assert WaitlistEvent.objects.filter(waitlist=row, kind="called").count() == 1


def test_one_player_called_from_two_lists_at_once(clock, staff):
    """The player is on two lists and each list's supervisor calls at the same instant: one
    call is recorded; the other list has nobody else to call (409)."""
    other = make_staff().supervisor
    for _ in range(REPEATS):
        f, first = _table_and_list(staff)
        g, second = _table_and_list(staff)
        player = make_player()
        for row in (first, second):
            waitlists.join(waitlist_id=row.pk, player_id=player.pk, by=staff.supervisor)
        outcomes = race(
            *(
                partial(waitlists.call, waitlist_id=row.pk, table_id=t.table_id, seat=6, by=by)
                for row, t, by in ((first, f, staff.supervisor), (second, g, other))
            )
        )
        _, refused = one_winner(outcomes, StateError)
        assert refused.state == State.NOBODY_TO_CALL
        calls = WaitlistEvent.objects.filter(waitlist__in=(first, second), kind="called")
        assert calls.count() == 1


def test_a_player_seated_from_two_lists_at_once(clock, staff):
    """The player, called on one list, takes the seat while the floor seats them from the
    other list's table: one seating, the other refused, and both lists record it once."""
    other = make_staff().supervisor
    for _ in range(REPEATS):
        f, first = _table_and_list(staff)
        g, second = _table_and_list(staff)
        player = make_player()
        for row in (first, second):
            waitlists.join(waitlist_id=row.pk, player_id=player.pk, by=staff.supervisor)
        waitlists.call(waitlist_id=first.pk, table_id=f.table_id, seat=6, by=staff.supervisor)
        outcomes = race(
            partial(
                waitlists.answer,
                waitlist_id=first.pk,
                player_id=player.pk,
                by=staff.supervisor,
                take=True,
            ),
            partial(
                waitlists.call,
                waitlist_id=second.pk,
                table_id=g.table_id,
                seat=6,
                by=other,
                player_id=player.pk,
            ),
        )
        errors = [o.error for o in outcomes if o.error is not None]
        assert len(errors) == 1, outcomes
        # Seated first: the player is off the other list (409). Called first on the other
        # list: impossible, they are being called here (409).
        assert isinstance(errors[0], StateError) and errors[0].state in (
            State.NOT_LISTED,
            State.CALLED,
        ), errors
        assert Seating.objects.filter(player=player, left_at__isnull=True).count() == 1
        for row in (first, second):
            assert WaitlistEvent.objects.filter(waitlist=row, kind="seated").count() == 1
