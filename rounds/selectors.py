"""Read paths of the round lifecycle: rounds in full (the floor's record with the money and
the fees of the hand), and what each step of a hand reads.

A missing row raises the model's ``DoesNotExist`` (the API answers 404).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db.models import Prefetch, QuerySet

from cardroom.errors import State
from cardroom.filtering import filter_queryset
from tables.models import Hand, HandDecision, Round, RoundTransition
from tables.rules.decisions import Street
from wagers import selectors as money_selectors
from wagers.rules.showdown import turned_face_up

from .filters import RoundFilter

# The street whose decisions a round in this state awaits.
STREET_OF_STATE = {
    State.PREFLOP: Street.PREFLOP,
    State.FLOP: Street.FLOP,
    State.RIVER: Street.RIVER,
}


def round_list(*, filters: Mapping[str, Any] | None = None) -> QuerySet[Round]:
    queryset = Round.objects.select_related("player_dealer", "started_by")
    return filter_queryset(RoundFilter, filters, queryset)


def round_detail(*, round_id: int) -> Round:
    """A round with its hands, their decisions, its transitions, and its money: each hand's
    bets and the player-dealer's bank (six queries, whatever the hand's size)."""
    hands = Hand.objects.select_related("player").prefetch_related(
        Prefetch("decisions", queryset=HandDecision.objects.select_related("by"))
    )
    round_ = (
        Round.objects.select_related("player_dealer", "started_by")
        .prefetch_related(
            Prefetch("hands", queryset=hands),
            Prefetch("transitions", queryset=RoundTransition.objects.select_related("by")),
        )
        .get(pk=round_id)
    )
    return money_selectors.round_money(round_)


def seats_turned_face_up(round_: Round) -> list[int]:
    """The seats whose hands are turned face up at the showdown (docs/rules.md §2.3), as the
    showdown service judges them (``wagers.rules.showdown.turned_face_up``): every hand
    still in, and a folded one with a Trips wager on it. Reads a round read by
    ``round_detail`` (its hands' decisions and bets prefetched), by seat."""
    return [
        hand.seat
        for hand in sorted(round_.hands.all(), key=lambda hand: hand.seat)
        if turned_face_up(
            hand.decision_record().folded, (bet.trips_cents for bet in hand.bets.all())
        )
    ]


def turned_up_words(seats: Sequence[int]) -> str:
    """What is keyed at a card-entry showdown, in words: "the player-dealer's two cards,
    then two for each of seats 1, 3"."""
    if not seats:
        return "the player-dealer's two cards (every hand folded without a Trips wager)"
    listed = ", ".join(str(seat) for seat in seats)
    return f"the player-dealer's two cards, then two for each of seats {listed}"
