"""Idempotency-Key on the money writes: a retried POST never moves chips twice."""

from __future__ import annotations

import pytest

from cardroom.models import IdempotencyKey
from rounds import services as rounds
from tests.builders.factories import PlayerFactory
from wagers.models import Bet, LedgerTransaction, PlayerDealerBank
from wagers.services import chips

pytestmark = pytest.mark.django_db


def post(client, path, body, key="money-1"):
    return client.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_the_same_wager_twice_is_one_bet_and_one_transaction(as_dealer, on_floor):
    table = on_floor.ready_table()
    round_ = on_floor.start(table, join=(2,))
    path = f"/api/rounds/{round_.pk}/wagers/"
    body = {"seat": 3, "ante": 1000, "blind": 1000, "trips": 500}
    before = LedgerTransaction.objects.count()
    first = post(as_dealer, path, body)
    second = post(as_dealer, path, body)
    assert first.status_code == second.status_code == 201
    assert "Idempotent-Replayed" not in first
    assert second["Idempotent-Replayed"] == "true"
    assert second.json() == first.json()
    assert Bet.objects.filter(hand__round=round_, hand__seat=3).count() == 1
    assert LedgerTransaction.objects.count() == before + 1
    player = round_.hands.get(seat=3).player
    assert chips.chip_account(player, table).balance_cents == on_floor.chips - 2500
    # Without the key, the same POST is refused: a seat wagers once.
    assert as_dealer.post(path, body, format="json").status_code == 409
    assert LedgerTransaction.objects.count() == before + 1


def test_a_refused_wager_is_replayed_and_moves_nothing(as_dealer, on_floor):
    round_ = on_floor.start(on_floor.ready_table(), join=())
    path = f"/api/rounds/{round_.pk}/wagers/"
    body = {"seat": 2, "ante": 500, "blind": 1000}
    first, second = post(as_dealer, path, body), post(as_dealer, path, body)
    assert first.status_code == second.status_code == 400
    assert second["Idempotent-Replayed"] == "true"
    assert second.data == first.data
    assert not Bet.objects.exists()


def test_the_bank_posted_twice_with_one_key(as_dealer, on_floor):
    table = on_floor.ready_table()
    on_floor.bank(table, 1)
    round_ = rounds.start_round(table_id=table.pk, by=on_floor.dealer)
    path = f"/api/rounds/{round_.pk}/bank/"
    before = LedgerTransaction.objects.count()
    first = post(as_dealer, path, {"amount": 5000})
    second = post(as_dealer, path, {"amount": 5000})
    assert first.status_code == second.status_code == 201
    assert second["Idempotent-Replayed"] == "true"
    assert PlayerDealerBank.objects.filter(round=round_).count() == 1
    assert LedgerTransaction.objects.count() == before + 1
    reused = post(as_dealer, path, {"amount": 6000})
    assert reused.status_code == 422
    assert reused.data["code"] == "key_reused"


@pytest.mark.parametrize(
    ("action", "body"),
    [
        ("buy-in", {"amount": 20_000, "currency": True}),
        ("cash-out", {"amount": 1000, "currency": True}),
        ("cash-out", {"currency": False}),
    ],
)
def test_chip_movements_apply_once(as_dealer, on_floor, action, body):
    table = on_floor.table()
    player = PlayerFactory()
    on_floor.bring_chips(table, player, 5000)
    path = f"/api/tables/{table.pk}/chips/{action}/"
    before = LedgerTransaction.objects.count()
    body = {"player": player.pk, **body}
    first, second = post(as_dealer, path, body), post(as_dealer, path, body)
    assert first.status_code == second.status_code == 201
    assert second.data["id"] == first.data["id"]
    assert LedgerTransaction.objects.count() == before + 1
    assert IdempotencyKey.objects.count() == 1
