"""Cards, the deck, dealing order and deck alternation (docs/rules.md §1-§2, `004` §7)."""

from __future__ import annotations

import random

import pytest

from cardroom.errors import Rule, RuleError
from tables.rules.cards import (
    FULL_DECK,
    Card,
    ensure_distinct,
    ensure_keyed_once,
    format_cards,
    parse_card,
    parse_cards,
    parse_keyed_cards,
)
from tables.rules.deck import clockwise_from_left_of, deal, next_deck, shuffled_deck
from tests.builders.rules import cards

RANKS = "23456789TJQKA"
SUITS = "cdhs"
ALL_CODES = [rank + suit for rank in RANKS for suit in SUITS]


# --- parsing and formatting -------------------------------------------------------------


@pytest.mark.parametrize("code", ALL_CODES, ids=ALL_CODES)
def test_every_card_round_trips(code):
    card = parse_card(code)
    assert isinstance(card, Card)
    assert str(card) == code
    assert RANKS[card.rank] == code[0]
    assert card.suit == code[1]
    assert parse_card(str(card)) is card


def test_the_deck_has_52_distinct_cards_in_code_order():
    assert len(FULL_DECK) == 52
    assert len(set(FULL_DECK)) == 52
    assert [str(card) for card in FULL_DECK] == ALL_CODES


def test_card_numbering_is_rank_times_four_plus_suit():
    # phevaluator's numbering: the deuce of clubs is 0, the ace of spades is 51.
    assert int(parse_card("2c")) == 0
    assert int(parse_card("2s")) == 3
    assert int(parse_card("3c")) == 4
    assert int(parse_card("As")) == 51
    assert repr(parse_card("Td")) == "Card('Td')"


@pytest.mark.parametrize("number", [-1, 52, 100], ids=["minus-one", "52", "100"])
def test_card_numbers_outside_the_deck_are_refused(number):
    with pytest.raises(RuleError) as caught:
        Card(number)
    assert caught.value.rule == Rule.CARD


MALFORMED = {
    "rank-1": "1s",
    "rank-10": "10s",
    "rank-lowercase-a": "as",
    "rank-lowercase-t": "ts",
    "suit-x": "Ax",
    "suit-uppercase-S": "AS",
    "suit-uppercase-H": "KH",
    "suit-symbol": "A\u2660",
    "suit-first": "sA",
    "empty": "",
    "one-char": "A",
    "three-chars": "Asd",
    "leading-space": " As",
    "trailing-space": "As ",
    "two-spaces": "  ",
    "zero-rank": "0c",
}


@pytest.mark.parametrize("code", list(MALFORMED.values()), ids=list(MALFORMED))
def test_malformed_codes_are_refused(code):
    with pytest.raises(RuleError) as caught:
        parse_card(code)
    assert caught.value.rule == Rule.CARD
    assert "rank (23456789TJQKA) then suit (cdhs)" in caught.value.message


NON_STRINGS = {
    "int": 51,
    "none": None,
    "bytes": b"As",
    "list": ["A", "s"],
    "tuple": ("A", "s"),
    "float": 1.5,
    "bool": True,
    "dict": {"rank": "A", "suit": "s"},
}


@pytest.mark.parametrize("thing", list(NON_STRINGS.values()), ids=list(NON_STRINGS))
def test_non_strings_are_refused(thing):
    with pytest.raises(RuleError) as caught:
        parse_card(thing)
    assert caught.value.rule == Rule.CARD


def test_parse_cards_keeps_order():
    assert format_cards(parse_cards(["Td", "2c", "As"])) == ["Td", "2c", "As"]


@pytest.mark.parametrize(
    ("codes", "index"),
    [
        (["As", "Kd", "Zz"], 2),
        (["1c", "Kd"], 0),
        (["Kd", "kd"], 1),
    ],
    ids=["third-bad", "first-bad", "second-lowercase-rank"],
)
def test_parse_cards_names_the_index_of_a_malformed_code(codes, index):
    with pytest.raises(RuleError) as caught:
        parse_cards(codes)
    assert caught.value.field == f"[{index}]"
    assert caught.value.rule == Rule.CARD


@pytest.mark.parametrize(
    ("codes", "index"),
    [
        (["As", "As"], 1),
        (["As", "Kd", "As"], 2),
        (["2c", "3c", "4c", "3c", "5c"], 3),
    ],
    ids=["pair-of-same", "third-repeats-first", "board-fourth-repeats-second"],
)
def test_parse_cards_refuses_duplicates_naming_the_index(codes, index):
    """A repeated card is refused with the index of its second appearance as the field."""
    with pytest.raises(RuleError) as caught:
        parse_cards(codes)
    assert caught.value.rule == Rule.CARD_ONCE
    assert caught.value.field == f"[{index}]"


@pytest.mark.parametrize(
    ("codes", "count"),
    [(["As"], 2), (["As", "Kd", "Qh"], 2), (["2c", "3c", "4c", "5c"], 5), ([], 2)],
    ids=["one-of-two", "three-of-two", "four-of-five", "none-of-two"],
)
def test_parse_cards_refuses_the_wrong_count(codes, count):
    with pytest.raises(RuleError, match=f"expected {count} cards"):
        parse_cards(codes, count=count)


@pytest.mark.parametrize("thing", ["As Kd", "AsKd", None, 5], ids=["str", "joined", "none", "int"])
def test_parse_cards_needs_a_list(thing):
    with pytest.raises(RuleError):
        parse_cards(thing)


def test_ensure_distinct_names_the_repeated_card():
    ensure_distinct(cards("As Kd Qh"))
    with pytest.raises(RuleError, match="card Kd appears twice") as caught:
        ensure_distinct(cards("As Kd Qh Kd"))
    assert caught.value.rule == Rule.CARD_ONCE


# --- cards keyed at the table: a refusal names a place, never what was typed (§2.6) ------

KEYED = [
    # typed, field, rule, message
    (None, None, Rule.CARD, "no cards were keyed for seat 3: 2 are needed"),
    ("Ah Kd", None, Rule.CARD, "the cards keyed for seat 3 must be a list of 2"),
    (["Ah"], None, Rule.CARD, "2 cards are needed for seat 3, 1 were keyed"),
    (["Ah", "Kd", "Qs"], None, Rule.CARD, "2 cards are needed for seat 3, 3 were keyed"),
    (["Ah", "kd"], "[1]", Rule.CARD,
     "card 2 keyed for seat 3 is not a card: write the rank (23456789TJQKA) then the suit (cdhs)"),
    (["Ahh", "Kd"], "[0]", Rule.CARD,
     "card 1 keyed for seat 3 is not a card: write the rank (23456789TJQKA) then the suit (cdhs)"),
    ([7, "Kd"], "[0]", Rule.CARD,
     "card 1 keyed for seat 3 is not a card: write the rank (23456789TJQKA) then the suit (cdhs)"),
    (["Kd", "Kd"], "[1]", Rule.CARD_ONCE, "cards 1 and 2 keyed for seat 3 are the same card"),
]  # fmt: skip


@pytest.mark.parametrize(("typed", "field", "rule", "message"), KEYED)
def test_keyed_cards_are_refused_by_their_place(typed, field, rule, message):
    with pytest.raises(RuleError) as refused:
        parse_keyed_cards(typed, count=2, owner="seat 3")
    assert (refused.value.field, refused.value.rule, refused.value.message) == (
        field,
        rule,
        message,
    )


def test_keyed_cards_parse_as_cards():
    assert format_cards(parse_keyed_cards(("Ah", "Kd"), count=2, owner="seat 3")) == ["Ah", "Kd"]


def test_a_card_keyed_twice_is_refused_by_where_it_is():
    groups = [
        ("on the board", "cards", cards("2c 7h 9s")),
        ("keyed for the player-dealer", "player_dealer", cards("As Kd")),
        ("keyed for seat 1", "hands.1", cards("Qh Jh")),
        ("keyed for seat 4", "hands.4", cards("Jh 3c")),
    ]
    ensure_keyed_once(groups[:3])
    with pytest.raises(RuleError) as refused:
        ensure_keyed_once(groups)
    assert (refused.value.field, refused.value.rule, refused.value.message) == (
        "hands.4",
        Rule.CARD_ONCE,
        "a card keyed for seat 4 is also keyed for seat 1",
    )
    with pytest.raises(RuleError) as on_board:
        ensure_keyed_once([groups[0], ("keyed for seat 2", "hands.2", cards("9s Td"))])
    assert on_board.value.message == "a card keyed for seat 2 is also on the board"


# --- shuffling --------------------------------------------------------------------------


def test_shuffled_deck_is_a_permutation_of_the_52():
    deck = shuffled_deck(random.Random(7))
    assert len(deck) == 52
    assert sorted(deck) == list(FULL_DECK)
    assert all(isinstance(card, Card) for card in deck)
    assert deck != FULL_DECK


def test_shuffled_deck_uses_the_passed_random_deterministically():
    assert shuffled_deck(random.Random(2024)) == shuffled_deck(random.Random(2024))
    assert shuffled_deck(random.Random(2024)) != shuffled_deck(random.Random(2025))
    rng = random.Random(99)
    first, second = shuffled_deck(rng), shuffled_deck(rng)
    assert first != second  # the passed generator's state advances
    rng_again = random.Random(99)
    assert shuffled_deck(rng_again) == first


def test_shuffled_deck_does_not_touch_the_global_random():
    random.seed(5)
    expected = random.random()
    random.seed(5)
    shuffled_deck(random.Random(1))
    shuffled_deck()
    assert random.random() == expected


def test_default_shuffle_is_a_fresh_permutation():
    first, second = shuffled_deck(), shuffled_deck()
    assert sorted(first) == sorted(second) == list(FULL_DECK)
    assert first != second  # one chance in 52! of a false failure


# --- dealing order (`004` §7) -----------------------------------------------------------


@pytest.mark.parametrize(
    ("player_dealer", "seats", "expected"),
    [
        (6, [1, 2, 3, 4, 5], (1, 2, 3, 4, 5)),
        (3, [1, 2, 4, 5, 6], (4, 5, 6, 1, 2)),
        (3, [2, 6, 4], (4, 6, 2)),
        (1, [6, 2], (2, 6)),
        (5, [4], (4,)),
        (6, [], ()),
    ],
    ids=["pd6-all", "pd3-all-wrap", "pd3-some", "pd1", "pd5-right-neighbour-last", "none"],
)
def test_clockwise_from_the_player_dealers_left(player_dealer, seats, expected):
    assert clockwise_from_left_of(player_dealer, seats) == expected


@pytest.mark.parametrize(
    ("player_dealer", "seats"),
    [(0, [1]), (7, [1]), (3, [7]), (3, [0, 1])],
    ids=["pd-0", "pd-7", "seat-7", "seat-0"],
)
def test_clockwise_refuses_seats_that_do_not_exist(player_dealer, seats):
    with pytest.raises(RuleError, match="does not exist"):
        clockwise_from_left_of(player_dealer, seats)


def test_deal_follows_the_shuffler_order_of_004_section_7():
    # Deck in code order: 2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 5c ...
    dealt = deal(FULL_DECK, player_dealer_seat=3, wagering_seats=[1, 5, 4])
    assert [seat for seat, _ in dealt.hole_cards] == [4, 5, 1]
    assert dealt.hole_for(4) == cards("2c 2d")
    assert dealt.hole_for(5) == cards("2h 2s")
    assert dealt.hole_for(1) == cards("3c 3d")
    assert dealt.player_dealer == cards("3h 3s")
    assert dealt.board == cards("4c 4d 4h 4s 5c")
    assert dealt.board[:3] == cards("4c 4d 4h")
    assert dealt.board[3:] == cards("4s 5c")
    with pytest.raises(KeyError):
        dealt.hole_for(2)


def test_deal_with_five_players_and_a_shuffled_deck():
    deck = shuffled_deck(random.Random(11))
    dealt = deal(deck, player_dealer_seat=2, wagering_seats=[1, 3, 4, 5, 6])
    assert [seat for seat, _ in dealt.hole_cards] == [3, 4, 5, 6, 1]
    for position, (_, hole) in enumerate(dealt.hole_cards):
        assert hole == tuple(deck[2 * position : 2 * position + 2])
    assert dealt.player_dealer == tuple(deck[10:12])
    assert dealt.board == tuple(deck[12:17])


def test_deal_refuses_the_player_dealers_seat_as_a_wagering_seat():
    with pytest.raises(RuleError, match="player-dealer's seat does not also wager"):
        deal(FULL_DECK, player_dealer_seat=3, wagering_seats=[1, 3])


def test_deal_refuses_a_short_deck():
    with pytest.raises(RuleError, match="11 cards needed"):
        deal(FULL_DECK[:10], player_dealer_seat=1, wagering_seats=[2, 3])


def test_deal_refuses_a_deck_with_a_repeated_card():
    deck = (*FULL_DECK[:20], FULL_DECK[0])
    with pytest.raises(RuleError) as caught:
        deal(deck, player_dealer_seat=1, wagering_seats=[2])
    assert caught.value.rule == Rule.CARD_ONCE


# --- alternating decks ------------------------------------------------------------------


def test_decks_alternate_a_b_a():
    sequence = []
    previous = None
    for _ in range(5):
        previous = next_deck(previous)
        sequence.append(previous)
    assert sequence == ["A", "B", "A", "B", "A"]


@pytest.mark.parametrize("previous", ["C", "a", "", "AB"], ids=["C", "lower-a", "empty", "AB"])
def test_unknown_previous_deck_is_refused(previous):
    with pytest.raises(RuleError, match="unknown deck"):
        next_deck(previous)
