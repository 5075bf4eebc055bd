"""Coverage-limited settlement in its fixed order (docs/rules.md §7), by example."""

from __future__ import annotations

from fractions import Fraction

import pytest

from cardroom.errors import Rule, RuleError
from tables.rules.options import GameOptions
from tests.builders.rules import cards, pending, player_net, running_nets, uncovered_lines
from wagers.rules.resolution import Outcome, Resolution
from wagers.rules.settlement import PendingWager, SettlementPass, apply_coverage, settlement_order
from wagers.rules.showdown import SeatHand, play_out, turned_face_up
from wagers.rules.wagers import Stakes, WagerKind

W = WagerKind
WIN, LOSE, PUSH = Outcome.WIN, Outcome.LOSE, Outcome.PUSH
FOLD, SHOWDOWN = SettlementPass.FOLD, SettlementPass.SHOWDOWN

# --- the worked example of docs/rules.md §7.3 -----------------------------------------------------
# In cents: W = 100.00; S1 folded (Ante 25, Blind 25); S2 wins with a Flush (Ante 25,
# Blind 25, Play 100, Trips 10); the dealer qualifies; Trips UTH-01.

# (order, pass, seat, wager, paid, collected, unpaid_uncovered, returned_uncovered, N after)
WORKED_EXAMPLE = [
    (1, FOLD, 1, W.ANTE, 0, 2500, 0, 0, 2500),
    (2, FOLD, 1, W.BLIND, 0, 2500, 0, 0, 5000),
    (3, SHOWDOWN, 2, W.ANTE, 2500, 0, 0, 0, 2500),
    (4, SHOWDOWN, 2, W.PLAY, 10_000, 0, 0, 0, -7500),
    (5, SHOWDOWN, 2, W.BLIND, 2500, 0, 1250, 0, -10_000),
    (6, SHOWDOWN, 2, W.TRIPS, 0, 0, 7000, 0, -10_000),
]


def _check_worked_example(settlement):
    got = [
        (line.order, line.pass_, line.seat, line.wager, line.paid, line.collected,
         line.unpaid_uncovered, line.returned_uncovered, net)
        for line, net in zip(settlement.lines, running_nets(settlement.lines), strict=True)
    ]  # fmt: skip
    assert got == WORKED_EXAMPLE
    assert settlement.player_dealer_net == -10_000  # exactly W
    assert settlement.exhausted
    assert settlement.remaining_bank == 0


def test_worked_example_through_apply_coverage():
    ordered = [
        pending(1, W.ANTE, 2500, LOSE, pass_=FOLD),
        pending(1, W.BLIND, 2500, LOSE, pass_=FOLD),
        pending(2, W.ANTE, 2500, WIN, 2500),
        pending(2, W.PLAY, 10_000, WIN, 10_000),
        pending(2, W.BLIND, 2500, WIN, 3750),
        pending(2, W.TRIPS, 1000, WIN, 7000),
    ]
    _check_worked_example(apply_coverage(10_000, ordered))


def test_worked_example_with_real_cards():
    # Board 2h 7h 9h Kc 4d: S2's Ah 5h is an ace-high flush; the dealer's Ks Qd pairs kings.
    seats = [
        SeatHand(1, cards("3c 8s"), Stakes(ante=2500, blind=2500), folded=True),
        SeatHand(2, cards("Ah 5h"), Stakes(ante=2500, blind=2500, play=10_000, trips=1000)),
    ]
    outcome = play_out(6, cards("Ks Qd"), cards("2h 7h 9h Kc 4d"), seats, 10_000, GameOptions())
    assert outcome.dealer_qualifies
    _check_worked_example(outcome.settlement)
    blind = outcome.settlement.lines[4]
    assert (blind.stake, blind.outcome) == (2500, WIN)
    assert blind.paid + blind.unpaid_uncovered == 3750


# --- order ------------------------------------------------------------------------------------


def _res(kind, outcome, stake=100, payout=None):
    if payout is None:
        payout = stake if outcome is WIN else 0
    return Resolution(kind, stake, outcome, payout)


def _keys(ordered):
    return [(p.pass_, p.seat, p.bettor, p.resolution.kind) for p in ordered]


@pytest.mark.parametrize(
    ("player_dealer", "seats", "expected"),
    [
        (3, [1, 2, 4, 5, 6], [4, 5, 6, 1, 2]),
        (6, [5, 3, 1, 4, 2], [1, 2, 3, 4, 5]),
        (1, [6, 2, 4], [2, 4, 6]),
        (4, [3, 5], [5, 3]),
    ],
    ids=["pd3-wrap", "pd6", "pd1", "pd4-right-neighbour-last"],
)
def test_seats_settle_clockwise_from_the_player_dealers_left(player_dealer, seats, expected):
    resolutions = {seat: [{W.ANTE: _res(W.ANTE, WIN)}] for seat in seats}
    ordered = settlement_order(player_dealer, resolutions, [])
    assert [p.seat for p in ordered] == expected
    assert [line.order for line in apply_coverage(10**6, ordered).lines] == list(
        range(1, len(expected) + 1)
    )


def test_fold_pass_comes_before_the_showdown_pass():
    # PD at 6; seat 1 plays, seat 2 folds: seat 2's losses are taken before seat 1 settles.
    resolutions = {
        1: [{W.ANTE: _res(W.ANTE, WIN), W.PLAY: _res(W.PLAY, WIN, 400)}],
        2: [{W.ANTE: _res(W.ANTE, LOSE), W.BLIND: _res(W.BLIND, LOSE)}],
    }
    ordered = settlement_order(6, resolutions, folded_seats=[2])
    assert _keys(ordered) == [
        (FOLD, 2, 0, W.ANTE),
        (FOLD, 2, 0, W.BLIND),
        (SHOWDOWN, 1, 0, W.ANTE),
        (SHOWDOWN, 1, 0, W.PLAY),
    ]


def test_fold_pass_is_itself_clockwise_with_wrap():
    folded = {seat: [{W.ANTE: _res(W.ANTE, LOSE)}] for seat in (1, 2, 5)}
    live = {6: [{W.ANTE: _res(W.ANTE, WIN)}]}
    ordered = settlement_order(4, {**folded, **live}, folded_seats=[1, 2, 5])
    assert _keys(ordered) == [
        (FOLD, 5, 0, W.ANTE),
        (FOLD, 1, 0, W.ANTE),
        (FOLD, 2, 0, W.ANTE),
        (SHOWDOWN, 6, 0, W.ANTE),
    ]


def test_showdown_wager_order_is_ante_play_blind_trips_bad_beat():
    # Inserted in reverse so that a dict-order implementation would fail.
    by_kind = {
        W.BAD_BEAT: _res(W.BAD_BEAT, LOSE),
        W.TRIPS: _res(W.TRIPS, WIN, 100, 300),
        W.BLIND: _res(W.BLIND, PUSH),
        W.PLAY: _res(W.PLAY, WIN, 400),
        W.ANTE: _res(W.ANTE, WIN),
    }
    ordered = settlement_order(2, {3: [by_kind]}, [])
    assert [p.resolution.kind for p in ordered] == [W.ANTE, W.PLAY, W.BLIND, W.TRIPS, W.BAD_BEAT]
    assert {p.pass_ for p in ordered} == {SHOWDOWN}


def test_fold_pass_wager_order_is_ante_blind_trips_bad_beat():
    by_kind = {
        W.BAD_BEAT: _res(W.BAD_BEAT, LOSE),
        W.TRIPS: _res(W.TRIPS, LOSE),
        W.BLIND: _res(W.BLIND, LOSE),
        W.ANTE: _res(W.ANTE, LOSE),
    }
    ordered = settlement_order(2, {3: [by_kind]}, [3])
    assert _keys(ordered) == [
        (FOLD, 3, 0, W.ANTE),
        (FOLD, 3, 0, W.BLIND),
        (FOLD, 3, 0, W.TRIPS),
        (FOLD, 3, 0, W.BAD_BEAT),
    ]


def test_a_folded_seats_winning_trips_waits_for_the_showdown_pass():
    folded = {
        W.ANTE: _res(W.ANTE, LOSE),
        W.BLIND: _res(W.BLIND, LOSE),
        W.TRIPS: _res(W.TRIPS, WIN, 100, 300),
        W.BAD_BEAT: _res(W.BAD_BEAT, LOSE),
    }
    live = {W.ANTE: _res(W.ANTE, WIN)}
    ordered = settlement_order(6, {1: [folded], 2: [live]}, [1])
    assert _keys(ordered) == [
        (FOLD, 1, 0, W.ANTE),
        (FOLD, 1, 0, W.BLIND),
        (FOLD, 1, 0, W.BAD_BEAT),
        (SHOWDOWN, 1, 0, W.TRIPS),
        (SHOWDOWN, 2, 0, W.ANTE),
    ]


def test_backline_bettors_come_right_after_their_seats_wagers_in_both_passes():
    seat_1 = [
        {W.ANTE: _res(W.ANTE, LOSE), W.BLIND: _res(W.BLIND, LOSE)},  # the seated player
        {W.ANTE: _res(W.ANTE, LOSE), W.BLIND: _res(W.BLIND, LOSE)},  # backline-1
        {W.TRIPS: _res(W.TRIPS, WIN, 50, 150)},  # backline-2, Trips only
    ]
    seat_2 = [
        {W.ANTE: _res(W.ANTE, WIN), W.PLAY: _res(W.PLAY, WIN, 200), W.TRIPS: _res(W.TRIPS, LOSE)},
        {W.ANTE: _res(W.ANTE, WIN), W.PLAY: _res(W.PLAY, WIN, 40)},
    ]
    seat_3 = [{W.ANTE: _res(W.ANTE, WIN)}]
    ordered = settlement_order(6, {3: seat_3, 2: seat_2, 1: seat_1}, [1])
    assert _keys(ordered) == [
        (FOLD, 1, 0, W.ANTE),
        (FOLD, 1, 0, W.BLIND),
        (FOLD, 1, 1, W.ANTE),
        (FOLD, 1, 1, W.BLIND),
        (SHOWDOWN, 1, 2, W.TRIPS),
        (SHOWDOWN, 2, 0, W.ANTE),
        (SHOWDOWN, 2, 0, W.PLAY),
        (SHOWDOWN, 2, 0, W.TRIPS),
        (SHOWDOWN, 2, 1, W.ANTE),
        (SHOWDOWN, 2, 1, W.PLAY),
        (SHOWDOWN, 3, 0, W.ANTE),
    ]
    lines = apply_coverage(10**6, ordered).lines
    assert [line.bettor_label for line in lines][:5] == [
        "seat",
        "seat",
        "backline-1",
        "backline-1",
        "backline-2",
    ]


def test_order_with_real_cards_and_a_player_dealer_at_seat_3():
    # Every live seat beats the dealer's high card; seat 1 folds.
    board = cards("2c 7h 9s Td Jc")
    seats = [
        SeatHand(1, cards("3c 4d"), Stakes(ante=100, blind=100), folded=True),
        SeatHand(2, cards("Ac Ad"), Stakes(ante=100, blind=100, play=400)),
        SeatHand(4, cards("Kc Kd"), Stakes(ante=100, blind=100, play=300)),
        SeatHand(5, cards("Qc Qd"), Stakes(ante=100, blind=100, play=200)),
        SeatHand(6, cards("8c 8d"), Stakes(ante=100, blind=100, play=100)),
    ]
    outcome = play_out(3, cards("5h 3s"), board, seats, 10**6, GameOptions())
    keys = [(line.pass_, line.seat, line.wager) for line in outcome.settlement.lines]
    assert keys[:2] == [(FOLD, 1, W.ANTE), (FOLD, 1, W.BLIND)]
    assert [seat for _, seat, _ in keys[2:]] == [4] * 3 + [5] * 3 + [6] * 3 + [2] * 3


# --- caps and exhaustion --------------------------------------------------------------------


def _lines(settlement):
    return [
        (line.outcome, line.paid, line.collected, line.returned_uncovered, line.unpaid_uncovered)
        for line in settlement.lines
    ]


CAP_CASES = [
    # (id, bank, [(outcome, stake, payout)], [(outcome, paid, collected, returned, unpaid)],
    #  player-dealer net, exhausted)
    (
        "collection-capped-at-W",
        1000,
        [(LOSE, 600, 0), (LOSE, 600, 0), (LOSE, 300, 0)],
        [(LOSE, 0, 600, 0, 0), (LOSE, 0, 400, 200, 0), (LOSE, 0, 0, 300, 0)],
        1000,
        False,
    ),
    (
        "winner-after-a-capped-collection-is-paid-up-to-2W",
        1000,
        [(LOSE, 1500, 0), (WIN, 100, 2500)],
        [(LOSE, 0, 1000, 500, 0), (WIN, 2000, 0, 0, 500)],
        -1000,
        True,
    ),
    (
        "collection-cap-counts-earlier-payments",
        100,
        [(WIN, 80, 80), (LOSE, 500, 0)],
        [(WIN, 80, 0, 0, 0), (LOSE, 0, 180, 320, 0)],
        100,
        False,
    ),
    (
        "exhaustion-returns-later-losers-whole",
        100,
        [(WIN, 100, 150), (LOSE, 40, 0), (PUSH, 30, 0), (WIN, 10, 10)],
        [(WIN, 100, 0, 0, 50), (LOSE, 0, 0, 40, 0), (PUSH, 0, 0, 0, 0), (WIN, 0, 0, 0, 10)],
        -100,
        True,
    ),
    (
        "exhaustion-by-an-exact-payment",
        500,
        [(LOSE, 100, 0), (WIN, 600, 600), (LOSE, 50, 0)],
        [(LOSE, 0, 100, 0, 0), (WIN, 600, 0, 0, 0), (LOSE, 0, 0, 50, 0)],
        -500,
        True,
    ),
    (
        "collection-refills-the-bank-before-exhaustion",
        100,
        [(WIN, 60, 60), (LOSE, 50, 0), (WIN, 200, 200), (LOSE, 10, 0)],
        [(WIN, 60, 0, 0, 0), (LOSE, 0, 50, 0, 0), (WIN, 90, 0, 0, 110), (LOSE, 0, 0, 10, 0)],
        -100,
        True,
    ),
    (
        "collecting-W-does-not-exhaust",
        100,
        [(LOSE, 100, 0), (LOSE, 25, 0), (WIN, 300, 300), (LOSE, 25, 0)],
        [(LOSE, 0, 100, 0, 0), (LOSE, 0, 0, 25, 0), (WIN, 200, 0, 0, 100), (LOSE, 0, 0, 25, 0)],
        -100,
        True,
    ),
    (
        "pushes-never-touch-the-bank",
        10,
        [(PUSH, 1000, 0), (PUSH, 5, 0)],
        [(PUSH, 0, 0, 0, 0), (PUSH, 0, 0, 0, 0)],
        0,
        False,
    ),
    (
        "enough-bank-nothing-uncovered",
        10_000,
        [(LOSE, 100, 0), (WIN, 100, 150), (WIN, 400, 400), (PUSH, 100, 0), (LOSE, 25, 0)],
        [(LOSE, 0, 100, 0, 0), (WIN, 150, 0, 0, 0), (WIN, 400, 0, 0, 0), (PUSH, 0, 0, 0, 0),
         (LOSE, 0, 25, 0, 0)],
        -425,
        False,
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    ("bank", "wagers", "expected", "net", "exhausted"),
    [case[1:] for case in CAP_CASES],
    ids=[case[0] for case in CAP_CASES],
)
def test_caps_and_exhaustion(bank, wagers, expected, net, exhausted):
    kinds = [W.ANTE, W.PLAY, W.BLIND, W.TRIPS, W.BAD_BEAT]
    ordered = [
        pending(index + 1, kinds[index % 5], stake, outcome, payout)
        for index, (outcome, stake, payout) in enumerate(wagers)
    ]
    settlement = apply_coverage(bank, ordered)
    assert _lines(settlement) == expected
    assert settlement.player_dealer_net == net
    assert settlement.exhausted is exhausted
    assert -bank <= settlement.player_dealer_net <= bank
    assert [line.stake for line in settlement.lines] == [stake for _, stake, _ in wagers]


def test_settlement_line_accounting():
    ordered = [
        pending(1, W.ANTE, 100, LOSE),
        pending(2, W.PLAY, 300, WIN, 300, bettor=1),
        pending(3, W.BLIND, 100, PUSH),
    ]
    settlement = apply_coverage(200, ordered)
    lose, win, push = settlement.lines
    assert (player_net(lose), lose.returned) == (-100, 0)
    assert (player_net(win), win.returned) == (300, 600)
    assert (win.unpaid_uncovered, win.bettor_label) == (0, "backline-1")
    assert (player_net(push), push.returned) == (0, 100)
    assert uncovered_lines(settlement) == ()
    assert settlement.remaining_bank == 0
    capped = apply_coverage(150, ordered)
    assert uncovered_lines(capped) == (capped.lines[1],)
    assert capped.lines[1].paid == 250


@pytest.mark.parametrize(
    "bank",
    [0, -1, -10_000, True, False, 1.5, 100.0, "100", None],
    ids=["zero", "minus-1", "negative", "true", "false", "float", "float-whole", "str", "none"],
)
def test_a_bank_that_is_not_a_positive_whole_number_of_cents_is_refused(bank):
    with pytest.raises(RuleError) as caught:
        apply_coverage(bank, [pending(1, W.ANTE, 100, LOSE)])
    assert caught.value.rule == Rule.BANK


def test_rounded_off_is_carried_to_the_line():
    resolution = Resolution(W.BLIND, 2525, WIN, 3775, rounded_off=Fraction(25, 2))
    line = apply_coverage(10**6, [PendingWager(SHOWDOWN, 1, 0, resolution)]).lines[0]
    assert (line.paid, line.rounded_off) == (3775, Fraction(25, 2))


# --- A mucked hand (card entry, docs/rules.md §2.3) ----------------------------------------


@pytest.mark.parametrize(
    ("folded", "trips", "behind", "turned_up"),
    [
        (False, 0, 0, True),  # still in: shown down
        (True, 100, 0, True),  # its Trips is decided by its cards
        (True, 0, 100, True),  # a Trips behind it too
        (True, 0, 0, False),  # nothing depends on its cards: mucked
    ],
)
def test_which_hands_are_turned_face_up(folded, trips, behind, turned_up):
    stakes = Stakes(ante=100, blind=100, play=0 if folded else 100, trips=trips)
    backline = (Stakes(ante=100, blind=100, trips=behind),)
    assert turned_face_up(folded, [stakes.trips, behind]) is turned_up
    assert SeatHand(2, None, stakes, folded, backline).turned_face_up is turned_up


def test_a_mucked_hand_settles_as_a_fold_whatever_its_cards():
    stakes = Stakes(ante=100, blind=100, bad_beat=100)
    board, dealer = cards("2h 7h 9h Kc 4d"), cards("Ks Qd")
    shown = play_out(6, dealer, board, [SeatHand(1, cards("7c 7d"), stakes, True)], 10_000,
                     GameOptions())  # fmt: skip
    mucked = play_out(6, dealer, board, [SeatHand(1, None, stakes, True)], 10_000, GameOptions())
    assert mucked.settlement == shown.settlement
    assert (mucked.seats[0].value, mucked.seats[0].result.value) == (None, "fold")
    with pytest.raises(ValueError, match="turned face up"):
        play_out(6, dealer, board, [SeatHand(1, None, stakes, False)], 10_000, GameOptions())
