"""Floor sessions the rotation state machine (test_rotation_stateful.py) once flagged, replayed
step by step with the services and the button's selector, no Hypothesis.

Each offer here is made as the floor's reading says it will go (``tables.selectors.
button_state``'s ``NextOffer``): the seats passed over, each with its rule, then the seat
offered, or no one left. What the offer recorded is told apart from what earlier offers of
the same offer round recorded by the rows it added, never by their time: the clock is frozen
between steps, so an earlier offer of the round can carry the very same moment.
"""

from __future__ import annotations

import random

import pytest
from django.db import connection

from cardroom.errors import Refused, State
from rounds import services as rounds
from tables.models import ButtonOffer, OfferAnswer, OfferRoundStatus, Round, Table
from tables.selectors import ButtonState, button_state
from tables.services import button, floor
from tests.builders.floor import (
    ANTE,
    BANK,
    FOLD,
    PLAY_FLOP,
    PLAY_RIVER,
    advance,
    audit_table,
    ensure_chips,
    make_player,
    unique,
)
from tests.tables.selectors.test_button_reads import check
from wagers.services import wagering
from wagers.services.wagering import BetRequest

pytestmark = pytest.mark.django_db

TPPP_TWICE = (
    "seat 4 is a TPPP and a TPPP banked the last hand: the next hand is banked by another "
    "player (rule: no TPPP twice in a row, docs/rules.md §8.11)"
)
ONE_HAND = (
    "seat 3 has banked 1 consecutive hand, the most this table allows "
    "(rule: at most two hands in a row, docs/rules.md §8.2)"
)


def offer_as_said(table_id: int, *, by) -> tuple[ButtonState, ButtonOffer | Refused]:
    """Offer the button, first reading what the floor says the offer will do: the offer
    must record exactly that (the rows it adds, whatever their time)."""
    if connection.vendor == "postgresql":  # the one-statement read is the ORM's read
        check(table_id)
    said = button_state(Table.objects.get(pk=table_id))
    assert said.may_offer, said.status
    plan = said.next_offer
    offers = ButtonOffer.objects.filter(offer_round__table_id=table_id)
    before = set(offers.values_list("pk", flat=True))
    answer = button.offer_button(table_id=table_id, by=by)
    expected = [(s.seat, OfferAnswer.INELIGIBLE, str(breach)) for s, breach in plan.passed_over]
    if plan.seating is None:
        assert isinstance(answer, Refused) and answer.error.state == State.NO_PLAYER_DEALER
    else:
        assert isinstance(answer, ButtonOffer) and answer.seat == plan.seating.seat
        expected.append((plan.seating.seat, OfferAnswer.PENDING, ""))
    added = offers.exclude(pk__in=before).order_by("id").values_list("seat", "answer", "reason")
    assert list(added) == expected
    return said, answer


def offered_seats(table_id: int, *, by, taker: int | None) -> list[tuple[int, str]]:
    """The machine's "bank" step: offers as said, every seat offered declining until
    ``taker`` is offered (it accepts) or no one is left; each offer round's answers."""
    for _ in range(7):
        _, offer = offer_as_said(table_id, by=by)
        if isinstance(offer, Refused):
            break
        accept = offer.seat == taker
        button.answer_offer(table_id=table_id, offer_id=offer.pk, accept=accept, by=by)
        if accept:
            break
    offer_round = Table.objects.get(pk=table_id).offer_rounds.order_by("-id").first()
    return list(offer_round.offers.order_by("id").values_list("seat", "answer"))


def test_a_tppp_passed_over_earlier_in_the_open_offer_round_at_the_same_moment(staff, clock):
    """The sequence the state machine flagged at d85ae2b (its "the floor says what the
    services allow" check), replayed: a TPPP banked the last hand, so the TPPP at seat 4 is
    passed over when the offer round begins, and seat 6 declines. Still at that moment, the
    floor says the next offer goes to seat 1 passing no one over (seat 4 was already passed
    over in this offer round) and the offer does exactly that. The machine's check took the
    seat-4 row, recorded at the same moment by the earlier offer, for one of this offer's:
    a flaw of the check, not of the floor."""
    supervisor, dealer = staff.supervisor, staff.dealer
    patrons = [make_player() for _ in range(3)]
    tppps = [make_player(tppp=True) for _ in range(2)]
    policy = {
        "offer_every_hand": True,
        "rotation_window_minutes": None,
        "tppp_may_bank_twice_in_a_row": False,
        "min_non_tppp_dealers_in_window": 1,
        "max_consecutive_hands": 1,
        "max_tppp_per_table": None,
    }
    table = floor.create_table(name=unique("UTH-SM"), by=supervisor, options=policy)
    table_id = table.pk
    for seat, player in zip([3, 6, 1, 2], [tppps[0], *patrons], strict=True):
        floor.seat_player(table_id=table_id, seat=seat, player_id=player.pk, by=supervisor)
    floor.open_game_at(table_id=table_id, first_offer_seat=4, by=supervisor)

    # 18:02:47 The TPPP at seat 3 banks the first hand, seats 1, 2 and 6 play it out.
    clock.advance(minutes=2, seconds=47)
    D, A, I = OfferAnswer.DECLINED, OfferAnswer.ACCEPTED, OfferAnswer.INELIGIBLE  # noqa: E741
    assert offered_seats(table_id, by=supervisor, taker=3) == [(6, D), (1, D), (2, D), (3, A)]
    round_ = rounds.start_round(table_id=table_id, by=dealer)
    assert isinstance(round_, Round) and round_.player_dealer_is_tppp
    ensure_chips(table_id, round_.player_dealer, BANK, by=dealer)
    rounds.post_bank(round_id=round_.pk, amount=BANK, by=dealer)
    players = {1: patrons[1], 2: patrons[2], 6: patrons[0]}
    for player in players.values():
        ensure_chips(table_id, player, 10 * ANTE, by=dealer)
    wagering.place_bets(
        round_id=round_.pk, bets=[BetRequest(s, ANTE, ANTE) for s in players], by=dealer
    )
    plans = {1: FOLD, 2: PLAY_RIVER, 6: PLAY_FLOP}
    round_ = advance(round_, State.SETTLED, by=dealer, plans=plans, rng=random.Random(293))
    assert round_.state == State.SETTLED
    floor.unseat_player(table_id=table_id, seat=2, by=dealer)

    # 18:51:53 The second TPPP sits at seat 4.
    clock.advance(minutes=49, seconds=6)
    floor.seat_player(table_id=table_id, seat=4, player_id=tppps[1].pk, by=supervisor)

    # 19:08:10 and 19:28:38 Two offer rounds run out: seat 4 (a TPPP after a TPPP) and
    # seat 3 (one hand in a row is the most) passed over, seats 6 and 1 decline.
    for minutes, seconds in ((16, 17), (20, 28)):
        clock.advance(minutes=minutes, seconds=seconds)
        assert offered_seats(table_id, by=supervisor, taker=3) == [(4, I), (6, D), (1, D), (3, I)]
        said = button_state(Table.objects.get(pk=table_id))
        assert said.state is State.NO_PLAYER_DEALER
        assert said.offer_round.status == OfferRoundStatus.EXHAUSTED
        passed = said.offer_round.offers.filter(answer=I).order_by("id")
        assert list(passed.values_list("seat", "reason")) == [(4, TPPP_TWICE), (3, ONE_HAND)]

    # 20:35:15 A new offer round: seat 4 passed over, seat 6 offered; it declines.
    clock.advance(minutes=66, seconds=37)
    said, offer = offer_as_said(table_id, by=supervisor)
    assert [(s.seat, str(breach)) for s, breach in said.next_offer.passed_over] == [(4, TPPP_TWICE)]
    assert offer.seat == 6
    button.answer_offer(table_id=table_id, offer_id=offer.pk, accept=False, by=dealer)

    # Still 20:35:15: the floor says seat 1 is next, no one passed over (seat 4 already was,
    # in this offer round); the offer records exactly that, one row.
    said = button_state(Table.objects.get(pk=table_id))
    assert said.state is State.OFFERING
    assert said.history[-1].is_tppp and said.history[-1].seat == 3
    assert said.next_offer.start_seat == 4
    assert said.next_offer.passed_over == ()
    assert said.next_offer.seating.seat == 1
    # What the machine's check misread: this offer round already holds, at this very moment,
    # seat 4's pass-over, recorded by the offer before.
    offer_round = said.offer_round
    assert list(
        offer_round.offers.filter(answer=I, offered_at=clock.now()).values_list("seat", "reason")
    ) == [(4, TPPP_TWICE)]
    _, offer = offer_as_said(table_id, by=supervisor)
    assert offer.seat == 1 and offer.offer_round_id == offer_round.pk
    assert list(offer_round.offers.order_by("id").values_list("seat", "answer")) == [
        (4, I),
        (6, D),
        (1, OfferAnswer.PENDING),
    ]
    assert audit_table(table_id) == []
