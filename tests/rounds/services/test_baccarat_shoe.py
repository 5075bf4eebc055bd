"""The shoe of an EZ Baccarat table (docs/rules.md §14.2), kept across hands: a hand of a
baccarat table starts, banks and takes its cards from the table's shoe through the shared
button and round services; the cut card finishes the shoe; the order is a secret column."""

from __future__ import annotations

import random

import pytest

from cardroom.errors import Rule, RuleError
from cardroom.secret_columns import secret_in_path
from games.ez_baccarat.coup import play_out
from tables.models import Round, Shoe
from tables.rules.cards import parse_card
from tables.services import shoes
from tests.builders.floor import give_button, open_floor, start_round

pytestmark = pytest.mark.django_db


def _baccarat_round(staff, layout="PPP.....P", **options) -> Round:
    table = open_floor(layout, staff=staff, game="ez_baccarat", **options).table
    give_button(table.pk, 9, by=staff.supervisor)
    return start_round(table.pk, by=staff.dealer)


def test_a_baccarat_hand_starts_through_the_shared_button_and_round_services(staff):
    round_ = _baccarat_round(staff)
    assert round_.player_dealer_seat == 9
    assert round_.options["game"] == "ez_baccarat" and round_.options["seats"] == 9


def test_hands_are_dealt_in_order_from_one_shoe_until_the_cut_card(staff, clock):
    round_ = _baccarat_round(staff, cut_card=104)
    rng = random.Random(7)
    shoe, first = shoes.deal_hand(round_, moment=clock.now(), rng=rng)
    assert (
        shoe.shoe_order
        and len(shoe.shoe_order) == 416
        and shoe.burned_cards[0] == shoe.shoe_order[0]
    )
    assert list(shoe.shoe_order[len(shoe.burned_cards) : shoe.position]) == list(first.cards)
    play_out([parse_card(c) for c in first.cards])  # the drawing rules hold
    hands = 1
    while shoe.finished_at is None:
        shoe, dealt = shoes.deal_hand(round_, moment=clock.now())
        hands += 1
        assert len(dealt.cards) in (4, 5, 6)
    assert shoe.position > shoe.cut_position  # the hand that brought it out was finished
    assert shoe.dealt == shoe.shoe_order[len(shoe.burned_cards) : shoe.position]
    assert Shoe.objects.filter(table_id=round_.table_id).count() == 1
    fresh, _ = shoes.deal_hand(round_, moment=clock.now())  # the next hand: a new shoe
    assert fresh.pk != shoe.pk and hands > 50


def test_a_card_entry_shoe_checks_the_drawing_rules_and_what_it_holds(staff, clock):
    round_ = _baccarat_round(staff, deal_mode="card_entry", decks=6)
    with pytest.raises(RuleError) as refused:
        shoes.deal_hand(round_, moment=clock.now(), cards=["9h", "2c", "Kd", "5s", "4d"])
    assert (refused.value.rule, refused.value.field) == (Rule.BACCARAT_DRAWING, "cards[4]")
    shoe, dealt = shoes.deal_hand(round_, moment=clock.now(), cards=["4s", "4s", "4s", "4s"])
    assert shoe.shoe_order is None and {k: list(v) for k, v in dealt.hands.items()} == {
        "player": ["4s", "4s"],
        "banker": ["4s", "4s"],
    }
    with pytest.raises(RuleError) as refused:
        shoes.deal_hand(round_, moment=clock.now(), cards=["4s", "4s", "4s", "9s"])
    assert (refused.value.rule, refused.value.field) == (Rule.BACCARAT_SHOE, "cards[2]")
    with pytest.raises(RuleError) as refused:
        shoes.deal_hand(round_, moment=clock.now())
    assert refused.value.field == "cards"


def test_an_rng_shoe_refuses_keyed_cards(staff, clock):
    round_ = _baccarat_round(staff)
    with pytest.raises(RuleError) as refused:
        shoes.deal_hand(round_, moment=clock.now(), cards=["As", "2s", "3s", "4s"])
    assert refused.value.rule == Rule.DEAL_MODE


@pytest.mark.parametrize(
    "path", ["shoe_order", "burned_cards__0", "-shoe_order", "shoe__shoe_order__icontains"]
)
def test_the_shoes_undealt_cards_are_a_secret_column(path):
    model = Round if path.startswith("shoe__") else Shoe
    assert secret_in_path(model, path) is not None
