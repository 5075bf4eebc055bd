"""Checks shared by the round services and the money services (caller holds the table lock)."""

from __future__ import annotations

from tables.models import Round, RoundState, Seating
from tables.rules.errors import RuleError, StateError


def require_state(round_: Round, *states: RoundState, action: str) -> None:
    if round_.state not in states:
        allowed = " or ".join(RoundState(s).label.lower() for s in states)
        raise StateError(
            f"cannot {action}: round {round_.number} is {round_.get_state_display().lower()}, "
            f"not {allowed}",
            state=round_.state,
        )


def check_admission(round_: Round, seat: int, seating: Seating | None) -> None:
    """Only a seated player who is neither the player-dealer nor a TPPP plays a hand."""
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
