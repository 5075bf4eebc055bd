"""Where the button stands, as the floor's one selector says it (docs/rules.md §8).

``button_state`` is what the table view shows and what the button services act on (they
read it under the table's lock), so each state is checked here with what it allows: offer
(to which seat, passing over whom), keep (who), start, and the pending or accepted offer.
Its cost is pinned: the same number of queries whatever the table's history.
"""

from __future__ import annotations

import pytest
from django.db import connection

from cardroom.errors import Rule, State
from rounds import services as rounds
from tables.models import OfferAnswer, Round
from tables.rules.rotation import BankedHand
from tables.selectors import NO_PLAYER_DEALER_STATUS, banked_hands, button_state, table_floor
from tables.services import button, floor
from tests.builders.floor import bank_and_play, give_button, open_floor, play_round

pytestmark = pytest.mark.django_db


def state_of(table):
    table.refresh_from_db()
    return button_state(table)


def test_no_game(staff, clock):
    f = open_floor("PP....", staff=staff, open_game=False)
    said = state_of(f.table)
    assert said.state is State.NO_GAME
    assert said.status == "no game is open: a floor supervisor opens one"
    assert (said.may_offer, said.may_keep, said.may_start) == (False, False, False)


def test_no_players(staff, clock):
    f = open_floor("......", staff=staff, first_offer_seat=3)
    said = state_of(f.table)
    assert said.state is State.NO_PLAYERS
    assert said.status == "no player is seated: seat players, then offer the button"
    # Offering is allowed (it records an exhausted offer round): no one is left to offer.
    assert said.may_offer and said.next_offer.seating is None
    assert said.next_offer.start_seat == 3


def test_offer_needed_when_a_game_opens(staff, clock):
    f = open_floor("PPPP..", staff=staff, first_offer_seat=3)
    said = state_of(f.table)
    assert said.state is State.OFFER_NEEDED
    assert said.status == "offer the button: offers start at seat 3 and go clockwise"
    assert said.next_offer.seating.seat == 3 and said.next_offer.passed_over == ()
    assert (said.may_offer, said.may_keep, said.may_start) == (True, False, False)


def test_offer_pending_then_offering_then_accepted(staff, clock):
    f = open_floor("PPPP..", staff=staff)
    offer = button.offer_button(table_id=f.table_id, by=staff.dealer)
    said = state_of(f.table)
    assert said.state is State.OFFER_PENDING and said.pending.pk == offer.pk
    assert said.status == ("seat 1 is being offered the player-dealer position; record the answer")
    assert not said.may_offer and not said.may_start
    button.answer_offer(table_id=f.table_id, offer_id=offer.pk, accept=False, by=staff.dealer)
    said = state_of(f.table)
    assert said.state is State.OFFERING
    assert said.status == "offer the button to the next seat clockwise"
    assert said.next_offer.seating.seat == 2 and said.next_offer.start_seat == 1
    offer = button.offer_button(table_id=f.table_id, by=staff.dealer)
    button.answer_offer(table_id=f.table_id, offer_id=offer.pk, accept=True, by=staff.dealer)
    said = state_of(f.table)
    assert said.state is State.ACCEPTED and said.accepted.seat == 2
    assert said.status == "seat 2 accepted; start the round"
    assert (said.may_offer, said.may_keep, said.may_start) == (False, False, True)


def test_round_in_play(staff, clock):
    f = open_floor("PPPP..", staff=staff)
    give_button(f.table_id, 2, by=staff.dealer)
    round_ = play_round(f.table_id, by=staff.dealer, until=State.FLOP)
    said = state_of(f.table)
    assert said.state is State.ROUND_IN_PLAY and said.active_round.pk == round_.pk
    assert said.status == (
        f"round {round_.number} is flop: flop decisions; seat 2 holds the player-dealer position"
    )
    assert (said.may_offer, said.may_keep, said.may_start) == (False, False, False)


def test_after_a_hand_offers_start_left_of_the_player_dealer_passing_over_who_may_not_bank(
    staff, clock
):
    f = open_floor("PPPP..", staff=staff, max_consecutive_hands=1)
    bank_and_play(f, 4)
    said = state_of(f.table)
    assert said.state is State.OFFER_NEEDED
    # Left of seat 4 is seat 5, empty: the offers start there and reach seat 1 first.
    assert said.next_offer.start_seat == 5 and said.next_offer.seating.seat == 1
    f2 = open_floor("PP....", staff=staff, max_consecutive_hands=1)
    bank_and_play(f2, 1)
    offer = button.offer_button(table_id=f2.table_id, by=staff.dealer)
    button.answer_offer(table_id=f2.table_id, offer_id=offer.pk, accept=False, by=staff.dealer)
    said = state_of(f2.table)  # seat 2 declined; seat 1 banked the last hand (limit 1)
    assert said.state is State.OFFERING and said.next_offer.seating is None
    [(seating, breach)] = said.next_offer.passed_over
    assert seating.seat == 1 and breach.rule is Rule.CONSECUTIVE_HANDS
    exhausted = button.offer_button(table_id=f2.table_id, by=staff.dealer)
    assert exhausted.error.state is State.NO_PLAYER_DEALER
    recorded = list(f2.table.offer_rounds.order_by("-id").first().offers.order_by("id"))
    assert [(o.seat, o.answer) for o in recorded] == [
        (2, OfferAnswer.DECLINED),
        (1, OfferAnswer.INELIGIBLE),
    ]
    assert recorded[1].reason == str(breach)
    said = state_of(f2.table)
    assert said.state is State.NO_PLAYER_DEALER and said.status == NO_PLAYER_DEALER_STATUS
    assert said.may_offer and not said.may_keep and not said.may_start


def test_keeper_only_with_offer_every_hand_off_and_before_any_offer(staff, clock):
    california = open_floor("PPP...", staff=staff)
    bank_and_play(california, 1)
    assert state_of(california.table).keeper is None
    plain = open_floor("PPP...", staff=staff, offer_every_hand=False)
    bank_and_play(plain, 1)
    said = state_of(plain.table)
    assert said.state is State.OFFER_NEEDED and said.keeper_seat == 1 and said.may_keep
    assert said.status.endswith(", or seat 1 may keep it for a second consecutive hand")
    button.keep_button(table_id=plain.table_id, by=staff.dealer)
    said = state_of(plain.table)
    assert said.state is State.ACCEPTED
    assert said.status == "seat 1 keeps the position for a second hand; start the round"
    round_ = rounds.start_round(table_id=plain.table_id, by=staff.dealer)
    rounds.void_round(round_id=round_.pk, by=staff.supervisor, reason="misdeal")
    said = state_of(plain.table)  # two hands in a row: no third
    assert said.keeper is None and not said.may_keep


def test_a_player_who_left_is_not_the_keeper(staff, clock):
    f = open_floor("PPP...", staff=staff, offer_every_hand=False)
    bank_and_play(f, 1)
    floor.unseat_player(table_id=f.table_id, seat=1, by=staff.dealer)
    assert state_of(f.table).keeper is None


def test_game_ended_by_the_40_minute_rule(staff, clock):
    f = open_floor("PPT...", staff=staff, chips=5_000_000)
    for _ in range(8):
        clock.advance(minutes=6)
        give_button(f.table_id, 3, by=staff.dealer)
        started = rounds.start_round(table_id=f.table_id, by=staff.dealer)
        if hasattr(started, "error"):
            break
        rounds.void_round(round_id=started.pk, by=staff.supervisor, reason="misdeal")
        give_button(f.table_id, 1, by=staff.dealer)
        started = rounds.start_round(table_id=f.table_id, by=staff.dealer)
        if hasattr(started, "error"):
            break
        rounds.void_round(round_id=started.pk, by=staff.supervisor, reason="misdeal")
    said = state_of(f.table)
    assert said.state is State.GAME_ENDED
    assert said.status.startswith("the game ended: only 1 player(s) other than a TPPP")
    assert said.status.endswith("; a floor supervisor may open a new game")
    assert (said.may_offer, said.may_keep, said.may_start) == (False, False, False)


def test_the_table_floor_shows_the_button_state(staff, clock):
    f = open_floor("PPPP..", staff=staff)
    view = table_floor(table_id=f.table_id)
    assert (view.button_state, view.keeper_seat) == ("offer_needed", None)
    assert view.button_status == state_of(f.table).status


@pytest.mark.parametrize("hands", [1, 6])
def test_the_button_state_costs_the_same_whatever_the_history(
    staff, clock, hands, django_assert_num_queries
):
    f = open_floor("PPPP..", staff=staff, offer_every_hand=False)
    for hand in range(hands):
        bank_and_play(f, 1 + hand % 4)
    f.table.refresh_from_db()
    # One statement on PostgreSQL; elsewhere the ORM's game, seated, round in play, offer
    # round and its offers, history, last round
    with django_assert_num_queries(1 if connection.vendor == "postgresql" else 7):
        said = button_state(f.table)
    assert said.state is State.OFFER_NEEDED and said.keeper_seat == 1 + (hands - 1) % 4


def test_a_round_as_the_rotation_rules_see_it(staff, clock):
    f = open_floor("PPT...", staff=staff)
    give_button(f.table_id, 2, by=staff.dealer)
    round_ = play_round(f.table_id, by=staff.dealer, until=State.WAGERING)
    expected = BankedHand(
        hand_id=round_.pk,
        game_id=round_.game_id,
        started_at=round_.started_at,
        seat=2,
        player_id=f.players[2].pk,
        is_tppp=False,
        tppps_seated=1,
    )
    assert round_.banked_hand() == expected
    assert banked_hands(Round.objects.filter(pk=round_.pk)) == [expected]
