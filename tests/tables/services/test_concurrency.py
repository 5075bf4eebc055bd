"""Two staff members acting on the floor at the same instant (PostgreSQL row locks): offers,
answers and seats.

Each race runs the same service call in two threads, each with its own database
connection, released together by a barrier: exactly one call succeeds, the other gets a
StateError (or RuleError) naming why, and the database holds exactly one result. Every race
is repeated several times on fresh rows. (Rounds started or closed at once:
tests/rounds/services/test_round_concurrency.py.)
"""

from __future__ import annotations

from functools import partial

import pytest

from cardroom.errors import Rule, RuleError, State, StateError
from tables.models import ButtonOffer, OfferAnswer, OfferRound, OfferRoundStatus, Seating
from tables.services import button, floor
from tests.builders.floor import make_player, open_floor
from tests.concurrency import one_winner, race

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]

REPEATS = 8


@pytest.mark.parametrize(
    "answers", [(True, True), (True, False)], ids=["accept_twice", "accept_and_decline"]
)
def test_one_offer_answered_twice_at_once(answers, clock, staff):
    for _ in range(REPEATS):
        f = open_floor("PPP...", staff=staff)
        offer = button.offer_button(table_id=f.table_id, by=staff.supervisor)
        outcomes = race(
            *(
                partial(
                    button.answer_offer,
                    table_id=f.table_id,
                    offer_id=offer.pk,
                    accept=accept,
                    by=staff.dealer,
                )
                for accept in answers
            )
        )
        winner, error = one_winner(outcomes, StateError)
        assert error.rule == Rule.OFFER_ROUND
        if winner.answer == OfferAnswer.ACCEPTED:  # the acceptance closed the offer round
            assert error.state == State.OFFER_ROUND_CLOSED
            assert error.message == (
                "this offer round is accepted; the offer can no longer be answered"
            )
        else:
            assert error.state == State.OFFER_ANSWERED
            assert error.message == f"this offer was already {winner.answer}"
        offer.refresh_from_db()
        assert offer.answer == winner.answer
        offer_round = OfferRound.objects.get(pk=offer.offer_round_id)
        accepted = offer_round.offers.filter(answer=OfferAnswer.ACCEPTED).count()
        if winner.answer == OfferAnswer.ACCEPTED:
            assert (offer_round.status, accepted) == (OfferRoundStatus.ACCEPTED, 1)
        else:
            assert (offer_round.status, accepted) == (OfferRoundStatus.OPEN, 0)


def test_two_offers_at_once(clock, staff):
    for _ in range(REPEATS):
        f = open_floor("PPP...", staff=staff)
        outcomes = race(
            partial(button.offer_button, table_id=f.table_id, by=staff.dealer),
            partial(button.offer_button, table_id=f.table_id, by=staff.supervisor),
        )
        offer, error = one_winner(outcomes, StateError)
        assert isinstance(offer, ButtonOffer)
        assert error.state == State.OFFER_PENDING
        assert error.rule == Rule.OFFER_ROUND
        assert OfferRound.objects.filter(table=f.table).count() == 1
        assert list(
            ButtonOffer.objects.filter(offer_round__table=f.table).values_list("pk", "seat")
        ) == [(offer.pk, 1)]


def test_two_players_into_one_seat_at_once(clock, staff):
    for _ in range(REPEATS):
        f = open_floor("P.....", staff=staff)
        newcomers = [make_player(), make_player()]
        outcomes = race(
            *(
                partial(
                    floor.seat_player, table_id=f.table_id, seat=3, player_id=p.pk, by=staff.dealer
                )
                for p in newcomers
            )
        )
        seating, error = one_winner(outcomes, RuleError)
        assert error.field == "seat"
        assert error.rule == Rule.SEATS
        assert list(
            Seating.objects.filter(table=f.table, seat=3).values_list("pk", "player_id")
        ) == [(seating.pk, seating.player_id)]


def test_one_player_seated_at_two_tables_at_once(clock, staff):
    """Two tables, two table locks: the unique seating constraint decides, as a RuleError."""
    for _ in range(REPEATS):
        tables = [open_floor("P.....", staff=staff), open_floor("P.....", staff=staff)]
        player = make_player()
        outcomes = race(
            *(
                partial(
                    floor.seat_player,
                    table_id=t.table_id,
                    seat=4,
                    player_id=player.pk,
                    by=staff.dealer,
                )
                for t in tables
            )
        )
        seating, error = one_winner(outcomes, RuleError)
        assert (error.field, error.rule) in (
            ("seat", Rule.SEATS),
            ("player", Rule.ONE_SEAT_PER_PLAYER),
        )
        assert list(
            Seating.objects.filter(player=player, left_at__isnull=True).values_list("pk", flat=True)
        ) == [seating.pk]
