"""Card entry at the service level (docs/rules.md §2.3, §2.6): the deal keys no card; the
board is keyed as it is turned; at the showdown the house dealer keys the player-dealer's
cards and those of every hand turned face up (a hand still in, a folded one with a Trips
wager on it), and a folded hand without one is mucked, never keyed. Every entry is checked
field by field; a refusal names the field and the rule, never a card typed that is not on
the board, and changes nothing. A hand dealt by the RNG and the same cards keyed settle
alike, line for line."""

from __future__ import annotations

import random
import re

import pytest

from cardroom.errors import Rule, RuleError, State
from rounds import services as rounds
from tables.models import DealMode, Hand, Round
from tables.rules.cards import parse_card
from tests.builders.floor import (
    FOLD,
    PLAY_4X,
    PLAY_FLOP,
    PLAY_RIVER,
    Cards,
    decide_street,
    round_snapshot,
)
from tests.builders.floor import turned_up as turned_up_seats
from tests.builders.money import Wager, money_table, play_round, short_lines
from wagers import recomputation
from wagers.models import PlayerDealerBank

pytestmark = pytest.mark.django_db

CARD_CODE = re.compile(r"\b[2-9TJQKA][cdhs]\b")
BOARD = ["Kh", "7d", "7s", "2c", "9h"]
# Seat 2 banks with aces up; seat 3 folds three sevens with a Trips wager (its Trips wins);
# seat 4 plays kings full; seat 5 plays a pair; seat 1 folds sevens full with no Trips wager:
# mucked, its Bad Beat lost as a fold whatever its cards.
DEALER = ["Ac", "Ad"]
HOLES = {3: ["7c", "4d"], 4: ["Ks", "Kd"], 5: ["Qc", "Jc"], 1: ["7h", "2d"]}
CARDS = Cards(DEALER, HOLES, BOARD)


class Stacked(random.Random):
    """A deck stacked for the RNG deal: ``top`` in order (the automatic shuffler's order,
    docs/rules.md §2.2: two to each hand clockwise from the player-dealer's left, two to the
    player-dealer, the board), the rest of the deck under it."""

    def __init__(self, top: list[str]) -> None:
        super().__init__(0)
        self.top = [parse_card(code) for code in top]

    def shuffle(self, cards) -> None:
        cards[:] = self.top + [card for card in cards if card not in self.top]


def stacked(cards: Cards, pd_seat: int, seats: list[int]) -> Stacked:
    clockwise = sorted(seats, key=lambda seat: (seat - pd_seat) % 6)
    holes = [code for seat in clockwise for code in cards.hands[seat]]
    return Stacked([*holes, *cards.player_dealer, *cards.board])


# Each case: the wagers (seat, ante, trips, bad beat; a backline bettor behind seat 3 when
# ``behind``), the seats' plans, the seats turned face up at the showdown.
CASES = {
    "a_fold_with_trips_is_keyed_one_without_is_mucked": (
        [Wager(1, 1_000, bad_beat=500), Wager(3, 1_000, trips=500), Wager(4, 1_000),
         Wager(5, 1_000, trips=500, bad_beat=500)],
        {1: FOLD, 3: FOLD, 4: PLAY_4X, 5: PLAY_RIVER},
        [3, 4, 5],
    ),
    "a_trips_wager_behind_a_folded_seat_turns_it_up": (
        [Wager(3, 1_000), Wager(3, 500, trips=500, behind=0), Wager(4, 1_000)],
        {3: FOLD, 4: PLAY_FLOP},
        [3, 4],
    ),
    "every_hand_folded_with_no_trips_only_the_player_dealer": (
        [Wager(3, 1_000, bad_beat=500), Wager(4, 1_000), Wager(4, 500, behind=0)],
        {3: FOLD, 4: FOLD},
        [],
    ),
    "every_hand_in": (
        [Wager(1, 1_000), Wager(3, 1_000, trips=500), Wager(5, 2_500, bad_beat=500)],
        {1: PLAY_RIVER, 3: PLAY_FLOP, 5: PLAY_4X},
        [1, 3, 5],
    ),
}  # fmt: skip


def table(staff, mode: str):
    return money_table(
        staff, dict.fromkeys((1, 2, 3, 4, 5), 100_000), deal_mode=mode, backliners=(20_000,)
    )


def to_river(mt, wagers, plans, **cards) -> Round:
    """Seat 2 banks; the hand to the river and its decisions made, the board ``BOARD`` keyed
    at a card-entry table: the showdown is next."""
    if mt.table.deal_mode == DealMode.CARD_ENTRY:
        cards.setdefault("cards", CARDS)
    round_ = play_round(
        mt, pd_seat=2, bank=50_000, wagers=wagers, decisions=plans, until=State.RIVER, **cards
    )
    decide_street(round_, plans, by=mt.staff.dealer)
    return round_


def settled_as_stored(round_: Round) -> dict:
    round_.refresh_from_db()
    bank = PlayerDealerBank.objects.get(round=round_)
    return {
        "lines": short_lines(round_),
        "bank": (bank.net_cents, bank.exhausted),
        "dealer": (round_.dealer_hole, round_.dealer_category, round_.dealer_qualifies),
        "results": {h.seat: h.result for h in Hand.objects.filter(round=round_)},
    }


@pytest.mark.parametrize(("wagers", "plans", "turned_up"), CASES.values(), ids=CASES.keys())
def test_a_keyed_hand_settles_as_the_same_cards_dealt_by_the_rng(
    clock, staff, wagers, plans, turned_up
):
    seats = sorted(plans)
    dealt = to_river(table(staff, DealMode.RNG), wagers, plans, rng=stacked(CARDS, 2, seats))
    assert [h.hole for h in dealt.hands.order_by("seat")] == [HOLES[s] for s in seats]

    keyed = to_river(table(staff, DealMode.CARD_ENTRY), wagers, plans)
    assert turned_up_seats(keyed) == turned_up
    # Nothing keyed until now: the hands hold their cards face down.
    assert keyed.dealer_hole is None
    assert [h.hole for h in keyed.hands.all()] == [None] * len(seats)
    assert keyed.board == BOARD

    for round_, entry in ((dealt, None), (keyed, CARDS.entry(turned_up))):
        rounds.showdown(round_id=round_.pk, by=staff.dealer, entry=entry)
        rounds.settle(round_id=round_.pk, by=staff.dealer)
    expected, got = settled_as_stored(dealt), settled_as_stored(keyed)
    assert got == expected
    mucked = {s for s in seats if s not in turned_up}
    for hand in Hand.objects.filter(round=keyed):
        stored = Hand.objects.get(round=dealt, seat=hand.seat)
        if hand.seat in mucked:  # never keyed, never valued: a fold
            assert (hand.hole, hand.category, hand.result) == (None, "", "fold")
        else:
            assert (hand.hole, hand.category) == (stored.hole, stored.category)
    # verify_ledger plays both settled hands again from what is stored: nothing differs
    # (a mucked hand is a fold without cards, not a hand to value).
    assert list(recomputation.SETTLED_HANDS.run()) == []


def test_the_trips_of_a_folded_hand_is_paid_on_its_keyed_cards(clock, staff):
    wagers, plans, turned_up = CASES["a_fold_with_trips_is_keyed_one_without_is_mucked"]
    round_ = to_river(table(staff, DealMode.CARD_ENTRY), wagers, plans)
    rounds.showdown(round_id=round_.pk, by=staff.dealer, entry=CARDS.entry(turned_up))
    rounds.settle(round_id=round_.pk, by=staff.dealer)
    lines = {(line[1], line[2], line[3]): line for line in short_lines(round_)}
    assert lines[(3, "seat", "trips")][5:8] == ("win", 1_500, 0)  # three sevens, 3 to 1
    assert lines[(1, "seat", "bad_beat")][5:8] == ("lose", 0, 500)  # mucked: lost as a fold
    assert lines[(1, "seat", "ante")][0] == "fold"


# --- The deal keys no card ----------------------------------------------------------------


# Cards typed at the deal, in every shape.
AT_THE_DEAL = [{"player_dealer": DEALER, "hands": {"3": HOLES[3]}}, ["Ac", "Ad"], [], "Ac Ad"]


def test_cards_keyed_at_the_deal_are_refused_naming_none(clock, staff):
    mt = table(staff, DealMode.CARD_ENTRY)
    round_ = play_round(
        mt, pd_seat=2, bank=10_000, wagers=[Wager(3, 1_000)], until=State.NO_MORE_BETS
    )
    before = round_snapshot(round_.pk)
    for typed in AT_THE_DEAL:  # each refused alike, on one round: a refusal changes nothing
        with pytest.raises(RuleError) as refused:
            rounds.deal(round_id=round_.pk, by=staff.dealer, entry=typed)
        assert (refused.value.field, refused.value.rule) == ("cards", Rule.CARD_ENTRY), typed
        assert refused.value.message == rounds.CARDS_AT_THE_DEAL
        assert not CARD_CODE.search(refused.value.message)
        assert round_snapshot(round_.pk) == before
    dealt = rounds.deal(round_id=round_.pk, by=staff.dealer)
    assert (dealt.state, dealt.dealer_hole, dealt.shuffled_deck) == (State.PREFLOP, None, None)
    assert list(Hand.objects.filter(round=round_).values_list("hole", flat=True)) == [None]


# --- What is keyed, checked -------------------------------------------------------------------


def typed_codes(value) -> set[str]:
    """Every text typed in an entry (keys too), however nested."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        value = [*value, *value.values()]
    if isinstance(value, list | tuple):
        return set().union(*(typed_codes(item) for item in value))
    return set()


def assert_names_no_card_typed(error: RuleError, typed, board=()) -> None:
    """The refusal repeats nothing typed but a card already on the board (docs/rules.md
    §2.6): a card typed may be a hole card."""
    fields = {"hands", "player_dealer"}  # the entry's own names, not typed cards
    texts = {t for t in typed_codes(typed) - fields if len(t) > 1 and not t.isdigit()}
    named = {text for text in texts if text in error.message}
    assert named <= set(board), error.message
    assert set(CARD_CODE.findall(error.message)) <= set(board), error.message


PD, IN, FOLDED_WITH_TRIPS = ["Ac", "Ad"], ["Ks", "Kd"], ["7c", "4d"]


def showdown_entry(hands=None, dealer=None, **extra):
    value = {
        "player_dealer": PD if dealer is None else dealer,
        "hands": {"3": IN, "4": FOLDED_WITH_TRIPS} if hands is None else hands,
    }
    value.update(extra)
    return value


SHOWDOWN_ENTRIES = {
    "nothing_keyed": (None, "cards", Rule.CARD_ENTRY),
    "not_an_object": (["Ac", "Ad", "Ks", "Kd"], "cards", Rule.CARD_ENTRY),
    "a_hand_turned_up_missing": (showdown_entry({"3": IN}), "hands", Rule.CARD_ENTRY),
    "the_mucked_hand_keyed": (
        showdown_entry({"3": IN, "4": FOLDED_WITH_TRIPS, "5": ["2h", "3h"]}),
        "hands",
        Rule.CARD_ENTRY,
    ),
    "a_seat_not_in_the_hand": (
        showdown_entry({"3": IN, "4": FOLDED_WITH_TRIPS, "6": ["2h", "3h"]}),
        "hands",
        Rule.CARD_ENTRY,
    ),
    "hands_not_a_mapping": (showdown_entry([IN, FOLDED_WITH_TRIPS]), "hands", Rule.CARD_ENTRY),
    "seat_not_a_number": (
        showdown_entry({"Ks": IN, "4": FOLDED_WITH_TRIPS}),
        "hands",
        Rule.CARD_ENTRY,
    ),
    "malformed_card": (
        showdown_entry({"3": ["Ks", "Kx"], "4": FOLDED_WITH_TRIPS}),
        "hands.3[1]",
        Rule.CARD,
    ),
    "lowercase_rank": (
        showdown_entry({"3": ["ks", "Kd"], "4": FOLDED_WITH_TRIPS}),
        "hands.3[0]",
        Rule.CARD,
    ),
    "a_card_and_more": (
        showdown_entry({"3": ["Ks", "Kdd"], "4": FOLDED_WITH_TRIPS}),
        "hands.3[1]",
        Rule.CARD,
    ),
    "one_card": (showdown_entry({"3": ["Ks"], "4": FOLDED_WITH_TRIPS}), "hands.3", Rule.CARD),
    "three_cards": (
        showdown_entry({"3": ["Ks", "Kd", "Kc"], "4": FOLDED_WITH_TRIPS}),
        "hands.3",
        Rule.CARD,
    ),
    "cards_as_text": (showdown_entry({"3": "KsKd", "4": FOLDED_WITH_TRIPS}), "hands.3", Rule.CARD),
    "same_card_twice_in_a_hand": (
        showdown_entry({"3": ["Ks", "Ks"], "4": FOLDED_WITH_TRIPS}),
        "hands.3[1]",
        Rule.CARD_ONCE,
    ),
    "same_card_in_two_hands": (
        showdown_entry({"3": IN, "4": ["Ks", "4d"]}),
        "hands.4",
        Rule.CARD_ONCE,
    ),
    "a_card_of_the_player_dealer": (
        showdown_entry({"3": ["Ac", "Kd"], "4": FOLDED_WITH_TRIPS}),
        "hands.3",
        Rule.CARD_ONCE,
    ),
    "a_card_on_the_board": (showdown_entry({"3": IN, "4": ["7d", "4d"]}), "hands.4",
                            Rule.CARD_ONCE),
    "the_player_dealer_on_the_board": (showdown_entry(dealer=["Kh", "Ad"]), "player_dealer",
                                       Rule.CARD_ONCE),
    "the_player_dealer_malformed": (showdown_entry(dealer=["Ac", "A"]), "player_dealer[1]",
                                    Rule.CARD),
    "the_player_dealer_one_card": (showdown_entry(dealer=["Ac"]), "player_dealer", Rule.CARD),
    "the_player_dealer_missing": ({"hands": {"3": IN, "4": FOLDED_WITH_TRIPS}}, "player_dealer",
                                  Rule.CARD),
}  # fmt: skip


@pytest.fixture
def at_the_river(clock, staff) -> Round:
    """Seat 3 plays (turned up), seat 4 folds with a Trips wager (turned up), seat 5 folds
    with none (mucked); every decision made, the board ``BOARD`` shown."""
    round_ = to_river(
        table(staff, DealMode.CARD_ENTRY),
        [Wager(3, 1_000), Wager(4, 1_000, trips=500), Wager(5, 1_000, bad_beat=500)],
        {3: PLAY_RIVER, 4: FOLD, 5: FOLD},
    )
    assert round_.board == BOARD
    return round_


def test_the_showdown_entry_is_checked_naming_no_card(at_the_river, staff):
    # Every case on one round (a refusal changes nothing, so each meets the same round).
    before = round_snapshot(at_the_river.pk)
    for case, (entry, field_name, rule) in SHOWDOWN_ENTRIES.items():
        with pytest.raises(RuleError) as refused:
            rounds.showdown(round_id=at_the_river.pk, by=staff.dealer, entry=entry)
        assert (refused.value.field, refused.value.rule) == (field_name, rule), case
        assert_names_no_card_typed(refused.value, entry)
        assert round_snapshot(at_the_river.pk) == before, case


def test_a_refused_showdown_entry_names_where_in_the_floors_words(at_the_river, staff):
    cases = [
        (
            showdown_entry({"3": IN, "4": ["7d", "4d"]}),
            "a card keyed for seat 4 is also on the board",
        ),
        (
            showdown_entry({"3": ["Ac", "Kd"], "4": FOLDED_WITH_TRIPS}),
            "a card keyed for seat 3 is also keyed for the player-dealer",
        ),
        (
            showdown_entry({"3": IN}),
            "key the cards of exactly the hands turned face up: the player-dealer's two cards, "
            "then two for each of seats 3, 4; a folded hand with no Trips wager is mucked, not "
            "keyed",
        ),
        (
            showdown_entry({"3": ["Ks", "Kx"], "4": FOLDED_WITH_TRIPS}),
            "card 2 keyed for seat 3 is not a card: write the rank (23456789TJQKA) then the "
            "suit (cdhs)",
        ),
        (
            showdown_entry({"3": ["Ks", "Ks"], "4": FOLDED_WITH_TRIPS}),
            "cards 1 and 2 keyed for seat 3 are the same card",
        ),
        (showdown_entry(dealer=["Ac"]), "2 cards are needed for the player-dealer, 1 were keyed"),
    ]  # fmt: skip
    for entry, message in cases:
        with pytest.raises(RuleError) as refused:
            rounds.showdown(round_id=at_the_river.pk, by=staff.dealer, entry=entry)
        assert refused.value.message == message


def test_the_showdown_keys_the_hands_turned_up_and_mucks_the_rest(at_the_river, staff):
    round_ = rounds.showdown(round_id=at_the_river.pk, by=staff.dealer, entry=showdown_entry())
    assert (round_.state, round_.dealer_hole) == (State.SHOWDOWN, PD)
    stored = {h.seat: (h.hole, h.category, h.result) for h in round_.hands.order_by("seat")}
    assert stored == {
        3: (IN, "full_house", "win"),  # kings full of sevens beat aces up
        4: (FOLDED_WITH_TRIPS, "three_of_a_kind", "fold"),
        5: (None, "", "fold"),  # mucked: never keyed, never valued
    }
    assert (round_.dealer_category, round_.dealer_qualifies) == ("two_pair", True)


# --- The board, keyed as it is turned ---------------------------------------------------------

REVEALS = {
    "flop_two_cards": (State.PREFLOP, ["2h", "7h"], "cards"),
    "flop_four_cards": (State.PREFLOP, ["2h", "7h", "9s", "Td"], "cards"),
    "flop_malformed": (State.PREFLOP, ["2h", "7h", "9x"], "cards[2]"),
    "flop_card_twice": (State.PREFLOP, ["2h", "2h", "9s"], "cards[1]"),
    "flop_missing": (State.PREFLOP, None, "cards"),
    "flop_not_a_list": (State.PREFLOP, "2h 7h 9s", "cards"),
    "turn_and_river_three_cards": (State.FLOP, ["Td", "Jc", "Qc"], "cards"),
    "turn_and_river_one_card": (State.FLOP, ["Td"], "cards"),
    "turn_and_river_repeats_the_flop": (State.FLOP, ["Td", "7d"], "cards"),
    "turn_and_river_malformed": (State.FLOP, ["10d", "Jc"], "cards[0]"),
}


@pytest.mark.parametrize("state", [State.PREFLOP, State.FLOP])
def test_the_board_entry_is_checked_naming_only_cards_on_the_board(clock, staff, state):
    round_ = play_round(
        table(staff, DealMode.CARD_ENTRY),
        pd_seat=2,
        bank=10_000,
        wagers=[Wager(3, 1_000)],
        decisions={3: PLAY_RIVER},
        cards=CARDS,
        until=state,
    )
    rounds.decide(round_id=round_.pk, seat=3, action="check", by=staff.dealer)
    reveal = rounds.reveal_flop if state is State.PREFLOP else rounds.reveal_turn_and_river
    before = round_snapshot(round_.pk)
    for case, (on, cards, field_name) in REVEALS.items():
        if on is not state:
            continue
        with pytest.raises(RuleError) as refused:
            reveal(round_id=round_.pk, by=staff.dealer, cards=cards)
        assert refused.value.field == field_name, case
        assert_names_no_card_typed(refused.value, cards, board=round_.board)
        assert round_snapshot(round_.pk) == before, case
        if case == "turn_and_river_repeats_the_flop":  # a card on the board is no secret
            assert refused.value.message == "card 7d is already on the board"


def test_an_rng_table_keys_no_card_at_the_showdown(clock, staff):
    round_ = to_river(table(staff, DealMode.RNG), [Wager(3, 1_000)], {3: PLAY_RIVER},
                      rng=random.Random(4))  # fmt: skip
    before = round_snapshot(round_.pk)
    with pytest.raises(RuleError) as refused:
        rounds.showdown(round_id=round_.pk, by=staff.dealer, entry=CARDS.entry([3]))
    assert (refused.value.field, refused.value.rule) == ("cards", Rule.DEAL_MODE)
    assert round_snapshot(round_.pk) == before
