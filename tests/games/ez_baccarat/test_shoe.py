"""The shoe (docs/rules.md §14.2): what it holds, the burn, dealing in order, the cut card, the
record the floor keeps; and, as a state machine, that it never deals a card it does not hold."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from cardroom.errors import Rule, RuleError, State, StateError
from games.ez_baccarat.coup import play_out
from games.ez_baccarat.options import BaccaratOptions
from games.ez_baccarat.shoe import Shoe, burn_count, check_held, shoe_cards
from tables.rules.cards import FULL_DECK, parse_card
from tests.builders.rules import cards


def _shoe_starting_with(first: str, *, decks: int = 8, cut_card: int = 14) -> Shoe:
    """A shoe in code order but for ``first`` on top (the burn then follows the rule)."""
    order = list(shoe_cards(decks))
    order.remove(parse_card(first))
    order.insert(0, parse_card(first))
    burned = tuple(order[: 1 + burn_count(order[0])])
    return Shoe(decks, len(order) - cut_card, len(burned), tuple(order), burned)


@pytest.mark.parametrize("decks", [6, 8])
def test_a_new_shoe_holds_every_card_once_per_deck(decks):
    shoe = Shoe.shuffled(BaccaratOptions(decks=decks), random.Random(decks))
    assert len(shoe.order) == 52 * decks
    assert Counter(shoe.order) == {card: decks for card in FULL_DECK}
    assert shoe.cut_position == 52 * decks - 14
    assert shoe.position == len(shoe.burned) and shoe.dealt == ()


def test_the_default_shuffle_is_the_systems_secure_source():
    options = BaccaratOptions(decks=6)
    first, second = Shoe.shuffled(options), Shoe.shuffled(options)
    assert first.order != second.order  # one chance in 312!/(6!)^52 of a false failure


BURNS = [("As", 1), ("2d", 2), ("3h", 3), ("4c", 4), ("5s", 5), ("6d", 6), ("7h", 7),
         ("8c", 8), ("9s", 9), ("Td", 10), ("Jh", 10), ("Qc", 10), ("Ks", 10)]  # fmt: skip


@pytest.mark.parametrize(("first", "burns"), BURNS, ids=[b[0] for b in BURNS])
def test_the_first_card_is_shown_and_burns_its_value_a_zero_ten(first, burns):
    shoe = _shoe_starting_with(first)
    assert burn_count(parse_card(first)) == burns
    assert str(shoe.shown_card) == first
    assert shoe.burned == shoe.order[: 1 + burns]
    card, _ = shoe.deal()
    assert card == shoe.order[1 + burns]  # the first card dealt follows the burn


def test_cards_are_dealt_in_order_a_coup_at_a_time():
    shoe = _shoe_starting_with("As")  # burns one: 2c is next, then 2c 2c ... (code order)
    coup, after = shoe.deal_coup()
    assert coup.cards == shoe.order[2 : 2 + len(coup.cards)]
    assert after.position == shoe.position + len(coup.cards)
    assert after.dealt == coup.cards
    second, later = after.deal_coup()
    assert later.dealt == coup.cards + second.cards
    assert shoe.position == 2  # the shoe itself never changes


def test_the_hand_in_progress_when_the_cut_card_comes_out_is_finished_then_a_new_shoe():
    shoe = Shoe.shuffled(BaccaratOptions(decks=6, cut_card=6), random.Random(7))
    hands = 0
    while not shoe.cut_card_out:
        before = shoe.position
        coup, shoe = shoe.deal_coup()
        hands += 1
        assert play_out(coup.cards) == coup  # every coup obeys the drawing rules
        if shoe.cut_card_out:  # the cut card came out during this hand: it was finished
            assert before <= shoe.cut_position < shoe.position <= len(shoe.order)
    assert hands > 40
    with pytest.raises(StateError) as caught:
        shoe.deal_coup()
    assert caught.value.state is State.SHOE_FINISHED
    assert caught.value.rule is Rule.BACCARAT_SHOE


def test_the_cut_card_comes_out_with_the_first_card_behind_it():
    shoe = _shoe_starting_with("As", cut_card=14)
    at_cut = Shoe(8, shoe.cut_position, shoe.cut_position, shoe.order, shoe.burned)
    assert not at_cut.cut_card_out  # the next card is the first behind the cut card
    _, after = at_cut.deal()
    assert after.cut_card_out
    at_cut.require_next_hand()  # a hand may start: the cut card comes out during it
    with pytest.raises(StateError):
        after.require_next_hand()


def test_an_empty_shoe_deals_nothing():
    shoe = _shoe_starting_with("As")
    empty = Shoe(8, shoe.cut_position, len(shoe.order), shoe.order, shoe.burned)
    assert empty.remaining == 0
    with pytest.raises(RuleError) as caught:
        empty.deal()
    assert caught.value.rule is Rule.BACCARAT_SHOE


def test_the_order_is_never_shown_by_its_repr():
    shoe = _shoe_starting_with("Ks")
    text = repr(shoe)
    assert "Card(" not in text and "order" not in text and "burned" not in text
    assert text == f"Shoe(decks=8, cut_position={shoe.cut_position}, position={shoe.position})"


def test_the_record_reads_back():
    shoe = Shoe.shuffled(BaccaratOptions(decks=6, cut_card=20), random.Random(3))
    _, shoe = shoe.deal_coup()
    record = shoe.to_json()
    assert set(record) == {"decks", "order", "position", "cut_position", "burned"}
    assert record["order"][:2] == [str(card) for card in shoe.order[:2]]
    assert Shoe.from_json(record) == shoe


def _record(**changes):
    record = _shoe_starting_with("5h").to_json()
    record.update(changes)
    return record


NINE_ACES = ["As"] * 9 + [str(card) for card in shoe_cards(8)][9:]
RECORDS = [
    ("seven-decks", lambda r: r.update(decks=7), "decks"),
    ("a-card-too-many", lambda r: r.update(order=NINE_ACES), "order"),
    ("a-card-missing", lambda r: r.update(order=r["order"][:-1]), "order"),
    ("not-a-card", lambda r: r["order"].__setitem__(5, "1h"), "order[5]"),
    ("burn-not-the-rule", lambda r: r.update(burned=r["burned"][:-1]), "burned"),
    ("burn-not-the-top", lambda r: r.update(burned=list(reversed(r["burned"]))), "burned"),
    ("position-inside-the-burn", lambda r: r.update(position=2), "position"),
    ("position-past-the-end", lambda r: r.update(position=417), "position"),
    ("position-not-a-number", lambda r: r.update(position="7"), "position"),
    ("cut-card-too-close", lambda r: r.update(cut_position=411), "cut_position"),
    ("cut-card-too-deep", lambda r: r.update(cut_position=300), "cut_position"),
    ("unknown-field", lambda r: r.update(shown="5h"), None),
]


@pytest.mark.parametrize(("change", "field"), [r[1:] for r in RECORDS], ids=[r[0] for r in RECORDS])
def test_a_record_that_is_not_a_shoe_is_refused(change, field):
    record = _record()
    change(record)
    with pytest.raises(RuleError) as caught:
        Shoe.from_json(record)
    assert caught.value.field == field
    assert caught.value.rule is (Rule.CARD if field == "order[5]" else Rule.BACCARAT_SHOE)


# --- card entry: the cards a shoe can hold ----------------------------------------------------


@pytest.mark.parametrize(
    ("entered", "decks", "already", "field"),
    [
        ("As As As As As As", 6, "", None),
        ("As As As As As As As", 6, "", "[6]"),
        ("9h 9h", 8, "9h 9h 9h 9h 9h 9h", None),
        ("2c 9h 9h", 8, "9h 9h 9h 9h 9h 9h 9h", "[2]"),
        ("Kd", 6, "Kd Kd Kd Kd Kd Kd", "[0]"),
        ("Kd Ks Kh Kc", 6, "Kd Kd Kd Kd Kd", None),
    ],
    ids=["six-of-six", "seven-of-six", "eight-with-earlier", "ninth-with-earlier",
         "seventh-after-six", "other-suits"],
)  # fmt: skip
def test_a_card_the_shoe_cannot_hold_is_refused(entered, decks, already, field):
    if field is None:
        check_held(cards(entered), decks, already=cards(already))
        return
    with pytest.raises(RuleError) as caught:
        check_held(cards(entered), decks, already=cards(already))
    assert (caught.value.rule, caught.value.field) == (Rule.BACCARAT_SHOE, field)
    assert f"a shoe of {decks} decks holds {decks} of the" in caught.value.message


# --- a state machine: whatever is dealt, the shoe holds what it held -------------------------


class ShoeMachine(RuleBasedStateMachine):
    """Deal single cards and coups from a shoe, start new shoes when the cut card is out, and
    check after every step that the burned, dealt and undealt cards are exactly the shoe."""

    @initialize(
        decks=st.sampled_from([6, 8]), cut_card=st.integers(6, 104), seed=st.integers(0, 2**32)
    )
    def start(self, decks, cut_card, seed):
        self.options = BaccaratOptions(decks=decks, cut_card=cut_card)
        self.rng = random.Random(seed)
        self.new_shoe()

    def new_shoe(self):
        self.shoe = Shoe.shuffled(self.options, self.rng)
        self.seen: list = list(self.shoe.burned)

    @precondition(lambda self: not self.shoe.cut_card_out)
    @rule()
    def deal_a_coup(self):
        coup, self.shoe = self.shoe.deal_coup()
        assert play_out(coup.cards) == coup
        self.seen += coup.cards

    @precondition(lambda self: self.shoe.remaining > 0)
    @rule(count=st.integers(1, 40))
    def deal_cards(self, count):
        for _ in range(min(count, self.shoe.remaining)):
            card, self.shoe = self.shoe.deal()
            self.seen.append(card)

    @precondition(lambda self: self.shoe.cut_card_out)
    @rule()
    def a_hand_after_the_cut_card_needs_a_new_shoe(self):
        try:
            self.shoe.deal_coup()
        except StateError as error:
            assert error.state is State.SHOE_FINISHED
        else:
            raise AssertionError("a hand was dealt after the cut card came out")
        self.new_shoe()

    @precondition(lambda self: self.shoe.remaining == 0)
    @rule()
    def an_empty_shoe_refuses(self):
        try:
            self.shoe.deal()
        except RuleError as error:
            assert error.rule is Rule.BACCARAT_SHOE
        else:
            raise AssertionError("an empty shoe dealt a card")
        self.new_shoe()

    @rule()
    def kept_and_read_back_between_hands(self):
        self.shoe = Shoe.from_json(self.shoe.to_json())

    @invariant()
    def holds_what_it_held(self):
        shoe = self.shoe
        assert self.seen == list(shoe.order[: shoe.position])  # in order, nothing skipped
        undealt = shoe.order[shoe.position :]
        assert Counter(self.seen) + Counter(undealt) == Counter(shoe_cards(shoe.decks))
        check_held(self.seen, shoe.decks)  # what a card-entry table would have accepted
        assert shoe.cut_card_out is (shoe.position > shoe.cut_position)


# 20 sessions of up to 30 steps: each shoe is eight decks shuffled and checked card by card;
# the cut card is reached in a few sessions already.
ShoeMachine.TestCase.settings = settings(max_examples=20, stateful_step_count=30, deadline=None)
test_the_shoe_never_deals_a_card_it_does_not_hold = ShoeMachine.TestCase
