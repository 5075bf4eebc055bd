"""Every settled hand played again from its records (``wagers/recomputation.py``, the last
check of ``verify_ledger``; docs/money.md, "What ``verify_ledger`` checks").

One card-entry hand with something of everything: seat 2 plays 4x with a flush and wins,
a backline bettor behind it, seat 3 folds with a losing Trips, seat 4 folds with nothing
else. It verifies clean, and so does the same hand with seat 4's cards off the record (a
fold without cards: the card-entry design may come to keep no cards of a mucked hand).
Then each record changed on its own, as an attacker with SQL access would (triggers off),
is named: the board (the hand's result, its lines and the bank's net follow), a card dealt
twice, a folded hand's cards gone with a Trips on it, a decision, a Play, a category.
The RNG side (the cards against the stored deck) and the word-for-word messages are in
``tests/rounds/commands/test_verify_ledger.py``; the hands of tests/wagers/services/
test_round_money.py and test_money_properties.py are played again by every check they run.
"""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from cardroom.money import dollars
from tables.models import HandDecision, Round
from tests.builders.floor import FOLD, PLAY_4X, Cards
from tests.builders.money import Wager, money_table, play_round, verified
from wagers import recomputation
from wagers.models import Bet, SettlementLine

pytestmark = pytest.mark.django_db

BOARD = ["2h", "7h", "9h", "Jd", "3c"]
CARDS = Cards(
    ["Kc", "Kd"], {2: ["Ah", "Qh"], 3: ["4s", "5d"], 4: ["6c", "8s"]}, BOARD
)  # fmt: skip


@pytest.fixture
def hand(staff, tamper):
    """The settled hand; ``edit(sql, params, undo)`` changes one of its rows behind the
    services' back (undone after the test)."""
    mt = money_table(staff, {1: 100_000, 2: 100_000, 3: 100_000, 4: 100_000}, backliners=(50_000,))
    round_ = play_round(
        mt,
        pd_seat=1,
        bank=20_000,
        wagers=[Wager(2, 1_000), Wager(2, 500, behind=0), Wager(3, 500, trips=500), Wager(4, 500)],
        decisions={2: PLAY_4X, 3: FOLD, 4: FOLD},
        cards=CARDS,
    )
    assert verified() == []

    def edit(table: str, column: str, value, where: str, params: list, was) -> None:
        cast = "::jsonb" if column in JSONS else ""
        sql = f"UPDATE {table} SET {column} = %s{cast} WHERE {where}"

        def encode(v):
            return v if v is None or not cast else json.dumps(v)

        tamper(sql, [encode(value), *params], sql, [encode(was), *params])

    return Round.objects.get(pk=round_.pk), edit


JSONS = {"board", "hole", "dealer_hole"}


def found(*checks: str) -> list[tuple]:
    """(check, what, expected, found) of each difference of ``checks`` (all if none)."""
    return [
        (d.check, d.what, d.expected, d.found)
        for d in verified()
        if not checks or d.check in checks
    ]


def said() -> list[str]:
    err = StringIO()
    with pytest.raises(CommandError, match=r"difference\(s\) in the ledger"):
        call_command("verify_ledger", stdout=StringIO(), stderr=err)
    return err.getvalue().splitlines()


def test_a_folded_hand_without_cards_on_record_is_a_fold(hand):
    """No cards, so no category either: the hand is the fold it was."""
    round_, edit = hand
    seat4 = round_.hands.get(seat=4)
    edit("tables_hand", "hole", None, "id = %s", [seat4.pk], seat4.hole)
    edit("tables_hand", "category", "", "id = %s", [seat4.pk], seat4.category)
    assert verified() == []


def test_a_folded_hand_with_trips_needs_its_cards(hand):
    round_, edit = hand
    seat3 = round_.hands.get(seat=3)
    edit("tables_hand", "hole", None, "id = %s", [seat3.pk], seat3.hole)
    assert found() == [
        (
            recomputation.NOT_A_DEAL,
            "seat 3's cards",
            "2 cards (the hand has a Trips wager)",
            "none",
        )
    ]
    assert said() == [
        f"DIFFERENCE settled round's cards are not a deal: round {round_.pk} ({round_}), "
        "seat 3's cards: expected 2 cards (the hand has a Trips wager), found none"
    ]


def test_a_board_replaced_at_a_card_entry_table_is_a_different_hand(hand):
    """The clubs take seat 2's flush away: king-high against the player-dealer's kings loses.
    The hand played again on the stored board disagrees with every record it touches."""
    round_, edit = hand
    edit("tables_round", "board", ["2c", "7c", "9c", "Jc", "3d"], "id = %s", [round_.pk], BOARD)
    lines = SettlementLine.objects.filter(round=round_, seat=2).order_by("order")
    differences = found()
    assert (recomputation.HAND, "seat 2's category", "high card", "flush") in differences
    assert (
        recomputation.HAND,
        "seat 2's result",
        "loses to the player-dealer",
        "beats the player-dealer",
    ) in differences
    # Seat 2 and its backline bettor: every winning line now loses.
    outcomes = {d[1:] for d in differences if d[:2] == (recomputation.LINE, "outcome")}
    assert outcomes == {("outcome", "lose", "win")}
    assert len([d for d in differences if d[:2] == (recomputation.LINE, "outcome")]) == len(
        [line for line in lines if line.outcome == "win"]
    )
    net = round_.bank.net_cents
    collected = sum(line.stake_cents for line in lines if line.wager != "trips")
    won = sum(line.paid_cents for line in lines)
    assert (recomputation.BANK, "the bank's net", net + won + collected, net) in differences
    assert (
        f"DIFFERENCE bank's result differs from the hand played again: round {round_.pk} "
        f"({round_}), the bank's net: expected {dollars(net + won + collected)}, "
        f"found {dollars(net)}"
    ) in said()


def test_a_card_dealt_twice(hand):
    round_, edit = hand
    seat2 = round_.hands.get(seat=2)
    edit("tables_hand", "hole", ["Kc", "Qh"], "id = %s", [seat2.pk], seat2.hole)
    assert found() == [
        (recomputation.NOT_A_DEAL, "the cards dealt", "each card once", "card Kc appears twice")
    ]


def test_a_decision_the_rules_do_not_allow(hand):
    round_, edit = hand
    seat4 = round_.hands.get(seat=4)
    edit(
        "tables_handdecision", "action", "check", "hand_id = %s AND street = 'river'",
        [seat4.pk], "fold",
    )  # fmt: skip
    assert found() == [
        (
            recomputation.DECISIONS,
            "seat 4's decisions",
            "on the river a hand must Play 1x the Ante or fold; it cannot check",
            "preflop check, flop check, river check",
        )
    ]
    assert HandDecision.objects.filter(hand=seat4, street="river", action="check").exists()


def test_a_play_that_is_not_the_decisions_multiple(hand):
    """Seat 2 played 4x its $10.00 Ante; a Play of $50.00 on record is named (the money
    checks find its lines and postings disagree too)."""
    round_, edit = hand
    bet = Bet.objects.get(hand__round=round_, hand__seat=2, bettor=0)
    edit("wagers_bet", "play_cents", 5_000, "id = %s", [bet.pk], bet.play_cents)
    assert (recomputation.PLAY, "seat 2's Play", 4_000, 5_000) in found()
    assert (
        f"DIFFERENCE bet's Play is not its hand's decision: round {round_.pk} ({round_}), "
        f"account {bet.account_id} ({bet.player}'s chips at {round_.table}), seat 2's Play: "
        "expected $40.00, found $50.00"
    ) in said()


def test_a_category_that_is_not_the_cards(hand):
    round_, edit = hand
    seat2 = round_.hands.get(seat=2)
    edit("tables_hand", "category", "straight_flush", "id = %s", [seat2.pk], seat2.category)
    edit("tables_round", "dealer_qualifies", False, "id = %s", [round_.pk], True)
    qualifies = "whether the player-dealer qualifies"
    assert found() == [
        (recomputation.DEALER, qualifies, "qualifies", "does not qualify"),
        (recomputation.HAND, "seat 2's category", "flush", "straight flush"),
    ]


def test_a_line_moved_out_of_its_place(hand):
    """The first line renumbered #99: the hand's line #1 is missing, and #99 is one the hand
    does not have."""
    round_, edit = hand
    line = SettlementLine.objects.filter(round=round_).order_by("order").first()
    edit("wagers_settlementline", '"order"', 99, "id = %s", [line.pk], line.order)
    words = (
        f"seat {line.seat} {line.wager} of {dollars(line.stake_cents)}, {line.outcome}, "
        f"collected {dollars(line.collected_cents)}"
    )
    assert (line.order, line.outcome) == (1, "lose")
    assert found(recomputation.LINE) == [
        (recomputation.LINE, "settlement line #1", f"#1 {words}", "none"),
        (recomputation.LINE, "a line the hand does not have", "none", f"#99 {words}"),
    ]
