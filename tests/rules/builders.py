"""Small builders shared by the rules-core tests (no Django here)."""

from __future__ import annotations

import copy
from typing import Any

from tables.rules.cards import Card, parse_card
from tables.rules.hands import HandValue, evaluate
from wagers.rules.resolution import Outcome, Resolution
from wagers.rules.settlement import PendingWager, SettlementPass
from wagers.rules.wagers import WagerKind


def cards(text: str) -> tuple[Card, ...]:
    """``cards("As Kd")`` -> the ace of spades and the king of diamonds."""
    return tuple(parse_card(code) for code in text.split())


def value(hole: str, board: str) -> HandValue:
    """The value of hole cards ``hole`` on the board ``board`` (both as card codes)."""
    return evaluate((*cards(hole), *cards(board)))


def pending(
    seat: int,
    kind: WagerKind,
    stake: int,
    outcome: Outcome,
    payout: int = 0,
    *,
    bettor: int = 0,
    pass_: SettlementPass = SettlementPass.SHOWDOWN,
) -> PendingWager:
    return PendingWager(pass_, seat, bettor, Resolution(kind, stake, outcome, payout))


def running_nets(lines) -> list[int]:
    """The player-dealer's running net N after each settlement line."""
    net, nets = 0, []
    for line in lines:
        net += line.collected - line.paid
        nets.append(net)
    return nets


# The appendix's example request, verbatim.
APPENDIX_REQUEST: dict[str, Any] = {
    "options": {
        "trips_paytable": "UTH-01",
        "bad_beat_paytable": "option-1",
        "chip_unit_cents": 1,
        "allowed_preflop_multiples": [3, 4],
    },
    "player_dealer": {"seat": 6, "bank": 10000, "hole": ["As", "Kd"]},
    "board": ["2c", "7h", "9s", "Td", "Jc"],
    "seats": [
        {
            "seat": 1,
            "hole": ["Ah", "Ac"],
            "ante": 2500,
            "blind": 2500,
            "trips": 1000,
            "bad_beat": 0,
            "play": 10000,
            "folded": False,
            "backline": [{"ante": 500, "blind": 500, "trips": 0, "bad_beat": 0}],
        }
    ],
}


def appendix_request() -> dict[str, Any]:
    """A fresh deep copy of the appendix example, safe to mutate."""
    return copy.deepcopy(APPENDIX_REQUEST)
