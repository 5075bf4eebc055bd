"""Schedules as entered, shared by the engine tests (no Django) and the builders.

``STANDARD``: a three-rate schedule for the default 500-50000 cent table, per betting square.
``ACTION``: the same player rates, the player-dealer charged on total table action.
"""

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
