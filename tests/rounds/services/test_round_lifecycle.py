"""The round state machine at the service level (docs/rules.md §2, §4, §5).

Every transition out of a state that does not allow it is refused with a StateError naming
the state, and leaves every row as it was; a complete round records one transition per
state; an RNG table takes no keyed card (card entry: test_card_entry.py); the RNG deal is
stored and replays; decks alternate; a round can be voided from every active state; the
showdown stores what the rules core says.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from cardroom.errors import Rule, RuleError, State, StateError
from rounds import services as rounds
from tables.models import DealMode, Hand, HandDecision, Round, RoundTransition
from tables.rules.cards import format_cards, parse_card
from tables.rules.deck import deal, shuffled_deck
from tables.rules.hands import evaluate
from tests.builders.floor import (
    FOLD,
    FORWARD,
    PLANS,
    PLAY_3X,
    PLAY_4X,
    PLAY_FLOP,
    PLAY_RIVER,
    advance,
    audit_table,
    bank_and_play,
    floor_snapshot,
    give_button,
    open_floor,
    round_snapshot,
    start_with_hands,
)
from wagers.rules.resolution import dealer_qualifies, hand_result
from wagers.services import wagering

pytestmark = pytest.mark.django_db

S = State
ACTIVE = [S.WAGERING, S.NO_MORE_BETS, S.PREFLOP, S.FLOP, S.RIVER, S.SHOWDOWN]
ALL_STATES = [*ACTIVE, S.SETTLED, S.VOIDED]


def reach(state: State, staff, *, layout: str = "PPPP..", seats=(2, 3)) -> Round:
    """A round at a new table (seat 1 banks, ``seats`` play, seat 4 sits out) in ``state``."""
    f = open_floor(layout, staff=staff)
    give_button(f.table_id, 1, by=staff.supervisor)
    round_, _ = start_with_hands(f.table_id, by=staff.dealer, seats=seats)
    if state is S.VOIDED:
        round_ = advance(round_, S.PREFLOP, by=staff.dealer, rng=random.Random(3))
        return rounds.void_round(round_id=round_.pk, by=staff.supervisor, reason="misdeal")
    return advance(round_, state, by=staff.dealer, rng=random.Random(3))


# --- Every illegal transition is refused and changes nothing -----------------------------------

Transition = Callable[[Round, object], object]
TRANSITIONS: dict[str, tuple[Transition, set[State]]] = {
    "place_bet": (  # how a seat joins the hand: seat 4 sits out until now
        lambda r, by: wagering.place_bet(round_id=r.pk, seat=4, ante=500, blind=500, by=by),
        {S.WAGERING},
    ),
    "close_wagering": (lambda r, by: rounds.close_wagering(round_id=r.pk, by=by), {S.WAGERING}),
    "deal": (
        lambda r, by: rounds.deal(round_id=r.pk, by=by, rng=random.Random(1)),
        {S.NO_MORE_BETS},
    ),
    "decide": (
        lambda r, by: rounds.decide(round_id=r.pk, seat=2, action="play", multiple=1, by=by),
        {S.PREFLOP, S.FLOP, S.RIVER},
    ),
    "reveal_flop": (lambda r, by: rounds.reveal_flop(round_id=r.pk, by=by), {S.PREFLOP}),
    "reveal_turn_and_river": (
        lambda r, by: rounds.reveal_turn_and_river(round_id=r.pk, by=by),
        {S.FLOP},
    ),
    "showdown": (lambda r, by: rounds.showdown(round_id=r.pk, by=by), {S.RIVER}),
    "settle": (lambda r, by: rounds.settle(round_id=r.pk, by=by), {S.SHOWDOWN}),
    "void_round": (
        lambda r, by: rounds.void_round(round_id=r.pk, by=by, reason="misdeal"),
        set(ACTIVE),
    ),
}
ILLEGAL = [
    pytest.param(state, name, id=f"{state.value}-{name}")
    for state in ALL_STATES
    for name, (_, allowed) in TRANSITIONS.items()
    if state not in allowed
]


def test_the_illegal_pairs_cover_every_state_and_transition():
    assert len(ILLEGAL) == 56
    assert {p.values[0] for p in ILLEGAL} == set(ALL_STATES)
    assert {p.values[1] for p in ILLEGAL} == set(TRANSITIONS)


@pytest.mark.parametrize(("state", "transition"), ILLEGAL)
def test_illegal_transition_refused(state, transition, clock, staff):
    round_ = reach(state, staff)
    assert round_.state == state
    before_round, before_floor = round_snapshot(round_.pk), floor_snapshot()
    clock.advance(minutes=1)
    call, _ = TRANSITIONS[transition]
    with pytest.raises(StateError) as refused:
        call(round_, staff.dealer)
    assert refused.value.state == state
    assert refused.value.rule == Rule.ROUND_SEQUENCE
    assert S(state).label.lower() in refused.value.message
    assert round_snapshot(round_.pk) == before_round
    assert floor_snapshot() == before_floor


# --- A complete round records who moved it, and when ---------------------------------------------


def test_full_round_records_one_transition_per_state(clock, staff):
    f = open_floor("PPPP..", staff=staff)
    give_button(f.table_id, 1, by=staff.supervisor)
    started_at = clock.advance(minutes=1)
    round_, _ = start_with_hands(f.table_id, by=staff.supervisor)
    moments = [started_at]

    def step(_round):
        moments.append(clock.now())
        clock.advance(seconds=40)

    clock.advance(seconds=40)
    round_ = advance(
        round_,
        S.SETTLED,
        by=staff.dealer,
        plans={2: PLAY_4X, 3: PLAY_FLOP, 4: FOLD},
        rng=random.Random(11),
        on_step=step,
    )
    transitions = list(
        RoundTransition.objects.filter(round=round_)
        .order_by("id")
        .values_list("from_state", "to_state", "at", "by")
    )
    users = [staff.supervisor.pk] + [staff.dealer.pk] * 6
    assert transitions == [
        (frm, to, at, by)
        for frm, to, at, by in zip(["", *FORWARD[:-1]], FORWARD, moments, users, strict=True)
    ]
    assert round_.started_at == moments[0] and round_.ended_at == moments[-1]
    decisions = list(
        HandDecision.objects.filter(hand__round=round_)
        .order_by("id")
        .values_list("hand__seat", "street", "action", "multiple", "by")
    )
    assert decisions == [
        (2, "preflop", "play", 4, staff.dealer.pk),
        (3, "preflop", "check", 0, staff.dealer.pk),
        (4, "preflop", "check", 0, staff.dealer.pk),
        (3, "flop", "play", 2, staff.dealer.pk),
        (4, "flop", "check", 0, staff.dealer.pk),
        (4, "river", "fold", 0, staff.dealer.pk),
    ]
    assert audit_table(f.table_id) == []


def test_no_more_bets_needs_a_hand(clock, staff):
    round_ = reach(S.WAGERING, staff, seats=())
    before = round_snapshot(round_.pk)
    with pytest.raises(StateError) as refused:
        rounds.close_wagering(round_id=round_.pk, by=staff.dealer)
    assert refused.value.state == S.WAGERING
    assert refused.value.rule == Rule.ROUND_SEQUENCE
    assert refused.value.message == "no seat has wagered in this round"
    assert round_snapshot(round_.pk) == before


@pytest.mark.parametrize(
    ("state", "seat", "action", "multiple", "field_name"),
    [
        (S.PREFLOP, 4, "check", 0, "seat"),  # sitting this hand out
        (S.PREFLOP, 2, "raise", 0, "action"),
        (S.PREFLOP, 2, "play", 2, "multiple"),
        (S.PREFLOP, 2, "fold", 0, "action"),
        (S.FLOP, 2, "play", 3, "multiple"),
        (S.RIVER, 2, "check", 0, "action"),
        (S.RIVER, 2, "play", 2, "multiple"),
    ],
    ids=[
        "seat_not_in_hand",
        "unknown_action",
        "preflop_2x",
        "preflop_fold",
        "flop_3x",
        "river_check",
        "river_2x",
    ],
)
def test_decisions_are_validated(state, seat, action, multiple, field_name, clock, staff):
    round_ = reach(state, staff)
    before = round_snapshot(round_.pk)
    with pytest.raises(RuleError) as refused:
        rounds.decide(
            round_id=round_.pk, seat=seat, action=action, multiple=multiple, by=staff.dealer
        )
    assert refused.value.field == field_name
    assert refused.value.rule == Rule.DECISIONS
    assert round_snapshot(round_.pk) == before


def test_a_decision_is_made_once_and_streets_wait_for_everyone(clock, staff):
    round_ = reach(S.PREFLOP, staff)
    rounds.decide(round_id=round_.pk, seat=2, action="play", multiple=3, by=staff.dealer)
    with pytest.raises(RuleError) as twice:
        rounds.decide(round_id=round_.pk, seat=2, action="check", by=staff.dealer)
    assert twice.value.field == "action"
    before = round_snapshot(round_.pk)
    with pytest.raises(StateError) as waiting:
        rounds.reveal_flop(round_id=round_.pk, by=staff.dealer)
    assert "seat(s) 3" in waiting.value.message and waiting.value.state == S.PREFLOP
    assert waiting.value.rule == Rule.ROUND_SEQUENCE
    assert round_snapshot(round_.pk) == before
    assert HandDecision.objects.count() == 1


# --- Card entry (tests/rounds/services/test_card_entry.py has the rest) ---------------------

ENTERED = {"hands": {"2": ["Kh", "Kd"], "3": ["8h", "8d"]}, "player_dealer": ["As", "Ad"]}
FLOP = ["2c", "7h", "9s"]


def test_an_rng_table_takes_no_entered_cards(clock, staff):
    round_ = reach(S.NO_MORE_BETS, staff)
    before = round_snapshot(round_.pk)
    with pytest.raises(RuleError) as refused:
        rounds.deal(round_id=round_.pk, by=staff.dealer, entry=ENTERED)
    assert refused.value.field == "cards"
    assert round_snapshot(round_.pk) == before
    round_ = advance(round_, S.PREFLOP, by=staff.dealer)
    rounds.decide(round_id=round_.pk, seat=2, action="play", multiple=4, by=staff.dealer)
    rounds.decide(round_id=round_.pk, seat=3, action="play", multiple=4, by=staff.dealer)
    before = round_snapshot(round_.pk)
    with pytest.raises(RuleError) as flop:
        rounds.reveal_flop(round_id=round_.pk, by=staff.dealer, cards=FLOP)
    assert flop.value.field == "cards"
    assert round_snapshot(round_.pk) == before


# --- The showdown stores what the rules core says -----------------------------------------------

BOARD = ["2c", "7h", "9s", "Td", "Jc"]
SHOWDOWNS = {
    # player-dealer's hole, {seat: (hole, plan, category, result)}, dealer category, qualifies
    "dealer_qualifies_with_aces": (
        ["As", "Ad"],
        {
            2: (["Kh", "Kd"], PLAY_RIVER, "one_pair", "lose"),
            3: (["8h", "8d"], PLAY_4X, "straight", "win"),
            4: (["Ac", "Ah"], PLAY_FLOP, "one_pair", "tie"),
            5: (None, FOLD, "", "fold"),  # folded with no Trips wager: mucked, never keyed
        },
        "one_pair",
        True,
    ),
    "dealer_does_not_qualify": (
        ["3c", "5h"],
        {
            2: (["Kh", "Kd"], PLAY_RIVER, "one_pair", "win"),
            3: (["4s", "3s"], PLAY_3X, "high_card", "lose"),
            4: (["3h", "5d"], PLAY_FLOP, "high_card", "tie"),
            5: (None, FOLD, "", "fold"),
        },
        "high_card",
        False,
    ),
}


@pytest.mark.parametrize(
    ("dealer_hole", "seats", "dealer_category", "qualifies"),
    SHOWDOWNS.values(),
    ids=SHOWDOWNS.keys(),
)
def test_showdown_stores_categories_and_results(
    dealer_hole, seats, dealer_category, qualifies, clock, staff
):
    f = open_floor("PPPPP.", staff=staff, deal_mode=DealMode.CARD_ENTRY)
    give_button(f.table_id, 1, by=staff.supervisor)
    round_, _ = start_with_hands(f.table_id, by=staff.dealer, seats=sorted(seats))
    round_ = advance(
        round_,
        S.SHOWDOWN,
        by=staff.dealer,
        plans={seat: plan for seat, (_, plan, _, _) in seats.items()},
        entry={  # keyed at the showdown: the hands turned face up (docs/rules.md §2.3)
            "hands": {seat: hole for seat, (hole, *_) in seats.items() if hole is not None},
            "player_dealer": dealer_hole,
        },
        flop=BOARD[:3],
        turn_and_river=BOARD[3:],
    )
    assert round_.board == BOARD and round_.dealer_hole == dealer_hole
    assert (round_.dealer_category, round_.dealer_qualifies) == (dealer_category, qualifies)
    stored = {h.seat: (h.hole, h.category, h.result) for h in Hand.objects.filter(round=round_)}
    assert stored == {seat: (hole, cat, res) for seat, (hole, _, cat, res) in seats.items()}
    assert_showdown_matches_the_core(round_)


def assert_showdown_matches_the_core(round_: Round) -> None:
    board = [parse_card(c) for c in round_.board]
    dealer = evaluate([*(parse_card(c) for c in round_.dealer_hole), *board])
    assert round_.dealer_category == dealer.category.label
    assert round_.dealer_qualifies == dealer_qualifies(dealer)
    for hand in Hand.objects.filter(round=round_).prefetch_related("decisions"):
        folded = any(d.action == "fold" for d in hand.decisions.all())
        if hand.hole is None:  # mucked at a card-entry table: a fold, never valued
            assert folded and (hand.category, hand.result) == ("", "fold")
            continue
        value = evaluate([*(parse_card(c) for c in hand.hole), *board])
        assert hand.category == value.category.label
        assert hand.result == hand_result(value, dealer, folded).value


@pytest.mark.parametrize("seed", range(6))
def test_rng_showdowns_match_the_core(seed, clock, staff):
    rng = random.Random(seed)
    f = open_floor("PPPPPP", staff=staff)
    for number in range(3):
        seat = (seed + number) % 6 + 1
        give_button(f.table_id, seat, by=staff.supervisor)
        round_, joined = start_with_hands(f.table_id, by=staff.dealer)
        plans = {s: rng.choice(PLANS) for s in joined}
        round_ = advance(round_, S.SETTLED, by=staff.dealer, plans=plans, rng=rng)
        assert len(joined) == 5
        assert_showdown_matches_the_core(round_)
        results = {h.seat: h.result for h in round_.hands.all()}
        assert {s for s, p in plans.items() if p == FOLD} == {
            s for s, r in results.items() if r == "fold"
        }


# --- The RNG deal is stored and replays ----------------------------------------------------------


@pytest.mark.parametrize(
    ("layout", "banker", "seats", "order"),
    [
        ("PPPPPP", 3, [1, 2, 5], [5, 1, 2]),
        ("PPPPPP", 6, [1, 2, 3, 4, 5], [1, 2, 3, 4, 5]),
        ("PP.P.P", 1, [2, 6], [2, 6]),
    ],
    ids=["dealer_in_3", "dealer_in_6", "empty_seats"],
)
@pytest.mark.parametrize("seeded", [True, False], ids=["seeded", "csprng"])
def test_rng_deal_is_stored_and_replays(layout, banker, seats, order, seeded, clock, staff):
    f = open_floor(layout, staff=staff)
    give_button(f.table_id, banker, by=staff.supervisor)
    round_, _ = start_with_hands(f.table_id, by=staff.dealer, seats=seats)
    rng = random.Random(2026) if seeded else None
    round_ = advance(round_, S.PREFLOP, by=staff.dealer, rng=rng)

    deck = round_.shuffled_deck
    assert len(deck) == 52 and len(set(deck)) == 52
    if seeded:
        assert deck == format_cards(shuffled_deck(random.Random(2026)))
    holes = {h.seat: h.hole for h in Hand.objects.filter(round=round_)}
    # Two cards at a time clockwise from the player-dealer's left, then the player-dealer.
    assert holes == {seat: deck[2 * i : 2 * i + 2] for i, seat in enumerate(order)}
    assert round_.dealer_hole == deck[2 * len(order) : 2 * len(order) + 2]
    replay = deal([parse_card(c) for c in deck], banker, seats)
    assert {seat: format_cards(cards) for seat, cards in replay.hole_cards} == holes
    assert format_cards(replay.player_dealer) == round_.dealer_hole

    round_ = advance(round_, S.FLOP, by=staff.dealer)
    assert round_.board == format_cards(replay.board[:3])
    round_ = advance(round_, S.SETTLED, by=staff.dealer)
    assert round_.board == format_cards(replay.board)
    assert round_.board == deck[2 * len(order) + 2 : 2 * len(order) + 7]
    assert Round.objects.get(pk=round_.pk).shuffled_deck == deck  # unchanged by the reveals


# --- Decks alternate per table -----------------------------------------------------------------


def test_decks_alternate_per_table(clock, staff):
    x = open_floor("PPP...", staff=staff)
    y = open_floor("PPP...", staff=staff)
    played = [
        bank_and_play(x, 1),
        bank_and_play(y, 1),
        bank_and_play(x, 2),
    ]
    give_button(x.table_id, 3, by=staff.supervisor)
    voided, _ = start_with_hands(x.table_id, by=staff.dealer)
    played.append(rounds.void_round(round_id=voided.pk, by=staff.dealer, reason="misdeal"))
    played += [bank_and_play(y, 2), bank_and_play(x, 1)]
    decks = {
        table.table_id: list(
            Round.objects.filter(table_id=table.table_id)
            .order_by("number")
            .values_list("number", "deck")
        )
        for table in (x, y)
    }
    assert decks == {
        x.table_id: [(1, "A"), (2, "B"), (3, "A"), (4, "B")],
        y.table_id: [(1, "A"), (2, "B")],
    }


# --- Void from every active state ----------------------------------------------------------------


@pytest.mark.parametrize("state", ACTIVE, ids=[s.value for s in ACTIVE])
def test_void_from_each_active_state(state, clock, staff):
    round_ = reach(state, staff)
    hands_before = round_snapshot(round_.pk)["hands"]
    with pytest.raises(RuleError) as blank:
        rounds.void_round(round_id=round_.pk, by=staff.supervisor, reason="   ")
    assert blank.value.field == "reason"
    assert Round.objects.get(pk=round_.pk).state == state
    voided_at = clock.advance(minutes=2)
    rounds.void_round(round_id=round_.pk, by=staff.supervisor, reason="  card exposed  ")
    round_.refresh_from_db()
    assert round_.state == S.VOIDED and round_.ended_at == voided_at
    assert round_.void_reason == "card exposed"
    last = RoundTransition.objects.filter(round=round_).order_by("-id").first()
    assert (last.from_state, last.to_state, last.at, last.by) == (
        state,
        S.VOIDED,
        voided_at,
        staff.supervisor,
    )
    assert round_snapshot(round_.pk)["hands"] == hands_before
    # The table is free for the next hand; the voided one still counts as banked.
    give_button(round_.table_id, 1, by=staff.supervisor)
    nxt = rounds.start_round(table_id=round_.table_id, by=staff.dealer)
    assert (nxt.number, nxt.consecutive_count, nxt.deck) == (2, 2, "B")
