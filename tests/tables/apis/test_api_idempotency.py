"""Idempotency-Key: a repeated write applies once and replays the first answer."""

from __future__ import annotations

import hashlib
import json

import pytest

from cardroom.errors import Rule, State
from cardroom.models import IdempotencyKey
from tables.models import HandDecision, OfferRound, Round, Seating
from tables.services import button, floor
from tests.builders.factories import PlayerFactory
from tests.builders.floor import make_player

pytestmark = pytest.mark.django_db


def post(client, path, body=None, key="key-1"):
    return client.post(path, body or {}, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_the_same_decision_twice_is_recorded_once(as_dealer, on_floor):
    round_ = on_floor.round_in("preflop")
    path = f"/api/rounds/{round_.pk}/decisions/"
    body = {"seat": 2, "action": "play", "multiple": 4}
    first = post(as_dealer, path, body)
    second = post(as_dealer, path, body)
    assert first.status_code == second.status_code == 201
    assert "Idempotent-Replayed" not in first
    assert second["Idempotent-Replayed"] == "true"
    assert second.json() == first.json()
    assert HandDecision.objects.filter(hand__round=round_).count() == 1


def test_without_a_key_the_second_decision_is_refused(as_dealer, on_floor):
    round_ = on_floor.round_in("preflop")
    path = f"/api/rounds/{round_.pk}/decisions/"
    body = {"seat": 2, "action": "play", "multiple": 4}
    assert as_dealer.post(path, body, format="json").status_code == 201
    again = as_dealer.post(path, body, format="json")
    assert again.status_code == 400
    assert again.data["code"] == "rule_broken"
    assert again.data["rule"] == Rule.DECISIONS
    assert again.data["field"] == "action"
    assert again.data["message"].startswith("the hand already made its Play")
    assert HandDecision.objects.filter(hand__round=round_).count() == 1


def test_a_key_reused_with_a_different_body_is_422(as_dealer, on_floor):
    round_ = on_floor.round_in("preflop")
    path = f"/api/rounds/{round_.pk}/decisions/"
    assert post(as_dealer, path, {"seat": 2, "action": "play", "multiple": 4}).status_code == 201
    response = post(as_dealer, path, {"seat": 3, "action": "check"})
    assert response.status_code == 422
    assert response.data["code"] == State.KEY_REUSED
    assert response.data["message"] == "this Idempotency-Key was used for a different request"
    assert HandDecision.objects.filter(hand__round=round_).count() == 1


def test_a_conflict_is_replayed_too(as_dealer, on_floor, dealer):
    """The 409 that closes an exhausted offer round is the answer a retry gets."""
    table = on_floor.ready_table(seats=(1,))
    offer = button.offer_button(table_id=table.pk, by=dealer)
    button.answer_offer(table_id=table.pk, offer_id=offer.pk, accept=False, by=dealer)
    path = f"/api/tables/{table.pk}/button/offer/"
    first = post(as_dealer, path)
    second = post(as_dealer, path)
    assert first.status_code == second.status_code == 409
    assert second["Idempotent-Replayed"] == "true"
    assert second.data == first.data
    assert OfferRound.objects.count() == 1  # a fresh POST would have opened a new offer round
    assert post(as_dealer, path, key="key-2").status_code == 201
    assert OfferRound.objects.count() == 2


def test_start_round_and_seat_twice(as_dealer, on_floor):
    table = on_floor.ready_table(seats=(1, 2, 3))
    player = PlayerFactory()
    seat = {"seat": 5, "player": player.pk}
    path = f"/api/tables/{table.pk}/seats/"
    assert post(as_dealer, path, seat, key="s").status_code == 201
    assert post(as_dealer, path, seat, key="s").status_code == 201
    assert Seating.objects.filter(player=player).count() == 1
    on_floor.bank(table, 1)
    path = f"/api/tables/{table.pk}/rounds/"
    first, second = post(as_dealer, path, key="r"), post(as_dealer, path, key="r")
    assert first.status_code == second.status_code == 201
    assert second.data["id"] == first.data["id"]
    assert Round.objects.filter(table=table).count() == 1


def test_delete_and_patch_are_idempotent(as_supervisor, on_floor):
    table = on_floor.table()
    floor.seat_player(table_id=table.pk, seat=2, player_id=make_player().pk, by=on_floor.dealer)
    path = f"/api/tables/{table.pk}/seats/2/"  # no chips: leaving needs nothing more
    first = as_supervisor.delete(path, HTTP_IDEMPOTENCY_KEY="d")
    second = as_supervisor.delete(path, HTTP_IDEMPOTENCY_KEY="d")
    assert first.status_code == second.status_code == 200
    assert second["Idempotent-Replayed"] == "true"
    assert as_supervisor.delete(path).status_code == 400  # without the key: the seat is empty
    path = f"/api/tables/{table.pk}/"
    for _ in range(2):
        response = as_supervisor.patch(
            path, {"minimum_cents": 1000}, format="json", HTTP_IDEMPOTENCY_KEY="p"
        )
        assert response.status_code == 200
    assert table.option_changes.count() == 1


def test_invalid_input_does_not_use_up_the_key(as_dealer, on_floor):
    round_ = on_floor.round_in("preflop")
    path = f"/api/rounds/{round_.pk}/decisions/"
    assert post(as_dealer, path, {"seat": 2, "action": "raise"}).status_code == 400
    assert not IdempotencyKey.objects.exists()
    assert post(as_dealer, path, {"seat": 2, "action": "play", "multiple": 3}).status_code == 201


def test_keys_belong_to_their_user(as_dealer, as_supervisor, on_floor):
    round_ = on_floor.round_in("preflop")
    path = f"/api/rounds/{round_.pk}/decisions/"
    assert post(as_dealer, path, {"seat": 2, "action": "play", "multiple": 4}).status_code == 201
    response = post(as_supervisor, path, {"seat": 3, "action": "check"})
    assert response.status_code == 201
    assert "Idempotent-Replayed" not in response
    assert HandDecision.objects.filter(hand__round=round_).count() == 2


def test_the_stored_fingerprint_cannot_be_read_back_without_the_secret_key(
    as_dealer, on_floor, settings
):
    """The key row keeps a keyed HMAC of the request: a bare SHA-256 of a body from so small a
    space (a seat, an action, cards) could be recovered by trying every body; with the
    deployment's secret it cannot, and another deployment's secret gives another value."""
    round_ = on_floor.round_in("preflop")
    path = f"/api/rounds/{round_.pk}/decisions/"
    body = {"seat": 2, "action": "play", "multiple": 4}
    assert post(as_dealer, path, body, key="hmac").status_code == 201
    stored = IdempotencyKey.objects.get(key="hmac").request_hash
    bare = f"POST {path}\n{json.dumps(body, sort_keys=True)}"
    assert stored != hashlib.sha256(bare.encode()).hexdigest()
    assert len(stored) == 64
    settings.SECRET_KEY = "another deployment's secret"
    assert post(as_dealer, path, body, key="hmac").status_code == 422  # not this deployment's
