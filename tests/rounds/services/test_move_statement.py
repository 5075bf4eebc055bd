"""A round's move (rounds.services._move) is one statement on PostgreSQL (rounds.sql.move),
a plain-SQL hot-path writer: it writes exactly the transition row and the round's fields the
ORM's two statements write."""

from __future__ import annotations

import random

import pytest
from django.db import transaction
from django.forms.models import model_to_dict

from cardroom.errors import State
from rounds import services as rounds
from rounds import sql as rounds_sql
from tables.models import Round, RoundTransition
from tests.builders.floor import give_button, open_floor, play_round

pytestmark = [pytest.mark.django_db, pytest.mark.requires_postgres]


def _written(round_id: int, write, to_state: State, fields: dict, by, moment) -> tuple:
    """What ``write`` stores for a move to ``to_state`` setting ``fields``: the new transition
    and the round, read back, and then rolled back."""
    with transaction.atomic():
        round_ = Round.objects.get(pk=round_id)
        from_state = round_.state
        round_.state = to_state
        for name, value in fields.items():
            setattr(round_, name, value)
        if to_state in (State.SETTLED, State.VOIDED):
            round_.ended_at = moment
        write(round_, from_state, by, moment, ["state", "ended_at", *fields])
        last = RoundTransition.objects.filter(round_id=round_id).latest("id")
        stored = (
            {k: v for k, v in model_to_dict(last).items() if k != "id"},
            model_to_dict(Round.objects.get(pk=round_id)),
        )
        transaction.set_rollback(True)
    return stored


@pytest.mark.parametrize(
    ("until", "to_state", "fields"),
    [
        (State.PREFLOP, State.FLOP, {"board": ["Ah", "Kd", "2c"]}),
        (State.RIVER, State.SHOWDOWN, {"dealer_category": "flush", "dealer_qualifies": True}),
        (State.SHOWDOWN, State.SETTLED, {}),
        (State.FLOP, State.VOIDED, {"void_reason": "two cards exposed: a misdeal"}),
    ],
)
def test_the_one_statement_move_writes_what_the_orm_writes(staff, clock, until, to_state, fields):
    open_ = open_floor(staff=staff)
    give_button(open_.table_id, 1, by=staff.supervisor)
    round_ = play_round(open_.table_id, by=staff.dealer, until=until, rng=random.Random(4))
    moment = clock.advance(seconds=30)
    orm = _written(round_.pk, rounds._move_with_orm, to_state, fields, staff.dealer, moment)
    sql = _written(round_.pk, rounds_sql.move, to_state, fields, staff.dealer, moment)
    assert sql == orm
    assert orm[0]["to_state"] == to_state and orm[1]["state"] == to_state
