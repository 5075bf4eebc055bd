"""Rounds through the API: every transition, its errors, the withheld cards, a full round."""

from __future__ import annotations

import json

import pytest

from cardroom import bounds
from cardroom.errors import ACTIVE_ROUND_STATES, ROUND_STATES, Rule, State
from rounds import services as rounds
from tables.models import HandDecision, Round, RoundTransition
from tests.builders.factories import TPPPRegistrationFactory
from tests.builders.fees import table_schedule
from tests.builders.floor import (
    FOLD,
    PLAY_4X,
    advance,
    decide_street,
    give_button,
    start_with_hands,
)
from tests.builders.money import money_table
from wagers.models import Bet, LedgerTransaction, PlayerDealerBank
from wagers.services.wagering import BetRequest

pytestmark = pytest.mark.django_db

ALL_STATES = [s.value for s in ROUND_STATES]


def url(round_, action=""):
    return f"/api/rounds/{round_.pk}/" + (f"{action}/" if action else "")


# --- Start and wager ---------------------------------------------------------------------


def test_start_a_round(as_dealer, on_floor):
    table = on_floor.ready_table()
    accepted = on_floor.bank(table, 2)
    response = as_dealer.post(f"/api/tables/{table.pk}/rounds/")
    assert response.status_code == 201, response.data
    data = response.data
    assert (data["number"], data["deck"], data["state"]) == (1, "A", "wagering")
    assert data["player_dealer"] == {
        "seat": 2,
        "player": {
            "id": accepted.player.pk,
            "player_number": accepted.player.player_number,
            "name": accepted.player.name,
        },
        "is_tppp": False,
        "consecutive_count": 1,
    }
    assert data["options"]["preflop_multiples"] == [3, 4]
    assert data["hands"] == []
    assert [(t["from"], t["to"], t["by"]) for t in data["transitions"]] == [
        ("", "wagering", "dealer")
    ]
    assert data["dealer_hole"] is None
    assert data["shuffled_deck"] is None
    assert data["cards_revealed"] is False


def test_start_without_an_acceptance_or_a_game_is_409(as_dealer, on_floor):
    table = on_floor.ready_table()
    response = as_dealer.post(f"/api/tables/{table.pk}/rounds/")
    assert response.status_code == 409
    assert response.data["code"] == State.NO_PLAYER_DEALER
    assert response.data["rule"] == Rule.OFFER_ROUND
    assert "offer the button" in response.data["message"]
    idle = on_floor.table()
    response = as_dealer.post(f"/api/tables/{idle.pk}/rounds/")
    assert response.status_code == 409
    assert response.data["code"] == State.NO_GAME
    assert response.data["rule"] == Rule.GAME
    assert not Round.objects.exists()
    assert as_dealer.post("/api/tables/99999/rounds/").status_code == 404


def wager(seat, ante=500, **more):
    return {"seat": seat, "ante": ante, "blind": ante, **more}


def test_wagers_make_the_hand(as_dealer, on_floor):
    round_ = on_floor.start(on_floor.ready_table(), join=())
    response = as_dealer.post(url(round_, "wagers"), wager(3), format="json")
    assert response.status_code == 201, response.data
    (hand,) = response.data["hands"]
    assert (hand["seat"], hand["hole"], hand["decisions"], hand["result"]) == (3, None, [], "")
    (bet,) = hand["bets"]
    assert (bet["bettor"], bet["ante"], bet["blind"], bet["trips"], bet["play"]) == (
        "seat",
        500,
        500,
        0,
        0,
    )


def test_wager_errors(as_dealer, on_floor):
    table = on_floor.ready_table(seats=(1, 2))
    on_floor.seat(table, 3, TPPPRegistrationFactory().player)
    round_ = on_floor.start(table, join=(2,))
    cases = [
        (
            1,
            400,
            "seat 1 is the player-dealer; no one wagers on the player-dealer position",
            Rule.PLAYER_DEALER_SEAT,
        ),
        (5, 400, "seat 5 is empty", Rule.SEATS),
        (3, 400, "seat 3 is a TPPP player", Rule.TPPP_BANKS_ONLY),
    ]
    for seat, code, message, rule in cases:
        response = as_dealer.post(url(round_, "wagers"), wager(seat), format="json")
        assert response.status_code == code
        assert response.data["code"] == "rule_broken"
        assert response.data["field"] == "seat"
        assert response.data["message"].startswith(message)
        assert response.data["rule"] == rule
    response = as_dealer.post(url(round_, "wagers"), wager(2), format="json")
    assert response.status_code == 409
    assert response.data["code"] == State.WAGERING
    assert response.data["rule"] == Rule.NO_MORE_BETS
    response = as_dealer.post(url(round_, "wagers"), wager("two"), format="json")
    assert response.status_code == 400
    assert response.data["code"] == "invalid"
    assert response.data["field"] == "seat"
    assert response.data["message"] == bounds.NOT_AN_INTEGER
    assert set(response.data["errors"]) == {"seat"}
    assert round_.hands.count() == 1


def test_no_more_bets_needs_a_hand(as_dealer, on_floor):
    round_ = on_floor.start(on_floor.ready_table(), join=())
    response = as_dealer.post(url(round_, "no-more-bets"))
    assert response.status_code == 409
    assert response.data["code"] == State.WAGERING
    assert response.data["rule"] == Rule.ROUND_SEQUENCE
    assert response.data["message"] == "no seat has wagered in this round"


def test_no_more_bets(as_dealer, on_floor):
    round_ = on_floor.round_in("wagering")
    response = as_dealer.post(url(round_, "no-more-bets"))
    assert response.status_code == 200
    assert response.data["state"] == "no_more_bets"


# --- Dealing --------------------------------------------------------------------------------


def test_rng_deal_withholds_the_player_dealers_cards(as_dealer, on_floor):
    round_ = on_floor.round_in("no_more_bets")
    response = as_dealer.post(url(round_, "deal"), {}, format="json")
    assert response.status_code == 200, response.data
    assert response.data["state"] == "preflop"
    assert [hand["hole"] for hand in response.data["hands"]] == [None, None]  # §2.6
    assert response.data["dealer_hole"] is None
    assert response.data["shuffled_deck"] is None
    round_.refresh_from_db()
    assert len(round_.dealer_hole) == 2  # stored, just not shown
    assert len(round_.shuffled_deck) == 52


def test_rng_table_refuses_entered_cards(as_dealer, on_floor):
    round_ = on_floor.round_in("no_more_bets")
    body = {
        "cards": {"hands": {"2": ["As", "Ah"], "3": ["Ks", "Kh"]}, "player_dealer": ["2c", "3c"]}
    }
    response = as_dealer.post(url(round_, "deal"), body, format="json")
    assert response.status_code == 400
    assert response.data["code"] == "rule_broken"
    assert response.data["field"] == "cards"
    assert response.data["message"] == "this table deals by RNG; cards are not entered"
    assert response.data["rule"] == Rule.DEAL_MODE
    round_.refresh_from_db()
    assert round_.state == "no_more_bets"


@pytest.fixture
def entry_round(on_floor):
    """A card-entry round at no more bets: PD seat 1, hands at seats 2 and 3."""
    return on_floor.round_in("no_more_bets", on_floor.ready_table(deal_mode="card_entry"))


ENTERED = {"hands": {"2": ["As", "Ah"], "3": ["Ks", "Kh"]}, "player_dealer": ["2c", "3c"]}


@pytest.mark.parametrize(
    "cards", [ENTERED, ["2c", "3c"], [], "2c 3c", {}], ids=["entry", "list", "empty", "text", "{}"]
)
def test_a_card_entry_deal_keys_no_card(as_dealer, entry_round, cards):
    response = as_dealer.post(url(entry_round, "deal"), {"cards": cards}, format="json")
    assert response.status_code == 400, response.data
    assert (response.data["code"], response.data["rule"]) == ("rule_broken", Rule.CARD_ENTRY)
    assert response.data["field"] == "cards"
    assert response.data["message"] == rounds.CARDS_AT_THE_DEAL
    entry_round.refresh_from_db()
    assert (entry_round.state, entry_round.dealer_hole) == ("no_more_bets", None)


def test_a_card_entry_deal_records_the_cards_dealt_face_down(as_dealer, entry_round):
    response = as_dealer.post(url(entry_round, "deal"), {}, format="json")
    assert response.status_code == 200, response.data
    assert response.data["state"] == "preflop"
    assert [h["hole"] for h in response.data["hands"]] == [None, None]
    assert (response.data["dealer_hole"], response.data["shuffled_deck"]) == (None, None)
    entry_round.refresh_from_db()
    assert entry_round.dealer_hole is None
    assert [h.hole for h in entry_round.hands.all()] == [None, None]  # nothing keyed


BOARD = ["Ad", "Kd", "3s", "9h", "4c"]


@pytest.fixture
def showdown_round(on_floor):
    """A card-entry round with every river decision made: PD seat 1; seat 2 plays 4x, seat
    3 folds with a Trips wager (turned face up), seat 4 folds with none (mucked)."""
    table = on_floor.ready_table(deal_mode="card_entry")
    on_floor.bank(table, 1)
    ante = on_floor.ante_cents
    round_, _ = start_with_hands(
        table.pk,
        by=on_floor.dealer,
        bank=on_floor.bank_cents,
        bets=[
            BetRequest(2, ante, ante),
            BetRequest(3, ante, ante, ante),
            BetRequest(4, ante, ante),
        ],
    )
    plans = {2: PLAY_4X, 3: FOLD, 4: FOLD}
    round_ = advance(
        round_, State.RIVER, by=on_floor.dealer, plans=plans, flop=BOARD[:3],
        turn_and_river=BOARD[3:],
    )  # fmt: skip
    decide_street(round_, plans, by=on_floor.dealer)
    return round_


TURNED_UP = {"player_dealer": ["2c", "7d"], "hands": {"2": ["As", "Ah"], "3": ["Kc", "Qc"]}}
# Each: the cards keyed (None: no "cards"), then the 400 body's code, field and rule. None
# of the answers names a card.
SHOWDOWN_ENTRIES = {
    "nothing_keyed": (None, "rule_broken", "cards", Rule.CARD_ENTRY),
    "the_mucked_hand_keyed": (
        {**TURNED_UP, "hands": {**TURNED_UP["hands"], "4": ["5h", "6h"]}},
        "rule_broken",
        "hands",
        Rule.CARD_ENTRY,
    ),
    "a_hand_turned_up_missing": (
        {**TURNED_UP, "hands": {"2": ["As", "Ah"]}},
        "rule_broken",
        "hands",
        Rule.CARD_ENTRY,
    ),
    "a_card_twice": (
        {**TURNED_UP, "hands": {"2": ["As", "Ah"], "3": ["As", "Qc"]}},
        "rule_broken",
        "hands.3",
        Rule.CARD_ONCE,
    ),
    "a_card_on_the_board": (
        {**TURNED_UP, "hands": {"2": ["As", "Kd"], "3": ["Kc", "Qc"]}},
        "rule_broken",
        "hands.2",
        Rule.CARD_ONCE,
    ),
    "not_a_card": (
        {**TURNED_UP, "hands": {"2": ["As", "Ah"], "3": ["Kx", "Qc"]}},
        "rule_broken",
        "hands.3[0]",
        Rule.CARD,
    ),
    "one_card": ({**TURNED_UP, "player_dealer": ["2c"]}, "rule_broken", "player_dealer", Rule.CARD),
    # A seat is written in the ASCII digits: a superscript two or an Arabic-Indic five is
    # refused, never read as seat 2 or 5 (nor a server error), and a key is not repeated.
    **{
        f"seat_{seat!r}": (
            {**TURNED_UP, "hands": {seat: ["As", "Ah"], "3": ["Kc", "Qc"]}},
            "invalid",
            "cards.hands",
            None,
        )
        for seat in ["two", "\u00b2", "\u0665", "0", "2.0", "99999", "Ah"]
    },
    "a_seat_twice": (
        {**TURNED_UP, "hands": {"2": ["As", "Ah"], "02": ["5h", "6h"], "3": ["Kc", "Qc"]}},
        "invalid",
        "cards.hands",
        None,
    ),
    "no_player_dealer": ({"hands": TURNED_UP["hands"]}, "invalid", "cards.player_dealer", None),
    "a_card_not_text": (
        {**TURNED_UP, "hands": {"2": ["As", {"card": "Ah"}], "3": ["Kc", "Qc"]}},
        "invalid",
        "cards.hands.2.1",
        None,
    ),
}  # fmt: skip


def test_the_showdown_entry_is_checked_naming_no_card(as_dealer, showdown_round):
    keyed = {"2c", "7d", "As", "Ah", "Kc", "Qc", "5h", "6h", "Kx"}
    for case, (cards, code, field, rule) in SHOWDOWN_ENTRIES.items():
        body = {} if cards is None else {"cards": cards}
        response = as_dealer.post(url(showdown_round, "showdown"), body, format="json")
        assert response.status_code == 400, (case, response.data)
        assert (response.data["code"], response.data["field"]) == (code, field), case
        if rule is not None:
            assert response.data["rule"] == rule, case
        text = json.dumps(response.data)  # the whole body: message, field, errors
        assert not {card for card in keyed if card in text} - set(BOARD), (case, text)
        showdown_round.refresh_from_db()
        assert (showdown_round.state, showdown_round.dealer_hole) == ("river", None), case
        assert [h.hole for h in showdown_round.hands.all()] == [None, None, None], case


def test_the_showdown_keys_the_hands_turned_face_up(as_dealer, showdown_round):
    response = as_dealer.post(url(showdown_round, "showdown"), {"cards": TURNED_UP}, format="json")
    assert response.status_code == 200, response.data
    data = response.data
    assert (data["state"], data["dealer_hole"]) == ("showdown", ["2c", "7d"])
    assert [(h["seat"], h["hole"], h["category"], h["result"]) for h in data["hands"]] == [
        (2, ["As", "Ah"], "three_of_a_kind", "win"),
        (3, ["Kc", "Qc"], "one_pair", "fold"),
        (4, None, "", "fold"),  # mucked: never keyed
    ]


def test_an_rng_showdown_keys_no_card(as_dealer, on_floor):
    round_ = on_floor.round_in("river")
    rounds.decide(round_id=round_.pk, seat=3, action="fold", by=on_floor.dealer)
    response = as_dealer.post(url(round_, "showdown"), {"cards": TURNED_UP}, format="json")
    assert response.status_code == 400
    assert (response.data["field"], response.data["rule"]) == ("cards", Rule.DEAL_MODE)
    round_.refresh_from_db()
    assert round_.state == "river"


# --- Decisions ------------------------------------------------------------------------------


def decide(client, round_, **body):
    return client.post(url(round_, "decisions"), body, format="json")


def test_decision(as_dealer, on_floor):
    round_ = on_floor.round_in("preflop")
    response = decide(as_dealer, round_, seat=2, action="play", multiple=3)
    assert response.status_code == 201, response.data
    hand = next(h for h in response.data["hands"] if h["seat"] == 2)
    (decision,) = hand["decisions"]
    assert (decision["street"], decision["action"], decision["multiple"]) == ("preflop", "play", 3)
    assert decision["by"] == "dealer"


def test_play_2x_preflop_names_the_rule(as_dealer, on_floor):
    round_ = on_floor.round_in("preflop")
    response = decide(as_dealer, round_, seat=2, action="play", multiple=2)
    assert response.status_code == 400
    assert response.data["field"] == "multiple"
    assert response.data["message"] == "Play pre-flop must be 3x or 4x the Ante, not 2x"
    assert response.data["rule"] == Rule.DECISIONS
    assert not HandDecision.objects.exists()


@pytest.mark.parametrize(
    ("state", "body", "field", "message"),
    [
        ("preflop", {"seat": 2, "action": "fold"}, "action", "a hand may fold only on the river"),
        ("preflop", {"seat": 5, "action": "check"}, "seat", "seat 5 is not in this hand"),
        ("preflop", {"seat": 2, "action": "check", "multiple": 3}, "multiple", "a check has no"),
        ("flop", {"seat": 3, "action": "play", "multiple": 3}, "multiple", "Play on the flop must"),
        ("flop", {"seat": 2, "action": "check"}, "action", "the hand already made its Play"),
        ("river", {"seat": 3, "action": "check"}, "action", "on the river a hand must Play 1x"),
        ("river", {"seat": 3, "action": "play", "multiple": 2}, "multiple", "Play on the river"),
    ],
)
def test_broken_decision_rules(as_dealer, on_floor, state, body, field, message):
    round_ = on_floor.round_in(state)
    before = HandDecision.objects.count()
    response = decide(as_dealer, round_, **body)
    assert response.status_code == 400, response.data
    assert response.data["code"] == "rule_broken"
    assert response.data["field"] == field
    assert response.data["message"].startswith(message)
    assert response.data["rule"] == Rule.DECISIONS
    assert HandDecision.objects.count() == before


def test_decision_input_errors(as_dealer, on_floor):
    round_ = on_floor.round_in("preflop")
    response = decide(as_dealer, round_, seat=2, action="raise", multiple=-1)
    assert response.status_code == 400
    assert response.data["code"] == "invalid"
    assert response.data["field"] == "action"
    assert response.data["message"] == '"raise" is not a valid choice.'
    assert set(response.data["errors"]) == {"action", "multiple"}


def test_flop_waits_for_every_preflop_decision(as_dealer, on_floor):
    round_ = on_floor.round_in("preflop")
    decide(as_dealer, round_, seat=2, action="play", multiple=4)
    response = as_dealer.post(url(round_, "flop"), {}, format="json")
    assert response.status_code == 409
    assert response.data["code"] == State.PREFLOP
    assert response.data["rule"] == Rule.ROUND_SEQUENCE
    assert response.data["message"] == "seat(s) 3 have not made their preflop decision"
    round_.refresh_from_db()
    assert round_.board == []


# --- Withheld cards -------------------------------------------------------------------------


@pytest.mark.parametrize("state", ALL_STATES)
def test_dealer_hole_withheld_until_the_showdown(as_compliance, on_floor, state):
    if state == "voided":
        round_ = on_floor.round_in("flop")
        rounds.void_round(round_id=round_.pk, by=on_floor.supervisor, reason="misdeal")
    else:
        round_ = on_floor.round_in(state)
    round_.refresh_from_db()
    data = as_compliance.get(url(round_)).data
    revealed = state in ("showdown", "settled")  # voided before its showdown: never (§2.6)
    assert data["cards_revealed"] is revealed
    if revealed:
        assert data["dealer_hole"] == round_.dealer_hole
        assert data["shuffled_deck"] == round_.shuffled_deck
        assert len(data["dealer_hole"]) == 2
    else:
        assert data["dealer_hole"] is None
        assert data["shuffled_deck"] is None
    listed = as_compliance.get("/api/rounds/", {"table": round_.table_id}).data["results"]
    assert "dealer_hole" not in listed[0]
    assert "shuffled_deck" not in listed[0]


# --- Void -----------------------------------------------------------------------------------


def test_void(as_supervisor, on_floor):
    round_ = on_floor.round_in("flop")
    response = as_supervisor.post(url(round_, "void"), {"reason": "  card exposed "}, format="json")
    assert response.status_code == 200
    assert response.data["state"] == "voided"
    assert response.data["void_reason"] == "card exposed"
    assert response.data["ended_at"]


def test_void_needs_a_reason(as_supervisor, on_floor):
    round_ = on_floor.round_in("flop")
    response = as_supervisor.post(url(round_, "void"), {"reason": " "}, format="json")
    assert response.status_code == 400
    assert response.data["code"] == "rule_broken"
    assert response.data["field"] == "reason"
    assert response.data["message"] == "say why the round is void"
    assert response.data["rule"] == Rule.VOID_REASON
    round_.refresh_from_db()
    assert round_.state == "flop"


def test_a_bank_that_leaves_no_chips_for_the_fee_is_400_naming_the_rule(as_dealer, staff, clock):
    """docs/rules.md §9.4: the player-dealer's fee is paid from the chips beside the bank."""
    mt = money_table(staff, {1: 100_000, 2: 100_000}, deal_mode="rng")
    table_schedule(mt.table, by=staff.supervisor)  # $0.25 a square for the player-dealer
    clock.advance(seconds=1)
    give_button(mt.table.pk, 1, by=staff.dealer)
    round_ = rounds.start_round(table_id=mt.table.pk, by=staff.dealer)
    response = as_dealer.post(url(round_, "bank"), {"amount": 100_000}, format="json")
    assert response.status_code == 400
    assert response.data == {
        "code": "rule_broken",
        "rule": "fees.collection",
        "section": "9.4",
        "field": "amount",
        "message": f"a bank of $1,000.00 leaves {mt.seated[1].name} $0.00 in chips at the "
        'table; the player-dealer owes at least $0.50 in collection fees at "no more bets", '
        "paid from the chips beside the bank, not from it: post a bank of at most $999.00, or "
        "buy in first",
    }
    assert not PlayerDealerBank.objects.filter(round=round_).exists()
    assert as_dealer.post(url(round_, "bank"), {"amount": 99_900}, format="json").status_code == 201


def test_missing_round_is_404(as_supervisor):
    assert as_supervisor.get("/api/rounds/99999/").status_code == 404
    assert as_supervisor.post("/api/rounds/99999/settle/").status_code == 404
    assert as_supervisor.post("/api/rounds/99999/wagers/", wager(2)).status_code == 404
    assert as_supervisor.post("/api/rounds/99999/bank/", {"amount": 1000}).status_code == 404


# --- Every illegal transition answers 409 and changes nothing -----------------------------

TRANSITIONS = {
    "bank": ({"amount": 1000}, {"wagering"}),
    "wagers": (wager(4), {"wagering"}),
    "no-more-bets": ({}, {"wagering"}),
    "deal": ({}, {"no_more_bets"}),
    "decisions": ({"seat": 3, "action": "check"}, {"preflop", "flop", "river"}),
    "flop": ({}, {"preflop"}),
    "turn-river": ({}, {"flop"}),
    "showdown": ({}, {"river"}),
    "settle": ({}, {"showdown"}),
    "void": ({"reason": "misdeal"}, {s.value for s in ACTIVE_ROUND_STATES}),
}
ILLEGAL = [
    (action, state)
    for action, (_, legal) in TRANSITIONS.items()
    for state in ALL_STATES
    if state not in legal
]


def snapshot(round_: Round) -> tuple:
    round_.refresh_from_db()
    return (
        round_.state,
        RoundTransition.objects.filter(round=round_).count(),
        round_.hands.count(),
        HandDecision.objects.filter(hand__round=round_).count(),
        round_.board,
        round_.dealer_hole,
        round_.void_reason,
        Round.objects.filter(table_id=round_.table_id).count(),
        Bet.objects.filter(hand__round=round_).count(),
        PlayerDealerBank.objects.filter(round=round_).count(),
        LedgerTransaction.objects.count(),
    )


@pytest.mark.parametrize(("action", "state"), ILLEGAL)
def test_illegal_transition_is_409_naming_the_state(as_supervisor, on_floor, action, state):
    round_ = on_floor.round_in(state)
    before = snapshot(round_)
    body, _ = TRANSITIONS[action]
    response = as_supervisor.post(url(round_, action), body, format="json")
    assert response.status_code == 409, response.data
    assert response.data["code"] == state
    assert f"is {State(state).label.lower()}" in response.data["message"]
    assert snapshot(round_) == before


@pytest.mark.parametrize("state", [s.value for s in ACTIVE_ROUND_STATES])
def test_start_while_a_round_is_in_play_is_409(as_supervisor, on_floor, state):
    round_ = on_floor.round_in(state)
    before = snapshot(round_)
    response = as_supervisor.post(f"/api/tables/{round_.table_id}/rounds/")
    assert response.status_code == 409
    assert response.data["code"] == state
    assert response.data["rule"] == Rule.ROUND_SEQUENCE
    assert snapshot(round_) == before


# --- A whole round, from an empty floor to settled, through the API -----------------------


def test_full_round_through_the_api(as_supervisor, as_dealer):
    def ok(response, code=200):
        assert response.status_code == code, response.data
        return response.data

    table = ok(
        as_supervisor.post(
            "/api/tables/", {"name": "Full", "deal_mode": "card_entry"}, format="json"
        ),
        201,
    )
    players = [
        ok(
            as_supervisor.post(
                "/api/players/", {"player_number": f"F{n}", "name": f"P{n}"}, format="json"
            ),
            201,
        )
        for n in (1, 2, 3)
    ]
    tid = table["id"]
    for seat, player in zip((1, 2, 3), players, strict=True):
        ok(
            as_dealer.post(
                f"/api/tables/{tid}/seats/", {"seat": seat, "player": player["id"]}, format="json"
            ),
            201,
        )
    ok(
        as_supervisor.post(f"/api/tables/{tid}/game/open/", {"first_offer_seat": 1}, format="json"),
        201,
    )
    offer = ok(as_dealer.post(f"/api/tables/{tid}/button/offer/"), 201)
    ok(
        as_dealer.post(
            f"/api/tables/{tid}/button/offers/{offer['id']}/answer/",
            {"accept": True},
            format="json",
        )
    )
    status = as_dealer.get(f"/api/tables/{tid}/").data["button_status"]
    assert status == "seat 1 accepted; start the round"

    for player in players:
        ok(
            as_dealer.post(
                f"/api/tables/{tid}/chips/buy-in/",
                {"player": player["id"], "amount": 100_000, "currency": True},
                format="json",
            ),
            201,
        )

    rid = ok(as_dealer.post(f"/api/tables/{tid}/rounds/"), 201)["id"]
    r = f"/api/rounds/{rid}/"
    waiting = as_dealer.post(f"{r}no-more-bets/")
    assert waiting.status_code == 409
    assert waiting.data["code"] == State.WAGERING
    assert waiting.data["rule"] == Rule.BANK
    assert "has not posted the bank" in waiting.data["message"]
    data = ok(as_dealer.post(f"{r}bank/", {"amount": 20_000}, format="json"), 201)
    assert (data["bank"]["amount"], data["bank"]["net"]) == (20_000, None)
    ok(as_dealer.post(f"{r}wagers/", wager(2), format="json"), 201)
    ok(as_dealer.post(f"{r}wagers/", wager(3), format="json"), 201)
    ok(as_dealer.post(f"{r}no-more-bets/"))
    data = ok(as_dealer.post(f"{r}deal/", {}, format="json"))  # face down: nothing keyed
    assert [h["hole"] for h in data["hands"]] == [None, None]
    assert data["dealer_hole"] is None
    ok(
        as_dealer.post(
            f"{r}decisions/", {"seat": 2, "action": "play", "multiple": 4}, format="json"
        ),
        201,
    )
    ok(as_dealer.post(f"{r}decisions/", {"seat": 3, "action": "check"}, format="json"), 201)
    duplicate = as_dealer.post(f"{r}flop/", {"cards": ["Ad", "Kd", "Ad"]}, format="json")
    assert duplicate.status_code == 400
    assert duplicate.data["field"] == "cards[2]"
    assert duplicate.data["message"] == "cards 1 and 3 keyed for the flop are the same card"
    assert duplicate.data["rule"] == Rule.CARD_ONCE
    data = ok(as_dealer.post(f"{r}flop/", {"cards": ["Ad", "Kd", "3s"]}, format="json"))
    assert data["board"] == ["Ad", "Kd", "3s"]
    ok(as_dealer.post(f"{r}decisions/", {"seat": 3, "action": "check"}, format="json"), 201)
    data = ok(as_dealer.post(f"{r}turn-river/", {"cards": ["9h", "4c"]}, format="json"))
    assert data["board"] == ["Ad", "Kd", "3s", "9h", "4c"]
    assert data["dealer_hole"] is None
    ok(as_dealer.post(f"{r}decisions/", {"seat": 3, "action": "fold"}, format="json"), 201)
    # Seat 3 folded with no Trips wager: its cards are mucked; the rest are keyed face up.
    turned_up = {"player_dealer": ["2c", "7d"], "hands": {"2": ["As", "Ah"]}}
    data = ok(as_dealer.post(f"{r}showdown/", {"cards": turned_up}, format="json"))
    assert data["dealer_hole"] == ["2c", "7d"]
    assert [h["hole"] for h in data["hands"]] == [["As", "Ah"], None]
    assert (data["dealer_category"], data["dealer_qualifies"]) == ("high_card", False)
    assert [(h["seat"], h["category"], h["result"]) for h in data["hands"]] == [
        (2, "three_of_a_kind", "win"),
        (3, "", "fold"),
    ]
    data = ok(as_dealer.post(f"{r}settle/"))
    assert data["state"] == "settled"
    assert data["ended_at"]
    # Dealer does not qualify: seat 2's Ante pushes, its Play wins 2000 and its Blind (three
    # of a kind, below a Straight) pushes; seat 3's fold loses Ante and Blind, 1000.
    assert (data["bank"]["net"], data["bank"]["remaining"]) == (-1000, 19_000)
    assert [(t["from"], t["to"]) for t in data["transitions"]] == [
        ("", "wagering"),
        ("wagering", "no_more_bets"),
        ("no_more_bets", "preflop"),
        ("preflop", "flop"),
        ("flop", "river"),
        ("river", "showdown"),
        ("showdown", "settled"),
    ]
    seat3 = data["hands"][1]
    assert [(d["street"], d["action"], d["multiple"]) for d in seat3["decisions"]] == [
        ("preflop", "check", 0),
        ("flop", "check", 0),
        ("river", "fold", 0),
    ]
    assert as_dealer.get(f"/api/tables/{tid}/").data["button_status"] == (
        "offer the button: offers start at seat 2 and go clockwise"
    )


# --- The rounds list ------------------------------------------------------------------------


def test_rounds_list_filters(as_compliance, on_floor, supervisor):
    first_table = on_floor.ready_table()
    settled = on_floor.round_in("settled", first_table)
    voided = on_floor.start(first_table, banker_seat=2, join=(3,))
    rounds.void_round(round_id=voided.pk, by=supervisor, reason="misdeal")
    other = on_floor.round_in("flop")

    def ids(**params):
        response = as_compliance.get("/api/rounds/", params)
        assert response.status_code == 200, response.data
        return [row["id"] for row in response.data["results"]]

    assert sorted(ids()) == sorted([settled.pk, voided.pk, other.pk])
    assert ids(table=first_table.pk) == [settled.pk, voided.pk]
    assert ids(game=other.game_id) == [other.pk]
    assert ids(state="voided") == [voided.pk]
    assert ids(player_dealer=voided.player_dealer_id) == [voided.pk]
    voided.refresh_from_db()
    assert ids(started_after=voided.started_at.isoformat(), table=first_table.pk) == [voided.pk]
    assert ids(started_before=voided.started_at.isoformat(), table=first_table.pk) == [settled.pk]
    row = as_compliance.get("/api/rounds/", {"state": "flop"}).data["results"][0]
    assert row["player_dealer"]["seat"] == 1
    assert row["board"] == other.board
    bad = as_compliance.get("/api/rounds/", {"state": "dancing", "started_after": "yesterday"})
    assert bad.status_code == 400
    assert bad.data["code"] == "invalid"
    assert bad.data["field"] == "state"  # the first of the filters, in their order
    assert bad.data["message"] == bad.data["errors"]["state"][0]
    assert set(bad.data["errors"]) == {"state", "started_after"}
