"""Who may see which card in which state (docs/rules.md §2.6): the whole table, state by
state and kind by kind, written out rather than recomputed."""

from __future__ import annotations

import pytest

from cardroom.errors import ROUND_STATES, State
from tables.rules.visibility import CardKind, card_visible, shown, visible_cards

S = State
BOARD, DEALER, PLAYER, DECK = (
    CardKind.BOARD,
    CardKind.PLAYER_DEALER_HOLE,
    CardKind.PLAYER_HOLE,
    CardKind.DECK,
)
# (state, reached the showdown): {kind: shown?}. A voided hand appears twice: voided before
# the showdown (never shown, the Decision of §2.6) and voided at the showdown.
HIDDEN = {BOARD: True, DEALER: False, PLAYER: False, DECK: False}
SHOWN = {BOARD: True, DEALER: True, PLAYER: True, DECK: True}
TABLE = {
    (S.WAGERING, False): HIDDEN,
    (S.NO_MORE_BETS, False): HIDDEN,
    (S.PREFLOP, False): HIDDEN,
    (S.FLOP, False): HIDDEN,
    (S.RIVER, False): HIDDEN,
    (S.SHOWDOWN, True): SHOWN,
    (S.SETTLED, True): SHOWN,
    (S.VOIDED, False): HIDDEN,
    (S.VOIDED, True): SHOWN,
}
CASES = [
    (state, reached, kind, expected)
    for (state, reached), row in TABLE.items()
    for kind, expected in row.items()
]


def test_the_table_covers_every_round_state_and_every_kind():
    assert {state for state, _ in TABLE} == set(ROUND_STATES)
    assert all(set(row) == set(CardKind) for row in TABLE.values())


@pytest.mark.parametrize(
    ("state", "reached", "kind", "expected"),
    CASES,
    ids=[f"{s.value}-{'after' if r else 'before'}-showdown-{k.value}" for s, r, k, _ in CASES],
)
def test_who_may_see_which_card_in_which_state(state, reached, kind, expected):
    assert card_visible(kind, state, reached_showdown=reached) is expected
    assert card_visible(kind.value, state.value, reached_showdown=reached) is expected  # as stored


@pytest.mark.parametrize("state", [s for s in ROUND_STATES if s is not S.VOIDED])
@pytest.mark.parametrize("kind", list(CardKind))
def test_only_a_voided_hand_asks_whether_it_reached_the_showdown(state, kind):
    assert card_visible(kind, state, reached_showdown=True) is card_visible(
        kind, state, reached_showdown=False
    )


def test_shown_gives_the_cards_or_withholds_them():
    assert shown(DEALER, S.FLOP, ["As", "Kd"], reached_showdown=False) is None
    assert shown(DEALER, S.SHOWDOWN, ["As", "Kd"], reached_showdown=True) == ["As", "Kd"]
    assert shown(BOARD, S.FLOP, ["2c", "3d", "4h"], reached_showdown=False) == ["2c", "3d", "4h"]
    assert shown(DECK, S.VOIDED, ["As"] * 52, reached_showdown=False) is None


HAND = {
    "board": ["2c", "3d", "4h"],
    "player_dealer_hole": ["As", "Kd"],
    "player_holes": [["Qs", "Qh"], None, ["9c", "9d"]],
}


@pytest.mark.parametrize(
    ("state", "reached", "expected"),
    [
        (S.PREFLOP, False, ["2c", "3d", "4h"]),
        (S.FLOP, False, ["2c", "3d", "4h"]),
        (S.RIVER, False, ["2c", "3d", "4h"]),
        (S.VOIDED, False, ["2c", "3d", "4h"]),
        (S.SHOWDOWN, True, ["2c", "3d", "4h", "As", "Kd", "Qs", "Qh", "9c", "9d"]),
        (S.VOIDED, True, ["2c", "3d", "4h", "As", "Kd", "Qs", "Qh", "9c", "9d"]),
    ],
)
def test_the_cards_a_picker_knows(state, reached, expected):
    assert visible_cards(state, reached_showdown=reached, **HAND) == expected


def test_an_unknown_kind_or_state_is_not_accepted():
    with pytest.raises(ValueError):
        card_visible("burn_card", S.FLOP, reached_showdown=False)
    with pytest.raises(ValueError):
        card_visible(BOARD, "dealt", reached_showdown=False)
