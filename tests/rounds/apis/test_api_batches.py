"""The batch endpoints: a street's decisions (``decisions/street/``) and a round's wagers
(``wagers/batch/``) in one call, all or none, each row named by its index when refused."""

from __future__ import annotations

from typing import Any

import pytest

from cardroom.errors import Rule, State
from tables.models import Hand, HandDecision, Round, Seating
from tests.builders.api import Floor
from tests.builders.floor import advance, round_snapshot
from wagers.models import Bet, LedgerTransaction

pytestmark = pytest.mark.django_db


def street_url(round_: Round) -> str:
    return f"/api/rounds/{round_.pk}/decisions/street/"


def batch_url(round_: Round) -> str:
    return f"/api/rounds/{round_.pk}/wagers/batch/"


def decision(seat: int, action: str, multiple: int = 0) -> dict[str, Any]:
    return {"seat": seat, "action": action, "multiple": multiple}


def wager(seat: int, ante: int = 500, **more) -> dict[str, Any]:
    return {"seat": seat, "ante": ante, "blind": ante, **more}


def effect(round_: Round) -> dict[str, Any]:
    """The round's rows, without the player ids that differ from one table to another."""
    snapshot = round_snapshot(round_.pk)
    snapshot["hands"] = [(seat, *rest) for seat, _player, *rest in snapshot["hands"]]
    return snapshot


def rows(round_: Round) -> dict[str, Any]:
    """What a refused call must leave as it was."""
    return {
        "hands": Hand.objects.filter(round=round_).count(),
        "decisions": HandDecision.objects.filter(hand__round=round_).count(),
        "bets": list(
            Bet.objects.filter(hand__round=round_).order_by("id").values_list("id", "play_cents")
        ),
        "ledger": LedgerTransaction.objects.count(),
        "state": Round.objects.get(pk=round_.pk).state,
    }


# --- A street's decisions -------------------------------------------------------------------


STREET = [decision(2, "play", 4), decision(3, "check"), decision(4, "play", 3)]


def test_a_street_in_one_call_equals_the_decisions_one_by_one(on_floor, as_dealer, clock):
    together = on_floor.round_in("preflop", join=(2, 3, 4))
    one_by_one = on_floor.round_in("preflop", join=(2, 3, 4))
    response = as_dealer.post(street_url(together), {"decisions": STREET}, format="json")
    assert response.status_code == 201, response.data
    for row in STREET:
        single = as_dealer.post(f"/api/rounds/{one_by_one.pk}/decisions/", row, format="json")
        assert single.status_code == 201, single.data
    assert response.data == as_dealer.get(f"/api/rounds/{together.pk}/").data
    assert effect(together) == effect(one_by_one)
    made = HandDecision.objects.filter(hand__round=together).order_by("hand__seat")
    assert [(d.hand.seat, d.street, d.action, d.multiple) for d in made] == [
        (2, "preflop", "play", 4),
        (3, "preflop", "check", 0),
        (4, "preflop", "play", 3),
    ]
    assert [
        b.play_cents for b in Bet.objects.filter(hand__round=together).order_by("hand__seat")
    ] == [
        2000,
        0,
        1500,
    ]


def test_a_street_answered_minimal(on_floor, as_dealer):
    round_ = on_floor.round_in("preflop")
    body = {"decisions": [decision(2, "play", 4), decision(3, "check")]}
    response = as_dealer.post(street_url(round_), body, format="json", HTTP_PREFER="return=minimal")
    assert response.status_code == 201
    assert response.json() == {"id": round_.pk, "state": "preflop"}
    assert response["Preference-Applied"] == "return=minimal"
    assert HandDecision.objects.filter(hand__round=round_).count() == 2


@pytest.mark.parametrize(
    ("street", "code", "field", "message"),
    [
        (
            [decision(2, "play", 4), decision(3, "raise")],
            "invalid",
            "decisions.1.action",
            '"raise" is not a valid choice.',
        ),
        (
            [decision(2, "play", 4), {"seat": "two", "action": "check"}],
            "invalid",
            "decisions.1.seat",
            "a whole number is required, written with the digits 0-9",
        ),
        ([], "invalid", "decisions", "Ensure this field has at least 1 elements."),
        (
            [decision(2, "check")] * 6,
            "invalid",
            "decisions",
            "Ensure this field has no more than 5 elements.",
        ),
        (
            [decision(2, "play", 4), decision(5, "check")],
            "rule_broken",
            "decisions.1.seat",
            "seat 5 is not in this hand",
        ),
        (
            [decision(2, "play", 4), decision(2, "check")],
            "rule_broken",
            "decisions.1.action",
            "the hand already made its Play (4x the Ante); a Play is final",
        ),
        (
            [decision(2, "play", 4), decision(3, "play", 2)],
            "rule_broken",
            "decisions.1.multiple",
            "Play pre-flop must be 3x or 4x the Ante, not 2x",
        ),
        ([decision(5, "check")], "rule_broken", "decisions.0.seat", "seat 5 is not in this hand"),
    ],
    ids=[
        "not-an-action",
        "not-a-seat",
        "empty",
        "too-many",
        "seat-not-in-hand",
        "twice",
        "not-a-preflop-multiple",
        "one-row",
    ],
)
def test_a_bad_row_is_400_naming_it_and_records_nothing(
    on_floor, as_dealer, street, code, field, message
):
    round_ = on_floor.round_in("preflop")
    before = rows(round_)
    response = as_dealer.post(street_url(round_), {"decisions": street}, format="json")
    assert response.status_code == 400, response.data
    assert (response.data["code"], response.data["field"]) == (code, field)
    assert response.data["message"].startswith(message)
    assert set(response.data) >= {"code", "rule", "section", "field", "message"}
    assert rows(round_) == before


def test_a_play_the_chips_do_not_cover_names_its_row(staff, as_dealer):
    """The Plays' chips are checked for the street at once; the refusal names the seat's row."""
    floor = Floor(staff=staff, chips=1_500)  # Ante and Blind leave $5.00: no 4x Play
    table = floor.ready_table()
    banker = Seating.objects.get(table=table, seat=1, left_at__isnull=True).player
    floor.bring_chips(table, banker, 50_000)
    round_ = advance(floor.start(table), State.PREFLOP, by=staff.dealer)
    before = rows(round_)
    street = [decision(2, "check"), decision(3, "play", 4)]
    response = as_dealer.post(street_url(round_), {"decisions": street}, format="json")
    assert response.status_code == 400, response.data
    assert (response.data["rule"], response.data["field"]) == (
        Rule.CHIPS_IN_FRONT,
        "decisions.1.multiple",
    )
    assert response.data["message"].startswith("seat 3: a Play of $20.00")
    assert rows(round_) == before


def test_a_street_in_the_wrong_state_is_409(on_floor, as_dealer):
    round_ = on_floor.round_in("wagering")
    before = rows(round_)
    response = as_dealer.post(
        street_url(round_), {"decisions": [decision(2, "check")]}, format="json"
    )
    assert response.status_code == 409
    assert response.data["code"] == State.WAGERING
    assert rows(round_) == before


def test_a_street_needs_a_dealer_or_a_supervisor(on_floor, as_compliance, as_supervisor):
    round_ = on_floor.round_in("preflop")
    body = {"decisions": [decision(2, "play", 4), decision(3, "check")]}
    response = as_compliance.post(street_url(round_), body, format="json")
    assert response.status_code == 403 and response.data["code"] == "permission_denied"
    assert not HandDecision.objects.filter(hand__round=round_).exists()
    assert as_supervisor.post(street_url(round_), body, format="json").status_code == 201
    missing = as_supervisor.post("/api/rounds/999999/decisions/street/", body, format="json")
    assert missing.status_code == 404


def test_a_whole_round_street_by_street(on_floor, as_dealer, clock):
    """Seat 2 plays 4x pre-flop, seat 3 checks twice and plays 1x on the river: the round
    ends as the same plans played by the services end (the same deck, ``Floor.seed``)."""
    round_ = on_floor.round_in("preflop")
    streets = {
        "preflop": [decision(2, "play", 4), decision(3, "check")],
        "flop": [decision(3, "check")],
        "river": [decision(3, "play", 1)],
    }
    reveal = {"preflop": "flop", "flop": "turn-river", "river": "showdown"}
    for state, street in streets.items():
        response = as_dealer.post(street_url(round_), {"decisions": street}, format="json")
        assert response.status_code == 201 and response.data["state"] == state, response.data
        assert as_dealer.post(f"/api/rounds/{round_.pk}/{reveal[state]}/").status_code == 200
    assert as_dealer.post(f"/api/rounds/{round_.pk}/settle/").status_code == 200
    reference = on_floor.round_in("settled")  # seat 2 PLAY_4X, seat 3 PLAY_RIVER
    assert effect(round_) == effect(reference)


# --- A round's wagers ---------------------------------------------------------------------


BETS = [wager(2, trips=500), wager(3), wager(4, ante=1000)]


def test_wagers_in_one_call_equal_the_wagers_one_by_one(on_floor, as_dealer, clock):
    together = on_floor.start(on_floor.ready_table(), join=())
    one_by_one = on_floor.start(on_floor.ready_table(), join=())
    response = as_dealer.post(batch_url(together), {"bets": BETS}, format="json")
    assert response.status_code == 201, response.data
    for row in BETS:
        single = as_dealer.post(f"/api/rounds/{one_by_one.pk}/wagers/", row, format="json")
        assert single.status_code == 201, single.data
    assert response.data == as_dealer.get(f"/api/rounds/{together.pk}/").data
    assert effect(together) == effect(one_by_one)
    placed = Bet.objects.filter(hand__round=together).order_by("hand__seat")
    assert [(b.hand.seat, b.ante_cents, b.blind_cents, b.trips_cents) for b in placed] == [
        (2, 500, 500, 500),
        (3, 500, 500, 0),
        (4, 1000, 1000, 0),
    ]


def test_wagers_answered_minimal(on_floor, as_dealer):
    round_ = on_floor.start(on_floor.ready_table(), join=())
    response = as_dealer.post(
        batch_url(round_), {"bets": BETS}, format="json", HTTP_PREFER="return=minimal"
    )
    assert response.status_code == 201
    assert response.json() == {"id": round_.pk, "state": "wagering"}
    assert response["Preference-Applied"] == "return=minimal"
    assert Bet.objects.filter(hand__round=round_).count() == 3


@pytest.mark.parametrize(
    ("bets", "code", "field", "message"),
    [
        ([wager(2), wager(3, ante="five")], "invalid", "bets.1.ante", "a whole number"),
        (  # every square is optional in the API (a baccarat bet has no Blind): the rule says
            [wager(2), {"seat": 3, "ante": 500}],
            "rule_broken",
            "bets.1.blind",
            "Ante ($5.00) and Blind ($0.00) must be equal",
        ),
        ([], "invalid", "bets", "Ensure this field has at least 1 elements."),
        ([wager(2), wager(1)], "rule_broken", "bets.1.seat", "seat 1 is the player-dealer"),
        (
            [wager(2), wager(3, ante=500, blind=1000)],
            "rule_broken",
            "bets.1.blind",
            "Ante ($5.00) and Blind ($10.00) must be equal",
        ),
        (
            [wager(2), wager(3, ante=200_000)],
            "rule_broken",
            "bets.1.ante",
            "the Ante of $2,000.00 is above the table maximum of $500.00",
        ),
        ([wager(5)], "rule_broken", "bets.0.seat", "seat 5 is empty"),
    ],
    ids=["not-cents", "no-blind", "empty", "player-dealer", "blind-not-ante", "limit", "one-row"],
)
def test_a_bad_wager_is_400_naming_its_row_and_places_nothing(
    on_floor, as_dealer, bets, code, field, message
):
    round_ = on_floor.start(on_floor.ready_table(), join=())
    before = rows(round_)
    response = as_dealer.post(batch_url(round_), {"bets": bets}, format="json")
    assert response.status_code == 400, response.data
    assert (response.data["code"], response.data["field"]) == (code, field)
    assert response.data["message"].startswith(message)
    assert rows(round_) == before


def test_wagers_the_chips_do_not_cover_name_their_row(staff, as_dealer):
    floor = Floor(staff=staff, chips=1_500)
    table = floor.ready_table()
    banker = Seating.objects.get(table=table, seat=1, left_at__isnull=True).player
    floor.bring_chips(table, banker, 50_000)
    round_ = floor.start(table, join=())
    before = rows(round_)
    response = as_dealer.post(
        batch_url(round_), {"bets": [wager(2), wager(3, ante=1000)]}, format="json"
    )
    assert response.status_code == 400, response.data
    assert (response.data["rule"], response.data["field"]) == (Rule.CHIPS_IN_FRONT, "bets.1.blind")
    assert rows(round_) == before


def test_wagers_in_the_wrong_state_are_409(on_floor, as_dealer):
    round_ = on_floor.round_in("no_more_bets")
    before = rows(round_)
    response = as_dealer.post(batch_url(round_), {"bets": [wager(4)]}, format="json")
    assert response.status_code == 409
    assert response.data["code"] == State.NO_MORE_BETS
    assert rows(round_) == before


def test_wagers_need_a_dealer_or_a_supervisor(on_floor, as_compliance, as_supervisor):
    round_ = on_floor.start(on_floor.ready_table(), join=())
    response = as_compliance.post(batch_url(round_), {"bets": BETS}, format="json")
    assert response.status_code == 403 and response.data["code"] == "permission_denied"
    assert not Bet.objects.filter(hand__round=round_).exists()
    assert as_supervisor.post(batch_url(round_), {"bets": BETS}, format="json").status_code == 201
    missing = as_supervisor.post("/api/rounds/999999/wagers/batch/", {"bets": BETS}, format="json")
    assert missing.status_code == 404


def test_a_batch_replays_under_its_idempotency_key(on_floor, as_dealer):
    round_ = on_floor.start(on_floor.ready_table(), join=())
    sent = [
        as_dealer.post(
            batch_url(round_),
            {"bets": BETS},
            format="json",
            HTTP_IDEMPOTENCY_KEY="bets-1",
            HTTP_PREFER="return=minimal",
        )
        for _ in range(2)
    ]
    assert [r.status_code for r in sent] == [201, 201]
    assert sent[0].json() == sent[1].json() == {"id": round_.pk, "state": "wagering"}
    assert sent[1]["Idempotent-Replayed"] == "true"
    assert sent[1]["Preference-Applied"] == "return=minimal"
    assert Bet.objects.filter(hand__round=round_).count() == 3
