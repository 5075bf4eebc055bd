"""The keep-button rule (docs/rules.md §8.4-§8.5): once an offer round for the next hand has
begun, the position is taken only by accepting an offer in it.

With "offer every hand" off, seat 1 banks a hand; an offer round then runs and seats 2, 3
and 1 all decline. No hand starts until a new offer round finds a player-dealer: keeping the
button is refused, and the table view says so and offers no keeping.
"""

from __future__ import annotations

import pytest

from cardroom.errors import Refused, Rule, State, StateError
from rounds import services as rounds
from tables.models import OfferRoundStatus
from tables.selectors import NO_PLAYER_DEALER_STATUS, button_state, table_floor
from tables.services import button
from tests.builders.floor import bank_and_play, open_floor

pytestmark = pytest.mark.django_db


def test_after_every_seat_declined_keeping_is_refused_and_no_hand_starts(staff, clock):
    floor_ = open_floor("PPP...", staff=staff, offer_every_hand=False)
    table_id, dealer = floor_.table_id, staff.dealer
    bank_and_play(floor_, 1)
    before = table_floor(table_id=table_id)
    assert before.button_state == State.OFFER_NEEDED and before.keeper_seat == 1

    for seat in (2, 3, 1):  # the offer round: everyone declines
        offer = button.offer_button(table_id=table_id, by=dealer)
        assert offer.seat == seat
        button.answer_offer(table_id=table_id, offer_id=offer.pk, accept=False, by=dealer)
    exhausted = button.offer_button(table_id=table_id, by=dealer)
    assert isinstance(exhausted, Refused)
    assert exhausted.error.state is State.NO_PLAYER_DEALER
    assert exhausted.error.rule is Rule.NO_PLAYER_DEALER

    floor_view = table_floor(table_id=table_id)
    assert floor_view.button_state == State.NO_PLAYER_DEALER
    assert floor_view.button_status == NO_PLAYER_DEALER_STATUS
    assert floor_view.keeper_seat is None
    assert floor_view.offer_round.status == OfferRoundStatus.EXHAUSTED

    with pytest.raises(StateError) as refused:
        button.keep_button(table_id=table_id, by=dealer)
    assert refused.value.state is State.OFFERS_REQUIRED
    assert refused.value.rule is Rule.KEEP
    with pytest.raises(StateError) as no_hand:
        rounds.start_round(table_id=table_id, by=dealer)
    assert no_hand.value.state is State.NO_PLAYER_DEALER

    # A new offer round finds a player-dealer: seat 2 accepts, and the hand starts.
    offer = button.offer_button(table_id=table_id, by=dealer)
    assert offer.seat == 2
    button.answer_offer(table_id=table_id, offer_id=offer.pk, accept=True, by=dealer)
    started = rounds.start_round(table_id=table_id, by=dealer)
    assert started.player_dealer_seat == 2


def test_keeping_is_refused_once_offers_have_begun_even_before_they_are_exhausted(staff, clock):
    floor_ = open_floor("PPP...", staff=staff, offer_every_hand=False)
    table_id, dealer = floor_.table_id, staff.dealer
    bank_and_play(floor_, 1)
    offer = button.offer_button(table_id=table_id, by=dealer)
    button.answer_offer(table_id=table_id, offer_id=offer.pk, accept=False, by=dealer)
    state = button_state(floor_.table)
    assert state.state is State.OFFERING and state.keeper is None and not state.may_keep
    with pytest.raises(StateError) as refused:
        button.keep_button(table_id=table_id, by=dealer)
    assert refused.value.state is State.OFFERS_REQUIRED


def test_before_any_offer_the_last_player_dealer_keeps_the_button(staff, clock):
    floor_ = open_floor("PPP...", staff=staff, offer_every_hand=False)
    bank_and_play(floor_, 1)
    kept = button.keep_button(table_id=floor_.table_id, by=staff.dealer)
    assert kept.seat == 1 and kept.offer_round.kept_without_offers
    started = rounds.start_round(table_id=floor_.table_id, by=staff.dealer)
    assert (started.player_dealer_seat, started.consecutive_count) == (1, 2)
