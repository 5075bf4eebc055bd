"""The player-dealer button: offers, answers, keeping it, the offer-round record."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from cardroom.errors import Rule, State
from rounds import services as rounds
from tables.models import ButtonOffer, OfferAnswer, OfferRound, OfferRoundStatus, Round
from tables.selectors import NO_PLAYER_DEALER_STATUS
from tables.services import button, floor

pytestmark = pytest.mark.django_db

ISO_MICROSECONDS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}(Z|[+-]\d\d:\d\d)$")


def offer_url(table):
    return f"/api/tables/{table.pk}/button/offer/"


def answer_url(table, offer_id):
    return f"/api/tables/{table.pk}/button/offers/{offer_id}/answer/"


def test_offer_goes_to_the_named_seat_first(as_dealer, on_floor):
    table = on_floor.ready_table(first_offer_seat=3)
    response = as_dealer.post(offer_url(table))
    assert response.status_code == 201, response.data
    data = response.data
    assert data["seat"] == 3
    assert data["answer"] == "pending"
    assert data["offered_by"] == "dealer"
    assert data["answered_at"] is None
    assert data["answered_by"] is None
    assert ISO_MICROSECONDS.match(data["offered_at"])
    assert OfferRound.objects.get(pk=data["offer_round"]).start_seat == 3


def test_timestamps_always_carry_microseconds(as_dealer, on_floor, clock):
    table = on_floor.ready_table()
    clock.set(datetime(2026, 4, 2, 18, 30, 0, 0, tzinfo=UTC))
    response = as_dealer.post(offer_url(table))
    assert response.data["offered_at"] == "2026-04-02T11:30:00.000000-07:00"  # Pacific time


def test_offer_while_an_offer_is_pending_is_409(as_dealer, on_floor):
    table = on_floor.ready_table()
    as_dealer.post(offer_url(table))
    response = as_dealer.post(offer_url(table))
    assert response.status_code == 409
    assert response.data["code"] == State.OFFER_PENDING
    assert response.data["rule"] == Rule.OFFER_ROUND
    assert response.data["message"] == "seat 1 has not yet answered the offer"
    assert ButtonOffer.objects.count() == 1


def test_accept(as_dealer, on_floor, dealer):
    table = on_floor.ready_table()
    offer = button.offer_button(table_id=table.pk, by=dealer)
    response = as_dealer.post(answer_url(table, offer.pk), {"accept": True}, format="json")
    assert response.status_code == 200, response.data
    assert response.data["answer"] == "accepted"
    assert response.data["answered_by"] == "dealer"
    assert ISO_MICROSECONDS.match(response.data["answered_at"])
    assert OfferRound.objects.get().status == OfferRoundStatus.ACCEPTED
    again = as_dealer.post(offer_url(table))
    assert again.status_code == 409
    assert again.data["code"] == State.ACCEPTED
    assert again.data["rule"] == Rule.OFFER_ROUND
    assert (
        again.data["message"] == "seat 1 has accepted the player-dealer position; start the round"
    )


def test_decline_then_answer_again_is_409(as_dealer, on_floor, dealer):
    table = on_floor.ready_table()
    offer = button.offer_button(table_id=table.pk, by=dealer)
    response = as_dealer.post(answer_url(table, offer.pk), {"accept": False}, format="json")
    assert response.status_code == 200
    assert response.data["answer"] == "declined"
    response = as_dealer.post(answer_url(table, offer.pk), {"accept": True}, format="json")
    assert response.status_code == 409
    assert response.data["code"] == State.OFFER_ANSWERED
    assert response.data["rule"] == Rule.OFFER_ROUND
    assert response.data["message"] == "this offer was already declined"
    offer.refresh_from_db()
    assert offer.answer == OfferAnswer.DECLINED


def test_answer_errors(as_dealer, on_floor, dealer):
    table = on_floor.ready_table()
    other = on_floor.ready_table()
    offer = button.offer_button(table_id=table.pk, by=dealer)
    response = as_dealer.post(answer_url(table, offer.pk), {}, format="json")
    assert response.status_code == 400
    assert response.data["code"] == "invalid"
    assert response.data["field"] == "accept"
    assert response.data["message"] == "This field is required."
    assert response.data["errors"] == {"accept": ["This field is required."]}
    assert as_dealer.post(answer_url(table, 99999), {"accept": True}).status_code == 404
    assert as_dealer.post(answer_url(other, offer.pk), {"accept": True}).status_code == 404
    offer.refresh_from_db()
    assert offer.answer == OfferAnswer.PENDING


def test_offer_without_a_game_or_during_a_round_is_409(as_dealer, on_floor):
    idle = on_floor.table()
    response = as_dealer.post(offer_url(idle))
    assert response.status_code == 409
    assert response.data["code"] == State.NO_GAME
    assert response.data["rule"] == Rule.GAME
    assert response.data["message"] == f"no game is open at {idle}; a floor supervisor opens it"
    table = on_floor.ready_table()
    on_floor.round_in("wagering", table)
    response = as_dealer.post(offer_url(table))
    assert response.status_code == 409
    assert response.data["code"] == State.WAGERING
    assert response.data["rule"] == Rule.ROUND_SEQUENCE
    assert "the button moves between hands" in response.data["message"]


def test_no_one_left_is_409_and_says_so(as_dealer, on_floor, dealer):
    table = on_floor.ready_table(seats=(1, 2))
    for _ in range(2):
        offer = button.offer_button(table_id=table.pk, by=dealer)
        button.answer_offer(table_id=table.pk, offer_id=offer.pk, accept=False, by=dealer)
    response = as_dealer.post(offer_url(table))
    assert response.status_code == 409
    assert response.data["code"] == State.NO_PLAYER_DEALER
    assert response.data["rule"] == Rule.NO_PLAYER_DEALER
    assert response.data["section"] == Rule.NO_PLAYER_DEALER.section == "8.5"
    assert response.data["message"] == NO_PLAYER_DEALER_STATUS
    assert response.data["message"].startswith(
        "no eligible seated player accepted the player-dealer position, so no round can start"
    )
    # The exhausted offer round is on the record, and no round can start.
    assert OfferRound.objects.get().status == OfferRoundStatus.EXHAUSTED
    start = as_dealer.post(f"/api/tables/{table.pk}/rounds/")
    assert start.status_code == 409
    assert start.data["code"] == State.NO_PLAYER_DEALER
    assert start.data["rule"] == Rule.NO_PLAYER_DEALER
    assert start.data["message"] == NO_PLAYER_DEALER_STATUS
    assert not Round.objects.exists()
    # A new offer round starts afresh.
    response = as_dealer.post(offer_url(table))
    assert response.status_code == 201
    assert OfferRound.objects.count() == 2


def test_ineligible_seats_are_recorded_with_the_reason(as_dealer, on_floor, supervisor):
    table = on_floor.ready_table(seats=(1, 2), max_consecutive_hands=1)
    round_ = on_floor.start(table, banker_seat=1, join=(2,))
    rounds.void_round(round_id=round_.pk, by=supervisor, reason="misdeal")
    offer = as_dealer.post(offer_url(table)).data
    assert offer["seat"] == 2
    as_dealer.post(answer_url(table, offer["id"]), {"accept": False}, format="json")
    assert as_dealer.post(offer_url(table)).status_code == 409
    response = as_dealer.get("/api/offer-rounds/", {"table": table.pk, "status": "exhausted"})
    (offer_round,) = response.data["results"]
    assert [(o["seat"], o["answer"]) for o in offer_round["offers"]] == [
        (2, "declined"),
        (1, "ineligible"),
    ]
    assert offer_round["offers"][1]["reason"] == (
        "seat 1 has banked 1 consecutive hand, the most this table allows "
        "(rule: at most two hands in a row, docs/rules.md §8.2)"
    )


def test_keep_the_button(as_dealer, on_floor, supervisor):
    table = on_floor.ready_table(offer_every_hand=False)
    round_ = on_floor.start(table, banker_seat=2, join=(3,))
    assert round_.player_dealer_seat == 2
    rounds.void_round(round_id=round_.pk, by=supervisor, reason="misdeal")
    response = as_dealer.post(f"/api/tables/{table.pk}/button/keep/")
    assert response.status_code == 201, response.data
    assert response.data["seat"] == 2
    assert response.data["answer"] == "accepted"
    offer_round = OfferRound.objects.get(pk=response.data["offer_round"])
    assert offer_round.kept_without_offers is True
    start = as_dealer.post(f"/api/tables/{table.pk}/rounds/")
    assert start.status_code == 201
    assert start.data["player_dealer"]["consecutive_count"] == 2
    rounds.void_round(round_id=start.data["id"], by=supervisor, reason="misdeal")
    response = as_dealer.post(f"/api/tables/{table.pk}/button/keep/")
    assert response.status_code == 409
    assert response.data["code"] == State.OFFERS_REQUIRED
    assert response.data["rule"] == Rule.KEEP


def test_keep_is_409_when_every_hand_is_offered(as_dealer, on_floor, supervisor):
    table = on_floor.ready_table()
    round_ = on_floor.start(table)
    rounds.void_round(round_id=round_.pk, by=supervisor, reason="misdeal")
    response = as_dealer.post(f"/api/tables/{table.pk}/button/keep/")
    assert response.status_code == 409
    assert response.data["code"] == State.OFFER_EVERY_HAND
    assert response.data["rule"] == Rule.OFFER_EVERY_HAND
    assert OfferRound.objects.count() == 1


def test_offer_rounds_list_and_filters(as_compliance, on_floor, dealer, supervisor):
    table = on_floor.ready_table()
    on_floor.bank(table, 2)
    first = OfferRound.objects.get()
    other = on_floor.ready_table()
    button.offer_button(table_id=other.pk, by=dealer)
    second = OfferRound.objects.get(table=other)
    floor.close_game(table_id=other.pk, by=supervisor)  # cancels the open offer round

    response = as_compliance.get("/api/offer-rounds/", {"table": table.pk})
    assert response.status_code == 200
    (row,) = response.data["results"]
    assert row["id"] == first.pk
    assert row["status"] == "accepted"
    assert row["round"] is None
    assert [(o["seat"], o["answer"], o["answered_by"]) for o in row["offers"]] == [
        (1, "declined", "dealer"),
        (2, "accepted", "dealer"),
    ]
    offer = row["offers"][0]
    assert set(offer) >= {"player", "is_tppp", "offered_at", "offered_by", "reason"}
    assert ISO_MICROSECONDS.match(offer["offered_at"])

    def ids(**params):
        response = as_compliance.get("/api/offer-rounds/", params)
        assert response.status_code == 200, response.data
        return {r["id"] for r in response.data["results"]}

    assert ids() == {first.pk, second.pk}
    assert ids(status="cancelled") == {second.pk}
    assert ids(game=second.game_id) == {second.pk}
    assert as_compliance.get("/api/offer-rounds/", {"status": "maybe"}).status_code == 400
