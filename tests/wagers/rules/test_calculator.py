"""The settlement calculator's JSON format (docs/rules.md §11)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cardroom.errors import Rule, RuleError
from tests.builders.rules import APPENDIX_REQUEST, appendix_request, both, drop_at, set_at
from wagers.rules.calculator import parse_request, settle_request

# --- the appendix example, checked by hand --------------------------------------------------
# Dealer As Kd on 2c 7h 9s Td Jc: ace-king high, no pair -> does not qualify.
# Seat 1, Ah Ac: a pair of aces, wins. Ante pushes (dealer does not qualify); Play 4x
# (10000) wins 1:1; Blind pushes (a pair is below a Straight); Trips 1000 loses (a pair).
# Backline-1 follows the seat's 4x: Play 2000. Bank 10000: the seat's Play takes all of it,
# so the bank is exhausted before the Trips: the Trips is returned uncovered and the
# backline Play's 2000 is wholly unpaid.

EXPECTED_SETTLEMENT = [
    # order, bettor, wager, stake, outcome, paid, collected, returned, unpaid
    (1, "seat", "ante", 2500, "push", 0, 0, 0, 0),
    (2, "seat", "play", 10_000, "win", 10_000, 0, 0, 0),
    (3, "seat", "blind", 2500, "push", 0, 0, 0, 0),
    (4, "seat", "trips", 1000, "lose", 0, 0, 1000, 0),
    (5, "backline-1", "ante", 500, "push", 0, 0, 0, 0),
    (6, "backline-1", "play", 2000, "win", 0, 0, 0, 2000),
    (7, "backline-1", "blind", 500, "push", 0, 0, 0, 0),
]


def test_the_appendix_example():
    answer = settle_request(appendix_request())
    assert answer["dealer"]["category"] == "high_card"
    assert answer["dealer"]["qualifies"] is False
    assert answer["dealer"]["seat"] == 6
    assert sorted(answer["dealer"]["best_five"]) == sorted(["As", "Kd", "Jc", "Td", "9s"])
    assert [(s["seat"], s["category"], s["result"]) for s in answer["seats"]] == [
        (1, "one_pair", "win")
    ]
    assert sorted(answer["seats"][0]["best_five"]) == sorted(["Ah", "Ac", "Jc", "Td", "9s"])
    got = [
        (line["order"], line["bettor"], line["wager"], line["stake"], line["outcome"],
         line["paid"], line["collected"], line["returned_uncovered"], line["unpaid_uncovered"])
        for line in answer["settlement"]
    ]  # fmt: skip
    assert got == EXPECTED_SETTLEMENT
    assert {line["seat"] for line in answer["settlement"]} == {1}
    assert {line["pass"] for line in answer["settlement"]} == {"showdown"}
    assert answer["player_dealer_net"] == -10_000
    assert answer["bank_exhausted"] is True
    assert answer["bank_remaining"] == 0
    json.dumps(answer)  # JSON-ready


def test_the_appendix_example_with_a_bank_large_enough():
    request = appendix_request()
    request["player_dealer"]["bank"] = 100_000
    answer = settle_request(request)
    got = [(line["paid"], line["collected"]) for line in answer["settlement"]]
    assert got == [(0, 0), (10_000, 0), (0, 0), (0, 1000), (0, 0), (2000, 0), (0, 0)]
    assert answer["player_dealer_net"] == 1000 - 12_000
    assert answer["bank_exhausted"] is False


def test_every_option_has_the_default_shown():
    request = appendix_request()
    del request["options"]
    assert settle_request(request) == settle_request(appendix_request())
    request["options"] = {}
    assert settle_request(request) == settle_request(appendix_request())


def test_the_example_itself_is_not_mutated():
    before = json.dumps(APPENDIX_REQUEST, sort_keys=True)
    settle_request(APPENDIX_REQUEST)
    assert json.dumps(APPENDIX_REQUEST, sort_keys=True) == before


def _with(change) -> dict[str, Any]:
    request = appendix_request()
    change(request)
    return request


def _seat0(**fields):
    return lambda request: request["seats"][0].update(fields)


def _second_seat(**fields):
    seat = {"seat": 2, "hole": ["Kc", "Kh"], "ante": 100, "blind": 100, "play": 400}
    seat.update(fields)
    return lambda request: request["seats"].append(seat)


def test_a_folded_seat_and_a_second_seat():
    request = _with(_second_seat(play=0, folded=True, trips=100))
    answer = settle_request(request)
    assert [(s["seat"], s["result"]) for s in answer["seats"]] == [(1, "win"), (2, "fold")]
    fold_lines = [line for line in answer["settlement"] if line["pass"] == "fold"]
    assert [(line["seat"], line["wager"]) for line in fold_lines] == [
        (2, "ante"), (2, "blind"), (2, "trips")
    ]  # fmt: skip
    assert answer["settlement"][0]["pass"] == "fold"


def test_a_mucked_seat_needs_no_cards_and_settles_as_with_them():
    # A folded hand with no Trips wager on it is mucked (docs/rules.md §2.3): its cards decide
    # nothing, so it may leave them out ("hole" absent or null) and settles the same.
    with_cards = settle_request(_with(_second_seat(play=0, folded=True, bad_beat=100)))
    for mucked in ({}, {"hole": None}):
        request = _with(_second_seat(play=0, folded=True, bad_beat=100))
        request["seats"][1].pop("hole")
        request["seats"][1].update(mucked)
        answer = settle_request(request)
        assert answer["settlement"] == with_cards["settlement"]
        assert answer["player_dealer_net"] == with_cards["player_dealer_net"]
        assert answer["seats"][1] == {"seat": 2, "category": None, "result": "fold",
                                      "best_five": None}  # fmt: skip


@pytest.mark.parametrize(
    "seat",
    [
        {"play": 400},  # still in
        {"play": 0, "folded": True, "trips": 100},  # folded with a Trips wager
        {"play": 0, "folded": True, "backline": [{"ante": 100, "blind": 100, "trips": 100}]},
    ],
    ids=["in", "folded_with_trips", "folded_with_trips_behind"],
)
def test_a_hand_turned_face_up_needs_its_cards(seat):
    request = _with(_second_seat(**seat))
    request["seats"][1].pop("hole")
    with pytest.raises(RuleError) as refused:
        settle_request(request)
    assert (refused.value.field, refused.value.rule) == ("seats[1].hole", Rule.CALCULATOR_FORMAT)


def test_a_custom_trips_table_in_full():
    # Seat 1 makes three aces: Trips pays 3:1 on UTH-01, 30:1 with three of a kind at 30 here.
    custom = {"royal_flush": 100, "straight_flush": 40, "four_of_a_kind": 20,
              "full_house": 7, "flush": 6, "straight": 5, "three_of_a_kind": "30"}  # fmt: skip
    request = _with(lambda r: r.update(board=["2c", "7h", "9s", "Td", "Ad"]))
    request["player_dealer"]["bank"] = 10**7
    named = settle_request(request)
    request["options"]["trips_paytable"] = custom
    custom_answer = settle_request(request)
    trips = next(line for line in named["settlement"] if line["wager"] == "trips")
    custom_trips = next(line for line in custom_answer["settlement"] if line["wager"] == "trips")
    assert (trips["outcome"], trips["paid"]) == ("win", 3000)
    assert (custom_trips["outcome"], custom_trips["paid"]) == ("win", 30_000)


def test_the_003_custom_table_pays_100_on_a_royal():
    request = appendix_request()
    request["options"]["trips_paytable"] = {
        "royal_flush": 100, "straight_flush": 40, "four_of_a_kind": 20, "full_house": 7,
        "flush": 6, "straight": 5, "three_of_a_kind": 3,
    }  # fmt: skip
    request["board"] = ["Kc", "Qc", "Jc", "Tc", "2d"]
    request["player_dealer"]["bank"] = 10**7
    answer = settle_request(request)
    assert answer["seats"][0]["category"] == "royal_flush"
    trips = next(line for line in answer["settlement"] if line["wager"] == "trips")
    assert trips["paid"] == 100_000


def test_blind_rounding_is_recorded_as_an_exact_decimal():
    # Seat 1 wins with a flush; Blind 2525 at 3:2 on a 25-cent chip -> 3775, 12.5 rounded off.
    request = appendix_request()
    request["options"]["chip_unit_cents"] = 25
    request["board"] = ["2c", "7c", "9c", "Tc", "Jh"]
    request["seats"][0].update(ante=2525, blind=2525, play=10_100, trips=0, backline=[])
    request["player_dealer"]["bank"] = 10**6
    answer = settle_request(request)
    blind = next(line for line in answer["settlement"] if line["wager"] == "blind")
    assert answer["seats"][0]["category"] == "flush"
    assert (blind["paid"], blind["rounded_off"]) == (3775, "12.5")


@pytest.mark.parametrize("bank", [10_010, 110, 24], ids=["10010", "110", "below-one-chip"])
def test_a_bank_in_part_chips_never_moves_part_of_a_chip(bank):
    """With a 25-cent chip every chip movement is whole chips (docs/rules.md §6.3: payouts are
    rounded down to the table's smallest chip): a bank that is not whole chips is either
    refused, naming player_dealer.bank, or settled without paying or collecting part of a
    chip."""
    request = appendix_request()
    request["options"]["chip_unit_cents"] = 25
    request["player_dealer"]["bank"] = bank
    try:
        answer = settle_request(request)
    except RuleError as error:
        assert error.field == "player_dealer.bank"
        return
    for line in answer["settlement"]:
        for key in ("paid", "collected", "returned_uncovered", "unpaid_uncovered"):
            assert line[key] % 25 == 0, (key, line)


def test_parse_request_returns_the_validated_parts():
    options, dealer_seat, dealer_hole, bank, board, seats = parse_request(appendix_request())
    assert dealer_seat == 6 and bank == 10_000
    assert [str(card) for card in dealer_hole] == ["As", "Kd"]
    assert [str(card) for card in board] == ["2c", "7h", "9s", "Td", "Jc"]
    assert options.allowed_preflop_multiples == (3, 4)
    assert seats[0].backline[0].play == 2000


# --- bad input: a RuleError naming the rule and the JSON field ------------------------------

CARD = Rule.CARD
TWICE = Rule.CARD_ONCE
FORMAT = Rule.CALCULATOR_FORMAT
SEAT = Rule.SEATS
EQUAL = Rule.ANTE_BLIND
DECIDE = Rule.DECISIONS
MULTIPLES = Rule.PREFLOP_MULTIPLES
BANK = Rule.BANK
PAYTABLE = Rule.PAYTABLES
CHIP = Rule.CHIP_UNIT


def _extra_seats(*numbers):
    def change(request):
        codes = iter(["3c", "3d", "4c", "4d", "5c", "5d", "6c", "6d", "8c", "8d", "Qc", "Qd"])
        for number in numbers:
            request["seats"].append(
                {"seat": number, "hole": [next(codes), next(codes)], "ante": 100,
                 "blind": 100, "play": 100}
            )  # fmt: skip

    return change


CUSTOM = {"royal_flush": 100, "straight_flush": 40, "four_of_a_kind": 20, "full_house": 7,
          "flush": 6, "straight": 5, "three_of_a_kind": 3}  # fmt: skip

# (id, change, accepted fields, fragment of the rule)
BAD = [
    # cards
    ("unknown-card-in-a-seat", set_at("seats[0].hole[1]", "Xx"), {"seats[0].hole[1]"}, CARD),
    ("unknown-card-on-the-board", set_at("board[4]", "1c"), {"board[4]"}, CARD),
    ("uppercase-suit-dealer", set_at("player_dealer.hole[0]", "AS"), {"player_dealer.hole[0]"},
     CARD),
    ("card-not-a-string", set_at("board[0]", 12), {"board[0]"}, CARD),
    ("three-hole-cards", set_at("seats[0].hole", ["Ah", "Ac", "Ad"]), {"seats[0].hole"}, CARD),
    ("four-board-cards", set_at("board", ["2c", "7h", "9s", "Td"]), {"board"}, CARD),
    ("duplicate-in-a-seat", set_at("seats[0].hole", ["Ah", "Ah"]),
     {"seats[0].hole", "seats[0].hole[1]"}, TWICE),
    ("duplicate-on-the-board", set_at("board[4]", "2c"), {"board", "board[4]"}, TWICE),
    ("duplicate-across-seats", _second_seat(hole=["Ac", "Kh"]),
     {"seats[1].hole", "seats[1].hole[0]"}, TWICE),
    ("duplicate-dealer-and-board", set_at("board[0]", "As"), {"board", "board[0]"}, TWICE),
    ("duplicate-seat-and-board", set_at("seats[0].hole[1]", "2c"),
     {"seats[0].hole", "seats[0].hole[1]"}, TWICE),
    ("duplicate-seat-and-dealer", set_at("seats[0].hole[1]", "Kd"),
     {"seats[0].hole", "seats[0].hole[1]"}, TWICE),
    # opening wagers
    ("ante-not-blind", _seat0(blind=2000), {"seats[0].blind"}, EQUAL),
    ("no-ante-no-blind", _seat0(ante=0, blind=0, play=0), {"seats[0].ante"}, EQUAL),
    ("bad-beat-without-ante-seat", _seat0(ante=0, blind=0, play=0, bad_beat=100),
     {"seats[0].bad_beat"}, Rule.BAD_BEAT),
    ("bad-beat-behind-a-seat", set_at("seats[0].backline[0]",
     {"ante": 500, "blind": 500, "trips": 0, "bad_beat": 100}),
     {"seats[0].backline[0].bad_beat"}, Rule.BACKLINE),
    ("bad-beat-at-a-table-without-one", both(set_at("options.bad_beat_paytable", None),
     _seat0(bad_beat=100)), {"seats[0].bad_beat"}, Rule.BAD_BEAT),
    ("backline-with-no-wager", set_at("seats[0].backline[0]",
     {"ante": 0, "blind": 0, "trips": 0, "bad_beat": 0}), {"seats[0].backline[0].ante"}, EQUAL),
    ("backline-ante-not-blind", set_at("seats[0].backline[0].blind", 400),
     {"seats[0].backline[0].blind"}, EQUAL),
    ("backline-not-allowed", set_at("options.backline_allowed", False), {"seats[0].backline"},
     Rule.BACKLINE),
    ("below-table-minimum", set_at("options.table_minimum_cents", 5000), {"seats[0].ante"},
     Rule.LIMITS),
    ("above-table-maximum", set_at("options.table_maximum_cents", 2000), {"seats[0].ante"},
     Rule.LIMITS),
    ("trips-below-table-minimum", set_at("options.table_minimum_cents", 2000),
     {"seats[0].trips"}, Rule.LIMITS),
    ("not-a-multiple-of-the-chip", both(set_at("options.chip_unit_cents", 100),
     _seat0(ante=2550, blind=2550, play=10_200)), {"seats[0].ante"}, CHIP),
    # the Play
    ("3x-on-a-4x-only-table", both(set_at("options.allowed_preflop_multiples", [4]),
     _seat0(play=7500)), {"seats[0].play"}, DECIDE),
    ("5x-play", _seat0(play=12_500), {"seats[0].play"}, DECIDE),
    ("play-not-a-multiple", _seat0(play=6000), {"seats[0].play"}, DECIDE),
    ("folded-with-a-play", _seat0(folded=True), {"seats[0].play"}, DECIDE),
    ("live-with-play-0", _seat0(play=0), {"seats[0].play"}, DECIDE),
    ("backline-play-not-the-seats-multiple", set_at("seats[0].backline[0].play", 1500),
     {"seats[0].backline[0].play"}, Rule.BACKLINE),
    ("backline-play-on-a-folded-seat", both(_seat0(folded=True, play=0),
     set_at("seats[0].backline[0].play", 500)), {"seats[0].backline[0].play"},
     Rule.BACKLINE),
    # the bank
    ("bank-0", set_at("player_dealer.bank", 0), {"player_dealer.bank"}, BANK),
    ("bank-negative", set_at("player_dealer.bank", -100), {"player_dealer.bank"}, FORMAT),
    ("bank-float", set_at("player_dealer.bank", 10_000.5), {"player_dealer.bank"}, FORMAT),
    ("bank-whole-float", set_at("player_dealer.bank", 10_000.0), {"player_dealer.bank"}, FORMAT),
    ("bank-string", set_at("player_dealer.bank", "10000"), {"player_dealer.bank"}, FORMAT),
    # missing fields
    ("missing-board", drop_at("board"), {"board"}, FORMAT),
    ("missing-player-dealer", drop_at("player_dealer"), {"player_dealer"}, FORMAT),
    ("missing-player-dealer-hole", drop_at("player_dealer.hole"), {"player_dealer.hole"}, FORMAT),
    ("missing-player-dealer-seat", drop_at("player_dealer.seat"), {"player_dealer.seat"}, FORMAT),
    ("missing-player-dealer-bank", drop_at("player_dealer.bank"), {"player_dealer.bank"}, FORMAT),
    ("missing-seats", drop_at("seats"), {"seats"}, FORMAT),
    ("empty-seats", set_at("seats", []), {"seats"}, FORMAT),
    ("missing-seat-number", drop_at("seats[0].seat"), {"seats[0].seat"}, FORMAT),
    ("missing-seat-hole", drop_at("seats[0].hole"), {"seats[0].hole"}, FORMAT),
    ("missing-ante", drop_at("seats[0].ante"), {"seats[0].ante"}, FORMAT),
    ("missing-blind", drop_at("seats[0].blind"), {"seats[0].blind"}, FORMAT),
    ("missing-backline-ante", drop_at("seats[0].backline[0].ante"), {"seats[0].backline[0].ante"},
     FORMAT),
    # seats
    ("seat-7", set_at("seats[0].seat", 7), {"seats[0].seat"}, SEAT),
    ("seat-0", set_at("seats[0].seat", 0), {"seats[0].seat"}, SEAT),
    ("seat-string", set_at("seats[0].seat", "1"), {"seats[0].seat"}, SEAT),
    ("seat-true", set_at("seats[0].seat", True), {"seats[0].seat"}, SEAT),
    ("seat-float", set_at("seats[0].seat", 1.0), {"seats[0].seat"}, SEAT),
    ("player-dealer-seat-7", set_at("player_dealer.seat", 7), {"player_dealer.seat"}, SEAT),
    ("player-dealer-seat-float", set_at("player_dealer.seat", 6.0), {"player_dealer.seat"}, SEAT),
    ("two-seats-the-same", _second_seat(seat=1), {"seats[1].seat"}, SEAT),
    ("player-dealers-seat-in-seats", set_at("seats[0].seat", 6), {"seats[0].seat"},
     SEAT),
    ("six-seats", _extra_seats(2, 3, 4, 5, 6), {"seats"}, Rule.FIVE_PLAYERS),
    # amounts
    ("float-ante", _seat0(ante=2500.0, blind=2500.0), {"seats[0].ante"}, FORMAT),
    ("float-trips", _seat0(trips=10.5), {"seats[0].trips"}, FORMAT),
    ("float-play", _seat0(play=10_000.0), {"seats[0].play"}, FORMAT),
    ("float-backline-ante", set_at("seats[0].backline[0].ante", 500.0),
     {"seats[0].backline[0].ante"}, FORMAT),
    ("negative-trips", _seat0(trips=-5), {"seats[0].trips"}, FORMAT),
    ("bool-ante", _seat0(ante=True, blind=True), {"seats[0].ante"}, FORMAT),
    ("string-ante", _seat0(ante="2500"), {"seats[0].ante"}, FORMAT),
    ("folded-not-a-bool", _seat0(folded="no"), {"seats[0].folded"}, FORMAT),
    # options
    ("unknown-trips-table", set_at("options.trips_paytable", "UTH-09"),
     {"options.trips_paytable"}, PAYTABLE),
    ("unknown-bad-beat-table", set_at("options.bad_beat_paytable", "option-3"),
     {"options.bad_beat_paytable"}, PAYTABLE),
    ("custom-table-float-odds", set_at("options.trips_paytable", {**CUSTOM, "flush": 6.0}),
     {"options.trips_paytable.flush"}, PAYTABLE),
    ("custom-table-zero-odds", set_at("options.trips_paytable", {**CUSTOM, "straight": 0}),
     {"options.trips_paytable.straight"}, PAYTABLE),
    ("custom-table-infinite-odds", set_at("options.trips_paytable",
     {**CUSTOM, "royal_flush": "Infinity"}), {"options.trips_paytable.royal_flush"}, PAYTABLE),
    ("custom-table-missing-royal", set_at("options.trips_paytable",
     {k: v for k, v in CUSTOM.items() if k != "royal_flush"}), {"options.trips_paytable"},
     PAYTABLE),
    ("custom-bad-beat-with-royal", set_at("options.bad_beat_paytable", CUSTOM),
     {"options.bad_beat_paytable.royal_flush"}, PAYTABLE),
    ("preflop-multiple-2", set_at("options.allowed_preflop_multiples", [2]),
     {"options.allowed_preflop_multiples"}, MULTIPLES),
    ("preflop-multiples-empty", set_at("options.allowed_preflop_multiples", []),
     {"options.allowed_preflop_multiples"}, MULTIPLES),
    ("preflop-multiple-float", set_at("options.allowed_preflop_multiples", [4.0]),
     {"options.allowed_preflop_multiples"}, MULTIPLES),
    ("chip-unit-0", set_at("options.chip_unit_cents", 0), {"options.chip_unit_cents"}, FORMAT),
    ("chip-unit-float", set_at("options.chip_unit_cents", 1.0), {"options.chip_unit_cents"},
     FORMAT),
    ("unknown-option", set_at("options.house_edge", 5), {"options.house_edge"}, FORMAT),
    ("maximum-below-minimum", both(set_at("options.table_minimum_cents", 500),
     set_at("options.table_maximum_cents", 100)), {"options.table_maximum_cents"}, FORMAT),
]  # fmt: skip


@pytest.mark.parametrize(
    ("change", "fields", "rule"), [case[1:] for case in BAD], ids=[case[0] for case in BAD]
)
def test_bad_input_names_the_rule_and_the_field(change, fields, rule):
    request = _with(change)
    with pytest.raises(RuleError) as caught:
        settle_request(request)
    error = caught.value
    assert error.field in fields, str(error)
    assert error.rule is rule, str(error)
    assert error.field in str(error) and rule.citation in str(error)


@pytest.mark.parametrize("data", [[], "hand", None, 5], ids=["list", "string", "null", "number"])
def test_the_hand_must_be_a_json_object(data):
    with pytest.raises(RuleError) as caught:
        settle_request(data)
    assert caught.value.rule is FORMAT


# --- valid variants the format allows --------------------------------------------------------

GOOD = [
    ("backline-trips-only", set_at("seats[0].backline[0]",
     {"ante": 0, "blind": 0, "trips": 100, "bad_beat": 0})),
    ("backline-explicit-play", set_at("seats[0].backline[0].play", 2000)),
    ("no-backline-key", drop_at("seats[0].backline")),
    ("no-folded-key", drop_at("seats[0].folded")),
    ("no-trips-key", drop_at("seats[0].trips")),
    ("3x-play", _seat0(play=7500)),
    ("2x-play", _seat0(play=5000)),
    ("1x-play", _seat0(play=2500)),
    ("4x-only-table-2x-play", both(set_at("options.allowed_preflop_multiples", [4]),
     _seat0(play=5000))),
    ("bad-beat-null-table-no-wager", set_at("options.bad_beat_paytable", None)),
    ("five-players", _extra_seats(2, 3, 4, 5)),
    ("player-dealer-at-3", both(set_at("player_dealer.seat", 3), _extra_seats(2, 4))),
    ("folded-seat-with-backline", both(_seat0(folded=True, play=0))),
    ("bad-beat-option-2", both(set_at("options.bad_beat_paytable", "option-2"),
     _seat0(bad_beat=100))),
    ("chip-unit-25", set_at("options.chip_unit_cents", 25)),
    ("table-limits-met", both(set_at("options.table_minimum_cents", 500),
     set_at("options.table_maximum_cents", 2500))),
]  # fmt: skip


@pytest.mark.parametrize("change", [case[1] for case in GOOD], ids=[case[0] for case in GOOD])
def test_valid_variants_are_accepted(change):
    answer = settle_request(_with(change))
    lines = answer["settlement"]
    assert lines
    assert (
        sum(line["paid"] - line["collected"] for line in lines) + answer["player_dealer_net"] == 0
    )


def test_backline_play_defaults_to_the_seats_multiple():
    request = _with(_seat0(play=7500))
    answer = settle_request(request)
    backline_play = [
        line for line in answer["settlement"]
        if line["bettor"] == "backline-1" and line["wager"] == "play"
    ]  # fmt: skip
    assert [line["stake"] for line in backline_play] == [1500]


def test_a_folded_seats_backline_bettors_fold_with_it():
    answer = settle_request(_with(_seat0(folded=True, play=0)))
    folded = [(line["pass"], line["bettor"], line["wager"]) for line in answer["settlement"]]
    assert folded == [
        ("fold", "seat", "ante"),
        ("fold", "seat", "blind"),
        ("fold", "seat", "trips"),
        ("fold", "backline-1", "ante"),
        ("fold", "backline-1", "blind"),
    ]
