"""The settlement calculator for EZ Baccarat (docs/rules.md §14.7): hands worked by hand, and
every refusal naming its rule and its JSON field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardroom.errors import Rule, RuleError
from games.ez_baccarat.calculator import parse_request, settle_request
from games.ez_baccarat.options import BaccaratOptions
from games.ez_baccarat.wagers import Stakes
from tests.builders.baccarat import APPENDIX_REQUEST, baccarat_request, line_tuple
from tests.builders.rules import both, drop_at, set_at

FIRST_FOUR = ["9h", "2c", "Kd", "5s"]  # the appendix's cards as far as the rules deal them
EXAMPLES = Path(__file__).resolve().parents[3] / "docs" / "examples"


def _lines(answer):
    return [line_tuple(line) for line in answer["settlement"]]


# --- the appendix example --------------------------------------------------------------------


def test_the_appendix_example_as_written_breaks_the_drawing_rules():
    # Player 9h Kd: a natural 9 (Banker 2c 5s has 7). Neither hand draws, so the fifth card,
    # 4d, is one the rules forbid.
    with pytest.raises(RuleError) as caught:
        settle_request(baccarat_request())
    assert (caught.value.rule, caught.value.field) == (Rule.BACCARAT_DRAWING, "cards[4]")
    assert caught.value.message == (
        "no card is dealt here: the Player hand has a natural 9, so neither hand draws"
    )
    assert APPENDIX_REQUEST["cards"] == ["9h", "2c", "Kd", "5s", "4d", "3h"]  # not mutated


def test_the_appendix_wagers_on_the_appendix_coup():
    # Player 9 (natural) beats Banker 7. The player-dealer sits in seat 5: the order starts at
    # seat 6, so seat 7 settles first and seat 1 last (the order wraps after seat 9).
    # Seat 7: Banker $100 loses (N = $100), Dragon 7 $10 loses (N = $110).
    # Seat 1: Player $25 wins 1 to 1 (N = $85), Tie $5 loses (N = $90), Panda 8 $5 loses (a
    # natural is no three-card 8) (N = $95). The bank of $500 covers everything.
    request = json.loads((EXAMPLES / "ez-baccarat-hand.json").read_text())
    assert request == baccarat_request(cards=FIRST_FOUR)  # docs/settlement-calculator.md
    answer = settle_request(request)
    assert answer["player"] == {"cards": ["9h", "Kd"], "total": 9}
    assert answer["banker"] == {"cards": ["2c", "5s"], "total": 7}
    assert (answer["outcome"], answer["dragon_7"], answer["panda_8"]) == ("player", False, False)
    assert _lines(answer) == [
        (7, "banker", 10_000, "lose", 0, 10_000, 0, 0),
        (7, "dragon_7", 1_000, "lose", 0, 1_000, 0, 0),
        (1, "player", 2_500, "win", 2_500, 0, 0, 0),
        (1, "tie", 500, "lose", 0, 500, 0, 0),
        (1, "panda_8", 500, "lose", 0, 500, 0, 0),
    ]
    assert answer["player_dealer_net"] == 9_500
    assert set(answer) == {
        "player", "banker", "outcome", "dragon_7", "panda_8", "settlement", "player_dealer_net"
    }  # fmt: skip
    json.dumps(answer)


def test_every_option_but_the_game_has_its_default():
    request = baccarat_request(cards=FIRST_FOUR, options={"game": "ez_baccarat"})
    assert settle_request(request) == settle_request(baccarat_request(cards=FIRST_FOUR))
    options, seat, bank, coup, stakes = parse_request(request)
    assert options == BaccaratOptions()
    assert (seat, bank, len(coup.cards)) == (5, 50_000, 4)
    assert stakes == {
        1: Stakes(player=2_500, tie=500, panda_8=500),
        7: Stakes(banker=10_000, dragon_7=1_000),
    }


# --- a Dragon 7 that exhausts the bank ---------------------------------------------------------


def test_a_dragon_7_exhausts_the_bank_and_the_rest_is_uncovered():
    # Player 2h Kd draws 4h: 6. Banker 3c Ks, the Player's third a 4: draws 4c: 7. A Dragon 7.
    # The player-dealer in seat 8 with W = $300: the order is seats 9, 1, 3, 6.
    # Seat 9: Player $50 loses (N = $50); Panda 8 $5 loses (N = $55).
    # Seat 1: Banker $20 pushes (a Dragon 7); Dragon 7 $20 wins 40 to 1 = $800, W + N = $355:
    #   $355 paid, $445 unpaid (N = -$300): the bank is exhausted.
    # Seat 3: Banker $100 pushes; Tie $5 loses but is returned uncovered; Dragon 7 $10 wins $400,
    #   all unpaid. Seat 6: Player $40 loses, returned uncovered.
    request = baccarat_request(
        player_dealer={"seat": 8, "bank": 30_000},
        cards=["2h", "3c", "Kd", "Ks", "4h", "4c"],
        seats=[
            {"seat": 3, "banker": 10_000, "tie": 500, "dragon_7": 1_000},
            {"seat": 9, "player": 5_000, "panda_8": 500},
            {"seat": 1, "banker": 2_000, "dragon_7": 2_000},
            {"seat": 6, "player": 4_000},
        ],
    )
    example = json.loads((EXAMPLES / "ez-baccarat-dragon-short-bank.json").read_text())
    assert settle_request(example) == settle_request(request)  # docs/settlement-calculator.md
    answer = settle_request(request)
    assert answer["player"] == {"cards": ["2h", "Kd", "4h"], "total": 6}
    assert answer["banker"] == {"cards": ["3c", "Ks", "4c"], "total": 7}
    assert (answer["outcome"], answer["dragon_7"], answer["panda_8"]) == ("banker", True, False)
    assert _lines(answer) == [
        (9, "player", 5_000, "lose", 0, 5_000, 0, 0),
        (9, "panda_8", 500, "lose", 0, 500, 0, 0),
        (1, "banker", 2_000, "push", 0, 0, 0, 0),
        (1, "dragon_7", 2_000, "win", 35_500, 0, 0, 44_500),
        (3, "banker", 10_000, "push", 0, 0, 0, 0),
        (3, "tie", 500, "lose", 0, 0, 500, 0),
        (3, "dragon_7", 1_000, "win", 0, 0, 0, 40_000),
        (6, "player", 4_000, "lose", 0, 0, 4_000, 0),
    ]
    assert answer["player_dealer_net"] == -30_000


def test_a_bank_that_has_won_w_still_pays_winners_until_a_payment_empties_it():
    # Banker 4c 5s = 9 beats Player 4h 4d = 8 (naturals). The player-dealer in seat 1, W = $10.
    # Seat 2: Player $10 loses (N = $10 = W). Seat 3: Player $5 loses, but the player-dealer
    # cannot win more than W: returned uncovered. Seat 4: Banker $20 wins $20: W + N = $20, all
    # paid (N = -$10): the bank is exhausted. Seat 5: Player $3 loses, returned uncovered.
    request = baccarat_request(
        options={"game": "ez_baccarat", "seats": 6},
        player_dealer={"seat": 1, "bank": 1_000},
        cards=["4h", "4c", "4d", "5s"],
        seats=[
            {"seat": 5, "player": 300},
            {"seat": 4, "banker": 2_000},
            {"seat": 3, "player": 500},
            {"seat": 2, "player": 1_000},
        ],
    )
    answer = settle_request(request)
    assert answer["outcome"] == "banker"
    assert _lines(answer) == [
        (2, "player", 1_000, "lose", 0, 1_000, 0, 0),
        (3, "player", 500, "lose", 0, 0, 500, 0),
        (4, "banker", 2_000, "win", 2_000, 0, 0, 0),
        (5, "player", 300, "lose", 0, 0, 300, 0),
    ]
    assert answer["player_dealer_net"] == -1_000


def test_a_panda_8_at_9_to_1_ties_and_other_pays():
    # Player Ah 4d draws 3h: 8. Banker Kc 6s, the third a 3: stands on 6. A Panda 8.
    request = baccarat_request(
        options={"game": "ez_baccarat", "tie_pays": 9, "panda_8_pays": 30, "decks": 6},
        player_dealer={"seat": 9, "bank": 100_000},
        cards=["Ah", "Kc", "4d", "6s", "3h"],
        seats=[{"seat": 4, "player": 1_000, "tie": 100, "panda_8": 1_000, "dragon_7": 100}],
    )
    answer = settle_request(request)
    assert (answer["outcome"], answer["dragon_7"], answer["panda_8"]) == ("player", False, True)
    assert _lines(answer) == [
        (4, "player", 1_000, "win", 1_000, 0, 0, 0),
        (4, "tie", 100, "lose", 0, 100, 0, 0),
        (4, "dragon_7", 100, "lose", 0, 100, 0, 0),
        (4, "panda_8", 1_000, "win", 30_000, 0, 0, 0),
    ]
    assert answer["player_dealer_net"] == -30_800


def test_a_tie_pushes_both_base_wagers():
    request = baccarat_request(
        cards=["4h", "3c", "3d", "4s"],
        seats=[{"seat": 6, "player": 1_000, "tie": 200}, {"seat": 4, "banker": 500}],
    )
    answer = settle_request(request)
    assert answer["outcome"] == "tie"
    assert _lines(answer) == [
        (6, "player", 1_000, "push", 0, 0, 0, 0),
        (6, "tie", 200, "win", 1_600, 0, 0, 0),
        (4, "banker", 500, "push", 0, 0, 0, 0),
    ]
    assert answer["player_dealer_net"] == -1_600


def test_the_same_card_up_to_the_decks_in_the_shoe():
    request = baccarat_request(
        options={"game": "ez_baccarat", "decks": 6},
        cards=["Kd", "Kd", "Kd", "Kd", "Kd", "Kd"],  # 0 and 0: both draw a zero, a tie
    )
    answer = settle_request(request)
    assert answer["outcome"] == "tie"
    assert answer["player"]["cards"] == ["Kd", "Kd", "Kd"]


# --- refusals -----------------------------------------------------------------------------------

FORMAT, CARD, DRAWING, SHOE = (Rule.CALCULATOR_FORMAT, Rule.CARD, Rule.BACCARAT_DRAWING,
                               Rule.BACCARAT_SHOE)  # fmt: skip
OPTIONS, SEATS, BASE, SIDE = (Rule.BACCARAT_OPTIONS, Rule.BACCARAT_SEATS,
                              Rule.BACCARAT_BASE_WAGER, Rule.BACCARAT_SIDE_WAGERS)  # fmt: skip

# (id, change to the appendix wagers on the appendix coup, field, rule)
BAD = [
    # the form of the hand
    ("unknown-field", set_at("shoe", []), "shoe", FORMAT),
    ("missing-options", drop_at("options"), "options", FORMAT),
    ("options-not-an-object", set_at("options", "ez_baccarat"), "options", FORMAT),
    ("missing-game", drop_at("options.game"), "options.game", FORMAT),
    ("another-game", set_at("options.game", "ultimate_texas_holdem"), "options.game", FORMAT),
    ("missing-player-dealer", drop_at("player_dealer"), "player_dealer", FORMAT),
    ("player-dealer-not-an-object", set_at("player_dealer", 5), "player_dealer", FORMAT),
    ("player-dealer-with-hole-cards", set_at("player_dealer.hole", ["As", "Kd"]),
     "player_dealer.hole", FORMAT),
    ("missing-player-dealer-seat", drop_at("player_dealer.seat"), "player_dealer.seat", FORMAT),
    ("missing-bank", drop_at("player_dealer.bank"), "player_dealer.bank", FORMAT),
    ("missing-cards", drop_at("cards"), "cards", FORMAT),
    ("cards-not-a-list", set_at("cards", "9h 2c Kd 5s"), "cards", FORMAT),
    ("missing-seats", drop_at("seats"), "seats", FORMAT),
    ("empty-seats", set_at("seats", []), "seats", FORMAT),
    ("seats-not-a-list", set_at("seats", {"seat": 1}), "seats", FORMAT),
    ("seat-not-an-object", set_at("seats[0]", 1), "seats[0]", FORMAT),
    ("unknown-wager", set_at("seats[0].pair", 100), "seats[0].pair", FORMAT),
    ("missing-seat-number", drop_at("seats[0].seat"), "seats[0].seat", FORMAT),
    ("wager-a-float", set_at("seats[0].player", 2_500.0), "seats[0].player", FORMAT),
    ("wager-a-string", set_at("seats[0].tie", "500"), "seats[0].tie", FORMAT),
    ("wager-negative", set_at("seats[0].panda_8", -500), "seats[0].panda_8", FORMAT),
    ("wager-true", set_at("seats[1].banker", True), "seats[1].banker", FORMAT),
    ("bank-a-float", set_at("player_dealer.bank", 50_000.0), "player_dealer.bank", FORMAT),
    ("bank-negative", set_at("player_dealer.bank", -1), "player_dealer.bank", FORMAT),
    # the options
    ("unknown-option", set_at("options.trips_paytable", "UTH-01"), "options.trips_paytable",
     OPTIONS),
    ("seven-decks", set_at("options.decks", 7), "options.decks", OPTIONS),
    ("tie-pays-10", set_at("options.tie_pays", 10), "options.tie_pays", OPTIONS),
    ("dragon-pays-0", set_at("options.dragon_7_pays", 0), "options.dragon_7_pays", OPTIONS),
    ("ten-seats", set_at("options.seats", 10), "options.seats", OPTIONS),
    ("chip-0", set_at("options.chip_unit_cents", 0), "options.chip_unit_cents", OPTIONS),
    # the cards
    ("not-a-card", set_at("cards[2]", "1d"), "cards[2]", CARD),
    ("a-lowercase-rank", set_at("cards[0]", "kd"), "cards[0]", CARD),
    ("a-number", set_at("cards[1]", 12), "cards[1]", CARD),
    ("a-third-card-the-rules-forbid", set_at("cards", ["4h", "3c", "3d", "4s", "9c"]),
     "cards[4]", DRAWING),
    ("a-banker-card-when-it-stands", set_at("cards", ["Ah", "Kc", "4d", "6s", "3h", "2c"]),
     "cards[5]", DRAWING),
    ("a-missing-player-card", set_at("cards", ["2h", "3c", "Kd", "Ks"]), "cards", DRAWING),
    ("a-missing-banker-card", set_at("cards", ["2h", "3c", "Kd", "Ks", "4h"]), "cards",
     DRAWING),
    ("too-few-cards", set_at("cards", ["9h", "2c", "Kd"]), "cards", DRAWING),
    ("no-cards", set_at("cards", []), "cards", DRAWING),
    ("more-of-a-card-than-six-decks-hold", both(set_at("options.decks", 6),
     set_at("cards", ["Kd"] * 7)), "cards[6]", SHOE),
    ("nine-of-a-card", set_at("cards", ["Kd"] * 9), "cards[8]", SHOE),
    # the seats
    ("seat-10-of-9", set_at("seats[0].seat", 10), "seats[0].seat", SEATS),
    ("seat-8-of-7", both(set_at("options.seats", 7), set_at("seats[1].seat", 8)),
     "seats[1].seat", SEATS),
    ("seat-0", set_at("seats[0].seat", 0), "seats[0].seat", SEATS),
    ("seat-a-string", set_at("seats[0].seat", "1"), "seats[0].seat", SEATS),
    ("seat-true", set_at("seats[0].seat", True), "seats[0].seat", SEATS),
    ("seat-a-float", set_at("seats[0].seat", 1.0), "seats[0].seat", SEATS),
    ("player-dealer-seat-10", set_at("player_dealer.seat", 10), "player_dealer.seat", SEATS),
    ("seat-7-at-a-table-of-6", set_at("options.seats", 6), "seats[1].seat", SEATS),
    ("player-dealers-seat-with-wagers", set_at("seats[1].seat", 5), "seats[1].seat",
     Rule.PLAYER_DEALER_SEAT),
    ("a-seat-twice", set_at("seats[1].seat", 1), "seats[1].seat", SEATS),
    # the wagers
    ("both-base-wagers", set_at("seats[0].banker", 2_500), "seats[0].banker", BASE),
    ("no-base-wager", set_at("seats[0].player", 0), "seats[0].player", BASE),
    ("side-wager-above-the-base", set_at("seats[1].dragon_7", 10_100), "seats[1].dragon_7",
     SIDE),
    ("side-wager-above-a-fixed-maximum", set_at("options.side_wager_maximum_cents", 400),
     "seats[0].tie", SIDE),
    ("below-the-table-minimum", set_at("options.table_minimum_cents", 1_000), "seats[0].tie",
     Rule.LIMITS),
    ("above-the-table-maximum", set_at("options.table_maximum_cents", 5_000),
     "seats[1].banker", Rule.LIMITS),
    ("not-whole-chips", set_at("options.chip_unit_cents", 1_000), "seats[0].player",
     Rule.CHIP_UNIT),
    # the bank
    ("bank-0", set_at("player_dealer.bank", 0), "player_dealer.bank", Rule.BANK),
    ("bank-not-whole-chips", both(set_at("options.chip_unit_cents", 100),
     set_at("player_dealer.bank", 50_050)), "player_dealer.bank", Rule.BANK),
]  # fmt: skip


@pytest.mark.parametrize(("change", "field", "rule"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_input_names_the_rule_and_the_field(change, field, rule):
    request = baccarat_request(cards=FIRST_FOUR)
    settle_request(request)  # the request is good before the change
    change(request)
    with pytest.raises(RuleError) as caught:
        settle_request(request)
    error = caught.value
    assert (error.field, error.rule) == (field, rule), str(error)
    assert str(error).startswith(f"{field}: ") and rule.citation in str(error)


@pytest.mark.parametrize("data", [[], "hand", None, 5], ids=["list", "string", "null", "number"])
def test_the_hand_must_be_a_json_object(data):
    with pytest.raises(RuleError) as caught:
        settle_request(data)
    assert (caught.value.rule, caught.value.field) == (FORMAT, None)


def test_refusals_speak_in_dollars_and_the_floors_words():
    request = baccarat_request(cards=FIRST_FOUR)
    set_at("seats[1].dragon_7", 10_100)(request)
    with pytest.raises(RuleError) as caught:
        settle_request(request)
    assert str(caught.value) == (
        "seats[1].dragon_7: the Dragon 7 of $101.00 is above the bettor's Banker wager of "
        "$100.00 [rule: the side wagers' maximum, docs/rules.md §14.4]"
    )
