"""Two staff members moving one round at the same instant (PostgreSQL row locks): "no more
bets" called twice, two rounds started at once.

Each race runs the same service call in two threads, each with its own database
connection, released together by a barrier: exactly one call succeeds, the other gets a
StateError naming why, and the database holds exactly one result. Every race is repeated
several times on fresh rows. (Offers, answers and seats: tests/tables/services/
test_concurrency.py.)
"""

from __future__ import annotations

from functools import partial

import pytest

from cardroom.errors import Rule, State, StateError
from rounds import services as rounds
from tables.models import Round, RoundTransition
from tests.builders.floor import give_button, open_floor, start_with_hands
from tests.concurrency import one_winner, race

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]

REPEATS = 8


def test_no_more_bets_called_twice_at_once(clock, staff):
    for _ in range(REPEATS):
        f = open_floor("PPP...", staff=staff)
        give_button(f.table_id, 1, by=staff.supervisor)
        round_, _ = start_with_hands(f.table_id, by=staff.dealer)
        outcomes = race(
            partial(rounds.close_wagering, round_id=round_.pk, by=staff.dealer),
            partial(rounds.close_wagering, round_id=round_.pk, by=staff.supervisor),
        )
        _, error = one_winner(outcomes, StateError)
        assert error.state == State.NO_MORE_BETS
        assert error.rule == Rule.ROUND_SEQUENCE
        round_.refresh_from_db()
        assert round_.state == State.NO_MORE_BETS
        assert list(
            RoundTransition.objects.filter(round=round_).values_list("from_state", "to_state")
        ) == [("", State.WAGERING), (State.WAGERING, State.NO_MORE_BETS)]


def test_two_rounds_started_at_once(clock, staff):
    for _ in range(REPEATS):
        f = open_floor("PPP...", staff=staff)
        accepted = give_button(f.table_id, 2, by=staff.supervisor)
        outcomes = race(
            partial(rounds.start_round, table_id=f.table_id, by=staff.dealer),
            partial(rounds.start_round, table_id=f.table_id, by=staff.supervisor),
        )
        started, error = one_winner(outcomes, StateError)
        assert isinstance(started, Round)
        assert error.state == State.WAGERING
        assert error.rule == Rule.ROUND_SEQUENCE
        assert list(Round.objects.filter(table=f.table).values_list("pk", "offer_round_id")) == [
            (started.pk, accepted.offer_round_id)
        ]
        assert RoundTransition.objects.filter(round__table=f.table).count() == 1
