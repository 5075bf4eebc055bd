"""An EZ Baccarat hand through the round API shared with Ultimate Texas Hold'em: the button,
the bank, wagers (one and a batch) on the game's squares, "no more bets", the coup at the
showdown (keyed at a card-entry table), the settlement; each write under an Idempotency-Key
(replayed, not done twice) and ``Prefer: return=minimal``; refusals 400 with field and rule."""

from __future__ import annotations

import pytest

from tables.models import Round
from tests.builders.floor import give_button, open_floor
from tests.builders.money import verified
from wagers.models import SettlementLine

pytestmark = pytest.mark.django_db

MINIMAL = {"HTTP_PREFER": "return=minimal"}


def _post(client, path, body=None, key=None, **headers):
    if key is not None:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    return client.post(path, body or {}, format="json", **headers)


@pytest.fixture
def baccarat_table(staff):
    table = open_floor(
        "PPPPPP",
        staff=staff,
        game="ez_baccarat",
        deal_mode="card_entry",
        minimum_cents=500,
        maximum_cents=50_000,
    ).table
    give_button(table.pk, 1, by=staff.supervisor)
    return table


def test_a_hand_through_the_api_with_idempotency_and_minimal_answers(as_dealer, baccarat_table):
    started = _post(as_dealer, f"/api/tables/{baccarat_table.pk}/rounds/", key="start")
    assert started.status_code == 201, started.json()
    round_id = started.json()["id"]
    base = f"/api/rounds/{round_id}/"
    assert _post(as_dealer, base + "bank/", {"amount": 100_000}, key="bank").status_code in (
        200,
        201,
    )
    one = {"seat": 2, "banker": 1_000, "dragon_7": 500}
    first = _post(as_dealer, base + "wagers/", one, key="w1", **MINIMAL)
    again = _post(as_dealer, base + "wagers/", one, key="w1", **MINIMAL)
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json() == {"id": round_id, "state": "wagering"}
    batch = {"bets": [{"seat": 3, "player": 2_000, "tie": 500}, {"seat": 4, "player": 500}]}
    placed = _post(as_dealer, base + "wagers/batch/", batch, key="w2")
    assert placed.status_code == 201
    bets = {hand["seat"]: hand["bets"][0] for hand in placed.json()["hands"]}
    assert (bets[2]["banker"], bets[2]["dragon_7"], bets[3]["player_wager"]) == (1_000, 500, 2_000)
    assert _post(as_dealer, base + "no-more-bets/", key="nmb", **MINIMAL).json() == {
        "id": round_id,
        "state": "no_more_bets",
    }
    # Player 2+3+6 = 1, Banker 4+K+3 = 7 with three cards: a Dragon 7.
    coup = {"coup": {"cards": ["2h", "4d", "3c", "Ks", "6s", "3h"]}}
    shown = _post(as_dealer, base + "showdown/", coup, key="coup")
    assert shown.status_code == 200, shown.json()
    assert (shown.json()["player_cards"], shown.json()["banker_cards"]) == (
        ["2h", "3c", "6s"],
        ["4d", "Ks", "3h"],
    )
    replayed = _post(as_dealer, base + "showdown/", coup, key="coup")
    assert replayed.status_code == 200 and replayed.json() == shown.json()
    settled = _post(as_dealer, base + "settle/", key="settle", **MINIMAL)
    assert settled.json() == {"id": round_id, "state": "settled"}
    lines = SettlementLine.objects.filter(round_id=round_id).order_by("order")
    assert [(ln.seat, ln.wager, ln.outcome, ln.paid_cents, ln.collected_cents) for ln in lines] == [
        (2, "banker", "push", 0, 0),
        (2, "dragon_7", "win", 20_000, 0),
        (3, "player", "lose", 0, 2_000),
        (3, "tie", "lose", 0, 500),
        (4, "player", "lose", 0, 500),
    ]
    assert Round.objects.get(pk=round_id).bank.net_cents == -20_000 + 3_000
    assert verified() == []


@pytest.mark.parametrize(
    ("body", "field", "rule"),
    [
        ({"seat": 2, "player": 1_000, "banker": 1_000}, "banker", "baccarat.base_wager"),
        ({"seat": 2, "player": 1_000, "tie": 5_000}, "tie", "baccarat.side_wagers"),
        ({"seat": 2, "player": 100}, "player", "wagers.limits"),
        ({"seat": 2, "ante": 1_000, "blind": 1_000}, "ante", "wagers.squares"),
    ],
)
def test_wagers_refused_name_the_field_and_the_rule(as_dealer, baccarat_table, body, field, rule):
    round_id = _post(as_dealer, f"/api/tables/{baccarat_table.pk}/rounds/").json()["id"]
    refused = _post(as_dealer, f"/api/rounds/{round_id}/wagers/", body)
    assert refused.status_code == 400
    answer = refused.json()
    assert field in str(answer) and rule in str(answer), answer


def test_a_coup_the_drawing_rules_refuse_is_400_and_records_nothing(
    as_dealer, staff, baccarat_table
):
    round_id = _post(as_dealer, f"/api/tables/{baccarat_table.pk}/rounds/").json()["id"]
    base = f"/api/rounds/{round_id}/"
    _post(as_dealer, base + "bank/", {"amount": 100_000})
    _post(as_dealer, base + "wagers/", {"seat": 2, "player": 1_000})
    _post(as_dealer, base + "no-more-bets/")
    refused = _post(
        as_dealer, base + "showdown/", {"coup": {"cards": ["9h", "2c", "Kd", "5s", "4d"]}}
    )
    assert refused.status_code == 400
    assert "coup.cards[4]" in str(refused.json()) and "baccarat.drawing" in str(refused.json())
    assert Round.objects.get(pk=round_id).state == "no_more_bets"
    dealt = _post(as_dealer, base + "deal/")
    assert dealt.status_code == 409
