"""Builders for the fee tests: schedules through the real services.

``STANDARD``: a three-rate schedule for the default 500-50000 cent table, per betting square.
``ACTION``: the same player rates, the player-dealer charged on total table action.
"""

from __future__ import annotations

from fees.services import schedules

# Table limits 500-50000 (the default table).
STANDARD = [
    {
        "wager_from_cents": 500,
        "wager_to_cents": 2_500,
        "player_fee_cents": 50,
        "player_dealer_fee_cents": 25,
    },
    {
        "wager_from_cents": 2_501,
        "wager_to_cents": 10_000,
        "player_fee_cents": 100,
        "player_dealer_fee_cents": 50,
    },
    {
        "wager_from_cents": 10_001,
        "wager_to_cents": 50_000,
        "player_fee_cents": 200,
        "player_dealer_fee_cents": 100,
    },
]
ACTION = [
    {
        "wager_from_cents": 500,
        "wager_to_cents": 10_000,
        "player_fee_cents": 100,
        "action_from_cents": 0,
        "action_to_cents": 9_999,
        "player_dealer_fee_cents": 100,
    },
    {
        "wager_from_cents": 10_001,
        "wager_to_cents": 50_000,
        "player_fee_cents": 200,
        "action_from_cents": 10_000,
        "action_to_cents": None,
        "player_dealer_fee_cents": 300,
    },
]


def table_schedule(table, *, by, rates=STANDARD, basis="per_betting_square", **extra):
    """A schedule for ``table`` with one version in force now; answers the version."""
    schedule = schedules.create_schedule(name=f"{table.name} fees", table_id=table.pk, by=by)
    return schedules.create_version(
        schedule_id=schedule.pk, rates=rates, player_dealer_basis=basis, by=by, **extra
    )
