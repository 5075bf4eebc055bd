"""Read paths of the round lifecycle: rounds in full (the floor's record with the money and
the fees of the hand), and what each step of a hand reads.

A missing row raises the model's ``DoesNotExist`` (the API answers 404).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import Prefetch, QuerySet

from cardroom.errors import State
from cardroom.filtering import filter_queryset
from tables.models import Hand, HandDecision, Round, RoundTransition
from tables.rules.decisions import Street
from wagers import selectors as money_selectors

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
