"""The API shows no hole card and no deck before the showdown (docs/rules.md §2.6): the
player-dealer's, every seat's, at an RNG table and at a card-entry table (which keys them
only at the showdown, §2.3), in every state; a refused card entry names no card typed."""

from __future__ import annotations

import random

import pytest

from cardroom.errors import State
from rounds import services as rounds
from tables.models import DealMode, Round
from tests.builders.floor import PLAY_RIVER, Cards, advance

pytestmark = pytest.mark.django_db

ENTERED = Cards(["2c", "7d"], {2: ["As", "Ah"], 3: ["Kc", "Qc"]}, ["Ad", "Kd", "3s", "9h", "4c"])
# Each case: the state to reach, then whether to void it there; and whether the cards show.
CASES = {
    "wagering": (State.WAGERING, False, False),
    "no_more_bets": (State.NO_MORE_BETS, False, False),
    "preflop": (State.PREFLOP, False, False),
    "flop": (State.FLOP, False, False),
    "river": (State.RIVER, False, False),
    "showdown": (State.SHOWDOWN, False, True),
    "settled": (State.SETTLED, False, True),
    "voided_at_the_flop": (State.FLOP, True, False),
    "voided_at_the_showdown": (State.SHOWDOWN, True, True),
}


def reach(on_floor, mode: str, state: State, void: bool) -> Round:
    table = on_floor.ready_table(deal_mode=mode)
    round_ = on_floor.start(table, join=(2, 3))
    cards = ENTERED if mode == DealMode.CARD_ENTRY else None
    rng = random.Random(3) if mode == DealMode.RNG else None
    plans = {2: PLAY_RIVER, 3: PLAY_RIVER}
    round_ = advance(round_, state, by=on_floor.dealer, plans=plans, cards=cards, rng=rng)
    if void:
        round_ = rounds.void_round(round_id=round_.pk, by=on_floor.supervisor, reason="misdeal")
    return Round.objects.get(pk=round_.pk)


@pytest.mark.parametrize("mode", [DealMode.CARD_ENTRY, DealMode.RNG])
@pytest.mark.parametrize(("state", "void", "shown"), CASES.values(), ids=CASES.keys())
def test_hole_cards_and_the_deck_are_withheld_until_the_showdown(
    as_compliance, on_floor, mode, state, void, shown
):
    round_ = reach(on_floor, mode, state, void)
    data = as_compliance.get(f"/api/rounds/{round_.pk}/").data
    assert data["state"] == (State.VOIDED if void else state)
    holes = [h["hole"] for h in data["hands"]]
    if not shown:
        assert data["cards_revealed"] is False
        assert (data["dealer_hole"], data["shuffled_deck"], holes) == (None, None, [None, None])
        return
    assert data["cards_revealed"] is True
    stored = {h.seat: h.hole for h in round_.hands.all()}
    assert holes == [stored[2], stored[3]]
    assert data["dealer_hole"] == round_.dealer_hole
    assert data["shuffled_deck"] == round_.shuffled_deck
    if mode == DealMode.CARD_ENTRY:
        assert (data["dealer_hole"], holes) == (["2c", "7d"], [["As", "Ah"], ["Kc", "Qc"]])
        assert data["shuffled_deck"] is None  # card entry stores no deck
    else:
        assert len(data["shuffled_deck"]) == 52


def test_the_board_is_shown_as_it_is_dealt(as_compliance, on_floor):
    round_ = reach(on_floor, DealMode.CARD_ENTRY, State.FLOP, False)
    data = as_compliance.get(f"/api/rounds/{round_.pk}/").data
    assert data["board"] == ["Ad", "Kd", "3s"]


def test_a_card_entry_hand_stores_no_hole_card_before_the_showdown(on_floor):
    # Nothing to withhold, even from the database: the hole cards are keyed face up at the
    # showdown (docs/rules.md §2.3), none before.
    round_ = reach(on_floor, DealMode.CARD_ENTRY, State.RIVER, False)
    assert round_.dealer_hole is None
    assert [hand.hole for hand in round_.hands.all()] == [None, None]


def test_a_refused_flop_names_no_card_typed(as_dealer, on_floor):
    round_ = reach(on_floor, DealMode.CARD_ENTRY, State.PREFLOP, False)
    rounds.decide_street(
        round_id=round_.pk, decisions=[(2, "check", 0), (3, "check", 0)], by=on_floor.dealer
    )
    for cards, field in ((["Qd", "7d", "Qd"], "cards[2]"), (["Qd", "7dd", "5h"], "cards[1]")):
        response = as_dealer.post(f"/api/rounds/{round_.pk}/flop/", {"cards": cards}, format="json")
        assert response.status_code == 400
        assert response.data["field"] == field
        assert not {"Qd", "7d", "5h"} & set(response.data["message"].split())
        assert "7d" not in response.data["message"] and "Qd" not in response.data["message"]
    assert Round.objects.get(pk=round_.pk).board == []
