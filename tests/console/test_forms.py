"""Each console form: bad input is refused on the page, a broken rule is named, a wrong state
answers 409; nothing changes when refused. Table-driven where the forms are alike."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from cardroom.errors import State
from tables.models import Game, OfferRound, OfferRoundStatus, Round, Seating
from tables.selectors import NO_PLAYER_DEALER_STATUS
from tests.builders.floor import PLAY_RIVER, Cards
from tests.builders.money import Wager, chips_of, play_round
from wagers.models import Bet, PlayerDealerBank

pytestmark = pytest.mark.django_db


# How the console names a rule it refuses (docs/rules.md, by section).
ANTE_BLIND = "(rule: Ante and Blind, docs/rules.md §4.1)"
LIMITS = "(rule: the table limits, docs/rules.md §4.3)"
CHIPS = "(rule: wagers in whole chips, docs/rules.md §4.4)"
CARD = "(rule: cards are named by rank and suit, docs/rules.md §1.1)"


def act(client, table, action, data=None):
    return client.post(reverse("console:table-action", args=[table.pk, action]), data or {})


def wagering(card_table):
    return play_round(card_table, pd_seat=2, bank=10_000, wagers=[], until=State.WAGERING)


# --- Table and seats ------------------------------------------------------------------------


def test_open_game_refuses_a_seat_that_does_not_exist(as_user, card_table):
    Game.objects.filter(table=card_table.table).update(ended_at="2026-01-01T00:00Z")
    response = act(as_user("supervisor"), card_table.table, "open_game", {"first_offer_seat": 7})
    assert response.status_code == 400
    assert "seat 7 does not exist: the table has seats 1 to 6" in response.content.decode()


def test_open_game_twice_is_a_state_error(as_user, card_table):
    response = act(as_user("supervisor"), card_table.table, "open_game", {"first_offer_seat": 1})
    assert response.status_code == 409
    assert "a game is already open" in response.content.decode()


def test_close_game_then_close_again(as_user, card_table):
    client = as_user("supervisor")
    assert (
        act(client, card_table.table, "close_game", {"detail": "end of shift"}).status_code == 302
    )
    response = act(client, card_table.table, "close_game")
    assert response.status_code == 409
    assert "no game is open" in response.content.decode()


@pytest.mark.parametrize(
    ("data", "status", "text"),
    [
        ({"seat": 1}, 400, "seat 1 is taken"),  # the service's rule, named
        ({"seat": 5}, 400, "This field is required"),  # no player chosen
        ({"seat": 9}, 400, "seat 9 does not exist: the table has seats 1 to 6"),
    ],
)
def test_seat_form_errors(as_user, card_table, data, status, text):
    from tests.builders.floor import make_player

    player = make_player()
    data = {"player": player.pk, **data} if data.get("seat") != 5 else data
    response = act(as_user("dealer"), card_table.table, "seat", data)
    assert response.status_code == status
    body = response.content.decode()
    assert text in body
    if "taken" in text:
        assert "seat 1 is taken (rule: the seats, numbered from 1, docs/rules.md §3.1)" in body
    assert not Seating.objects.filter(player=player).exists()


def test_seating_a_player_seated_elsewhere_names_the_rule(as_user, card_table, staff):
    from tests.builders.money import money_table

    other = money_table(staff, {1: 0})
    response = act(
        as_user("dealer"), card_table.table, "seat", {"seat": 5, "player": other.seated[1].pk}
    )
    assert response.status_code == 400
    assert "is already seated at" in response.content.decode()


def test_unseat_an_empty_seat(as_user, card_table):
    response = act(as_user("dealer"), card_table.table, "unseat", {"seat": 6})
    assert response.status_code == 400
    assert "seat 6 is empty" in response.content.decode()


@pytest.mark.parametrize(
    ("action", "amount", "text"),
    [
        ("buy_in", "0.50", "the amount of $0.50 is not in whole chips of $1.00"),
        ("buy_in", "0", "positive whole number of cents"),
        ("buy_in", "-5", "greater than or equal to 0"),
        ("buy_in", "1.005", "no more than 2 decimal places"),
        ("fill", "100", "a patron buys in"),
    ],
)
def test_chips_form_errors(as_user, card_table, action, amount, text):
    player = card_table.seated[1]
    before = card_table.chips(player)
    response = act(
        as_user("dealer"),
        card_table.table,
        action,
        {"player_id": player.pk, "amount": amount, "currency": "on"},
    )
    assert response.status_code == 400
    assert text in response.content.decode()
    assert card_table.chips(player) == before


def test_buy_in_in_dollars_lands_as_exact_cents(as_user, card_table):
    player = card_table.seated[1]
    before = card_table.chips(player)
    response = act(
        as_user("dealer"), card_table.table, "buy_in", {"player_id": player.pk, "amount": "123.00"}
    )
    assert response.status_code == 302
    assert card_table.chips(player) == before + 12_300


# --- The button -----------------------------------------------------------------------------


def test_no_one_accepts_then_no_round_can_start_and_the_page_says_why(as_user, card_table):
    client = as_user("dealer")
    for _ in range(4):
        offer = act(client, card_table.table, "offer")
        assert offer.status_code == 302
        pending = OfferRound.objects.get(table=card_table.table).offers.get(answer="pending")
        act(client, card_table.table, "answer", {"offer_id": pending.pk, "answer": "decline"})
    response = act(client, card_table.table, "offer")
    assert response.status_code == 409
    body = response.content.decode()
    refusal = (
        f"{NO_PLAYER_DEALER_STATUS} (rule: no hand without a player-dealer, docs/rules.md §8.5)"
    )
    assert refusal in body
    assert OfferRound.objects.get(table=card_table.table).status == OfferRoundStatus.EXHAUSTED
    response = act(client, card_table.table, "start_round")
    assert response.status_code == 409
    assert refusal in response.content.decode()
    page = client.get(reverse("console:table", args=[card_table.table.pk])).content.decode()
    assert f"<strong>Button:</strong> {NO_PLAYER_DEALER_STATUS}</p>" in page


def test_answering_an_unknown_offer_is_404(as_user, card_table):
    response = act(
        as_user("dealer"), card_table.table, "answer", {"offer_id": 999, "answer": "accept"}
    )
    assert response.status_code == 404


def test_answer_form_needs_accept_or_decline(as_user, card_table):
    response = act(
        as_user("dealer"), card_table.table, "answer", {"offer_id": 1, "answer": "maybe"}
    )
    assert response.status_code == 400


def test_start_round_without_an_acceptance(as_user, card_table):
    response = act(as_user("dealer"), card_table.table, "start_round")
    assert response.status_code == 409
    assert "no one has accepted the player-dealer position" in response.content.decode()
    assert not Round.objects.filter(table=card_table.table).exists()


# --- The round ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("amount", "status", "text"),
    [
        (
            "0.5",
            400,
            "a bank of $0.50 is not in whole chips of $1.00 "
            "(rule: the bank of the player-dealer, docs/rules.md §7.1)",
        ),
        ("", 400, "This field is required"),
        ("100000", 400, "more than"),  # more than the player's chips
    ],
)
def test_bank_form_errors(as_user, card_table, amount, status, text):
    from rounds import services as rounds
    from tests.builders.floor import give_button

    give_button(card_table.table.pk, 2, by=card_table.staff.dealer)
    round_ = rounds.start_round(table_id=card_table.table.pk, by=card_table.staff.dealer)
    response = act(
        as_user("dealer"), card_table.table, "bank", {"round_id": round_.pk, "amount": amount}
    )
    assert response.status_code == status
    assert text in response.content.decode()
    assert not PlayerDealerBank.objects.filter(round=round_).exists()


@pytest.mark.parametrize(
    ("data", "text", "rule"),
    [
        ({"ante": "10", "blind": "5"}, "must be equal", ANTE_BLIND),
        ({"ante": "1", "blind": "1"}, "below the table minimum", LIMITS),
        ({"ante": "600", "blind": "600"}, "above the table maximum", LIMITS),
        ({"ante": "10.50", "blind": "10.50"}, "is not in whole chips of $1.00", CHIPS),
        ({"trips": "10"}, "Ante and Blind are both required", ANTE_BLIND),
    ],
)
def test_bet_form_names_the_rule_it_breaks(as_user, card_table, data, text, rule):
    round_ = wagering(card_table)
    response = act(
        as_user("dealer"), card_table.table, "bet", {"round_id": round_.pk, "seat": 1, **data}
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert text in body
    assert rule in body
    assert not Bet.objects.filter(hand__round=round_).exists()


def test_bet_inputs_carry_the_tables_limits(as_user, card_table):
    wagering(card_table)
    body = (
        as_user("dealer").get(reverse("console:table", args=[card_table.table.pk])).content.decode()
    )
    assert 'name="ante"' in body
    assert 'step="1"' in body and 'max="500"' in body


def test_a_wager_after_no_more_bets_is_a_state_error(as_user, card_table):
    round_ = play_round(
        card_table, pd_seat=2, bank=10_000, wagers=[Wager(1, 1_000)], until=State.NO_MORE_BETS
    )
    response = act(
        as_user("dealer"),
        card_table.table,
        "bet",
        {"round_id": round_.pk, "seat": 3, "ante": "10", "blind": "10"},
    )
    assert response.status_code == 409
    assert "cannot place wagers" in response.content.decode()


def test_no_more_bets_before_the_bank(as_user, card_table):
    from rounds import services as rounds
    from tests.builders.floor import give_button

    give_button(card_table.table.pk, 2, by=card_table.staff.dealer)
    round_ = rounds.start_round(table_id=card_table.table.pk, by=card_table.staff.dealer)
    response = act(as_user("dealer"), card_table.table, "no_more_bets", {"round_id": round_.pk})
    assert response.status_code == 409
    assert "has not posted the bank" in response.content.decode()


DEALT = Cards(["2c", "3d"], {1: ["Ah", "Ad"]}, ["7c", "8d", "9s", "Jc", "Qd"])


def seat_1_plays(card_table, until: State) -> Round:
    """Seat 2 banks; seat 1 wagers and plays on the river; the board ``DEALT``'s."""
    return play_round(
        card_table,
        pd_seat=2,
        bank=10_000,
        wagers=[Wager(1, 1_000)],
        until=until,
        cards=DEALT,
        decisions={1: PLAY_RIVER},
    )


def at_the_showdown(card_table) -> Round:
    """The river decided, the board keyed: the showdown is next."""
    round_ = seat_1_plays(card_table, State.RIVER)
    from rounds import services as rounds

    rounds.decide(round_id=round_.pk, seat=1, action="play", multiple=1, by=card_table.staff.dealer)
    return round_


ONCE = "(rule: each card is dealt once, docs/rules.md §1.2)"
ENTRY = "(rule: entering the dealt cards, docs/rules.md §2.3)"
SHOWDOWN_ERRORS = [
    ("Ah Kd 2h 2h", "cards 1 and 2 keyed for seat 1 are the same card", ONCE),
    ("Ah Kd 2h", "3 cards keyed; the showdown needs 4: the player-dealer&#x27;s two cards, "
                 "then two for each of seats 1", ENTRY),
    ("Ah Kd 2h Zz", "card 2 keyed for seat 1 is not a card", CARD),
    ("Ah Kd 2h 3d 4h 5s", "6 cards keyed; the showdown needs 4", ENTRY),  # a card left over
    ("Ah 7c 2h 3d", "a card keyed for the player-dealer is also on the board", ONCE),
]  # fmt: skip


def test_showdown_card_entry_errors(as_user, card_table):
    round_ = at_the_showdown(card_table)
    client = as_user("dealer")
    for cards, text, rule in SHOWDOWN_ERRORS:  # one round: a refusal changes nothing
        response = act(
            client, card_table.table, "showdown", {"round_id": round_.pk, "cards": cards}
        )
        assert response.status_code == 400, cards
        body = response.content.decode()
        assert f"Cards turned face up: {text}" in body and rule in body, cards
        assert 'name="cards" id="id_showdown_cards" autocomplete="off">' in body  # empty
        assert Round.objects.get(pk=round_.pk).state == State.RIVER
    done = act(
        client, card_table.table, "showdown", {"round_id": round_.pk, "cards": "Kh Kd Ah Ad"}
    )
    assert done.status_code == 302
    assert Round.objects.get(pk=round_.pk).state == State.SHOWDOWN


def test_the_deal_keys_nothing_then_the_legal_decisions_only(as_user, card_table):
    round_ = play_round(
        card_table, pd_seat=2, bank=10_000, wagers=[Wager(1, 1_000)], until=State.NO_MORE_BETS
    )
    client = as_user("dealer")
    page = client.get(reverse("console:table", args=[card_table.table.pk])).content.decode()
    assert "Cards dealt" in page and "data-card=" not in page  # no picker at the deal
    typed = act(client, card_table.table, "deal", {"round_id": round_.pk, "cards": "2c 3d"})
    assert typed.status_code == 400
    assert "no card is keyed at the deal of a card-entry table" in typed.content.decode()
    assert act(client, card_table.table, "deal", {"round_id": round_.pk}).status_code == 302
    page = client.get(reverse("console:table", args=[card_table.table.pk])).content.decode()
    assert "the cards are dealt face down: they are keyed at the showdown" in page
    assert '<button type="submit">Check</button>' in page
    assert "Play 4x" in page and "Play 3x" in page
    assert ">Fold<" not in page
    assert "data-card=" not in page  # the decisions come first: no picker yet
    response = act(
        client, card_table.table, "decide", {"round_id": round_.pk, "seat": 1, "action": "fold"}
    )
    assert response.status_code == 400
    assert "may fold only on the river" in response.content.decode()
    response = act(
        client,
        card_table.table,
        "decide",
        {"round_id": round_.pk, "seat": 1, "action": "play", "multiple": 2},
    )
    assert response.status_code == 400
    assert "Play pre-flop must be 3x or 4x" in response.content.decode()
    act(client, card_table.table, "decide", {"round_id": round_.pk, "seat": 1, "action": "check"})
    page = client.get(reverse("console:table", args=[card_table.table.pk])).content.decode()
    # The flop picker knows only the cards shown (none yet) (§2.6).
    assert re.search(r'data-card="Ah"[^>]*data-used="0"', page)
    assert re.search(r'data-card="Kc"[^>]*data-used="0"', page)


@pytest.mark.parametrize(
    ("data", "text"),
    [
        ({"reason": "misdeal"}, "tick the box to confirm the void"),
        ({"confirm": "on"}, "This field is required"),
    ],
)
def test_void_needs_a_reason_and_a_confirmation(as_user, card_table, data, text):
    round_ = wagering(card_table)
    response = act(as_user("supervisor"), card_table.table, "void", {"round_id": round_.pk, **data})
    assert response.status_code == 400
    assert text in response.content.decode()
    assert Round.objects.get(pk=round_.pk).state == State.WAGERING


def test_void_confirmed_returns_every_wager(as_user, card_table):
    round_ = seat_1_plays(card_table, State.PREFLOP)
    before = card_table.chips(card_table.seated[1])
    response = act(
        as_user("supervisor"),
        card_table.table,
        "void",
        {"round_id": round_.pk, "reason": "two cards exposed", "confirm": "on"},
    )
    assert response.status_code == 302
    assert Round.objects.get(pk=round_.pk).state == State.VOIDED
    assert card_table.chips(card_table.seated[1]) == before + 2_000


def test_cash_out_all_then_nothing_left(as_user, card_table):
    player = card_table.seated[1]
    client = as_user("dealer")
    response = act(client, card_table.table, "cash_out", {"player_id": player.pk, "amount": ""})
    assert response.status_code == 302
    assert card_table.chips(player) == 0
    response = act(client, card_table.table, "cash_out", {"player_id": player.pk, "amount": "5"})
    assert response.status_code == 400
    assert "has no chips at" in response.content.decode()


@pytest.mark.parametrize("action", ["cash_out", "credit"])
def test_a_zero_amount_is_refused_not_taken_as_everything(as_user, card_table, action):
    player = card_table.seated[1]
    before = card_table.chips(player)
    response = act(
        as_user("supervisor"), card_table.table, action, {"player_id": player.pk, "amount": "0"}
    )
    assert response.status_code == 400
    assert card_table.chips(player) == before
    if action == "cash_out":  # a patron's form; credit is a TPPP's, refused on the record
        assert "positive" in response.content.decode()


def test_cash_out_while_chips_are_in_play_is_a_state_error(as_user, card_table):
    play_round(card_table, pd_seat=2, bank=10_000, wagers=[Wager(1, 1_000)], until=State.WAGERING)
    response = act(
        as_user("dealer"),
        card_table.table,
        "cash_out",
        {"player_id": card_table.seated[1].pk, "amount": "10"},
    )
    assert response.status_code == 409
    assert "chips in play" in response.content.decode()


def test_backline_rules_are_the_services(as_user, staff):
    from tests.builders.money import money_table

    mt = money_table(staff, {1: 50_000, 2: 50_000, 3: 50_000}, backliners=[50_000])
    round_ = play_round(mt, pd_seat=2, bank=10_000, wagers=[Wager(1, 1_000)], until=State.WAGERING)
    client = as_user("dealer")
    page = client.get(reverse("console:table", args=[mt.table.pk])).content.decode()
    assert mt.backliners[0].name in page  # offered as a backline bettor
    seated = {"round_id": round_.pk, "seat": 1, "ante": "10", "blind": "10"}
    response = act(client, mt.table, "bet", {**seated, "backline_player": mt.seated[3].pk})
    assert response.status_code == 400
    assert "a seated player plays their own seat, not behind another" in response.content.decode()
    response = act(client, mt.table, "bet", {**seated, "backline_player": mt.backliners[0].pk})
    assert response.status_code == 302
    assert Bet.objects.filter(hand__round=round_, bettor=1).count() == 1


def test_unseating_a_player_with_chips_asks_what_becomes_of_them(as_user, card_table):
    """A plain unseat of a player with chips is refused on the page, naming the choice;
    "Cash out and leave" settles the chips and the seat in one step."""
    client = as_user("dealer")
    response = act(client, card_table.table, "unseat", {"seat": 1})
    assert response.status_code == 400
    page = response.content.decode()
    assert "has $500.00 in chips at" in page and "cash them out or carry them" in page
    assert Seating.objects.get(table=card_table.table, seat=1).left_at is None
    response = act(client, card_table.table, "unseat", {"seat": 1, "chips": "cash_out"})
    assert response.status_code == 302
    seating = Seating.objects.get(table=card_table.table, seat=1)
    assert seating.left_at is not None
    assert chips_of(seating.player, card_table.table) == 0


def test_a_wager_fields_limits_are_in_the_words_of_the_refusals():
    """The help under an amount field writes dollars as a refusal does ("$1,000.00")."""
    from django import forms as django_forms

    from console.forms import _chip_attrs
    from tables.models import Table

    field = django_forms.DecimalField()
    table = Table(minimum_cents=2_500, maximum_cents=100_000, chip_unit_cents=50)
    _chip_attrs(field, table, limits=True)
    assert field.help_text == "$25.00 to $1,000.00, in $0.50 chips"
