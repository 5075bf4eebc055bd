"""What a round stores before its showdown tells nothing of a hidden card (docs/rules.md §2.6).

The secret columns are the hole cards and the stored deck (``Round.secret_columns``,
``Hand.secret_columns``): no interface searches, filters or sorts by them. The others may be
searched because they hold nothing hidden: the board only the cards turned up, and the columns
the showdown computes from the hole cards (the player-dealer's hand and whether it qualifies,
each hand's category and result) stay empty until the move to the showdown writes them, in the
same transaction. Checked here state by state, on a round dealt by the RNG (every hole card and
the deck stored from the deal on), to the end.
"""

from __future__ import annotations

import random

import pytest

from cardroom.errors import State
from tables.models import Hand, Round
from tests.builders.floor import (
    PLAY_4X,
    PLAY_RIVER,
    advance,
    give_button,
    open_floor,
    start_with_hands,
)

pytestmark = pytest.mark.django_db

# How many community cards are face up in each state.
BOARD = {
    State.WAGERING: 0,
    State.NO_MORE_BETS: 0,
    State.PREFLOP: 0,
    State.FLOP: 3,
    State.RIVER: 5,
    State.SHOWDOWN: 5,
    State.SETTLED: 5,
}
SHOWDOWN_COLUMNS = ("dealer_category", "dealer_qualifies")
HAND_SHOWDOWN_COLUMNS = ("category", "result")


def seen(round_: Round) -> dict:
    """Each state's stored board and showdown columns, as the round passes through it."""
    round_.refresh_from_db()
    hands = Hand.objects.filter(round=round_).order_by("seat")
    return {
        "state": State(round_.state),
        "board": list(round_.board),
        "round": [getattr(round_, column) for column in SHOWDOWN_COLUMNS],
        "hands": [[getattr(hand, column) for column in HAND_SHOWDOWN_COLUMNS] for hand in hands],
    }


def test_the_board_and_the_showdown_columns_hold_nothing_hidden_before_the_showdown(staff):
    floor_ = open_floor("PPP...", staff=staff)  # dealt by the RNG: every hole card stored
    give_button(floor_.table_id, 1, by=staff.supervisor)
    round_, _ = start_with_hands(floor_.table_id, by=staff.dealer, seats=[2, 3])
    states = [seen(round_)]
    advance(
        round_,
        State.SETTLED,
        by=staff.dealer,
        plans={2: PLAY_4X, 3: PLAY_RIVER},
        rng=random.Random(7),
        on_step=lambda moved: states.append(seen(moved)),
    )
    assert [step["state"] for step in states] == list(BOARD)
    for step in states:
        assert len(step["board"]) == BOARD[step["state"]], step
        shown = step["state"] in (State.SHOWDOWN, State.SETTLED)
        assert all(value not in ("", None) for value in step["round"]) is shown, step
        assert step["hands"] and all(
            all(value != "" for value in hand) is shown for hand in step["hands"]
        ), step
    # The board turned up at the flop is the start of the one at the river.
    assert states[4]["board"][:3] == states[3]["board"]
