"""The player-dealer button (docs/rules.md §8): rotation limits, offers, the 40-minute window,
the audit."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from cardroom.errors import Rule
from tables.rules.rotation import (
    BankedHand,
    RotationPolicy,
    SeatedPlayer,
    audit_rotation,
    consecutive_hands,
    ineligibility,
    keeper,
    offer_order,
    offers_start_at,
    tppp_excess,
    window_shortfall,
)

OPEN = datetime(2026, 4, 1, 20, 0, 0)
CALIFORNIA = RotationPolicy()
PLAIN = RotationPolicy(
    offer_every_hand=False,
    max_tppp_per_table=None,
    tppp_may_bank_twice_in_a_row=True,
    window_minutes=None,
)
TPPP_ID = 900


def hands(*player_ids: int, game: int = 1, start: datetime = OPEN, every: int = 2, first_id=1):
    """One hand per player id, ``every`` minutes apart; ids >= 900 are TPPP players."""
    return [
        BankedHand(
            hand_id=first_id + i,
            game_id=game,
            started_at=start + timedelta(minutes=every * i),
            seat=player_id % 6 + 1,
            player_id=player_id,
            is_tppp=player_id >= TPPP_ID,
        )
        for i, player_id in enumerate(player_ids)
    ]


def player(player_id: int) -> SeatedPlayer:
    return SeatedPlayer(player_id % 6 + 1, player_id, player_id >= TPPP_ID)


def test_the_default_policy_is_californias():
    assert CALIFORNIA.max_consecutive_hands == 2
    assert CALIFORNIA.offer_every_hand is True
    assert CALIFORNIA.max_tppp_per_table == 1
    assert CALIFORNIA.tppp_may_bank_twice_in_a_row is False
    assert CALIFORNIA.window == timedelta(minutes=40)
    assert CALIFORNIA.min_non_tppp_dealers_in_window == 2
    assert PLAIN.window is None


# --- consecutive hands ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("history", "player_id", "count"),
    [((), 1, 0), ((1,), 1, 1), ((1, 1), 1, 2), ((2, 1, 1), 1, 2), ((1, 1, 2), 1, 0),
     ((1, 2, 1), 1, 1), ((1, 1, 1), 1, 3)],
    ids=["none", "one", "two", "two-after-another", "someone-else-last", "interrupted",
         "three"],
)  # fmt: skip
def test_consecutive_hands(history, player_id, count):
    assert consecutive_hands(hands(*history), player_id) == count


@pytest.mark.parametrize(
    ("history", "candidate", "policy", "reason"),
    [
        ((), 1, CALIFORNIA, None),
        ((1,), 1, CALIFORNIA, None),
        ((1, 1), 1, CALIFORNIA, Rule.CONSECUTIVE_HANDS),
        ((1, 1), 1, PLAIN, Rule.CONSECUTIVE_HANDS),
        ((1, 1), 2, CALIFORNIA, None),
        ((1, 1, 2), 1, CALIFORNIA, None),
        ((1, 1), 1, RotationPolicy(max_consecutive_hands=3), None),
        ((1, 1, 1), 1, RotationPolicy(max_consecutive_hands=3), Rule.CONSECUTIVE_HANDS),
        ((900,), 900, CALIFORNIA, Rule.TPPP_TWICE),
        ((900,), 900, PLAIN, None),
        ((900,), 1, CALIFORNIA, None),
        ((900, 1), 900, CALIFORNIA, None),
        ((901,), 900, CALIFORNIA, Rule.TPPP_TWICE),
        ((900, 900), 900, PLAIN, Rule.CONSECUTIVE_HANDS),
    ],
    ids=["first-hand", "second-in-a-row", "third-in-a-row", "third-in-a-row-plain",
         "someone-else", "after-a-break", "limit-3-second", "limit-3-fourth", "tppp-twice",
         "tppp-twice-allowed", "other-after-tppp", "tppp-after-a-break",
         "another-tppp-after-a-tppp", "tppp-third-in-a-row-plain"],
)  # fmt: skip
def test_ineligibility(history, candidate, policy, reason):
    why = ineligibility(player(candidate), hands(*history), policy)
    if reason is None:
        assert why is None
    else:
        assert why is not None and why.rule is reason
        assert f"seat {player(candidate).seat}" in why.message
        assert str(why) == f"{why.message} ({reason.citation})"


# --- the offer round ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("last", "named", "start"),
    [(None, 4, 4), (None, 1, 1), (3, 1, 4), (5, 1, 6), (6, 3, 1), (1, 6, 2)],
    ids=[
        "opening-named-4",
        "opening-named-1",
        "left-of-3",
        "left-of-5",
        "left-of-6-wraps",
        "left-of-1",
    ],
)
def test_offers_start_at(last, named, start):
    assert offers_start_at(last, named) == start


@pytest.mark.parametrize(
    ("seats", "last", "expected"),
    [
        ([1, 2, 3, 4, 5, 6], 3, (4, 5, 6, 1, 2, 3)),
        ([1, 2, 3, 4, 5, 6], 6, (1, 2, 3, 4, 5, 6)),
        ([2, 5, 6], 5, (6, 2, 5)),
        ([1, 3, 4], 4, (1, 3, 4)),
        ([6, 2, 4], 2, (4, 6, 2)),
        ([3], 3, (3,)),
    ],
    ids=[
        "full-table-pd-3",
        "full-table-pd-6",
        "three-seats-wrap",
        "gap-after-last",
        "unsorted-input",
        "alone",
    ],
)
def test_offer_order_starts_left_of_the_last_player_dealer_who_is_asked_last(seats, last, expected):
    order = offer_order(seats, offers_start_at(last, named_start_seat=1))
    assert order == expected
    assert order[-1] == last


def test_offer_order_from_the_named_seat_when_a_game_opens():
    assert offer_order([1, 2, 5, 6], offers_start_at(None, 5)) == (5, 6, 1, 2)
    assert offer_order([1, 2, 6], offers_start_at(None, 4)) == (6, 1, 2)


@pytest.mark.parametrize(
    ("history", "candidate", "policy", "keeps"),
    [
        ((1,), 1, PLAIN, True),
        ((1,), 1, CALIFORNIA, False),
        ((1,), 1, RotationPolicy(offer_every_hand=True, window_minutes=None), False),
        ((1, 1), 1, PLAIN, False),
        ((2, 1), 1, PLAIN, True),
        ((1,), 2, PLAIN, False),
        ((), 1, PLAIN, False),
        ((900,), 900, RotationPolicy(offer_every_hand=False), False),
        ((900,), 900, PLAIN, True),
    ],
    ids=["plain-second-hand", "offer-every-hand-on", "offer-every-hand-on-no-window",
         "plain-third-hand", "plain-second-after-another", "not-the-last-dealer",
         "no-history", "tppp-may-not-bank-twice", "plain-tppp-second-hand"],
)  # fmt: skip
def test_the_last_player_dealer_keeps_only_with_offer_every_hand_off(
    history, candidate, policy, keeps
):
    banked = hands(*history)
    seated = [player(candidate)]
    last = banked[-1] if banked else None
    kept = keeper(last, seated, banked, policy, offers_begun=False)
    assert (kept == player(candidate)) is keeps and (kept is None) is not keeps


def test_once_an_offer_round_has_begun_no_one_keeps_the_position():
    banked = hands(2, 1)
    assert keeper(banked[-1], [player(1)], banked, PLAIN, offers_begun=False) == player(1)
    assert keeper(banked[-1], [player(1)], banked, PLAIN, offers_begun=True) is None


def test_a_player_who_moved_seats_does_not_keep_the_position():
    banked = hands(1)
    moved = SeatedPlayer(banked[-1].seat % 6 + 1, 1)
    assert keeper(banked[-1], [moved], banked, PLAIN, offers_begun=False) is None


# --- the 40-minute window ------------------------------------------------------------------------


def at(minutes: float) -> datetime:
    return OPEN + timedelta(minutes=minutes)


def banked(hand_id: int, minutes: float, player_id: int) -> BankedHand:
    return BankedHand(hand_id, 1, at(minutes), player_id % 6 + 1, player_id, player_id >= TPPP_ID)


WINDOW_CASES = [
    # (id, history as (minute, player), now in minutes, candidate, shortfall?)
    ("before-40-minutes-nothing-checked", [(0, 900), (10, 900)], 39.99, 900, False),
    ("before-40-one-player-only", [(0, 1), (20, 1)], 39, 1, False),
    ("at-40-one-player-and-tppp", [(0, 1), (10, 900), (20, 1), (30, 900)], 40, 1, True),
    ("at-40-candidate-is-the-second", [(0, 1), (10, 900), (20, 1), (30, 900)], 40, 2, False),
    ("two-players-in-window", [(5, 1), (15, 2), (25, 900)], 41, 900, False),
    ("tppp-candidate-not-counted", [(5, 1), (15, 900), (25, 900)], 41, 900, True),
    ("tppp-only", [(5, 900), (15, 900)], 45, 900, True),
    ("old-hands-leave-the-window", [(0, 2), (10, 1), (30, 900)], 50, 1, True),
    ("a-hand-just-inside-the-window", [(10.5, 2), (30, 900)], 50, 1, False),
    ("same-player-twice-counts-once", [(45, 1), (50, 1), (55, 900)], 60, 1, True),
    ("three-players", [(45, 1), (50, 2), (55, 3)], 60, 900, False),
]  # fmt: skip


@pytest.mark.parametrize(
    ("history", "now", "candidate", "short"),
    [case[1:] for case in WINDOW_CASES],
    ids=[case[0] for case in WINDOW_CASES],
)
def test_window_shortfall(history, now, candidate, short):
    game_history = [banked(i + 1, minute, pid) for i, (minute, pid) in enumerate(history)]
    why = window_shortfall(OPEN, at(now), game_history, player(candidate), CALIFORNIA)
    if short:
        assert why is not None and why.rule is Rule.WINDOW
    else:
        assert why is None


def test_window_turned_off_or_relaxed():
    history = [banked(1, 0, 900), banked(2, 20, 900)]
    no_window = RotationPolicy(window_minutes=None)
    assert window_shortfall(OPEN, at(200), history, player(900), no_window) is None
    one_needed = RotationPolicy(min_non_tppp_dealers_in_window=1)
    assert window_shortfall(OPEN, at(45), history, player(1), one_needed) is None
    assert window_shortfall(OPEN, at(45), history, player(900), one_needed) is not None
    sixty = RotationPolicy(window_minutes=60)
    assert window_shortfall(OPEN, at(45), history, player(900), sixty) is None
    assert "last 60 minutes" in window_shortfall(OPEN, at(61), history, player(900), sixty).message


def test_a_new_game_starts_its_clock_afresh():
    # The same table 50 minutes on, but a game opened 5 minutes ago: nothing is checked yet.
    reopened = at(45)
    assert window_shortfall(reopened, at(50), [], player(900), CALIFORNIA) is None
    assert window_shortfall(OPEN, at(50), [], player(900), CALIFORNIA) is not None


# --- TPPPs per table --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tppps", "policy", "refused"),
    [
        (0, CALIFORNIA, False),
        (1, CALIFORNIA, False),
        (2, CALIFORNIA, True),
        (2, PLAIN, False),
        (2, RotationPolicy(max_tppp_per_table=2), False),
        (3, RotationPolicy(max_tppp_per_table=2), True),
        (1, RotationPolicy(max_tppp_per_table=0), True),
    ],
    ids=["none", "one", "two", "limit-off", "limit-2-second", "limit-2-third", "none-allowed"],
)
def test_tppp_excess(tppps, policy, refused):
    why = tppp_excess(tppps, policy)
    assert (why is not None) is refused
    if refused:
        players = "player" if tppps == 1 else "players"
        assert why.rule is Rule.TPPP_PER_TABLE
        assert why.message.startswith(f"{tppps} TPPP {players} would be seated;")


# --- the audit of a recorded history -----------------------------------------------------------


def rules_found(violations):
    return sorted(violation.rule for violation in violations)


def test_a_clean_history_has_no_violations():
    # Two players and a TPPP alternating, 5 minutes apart, for two hours.
    pattern = [1, 900, 2, 1, 900, 2]
    history = hands(*(pattern * 4), every=5)
    history = [
        BankedHand(h.hand_id, h.game_id, h.started_at, h.seat, h.player_id, h.is_tppp, 1)
        for h in history
    ]
    assert audit_rotation(history, {1: OPEN}) == []


def test_audit_finds_three_consecutive_hands():
    history = hands(1, 2, 2, 2, 1)
    violations = audit_rotation(history, {1: OPEN})
    assert rules_found(violations) == [Rule.CONSECUTIVE_HANDS]
    assert violations[0].hand_ids == (2, 3, 4)
    assert "player 2 banked 3 in a row" in violations[0].detail


def test_audit_finds_a_tppp_banking_twice_in_a_row():
    history = hands(1, 900, 900, 2)
    violations = audit_rotation(history, {1: OPEN})
    assert rules_found(violations) == [Rule.TPPP_TWICE]
    assert violations[0].hand_ids == (2, 3)


def test_audit_finds_two_tppp_players_seated():
    history = hands(1, 2, 1)
    history[1] = BankedHand(2, 1, history[1].started_at, 3, 2, False, tppps_seated=2)
    violations = audit_rotation(history, {1: OPEN})
    assert rules_found(violations) == [Rule.TPPP_PER_TABLE]
    assert violations[0].hand_ids == (2,)


def test_audit_finds_the_40_minute_window_broken():
    # Player 1 and a TPPP alternate for 50 minutes: no second non-TPPP player.
    history = hands(1, 900, 1, 900, 1, 900, every=10)
    violations = audit_rotation(history, {1: OPEN})
    assert rules_found(violations) == [Rule.WINDOW, Rule.WINDOW]
    assert violations[0].hand_ids[-1] == 5  # the hand at minute 40
    assert violations[1].hand_ids[-1] == 6
    assert set(violations[0].hand_ids) == {2, 3, 4, 5}  # minute 0 is not inside (0, 40]


def test_audit_respects_the_policy_in_force_for_each_hand():
    history = hands(1, 900, 900, 2, 2, 2)
    relaxed = RotationPolicy(tppp_may_bank_twice_in_a_row=True, max_consecutive_hands=3)
    violations = audit_rotation(history, {1: OPEN}, policy_for={3: relaxed, 6: relaxed})
    assert violations == []
    strict = audit_rotation(history, {1: OPEN})
    assert rules_found(strict) == sorted([Rule.CONSECUTIVE_HANDS, Rule.TPPP_TWICE])


def test_audit_uses_each_games_own_clock():
    # Game 1 runs 30 minutes with one player; game 2 opens afterwards, with its own clock.
    first = hands(1, 1, every=15, game=1)
    second = hands(2, 2, 1, every=15, game=2, start=at(60), first_id=3)
    history = [*first, *second]
    assert audit_rotation(history, {1: OPEN, 2: at(60)}) == []
    # Read against game 1's clock the same hands would break the window.
    joined = [BankedHand(h.hand_id, 1, h.started_at, h.seat, h.player_id, h.is_tppp)
              for h in history]  # fmt: skip
    assert Rule.WINDOW in rules_found(audit_rotation(joined, {1: OPEN}))


def test_audit_finds_every_kind_in_one_planted_history():
    history = hands(1, 1, 1, 900, 900, every=12)
    history[0] = BankedHand(1, 1, OPEN, 2, 1, False, tppps_seated=2)
    violations = audit_rotation(history, {1: OPEN})
    assert set(rules_found(violations)) == {
        Rule.CONSECUTIVE_HANDS, Rule.TPPP_PER_TABLE, Rule.TPPP_TWICE, Rule.WINDOW
    }  # fmt: skip
