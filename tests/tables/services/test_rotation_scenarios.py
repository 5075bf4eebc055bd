"""The player-dealer button through the real services, scenario by scenario (docs/rules.md §8).

Every scenario drives ``floor``, ``button`` and ``rounds`` and then checks the rows they
recorded (offers with seat, player, staff, timestamps and reasons; rounds with their
player-dealer and run; games with their end) and runs the table's recorded history through
``audit_rotation``.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from cardroom.api import exception_handler, refused_response
from cardroom.errors import Refused, Rule, RuleError, State, StateError, describe
from rounds import services as rounds
from tables.models import (
    ButtonOffer,
    Game,
    GameEndReason,
    Hand,
    OfferAnswer,
    OfferRound,
    OfferRoundStatus,
    Round,
    Seating,
    Table,
    TableOptionChange,
)
from tables.selectors import NO_PLAYER_DEALER_STATUS, button_state
from tables.services import button, floor
from tests.builders.floor import (
    advance,
    audit_table,
    bank_and_play,
    floor_snapshot,
    give_button,
    make_player,
    open_floor,
    play_round,
    run_offers,
    start_with_hands,
)
from wagers.services import wagering

pytestmark = pytest.mark.django_db

A, D, INEL, W = (
    OfferAnswer.ACCEPTED,
    OfferAnswer.DECLINED,
    OfferAnswer.INELIGIBLE,
    OfferAnswer.WITHDRAWN,
)
ACTIVE = [
    State.WAGERING,
    State.NO_MORE_BETS,
    State.PREFLOP,
    State.FLOP,
    State.RIVER,
    State.SHOWDOWN,
]


def api_answer(error: Exception) -> tuple[int, dict]:
    """What the API answers for a service error (the project's exception handler)."""
    response = exception_handler(error, {})
    return response.status_code, response.data


# --- Who is offered the button, in which order, and who banks -------------------------------


@dataclass(frozen=True)
class OfferCase:
    layout: str  # P patron, T TPPP, . empty; seats 1..6
    prior: tuple[int, ...]  # seats that banked the earlier hands, in order
    answers: str  # a / d for each offer that gets answered in the offer round under test
    start_seat: int  # where the offer round under test starts
    expected: tuple[tuple[int, str], ...]  # (seat, answer) as recorded, in order
    banker: int | None  # who banks the hand; None: no one, the round is exhausted
    run: int = 1  # the banker's consecutive hands, this one included
    first_offer_seat: int = 1
    options: dict[str, Any] = field(default_factory=dict)
    reason: Rule | None = None  # the rule an ineligible seat's recorded reason names


OFFER_CASES = {
    "declines_then_an_accept": OfferCase(
        "PPPP..", (), "dda", 1, ((1, D), (2, D), (3, A)), banker=3
    ),
    "named_first_seat_accepts": OfferCase(
        "PPPPPP", (), "a", 4, ((4, A),), banker=4, first_offer_seat=4
    ),
    "empty_seats_skipped": OfferCase(
        "P.P..P", (), "dda", 2, ((3, D), (6, D), (1, A)), banker=1, first_offer_seat=2
    ),
    "named_seat_empty_wraps_clockwise": OfferCase(
        "PP....", (), "da", 5, ((1, D), (2, A)), banker=2, first_offer_seat=5
    ),
    "starts_left_of_the_last_player_dealer": OfferCase("PPPP..", (2,), "a", 3, ((3, A),), banker=3),
    "last_player_dealer_asked_last_and_keeps": OfferCase(
        "PPPP..", (2,), "ddda", 3, ((3, D), (4, D), (1, D), (2, A)), banker=2, run=2
    ),
    "wraps_past_seat_6": OfferCase("P....P", (6,), "da", 1, ((1, D), (6, A)), banker=6, run=2),
    "left_of_the_last_player_dealer_is_empty": OfferCase(
        "P.P.P.", (3,), "dda", 4, ((5, D), (1, D), (3, A)), banker=3, run=2
    ),
    "two_in_a_row_passed_over": OfferCase(
        "PPP...",
        (2, 2),
        "dd",
        3,
        ((3, D), (1, D), (2, INEL)),
        banker=None,
        reason=Rule.CONSECUTIVE_HANDS,
    ),
    "two_in_a_row_then_another_banks": OfferCase(
        "PPP...", (1, 1), "da", 2, ((2, D), (3, A)), banker=3
    ),
    "limit_of_one_passes_over_at_once": OfferCase(
        "PP....",
        (1,),
        "d",
        2,
        ((2, D), (1, INEL)),
        banker=None,
        options={"max_consecutive_hands": 1},
        reason=Rule.CONSECUTIVE_HANDS,
    ),
    "tppp_after_a_tppp_hand_passed_over": OfferCase(
        "TPP...",
        (1,),
        "dd",
        2,
        ((2, D), (3, D), (1, INEL)),
        banker=None,
        reason=Rule.TPPP_TWICE,
    ),
    "tppp_banks_after_another_player": OfferCase(
        "TPP...", (1, 2), "da", 3, ((3, D), (1, A)), banker=1
    ),
    "tppp_twice_when_the_policy_allows": OfferCase(
        "TP....",
        (1,),
        "da",
        2,
        ((2, D), (1, A)),
        banker=1,
        run=2,
        options={"tppp_may_bank_twice_in_a_row": True},
    ),
}


@pytest.mark.parametrize("case", OFFER_CASES.values(), ids=OFFER_CASES.keys())
def test_offer_round(case: OfferCase, clock, staff):
    f = open_floor(case.layout, staff=staff, first_offer_seat=case.first_offer_seat, **case.options)
    for seat in case.prior:
        bank_and_play(f, seat)
        clock.advance(minutes=3)
    rounds_before = Round.objects.count()
    asked_at = clock.advance(seconds=30)

    outcome = run_offers(f.table_id, case.answers, by=staff.supervisor)

    assert outcome.answers == list(case.expected)
    assert outcome.offer_round.start_seat == case.start_seat
    assert outcome.offer_round.game_id == f.game.pk
    for offer in outcome.offers:
        assert offer.player_id == f.players[offer.seat].pk
        assert offer.is_tppp == (case.layout[offer.seat - 1] == "T")
        assert offer.offered_by == staff.supervisor
        assert offer.offered_at == asked_at
        assert offer.answered_at == asked_at
        if offer.answer == INEL:
            assert offer.reason.endswith(f" ({case.reason.citation})")
            assert f"seat {offer.seat}" in offer.reason
            assert offer.answered_by is None
        else:
            assert offer.reason == ""
            assert offer.answered_by == staff.supervisor

    if case.banker is None:
        assert outcome.offer_round.status == OfferRoundStatus.EXHAUSTED
        assert outcome.offer_round.detail == NO_PLAYER_DEALER_STATUS
        assert outcome.error is not None and outcome.error.state == State.NO_PLAYER_DEALER
        assert outcome.error.rule == Rule.NO_PLAYER_DEALER
        assert outcome.error.message == NO_PLAYER_DEALER_STATUS
        with pytest.raises(StateError) as refused:
            rounds.start_round(table_id=f.table_id, by=staff.dealer)
        assert refused.value.message == NO_PLAYER_DEALER_STATUS
        assert refused.value.state == State.NO_PLAYER_DEALER
        assert refused.value.rule == Rule.NO_PLAYER_DEALER
        assert Round.objects.count() == rounds_before
    else:
        assert outcome.offer_round.status == OfferRoundStatus.ACCEPTED
        assert outcome.offer_round.closed_at == asked_at
        round_ = rounds.start_round(table_id=f.table_id, by=staff.dealer)
        round_.refresh_from_db()
        assert round_.offer_round_id == outcome.offer_round.pk
        assert round_.player_dealer_id == f.players[case.banker].pk
        assert round_.player_dealer_seat == case.banker
        assert round_.player_dealer_is_tppp == (case.layout[case.banker - 1] == "T")
        assert round_.tppps_seated == case.layout.count("T")
        assert round_.consecutive_count == case.run
        assert round_.number == rounds_before + 1
    assert audit_table(f.table_id) == []


def test_offers_are_one_at_a_time(clock, staff):
    """A second offer while one is unanswered is refused, and the pending one stays alone."""
    f = open_floor("PPP...", staff=staff)
    pending = button.offer_button(table_id=f.table_id, by=staff.supervisor)
    with pytest.raises(StateError) as refused:
        button.offer_button(table_id=f.table_id, by=staff.supervisor)
    assert refused.value.state == "offer_pending"
    assert list(ButtonOffer.objects.values_list("pk", "answer")) == [(pending.pk, "pending")]
    button.answer_offer(table_id=f.table_id, offer_id=pending.pk, accept=False, by=staff.dealer)
    with pytest.raises(StateError) as again:
        button.answer_offer(table_id=f.table_id, offer_id=pending.pk, accept=True, by=staff.dealer)
    assert again.value.state == State.OFFER_ANSWERED
    assert again.value.rule == Rule.OFFER_ROUND
    assert again.value.message == "this offer was already declined"
    pending.refresh_from_db()
    assert pending.answer == D


def test_offers_wait_for_the_hand_in_play(clock, staff):
    f = open_floor("PPP...", staff=staff)
    give_button(f.table_id, 1, by=staff.supervisor)
    with pytest.raises(StateError) as refused:
        button.offer_button(table_id=f.table_id, by=staff.supervisor)
    assert refused.value.state == "accepted"
    start_with_hands(f.table_id, by=staff.dealer)
    offers = ButtonOffer.objects.count()
    with pytest.raises(StateError) as during:
        button.offer_button(table_id=f.table_id, by=staff.supervisor)
    assert during.value.state == State.WAGERING
    assert ButtonOffer.objects.count() == offers
    assert OfferRound.objects.filter(status=OfferRoundStatus.OPEN).count() == 0


# --- A player leaves mid-rotation -----------------------------------------------------------


@dataclass(frozen=True)
class LeaveCase:
    before: str  # answers given before the player leaves; a trailing "o": an unanswered offer
    leaves: int
    after: tuple[tuple[int, str], ...]  # the offer round's offers once the player has left
    status: str  # the offer round's status once the player has left
    next_seat: int  # the seat the next offer goes to (an unanswered offer stays the next)


LEAVE_CASES = {
    "pending_offer_withdrawn": LeaveCase("o", 1, ((1, W),), OfferRoundStatus.OPEN, 2),
    "acceptance_not_started_cancelled": LeaveCase("a", 1, ((1, A),), OfferRoundStatus.CANCELLED, 2),
    "acceptance_after_declines_cancelled": LeaveCase(
        "da", 2, ((1, D), (2, A)), OfferRoundStatus.CANCELLED, 1
    ),
    "a_player_who_declined_leaves": LeaveCase(
        "do", 1, ((1, D), (2, "pending")), OfferRoundStatus.OPEN, 2
    ),
    "an_unasked_player_leaves": LeaveCase("dd", 3, ((1, D), (2, D)), OfferRoundStatus.OPEN, 4),
}


@pytest.mark.parametrize("case", LEAVE_CASES.values(), ids=LEAVE_CASES.keys())
def test_player_leaves_mid_rotation(case: LeaveCase, clock, staff):
    f = open_floor("PPPP..", staff=staff)
    for step in case.before:
        offer = button.offer_button(table_id=f.table_id, by=staff.supervisor)
        if step != "o":
            button.answer_offer(
                table_id=f.table_id, offer_id=offer.pk, accept=step == "a", by=staff.dealer
            )
    offer_round = OfferRound.objects.get()
    left_at = clock.advance(seconds=45)

    seating = floor.unseat_player(table_id=f.table_id, seat=case.leaves, by=staff.supervisor)

    assert seating.left_at == left_at and seating.unseated_by == staff.supervisor
    offer_round.refresh_from_db()
    offers = list(offer_round.offers.order_by("id"))
    assert [(o.seat, o.answer) for o in offers] == list(case.after)
    assert offer_round.status == case.status
    for offer in offers:
        if offer.answer == W:
            assert offer.answered_at == left_at
            assert offer.reason == "the player left the table"
    if case.status == OfferRoundStatus.CANCELLED:
        assert offer_round.closed_at == left_at
        assert f"seat {case.leaves} accepted, then left" in offer_round.detail
        with pytest.raises(StateError) as refused:
            rounds.start_round(table_id=f.table_id, by=staff.dealer)
        assert refused.value.state == "no_player_dealer"
        assert refused.value.rule == Rule.OFFER_ROUND
        assert not Round.objects.exists()
    nxt = offer_round.offers.filter(answer=OfferAnswer.PENDING).first()
    nxt = nxt or button.offer_button(table_id=f.table_id, by=staff.supervisor)
    assert nxt.seat == case.next_seat
    if case.status == OfferRoundStatus.CANCELLED:
        assert nxt.offer_round_id != offer_round.pk  # a new offer round
    else:
        assert nxt.offer_round_id == offer_round.pk
    button.answer_offer(table_id=f.table_id, offer_id=nxt.pk, accept=True, by=staff.dealer)
    round_ = rounds.start_round(table_id=f.table_id, by=staff.dealer)
    assert round_.player_dealer_seat == case.next_seat
    assert OfferRound.objects.filter(table=f.table, status=OfferRoundStatus.OPEN).count() == 0


# --- TPPP players at the table ---------------------------------------------------------------


TPPP_SEATING = {
    # (options, layout already seated, the newcomer is a TPPP, refused)
    "second_tppp_refused": ({}, "T.....", True, True),
    "first_tppp_seated": ({}, "P.....", True, False),
    "patron_next_to_a_tppp": ({}, "T.....", False, False),
    "two_allowed_by_policy": ({"max_tppp_per_table": 2}, "T.....", True, False),
    "limit_off": ({"max_tppp_per_table": None}, "T.....", True, False),
    "no_tppp_allowed": ({"max_tppp_per_table": 0}, "P.....", True, True),
}


@pytest.mark.parametrize(
    ("options", "layout", "newcomer_tppp", "refused"),
    TPPP_SEATING.values(),
    ids=TPPP_SEATING.keys(),
)
def test_tppp_seating_limit(options, layout, newcomer_tppp, refused, clock, staff):
    f = open_floor(layout, staff=staff, **options)
    newcomer = make_player(tppp=newcomer_tppp)
    before = floor_snapshot()
    if refused:
        with pytest.raises(RuleError) as error:
            floor.seat_player(table_id=f.table_id, seat=4, player_id=newcomer.pk, by=staff.dealer)
        assert error.value.field == "player"
        assert error.value.rule == Rule.TPPP_PER_TABLE
        assert floor_snapshot() == before
        limit = options.get("max_tppp_per_table", 1)
        seated = layout.count("T") + 1
        players = "player" if seated == 1 else "players"
        assert error.value.message == (
            f"{seated} TPPP {players} would be seated; this table allows {limit}"
        )
    else:
        seating = floor.seat_player(
            table_id=f.table_id, seat=4, player_id=newcomer.pk, by=staff.dealer
        )
        assert seating.is_tppp is newcomer_tppp
        assert seating.sat_at == clock.now() and seating.seated_by == staff.dealer


def test_tppp_never_joins_a_hand_as_a_player(clock, staff):
    """A seat joins a hand by placing its Ante and Blind: never the TPPP, never the dealer."""
    f = open_floor("TPP...", staff=staff)
    give_button(f.table_id, 2, by=staff.supervisor)
    round_ = rounds.start_round(table_id=f.table_id, by=staff.dealer)
    assert round_.tppps_seated == 1
    before = floor_snapshot()
    with pytest.raises(RuleError) as refused:
        wagering.place_bet(round_id=round_.pk, seat=1, ante=500, blind=500, by=staff.dealer)
    assert refused.value.field == "seat" and refused.value.rule == Rule.TPPP_BANKS_ONLY
    assert "TPPP" in refused.value.message
    with pytest.raises(RuleError) as dealer_seat:
        wagering.place_bet(round_id=round_.pk, seat=2, ante=500, blind=500, by=staff.dealer)
    assert dealer_seat.value.field == "seat"
    assert dealer_seat.value.rule == Rule.PLAYER_DEALER_SEAT
    assert floor_snapshot() == before
    assert not Hand.objects.exists()
    bet = wagering.place_bet(round_id=round_.pk, seat=3, ante=500, blind=500, by=staff.dealer)
    assert list(Hand.objects.values_list("pk", "seat", "player_id")) == [
        (bet.hand_id, 3, f.players[3].pk)
    ]


def test_tppp_banks_then_another_player_must(clock, staff):
    """A TPPP who banked is passed over; with every other player declining, no hand starts."""
    f = open_floor("TP...P", staff=staff)
    first = bank_and_play(f, 1)
    assert first.player_dealer_is_tppp and first.tppps_seated == 1
    outcome = run_offers(f.table_id, "dd", by=staff.supervisor)
    assert outcome.answers == [(2, D), (6, D), (1, INEL)]
    assert outcome.offers[-1].reason == (
        "seat 1 is a TPPP and a TPPP banked the last hand: the next hand is banked by another "
        f"player ({Rule.TPPP_TWICE.citation})"
    )
    second = bank_and_play(f, 2)
    assert not second.player_dealer_is_tppp
    third = bank_and_play(f, 1)
    assert third.player_dealer_is_tppp and third.consecutive_count == 1
    assert audit_table(f.table_id) == []


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        ({"tppp_may_bank_twice_in_a_row": False}, Rule.TPPP_TWICE),
        ({"max_consecutive_hands": 1}, Rule.CONSECUTIVE_HANDS),
    ],
    ids=["tppp_twice_turned_off", "limit_lowered_to_one"],
)
def test_start_rechecks_the_limits_after_an_acceptance(change, rule, clock, staff):
    """An acceptance given under a looser policy does not let a hand start under a stricter one."""
    f = open_floor("TP....", staff=staff, tppp_may_bank_twice_in_a_row=True)
    bank_and_play(f, 1)
    outcome = run_offers(f.table_id, "da", by=staff.supervisor)
    assert outcome.answers == [(2, D), (1, A)]
    floor.change_table_options(table_id=f.table_id, by=staff.supervisor, changes=change)
    refused = rounds.start_round(table_id=f.table_id, by=staff.dealer)
    assert isinstance(refused, Refused)
    error = refused.error
    assert error.rule == rule and error.state == State.NO_PLAYER_DEALER
    suffix = "; the acceptance is cancelled: offer the button again"
    assert error.message.endswith(suffix)
    assert Round.objects.count() == 1
    cancelled = OfferRound.objects.get(pk=outcome.offer_round.pk)  # recorded, not rolled back
    assert cancelled.status == OfferRoundStatus.CANCELLED
    assert cancelled.detail == (
        f"acceptance no longer valid: {error.message.removesuffix(suffix)} ({rule.citation})"
    )
    assert cancelled.closed_at == clock.now()
    assert audit_table(f.table_id) == []


def test_an_acceptance_the_options_made_invalid_does_not_block_the_table(clock, staff):
    """After the start refuses an acceptance that a stricter policy made invalid, the table
    can move on: a new offer round begins (docs/rules.md §8.3: "the position must be offered
    again")."""
    f = open_floor("TP....", staff=staff, tppp_may_bank_twice_in_a_row=True)
    bank_and_play(f, 1)
    run_offers(f.table_id, "da", by=staff.supervisor)  # the TPPP accepts a second hand
    floor.change_table_options(
        table_id=f.table_id, by=staff.supervisor, changes={"tppp_may_bank_twice_in_a_row": False}
    )
    refused = rounds.start_round(table_id=f.table_id, by=staff.dealer)
    assert isinstance(refused, Refused)
    assert refused.error.state == State.NO_PLAYER_DEALER
    assert refused.error.rule == Rule.TPPP_TWICE
    offer = button.offer_button(table_id=f.table_id, by=staff.supervisor)
    assert offer.seat == 2


def test_a_second_game_cannot_open_while_one_is_open(clock, staff):
    f = open_floor("PP....", staff=staff)
    before = floor_snapshot()
    with pytest.raises(StateError) as refused:
        floor.open_game_at(table_id=f.table_id, first_offer_seat=2, by=staff.supervisor)
    assert refused.value.state == State.GAME_OPEN
    assert refused.value.rule == Rule.GAME
    assert floor_snapshot() == before


def test_lowering_the_tppp_limit_below_those_seated_keeps_the_record_clean(clock, staff):
    """Two TPPPs seated under a policy without the limit; the limit is then set to one.

    Whatever the services choose (refuse the change, or refuse the next start), no hand may
    be recorded with more TPPP players seated than the policy in force for it allows.
    """
    f = open_floor("TTP..P", staff=staff, max_tppp_per_table=None)
    bank_and_play(f, 3)
    try:
        floor.change_table_options(
            table_id=f.table_id, by=staff.supervisor, changes={"max_tppp_per_table": 1}
        )
        give_button(f.table_id, 1, by=staff.supervisor)
        rounds.start_round(table_id=f.table_id, by=staff.dealer)
    except (RuleError, StateError):
        pass
    assert audit_table(f.table_id) == []


LOCAL = ZoneInfo("America/Los_Angeles")

BADGES = {
    # (the cardroom's local time now, the badge's expiry date, refused)
    "expired_yesterday": (datetime(2026, 11, 21, 12, 0, tzinfo=LOCAL), "2026-11-20", True),
    "expires_today": (datetime(2026, 11, 21, 12, 0, tzinfo=LOCAL), "2026-11-21", False),
    "valid_for_a_year": (datetime(2026, 11, 21, 12, 0, tzinfo=LOCAL), "2027-11-21", False),
    "expires_today_evening_shift": (
        datetime(2026, 11, 21, 20, 0, tzinfo=LOCAL),
        "2026-11-21",
        False,
    ),
    "expired_yesterday_evening_shift": (
        datetime(2026, 11, 21, 20, 0, tzinfo=LOCAL),
        "2026-11-20",
        True,
    ),
}


@pytest.mark.parametrize(("local_now", "expires", "refused"), BADGES.values(), ids=BADGES.keys())
def test_tppp_badge_must_be_valid(local_now, expires, refused, clock, staff):
    """A badge is valid through its expiry date, a date in the cardroom's time zone."""
    clock.set(local_now)
    f = open_floor("P.....", staff=staff)
    tppp = make_player(tppp=True, badge_expires_on=datetime.fromisoformat(expires).date())
    before = floor_snapshot()
    if refused:
        with pytest.raises(RuleError) as error:
            floor.seat_player(table_id=f.table_id, seat=2, player_id=tppp.pk, by=staff.dealer)
        assert error.value.field == "player"
        assert f"expired on {expires}" in error.value.message
        assert floor_snapshot() == before
    else:
        seating = floor.seat_player(table_id=f.table_id, seat=2, player_id=tppp.pk, by=staff.dealer)
        assert seating.is_tppp is True


# --- The 40-minute rule -------------------------------------------------------------------------


@dataclass(frozen=True)
class WindowCase:
    layout: str
    bankers: tuple[int, ...]  # one hand each, ``every`` minutes apart from the game's opening
    final: int  # the seat that accepts the hand checked ...
    at: timedelta  # ... this long after the game opened
    ends: bool
    every: int = 5
    options: dict[str, Any] = field(default_factory=dict)


# A TPPP (seat 1) and one patron (seat 2) bank in turn, t = 0, 5, ..., 35; seat 6 only plays.
ALTERNATING = (1, 2, 1, 2, 1, 2, 1, 2)
WINDOW_CASES = {
    "tppp_and_one_player_ends_at_40": WindowCase(
        "TP...P", ALTERNATING, 1, timedelta(minutes=40), True
    ),
    "tppp_and_one_player_ends_when_the_player_would_bank": WindowCase(
        "TP...P", ALTERNATING, 2, timedelta(minutes=41), True
    ),
    "before_40_minutes_nothing_is_checked": WindowCase(
        "TP...P", ALTERNATING, 1, timedelta(minutes=39, seconds=59), False
    ),
    "two_patrons_in_the_window_continue": WindowCase(
        "TPP...", (1, 2, 1, 3, 1, 2, 1, 3), 1, timedelta(minutes=40), False
    ),
    "a_second_patron_banking_now_counts": WindowCase(
        "TPP...", ALTERNATING, 3, timedelta(minutes=40), False
    ),
    "hands_before_the_window_do_not_count": WindowCase(
        "TPP...", (3, 1, 2, 1, 2, 1, 2, 1), 2, timedelta(minutes=40, seconds=30), True
    ),
    "two_patrons_without_a_tppp_continue": WindowCase(
        "PP....", (1, 2, 1, 2, 1, 2, 1, 2), 1, timedelta(minutes=60), False
    ),
    "rule_off_by_policy": WindowCase(
        "TP...P",
        ALTERNATING,
        1,
        timedelta(minutes=60),
        False,
        options={"rotation_window_minutes": None},
    ),
    "shorter_window_by_policy": WindowCase(
        "TP...P",
        (1, 2, 1, 2),
        1,
        timedelta(minutes=20),
        True,
        options={"rotation_window_minutes": 20},
    ),
}


@pytest.mark.parametrize("case", WINDOW_CASES.values(), ids=WINDOW_CASES.keys())
def test_forty_minute_rule(case: WindowCase, clock, staff):
    opened = clock.now()
    f = open_floor(case.layout, staff=staff, **case.options)
    assert f.game.opened_at == opened
    for index, seat in enumerate(case.bankers):
        clock.set(opened + timedelta(minutes=index * case.every))
        bank_and_play(f, seat)
    moment = clock.set(opened + case.at)
    give_button(f.table_id, case.final, by=staff.supervisor)
    accepted = OfferRound.objects.filter(status=OfferRoundStatus.ACCEPTED, round__isnull=True).get()

    if not case.ends:
        round_ = rounds.start_round(table_id=f.table_id, by=staff.dealer)
        assert round_.number == len(case.bankers) + 1 and round_.started_at == moment
        assert round_.player_dealer_seat == case.final
        assert Game.objects.get(pk=f.game.pk).ended_at is None
        assert audit_table(f.table_id) == []
        return

    refused = rounds.start_round(table_id=f.table_id, by=staff.dealer)
    assert isinstance(refused, Refused)
    error = refused.error
    assert error.state == State.GAME_ENDED
    assert error.message.startswith("the game has ended: ")
    assert error.rule == Rule.WINDOW
    response = refused_response(refused)
    assert response.status_code == 409
    assert response.data == {
        "code": "game_ended",
        "rule": "rotation.window",
        "section": "8.12",
        "field": None,
        "message": error.message,
    }
    assert Round.objects.count() == len(case.bankers)  # the hand did not start
    game = Game.objects.get(pk=f.game.pk)
    assert game.ended_at == moment and game.ended_by == staff.dealer
    assert game.end_reason == GameEndReason.ROTATION_WINDOW
    assert game.end_detail.endswith(f" ({Rule.WINDOW.citation})")
    assert describe(error) == f"the game has ended: {game.end_detail}"
    accepted.refresh_from_db()
    assert accepted.status == OfferRoundStatus.CANCELLED and accepted.closed_at == moment
    with pytest.raises(StateError) as closed:
        button.offer_button(table_id=f.table_id, by=staff.supervisor)
    assert closed.value.state == State.NO_GAME
    assert audit_table(f.table_id) == []

    # A floor supervisor opens a new game later: its clock starts afresh.
    reopened = clock.advance(minutes=2)
    game2 = floor.open_game_at(table_id=f.table_id, first_offer_seat=2, by=staff.supervisor)
    assert game2.opened_at == reopened
    patron = next(
        seat
        for seat, mark in enumerate(case.layout, start=1)
        if mark == "P" and seat != case.bankers[-1]
    )
    give_button(f.table_id, patron, by=staff.supervisor)
    round_ = rounds.start_round(table_id=f.table_id, by=staff.dealer)
    assert round_.game_id == game2.pk
    assert audit_table(f.table_id) == []


# --- No one accepts: the table is blocked until a new offer round ------------------------------


@pytest.mark.parametrize(
    ("layout", "prior", "answers"),
    [("PPP...", (), "ddd"), ("PP....", (1, 1), "d")],
    ids=["everyone_declines", "one_declines_the_other_banked_two_in_a_row"],
)
def test_blocked_until_a_new_offer_round(layout, prior, answers, clock, staff):
    f = open_floor(layout, staff=staff)
    for seat in prior:
        bank_and_play(f, seat)
    outcome = run_offers(f.table_id, answers, by=staff.supervisor)
    assert outcome.offer_round.status == OfferRoundStatus.EXHAUSTED
    assert outcome.error.message == NO_PLAYER_DEALER_STATUS
    assert outcome.error.rule == Rule.NO_PLAYER_DEALER
    rounds_before = Round.objects.count()
    with pytest.raises(StateError) as refused:
        rounds.start_round(table_id=f.table_id, by=staff.dealer)
    status, body = api_answer(refused.value)
    assert status == 409
    assert body["code"] == "no_player_dealer"
    assert body["message"] == NO_PLAYER_DEALER_STATUS
    assert body["message"].startswith("no eligible seated player accepted")
    assert body["rule"] == "rotation.no_player_dealer" and body["section"] == "8.5"
    assert Round.objects.count() == rounds_before

    if prior:  # someone new sits down and takes it
        newcomer = make_player()
        floor.seat_player(table_id=f.table_id, seat=4, player_id=newcomer.pk, by=staff.dealer)
    clock.advance(minutes=1)
    offer = button.offer_button(table_id=f.table_id, by=staff.supervisor)
    assert offer.offer_round_id != outcome.offer_round.pk
    assert OfferRound.objects.filter(table=f.table).count() == len(prior) + 2
    button.answer_offer(table_id=f.table_id, offer_id=offer.pk, accept=True, by=staff.dealer)
    round_ = rounds.start_round(table_id=f.table_id, by=staff.dealer)
    assert round_.offer_round_id == offer.offer_round_id
    outcome.offer_round.refresh_from_db()
    assert outcome.offer_round.status == OfferRoundStatus.EXHAUSTED
    assert audit_table(f.table_id) == []


# --- "Offer every hand" off: keeping the position for a second hand ----------------------------


def test_keep_the_button_for_a_second_hand_only(clock, staff):
    f = open_floor("PPP...", staff=staff, offer_every_hand=False)
    first = bank_and_play(f, 1)
    kept_at = clock.advance(minutes=2)
    kept = button.keep_button(table_id=f.table_id, by=staff.supervisor)
    offer_round = kept.offer_round
    assert offer_round.kept_without_offers and offer_round.status == OfferRoundStatus.ACCEPTED
    assert list(offer_round.offers.values_list("seat", "player_id", "answer", "answered_at")) == [
        (1, f.players[1].pk, A, kept_at)
    ]
    second = play_round(f.table_id, by=staff.dealer)
    assert second.offer_round_id == offer_round.pk
    assert (second.player_dealer_id, second.consecutive_count) == (first.player_dealer_id, 2)

    offer_rounds = OfferRound.objects.count()
    with pytest.raises(StateError) as refused:
        button.keep_button(table_id=f.table_id, by=staff.supervisor)
    assert refused.value.state == State.OFFERS_REQUIRED
    assert refused.value.rule == Rule.KEEP
    assert OfferRound.objects.count() == offer_rounds
    outcome = run_offers(f.table_id, "dd", by=staff.supervisor)
    assert outcome.answers == [(2, D), (3, D), (1, INEL)]
    assert outcome.offers[-1].reason == (
        "seat 1 has banked 2 consecutive hands, the most this table allows "
        f"({Rule.CONSECUTIVE_HANDS.citation})"
    )
    assert audit_table(f.table_id) == []


KEEP_REFUSALS = {
    "offer_every_hand_on": ({}, "PPP...", "played", "offer_every_hand"),
    "no_hand_yet_in_this_game": ({"offer_every_hand": False}, "PPP...", "", "offers_required"),
    "the_player_dealer_left": (
        {"offer_every_hand": False},
        "PPP...",
        "played,left",
        "offers_required",
    ),
    "a_tppp_cannot_keep": ({"offer_every_hand": False}, "TP....", "played", "offers_required"),
    "limit_of_one": (
        {"offer_every_hand": False, "max_consecutive_hands": 1},
        "PPP...",
        "played",
        "offers_required",
    ),
    "offers_already_going_round": (
        {"offer_every_hand": False},
        "PPP...",
        "played,offered",
        "offers_required",
    ),
    # Once an offer round for the next hand has begun, keeping is refused even after it ended
    # without a player-dealer, or was cancelled (docs/rules.md §8.4).
    "after_an_exhausted_offer_round": (
        {"offer_every_hand": False},
        "PPP...",
        "played,exhausted",
        "offers_required",
    ),
    "after_a_cancelled_offer_round": (
        {"offer_every_hand": False},
        "PPP...",
        "played,accepted_then_left",
        "offers_required",
    ),
    "during_a_round": ({"offer_every_hand": False}, "PPP...", "played,started", "wagering"),
}
KEEP_REFUSAL_RULES = {
    "offer_every_hand": Rule.OFFER_EVERY_HAND,
    "offers_required": Rule.KEEP,
    "wagering": Rule.ROUND_SEQUENCE,
}


@pytest.mark.parametrize(
    ("options", "layout", "setup", "state"), KEEP_REFUSALS.values(), ids=KEEP_REFUSALS.keys()
)
def test_keep_the_button_refused(options, layout, setup, state, clock, staff):
    f = open_floor(layout, staff=staff, **options)
    steps = setup.split(",") if setup else []
    if "played" in steps:
        bank_and_play(f, 1)
    if "left" in steps:
        floor.unseat_player(table_id=f.table_id, seat=1, by=staff.supervisor)
    if "offered" in steps:
        button.offer_button(table_id=f.table_id, by=staff.supervisor)
    if "exhausted" in steps:
        outcome = run_offers(f.table_id, "ddd", by=staff.supervisor)
        assert outcome.answers == [(2, D), (3, D), (1, D)]
        assert outcome.offer_round.status == OfferRoundStatus.EXHAUSTED
    if "accepted_then_left" in steps:
        accepted = give_button(f.table_id, 2, by=staff.supervisor)
        floor.unseat_player(table_id=f.table_id, seat=2, by=staff.supervisor)
        accepted.offer_round.refresh_from_db()
        assert accepted.offer_round.status == OfferRoundStatus.CANCELLED
    if "started" in steps:
        give_button(f.table_id, 2, by=staff.supervisor)
        rounds.start_round(table_id=f.table_id, by=staff.dealer)
    before = floor_snapshot()
    with pytest.raises(StateError) as refused:
        button.keep_button(table_id=f.table_id, by=staff.supervisor)
    assert refused.value.state == state
    assert refused.value.rule == KEEP_REFUSAL_RULES[state]
    assert floor_snapshot() == before
    # The table's floor does not offer keeping either.
    shown = button_state(Table.objects.get(pk=f.table_id))
    assert shown.keeper is None and not shown.may_keep
    assert "may keep it" not in shown.status


def test_keeping_ends_once_an_offer_round_has_begun(clock, staff):
    """Before any offer round for the next hand, the last player-dealer may keep the button;
    once one has begun, even one every seat declined, keeping is refused and the position is
    taken only by accepting an offer (docs/rules.md §8.4, §8.5)."""
    f = open_floor("PPP...", staff=staff, offer_every_hand=False)
    first = bank_and_play(f, 1)
    table = Table.objects.get(pk=f.table_id)
    assert button_state(table).keeper_seat == 1
    assert button_state(table).status == (
        "offer the button: offers start at seat 2 and go clockwise, "
        "or seat 1 may keep it for a second consecutive hand"
    )

    outcome = run_offers(f.table_id, "ddd", by=staff.supervisor)
    assert outcome.answers == [(2, D), (3, D), (1, D)]
    assert outcome.offer_round.status == OfferRoundStatus.EXHAUSTED
    shown = button_state(table)
    assert shown.state == State.NO_PLAYER_DEALER and shown.status == NO_PLAYER_DEALER_STATUS
    assert shown.keeper is None
    before = floor_snapshot()
    with pytest.raises(StateError) as refused:
        button.keep_button(table_id=f.table_id, by=staff.supervisor)
    assert refused.value.state == State.OFFERS_REQUIRED
    assert refused.value.rule == Rule.KEEP
    status, body = api_answer(refused.value)
    assert status == 409
    assert (body["code"], body["rule"], body["section"]) == (
        "offers_required",
        "rotation.keep",
        "8.4",
    )
    assert floor_snapshot() == before

    # A new offer round: seat 1, asked last, accepts and banks its second hand.
    clock.advance(minutes=1)
    second_round = run_offers(f.table_id, "dda", by=staff.supervisor)
    assert second_round.answers == [(2, D), (3, D), (1, A)]
    assert not second_round.offer_round.kept_without_offers
    second = play_round(f.table_id, by=staff.dealer)
    assert second.offer_round_id == second_round.offer_round.pk
    assert (second.player_dealer_id, second.consecutive_count) == (first.player_dealer_id, 2)
    assert audit_table(f.table_id) == []


# --- The options sheet changes only between rounds, every change logged -------------------------


@pytest.mark.parametrize("state", ACTIVE, ids=[s.value for s in ACTIVE])
def test_options_refused_during_a_round(state, clock, staff):
    f = open_floor("PPP...", staff=staff)
    give_button(f.table_id, 1, by=staff.supervisor)
    round_, _ = start_with_hands(f.table_id, by=staff.dealer)
    advance(round_, state, by=staff.dealer)
    before = floor_snapshot()
    with pytest.raises(StateError) as refused:
        floor.change_table_options(
            table_id=f.table_id, by=staff.supervisor, changes={"minimum_cents": 1000}
        )
    assert refused.value.state == state
    assert refused.value.rule == Rule.ROUND_SEQUENCE
    assert refused.value.message.endswith("; options change between hands")
    assert floor_snapshot() == before
    assert not TableOptionChange.objects.exists()


def test_options_changed_between_rounds_are_logged(clock, staff):
    f = open_floor("PPP...", staff=staff)
    played = bank_and_play(f, 1)
    changed_at = clock.advance(minutes=1)
    floor.change_table_options(
        table_id=f.table_id,
        by=staff.supervisor,
        changes={
            "minimum_cents": 1000,
            "maximum_cents": 50_000,  # unchanged: not logged
            "preflop_multiples": [4],
            "trips_paytable": "UTH-02",
            "offer_every_hand": False,
        },
    )
    logged = list(
        TableOptionChange.objects.filter(table=f.table)
        .order_by("id")
        .values_list("option", "old_value", "new_value", "changed_at", "changed_by")
    )
    assert sorted(logged) == sorted(
        [
            ("minimum_cents", 500, 1000, changed_at, staff.supervisor.pk),
            ("preflop_multiples", [3, 4], [4], changed_at, staff.supervisor.pk),
            ("trips_paytable", "UTH-01", "UTH-02", changed_at, staff.supervisor.pk),
            ("offer_every_hand", True, False, changed_at, staff.supervisor.pk),
        ]
    )
    table = Table.objects.get(pk=f.table_id)
    assert (table.minimum_cents, table.preflop_multiples, table.offer_every_hand) == (
        1000,
        [4],
        False,
    )
    played.refresh_from_db()
    assert played.options["minimum_cents"] == 500 and played.options["offer_every_hand"]
    kept = button.keep_button(table_id=f.table_id, by=staff.supervisor)  # the new policy applies
    nxt = rounds.start_round(table_id=f.table_id, by=staff.dealer)
    assert nxt.offer_round_id == kept.offer_round_id
    assert nxt.options["minimum_cents"] == 1000 and nxt.options["preflop_multiples"] == [4]
    assert audit_table(f.table_id) == []


@pytest.mark.parametrize(
    ("changes", "field_name"),
    [
        ({"max_consecutive_hands": 3}, "max_consecutive_hands"),
        ({"minimum_cents": 60_000}, "minimum_cents"),
        ({"preflop_multiples": [2]}, "preflop_multiples"),
        ({"deal_mode": "telepathy"}, "deal_mode"),
        ({"house_banks": True}, "house_banks"),
        ({"offer_every_hand": "no"}, "offer_every_hand"),
    ],
    ids=[
        "three_in_a_row",
        "minimum_above_maximum",
        "bad_multiple",
        "bad_deal_mode",
        "unknown",
        "not_a_bool",
    ],
)
def test_invalid_option_changes_are_refused(changes, field_name, clock, staff):
    f = open_floor("PP....", staff=staff)
    before = floor_snapshot()
    with pytest.raises(RuleError) as refused:
        floor.change_table_options(table_id=f.table_id, by=staff.supervisor, changes=changes)
    assert refused.value.field == field_name
    assert floor_snapshot() == before


# --- Seating rules --------------------------------------------------------------------------------


def test_seat_taken_or_player_seated_elsewhere(clock, staff):
    f = open_floor("PP....", staff=staff)
    other = open_floor("P.....", staff=staff)
    newcomer = make_player()
    before = floor_snapshot()
    cases = [
        (dict(seat=1, player_id=newcomer.pk), "seat", "seat 1 is taken"),
        (dict(seat=3, player_id=other.players[1].pk), "player", "already seated at"),
        (dict(seat=3, player_id=f.players[2].pk), "player", "already seated at"),
        (dict(seat=7, player_id=newcomer.pk), "seat", "seat 7 does not exist"),
        (dict(seat=0, player_id=newcomer.pk), "seat", "seat 0 does not exist"),
    ]
    for kwargs, field_name, message in cases:
        with pytest.raises(RuleError) as refused:
            floor.seat_player(table_id=f.table_id, by=staff.dealer, **kwargs)
        assert refused.value.field == field_name, kwargs
        assert message in refused.value.message
        assert floor_snapshot() == before
    with pytest.raises(RuleError) as empty:
        floor.unseat_player(table_id=f.table_id, seat=5, by=staff.dealer)
    assert empty.value.field == "seat"
    assert floor_snapshot() == before


@pytest.mark.parametrize("state", ACTIVE, ids=[s.value for s in ACTIVE])
@pytest.mark.parametrize("who", ["player_in_the_hand", "player_dealer"])
def test_cannot_leave_during_the_hand(who, state, clock, staff):
    f = open_floor("PPPP..", staff=staff)
    give_button(f.table_id, 1, by=staff.supervisor)
    round_, _ = start_with_hands(f.table_id, by=staff.dealer, seats=[2, 3])
    advance(round_, state, by=staff.dealer)
    seat = 1 if who == "player_dealer" else 2
    before = floor_snapshot()
    with pytest.raises(StateError) as refused:
        floor.unseat_player(table_id=f.table_id, seat=seat, by=staff.dealer)
    assert refused.value.state == state
    if who == "player_dealer":
        assert refused.value.rule == Rule.STAYS_SEATED
        assert "player-dealer stays" in refused.value.message
    else:
        assert refused.value.rule == Rule.ROUND_SEQUENCE
    assert floor_snapshot() == before
    # A seated player sitting this hand out may leave.
    seating = floor.unseat_player(table_id=f.table_id, seat=4, by=staff.dealer)
    assert seating.left_at == clock.now()


def test_leave_after_the_hand(clock, staff):
    f = open_floor("PPP...", staff=staff)
    played = bank_and_play(f, 1)
    assert played.state == State.SETTLED
    for seat in (1, 2):
        floor.unseat_player(table_id=f.table_id, seat=seat, by=staff.dealer)
    assert list(
        Seating.objects.filter(table=f.table, left_at__isnull=True).values_list("seat", flat=True)
    ) == [3]


# --- Regressions: bugs this suite found in the services (fixed in 745c082) ----------------------


def test_closing_a_game_settles_its_pending_offer(clock, staff):
    """A game closed while an offer is unanswered: that offer cannot be accepted afterwards."""
    f = open_floor("PPP...", staff=staff)
    pending = button.offer_button(table_id=f.table_id, by=staff.supervisor)
    floor.close_game(table_id=f.table_id, by=staff.supervisor)
    offer_round = OfferRound.objects.get(pk=pending.offer_round_id)
    assert offer_round.status == OfferRoundStatus.CANCELLED
    pending.refresh_from_db()
    assert pending.answer == W and pending.answered_at == clock.now()
    with pytest.raises(StateError) as refused:
        button.answer_offer(table_id=f.table_id, offer_id=pending.pk, accept=True, by=staff.dealer)
    assert refused.value.state == State.OFFER_ROUND_CLOSED
    offer_round.refresh_from_db()
    assert offer_round.status == OfferRoundStatus.CANCELLED


def test_a_new_game_is_not_blocked_by_an_offer_from_a_closed_one(clock, staff):
    f = open_floor("PPP...", staff=staff)
    pending = button.offer_button(table_id=f.table_id, by=staff.supervisor)
    floor.close_game(table_id=f.table_id, by=staff.supervisor)
    with contextlib.suppress(StateError):  # an answer to the stale offer (refused, if guarded)
        button.answer_offer(table_id=f.table_id, offer_id=pending.pk, accept=True, by=staff.dealer)
    floor.open_game_at(table_id=f.table_id, first_offer_seat=2, by=staff.supervisor)
    offer = button.offer_button(table_id=f.table_id, by=staff.supervisor)
    assert (
        ButtonOffer.objects.filter(offer_round__table=f.table, answer=OfferAnswer.PENDING).count()
        == 1
    )
    button.answer_offer(table_id=f.table_id, offer_id=offer.pk, accept=True, by=staff.dealer)
    round_ = rounds.start_round(table_id=f.table_id, by=staff.dealer)
    assert round_.player_dealer_seat == 2
