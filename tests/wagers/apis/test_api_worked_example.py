"""docs/rules.md §7.3's worked example, end to end through the API, in cents (W = 10000).

Seats clockwise from the player-dealer's left (the player-dealer at seat 6): S1 (seat 1)
folds with Ante 2500 and Blind 2500; S2 (seat 2) plays 4x pre-flop (Play 10000) with Ante
2500, Blind 2500, Trips 1000 (UTH-01) and wins with a Flush; the dealer qualifies with a
pair of Kings. The cards are keyed at a card-entry table.
"""

from __future__ import annotations

import pytest

from wagers import verification

pytestmark = pytest.mark.django_db

BUY_IN = {"S1": 20_000, "S2": 50_000, "PD": 30_000}
W = 10_000


def ok(response, code=200):
    assert response.status_code == code, getattr(response, "data", response)
    return response.data


@pytest.fixture
def worked_example(as_supervisor, as_dealer):
    """The example's round, settled through the API; answers the ids used."""
    table = ok(
        as_supervisor.post(
            "/api/tables/",
            {
                "name": "Worked example",
                "deal_mode": "card_entry",
                "chip_unit_cents": 1,
                "minimum_cents": 100,
                "maximum_cents": 10_000,
                "trips_paytable": "UTH-01",
            },
            format="json",
        ),
        201,
    )
    tid = table["id"]
    players = {}
    for name, seat in (("S1", 1), ("S2", 2), ("PD", 6)):
        player = ok(
            as_supervisor.post(
                "/api/players/", {"player_number": f"WE-{name}", "name": name}, format="json"
            ),
            201,
        )
        players[name] = player["id"]
        ok(
            as_dealer.post(
                f"/api/tables/{tid}/seats/", {"seat": seat, "player": player["id"]}, format="json"
            ),
            201,
        )
        ok(
            as_dealer.post(
                f"/api/tables/{tid}/chips/buy-in/",
                {"player": player["id"], "amount": BUY_IN[name], "currency": True},
                format="json",
            ),
            201,
        )
    ok(
        as_supervisor.post(f"/api/tables/{tid}/game/open/", {"first_offer_seat": 6}, format="json"),
        201,
    )
    offer = ok(as_dealer.post(f"/api/tables/{tid}/button/offer/"), 201)
    assert offer["seat"] == 6
    ok(
        as_dealer.post(
            f"/api/tables/{tid}/button/offers/{offer['id']}/answer/",
            {"accept": True},
            format="json",
        )
    )
    rid = ok(as_dealer.post(f"/api/tables/{tid}/rounds/"), 201)["id"]
    r = f"/api/rounds/{rid}/"
    ok(as_dealer.post(f"{r}bank/", {"amount": W}, format="json"), 201)
    ok(as_dealer.post(f"{r}wagers/", {"seat": 1, "ante": 2500, "blind": 2500}, format="json"), 201)
    ok(
        as_dealer.post(
            f"{r}wagers/", {"seat": 2, "ante": 2500, "blind": 2500, "trips": 1000}, format="json"
        ),
        201,
    )
    ok(as_dealer.post(f"{r}no-more-bets/"))
    ok(as_dealer.post(f"{r}deal/"))  # face down: the hole cards are keyed at the showdown
    for seat, action, multiple in ((2, "play", 4), (1, "check", 0)):
        body = {"seat": seat, "action": action, "multiple": multiple}
        ok(as_dealer.post(f"{r}decisions/", body, format="json"), 201)
    ok(as_dealer.post(f"{r}flop/", {"cards": ["2h", "7h", "9h"]}, format="json"))
    ok(as_dealer.post(f"{r}decisions/", {"seat": 1, "action": "check"}, format="json"), 201)
    ok(as_dealer.post(f"{r}turn-river/", {"cards": ["Jd", "3c"]}, format="json"))
    ok(as_dealer.post(f"{r}decisions/", {"seat": 1, "action": "fold"}, format="json"), 201)
    # Seat 1 folded with no Trips wager: mucked, its cards never keyed.
    cards = {"hands": {"2": ["Ah", "Qh"]}, "player_dealer": ["Kc", "Kd"]}
    shown = ok(as_dealer.post(f"{r}showdown/", {"cards": cards}, format="json"))
    assert (shown["dealer_category"], shown["dealer_qualifies"]) == ("one_pair", True)
    assert [(h["seat"], h["category"], h["result"]) for h in shown["hands"]] == [
        (1, "", "fold"),
        (2, "flush", "win"),
    ]
    settled = ok(as_dealer.post(f"{r}settle/"))
    assert settled["state"] == "settled"
    return {"table": tid, "round": rid, "players": players, "detail": settled}


# order, pass, seat, bettor, wager, stake, outcome, paid, collected, returned, unpaid
EXPECTED_LINES = [
    (1, "fold", 1, "seat", "ante", 2500, "lose", 0, 2500, 0, 0),  # N = 2500
    (2, "fold", 1, "seat", "blind", 2500, "lose", 0, 2500, 0, 0),  # N = 5000
    (3, "showdown", 2, "seat", "ante", 2500, "win", 2500, 0, 0, 0),  # N = 2500
    (4, "showdown", 2, "seat", "play", 10_000, "win", 10_000, 0, 0, 0),  # N = -7500
    (5, "showdown", 2, "seat", "blind", 2500, "win", 2500, 0, 0, 1250),  # 3:2 = 3750; N = -W
    (6, "showdown", 2, "seat", "trips", 1000, "win", 0, 0, 0, 7000),  # Flush 7:1, nothing left
]


def test_every_settlement_line(as_compliance, worked_example):
    data = ok(as_compliance.get(f"/api/rounds/{worked_example['round']}/settlement/"))
    players = worked_example["players"]
    lines = [
        (
            line["order"],
            line["pass"],
            line["seat"],
            line["bettor"],
            line["wager"],
            line["stake"],
            line["outcome"],
            line["paid"],
            line["collected"],
            line["returned_uncovered"],
            line["unpaid_uncovered"],
        )
        for line in data["lines"]
    ]
    assert lines == EXPECTED_LINES
    assert [line["player"]["id"] for line in data["lines"]] == [players["S1"]] * 2 + [
        players["S2"]
    ] * 4
    assert {line["rounded_off"] for line in data["lines"]} == {"0.000000"}
    assert list(data["lines"][0]) == [
        "order",
        "pass",
        "seat",
        "bettor",
        "player",
        "wager",
        "stake",
        "outcome",
        "paid",
        "collected",
        "returned_uncovered",
        "unpaid_uncovered",
        "rounded_off",
    ]
    bank = data["bank"]
    assert (bank["amount"], bank["net"], bank["remaining"], bank["exhausted"]) == (
        W,
        -W,
        0,
        True,
    )
    assert bank["player"]["id"] == players["PD"]
    assert (data["round"], data["state"]) == (worked_example["round"], "settled")


def test_every_ledger_balance_afterwards(as_compliance, worked_example):
    players, tid = worked_example["players"], worked_example["table"]

    def balance_of(**params):
        (account,) = ok(as_compliance.get("/api/accounts/", params))["results"]
        return account

    chips = {
        name: balance_of(player=pid, table=tid, kind="patron_chips")["balance"]
        for name, pid in players.items()
    }
    assert chips == {
        "S1": BUY_IN["S1"] - 5000,  # Ante and Blind collected
        # Wagers 6000 and Play 10000 out; back: Ante 2500+2500, Play 10000+10000,
        # Blind 2500+2500, Trips 1000 (its 7000 unpaid)
        "S2": BUY_IN["S2"] - 16_000 + 31_000,
        "PD": BUY_IN["PD"] - W,  # the whole bank lost, nothing returned
    }
    # The players' changes and the player-dealer's sum to zero (no fees here).
    assert sum(chips[name] - BUY_IN[name] for name in chips) == 0
    in_play = ok(as_compliance.get("/api/accounts/", {"round": worked_example["round"]}))
    assert sorted((a["kind"], a["balance"]) for a in in_play["results"]) == [
        ("round_bank", 0),
        ("round_wagers", 0),
    ]
    assert balance_of(kind="cage")["balance"] == -sum(BUY_IN.values())
    assert list(verification.differences()) == []


def test_the_statements_of_the_winner_and_the_player_dealer(as_compliance, worked_example):
    players, tid = worked_example["players"], worked_example["table"]

    def statement(name):
        (account,) = ok(
            as_compliance.get("/api/accounts/", {"player": players[name], "table": tid})
        )["results"]
        data = ok(as_compliance.get(f"/api/accounts/{account['id']}/transactions/"))
        assert data["count"] == len(data["results"])
        return [
            (line["transaction"]["kind"], line["change"], line["balance"])
            for line in data["results"]
        ]

    assert statement("S2") == [
        ("buy_in", 50_000, 50_000),
        ("wager", -6000, 44_000),
        ("play", -10_000, 34_000),
        ("settlement", 5000, 39_000),
        ("settlement", 20_000, 59_000),
        ("settlement", 5000, 64_000),
        ("settlement", 1000, 65_000),
    ]
    assert statement("PD") == [("buy_in", 30_000, 30_000), ("bank_posted", -W, 20_000)]


def test_the_round_detail_shows_the_bank_and_the_bets(as_compliance, worked_example):
    data = ok(as_compliance.get(f"/api/rounds/{worked_example['round']}/"))
    assert data == worked_example["detail"]
    assert (data["bank"]["amount"], data["bank"]["net"], data["bank"]["exhausted"]) == (
        W,
        -W,
        True,
    )
    bets = {
        hand["seat"]: [
            (b["bettor"], b["ante"], b["blind"], b["trips"], b["bad_beat"], b["play"])
            for b in hand["bets"]
        ]
        for hand in data["hands"]
    }
    assert bets == {1: [("seat", 2500, 2500, 0, 0, 0)], 2: [("seat", 2500, 2500, 1000, 0, 10_000)]}


def test_the_player_dealers_bankroll(as_compliance, worked_example):
    pid = worked_example["players"]["PD"]
    data = ok(as_compliance.get(f"/api/players/{pid}/bankroll/"))
    assert data["balance"] == BUY_IN["PD"] - W
    assert data["movements"] == {
        "fills": 0,
        "credits": 0,
        "buy_ins": BUY_IN["PD"],
        "cash_outs": 0,
        "fees": 0,
    }
    assert data["banking"] == {
        "hands_banked": 1,
        "total_result": -W,
        "largest_exposure": W,
        "returned_uncovered": 0,
        "unpaid_uncovered": 1250 + 7000,
    }
