"""Checks shared by the round services and the money services (caller holds the table lock)."""

from __future__ import annotations

from cardroom.clock import now
from tables.models import Hand, Round, RoundState, Seating
from tables.rules.errors import RuleError, StateError


def require_state(round_: Round, *states: RoundState, action: str) -> None:
    if round_.state not in states:
        allowed = " or ".join(RoundState(s).label.lower() for s in states)
        raise StateError(
            f"cannot {action}: round {round_.number} is {round_.get_state_display().lower()}, "
            f"not {allowed}",
            state=round_.state,
        )


def admit_to_hand(table, round_: Round, seat: int) -> Hand:
    """The seat's hand in this round, created if needed; the caller holds the table lock.

    Only a seated player who is neither the player-dealer nor a TPPP plays a hand.
    """
    existing = round_.hands.filter(seat=seat).first()
    if existing is not None:
        return existing
    seating = Seating.objects.filter(table=table, seat=seat, left_at__isnull=True).first()
    if seating is None:
        raise RuleError(f"seat {seat} is empty", rule="RULEBOOK §3", field="seat")
    if seat == round_.player_dealer_seat:
        raise RuleError(
            f"seat {seat} is the player-dealer; no one wagers on the player-dealer position",
            rule="RULEBOOK §6",
            field="seat",
        )
    if seating.is_tppp:
        raise RuleError(
            f"seat {seat} is a TPPP player, who accepts and settles wagers only while holding "
            "the player-dealer position",
            rule="RULEBOOK §6",
            field="seat",
        )
    return Hand.objects.create(
        round=round_, seat=seat, player_id=seating.player_id, joined_at=now()
    )
