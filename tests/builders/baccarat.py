"""Builders for EZ Baccarat's rules-core tests: plain Python, no Django (beside ``rules``).

- ``worth``: a card code worth the given points; ``coup``: a coup from card codes, checked by
  the drawing rules.
- ``APPENDIX_REQUEST``: the calculator's example request of the game's specification, verbatim
  (its cards break the drawing rules: docs/settlement-calculator.md says how);
  ``baccarat_request``: a fresh copy with any fields changed.
- ``line_tuple``: a settlement line of the calculator's answer as a tuple, for table rows.
"""

from __future__ import annotations

import copy
from typing import Any

from games.ez_baccarat.coup import Coup, play_out
from tests.builders.rules import cards

_RANK_WORTH = "KA23456789"  # a card worth 0 is a King here; 1 an Ace; 2 to 9 their face


def worth(points: int, suit: str = "s") -> str:
    """A card code worth ``points`` (0 to 9): ``worth(0)`` is "Ks", ``worth(7, "h")`` "7h"."""
    return _RANK_WORTH[points] + suit


def coup(text: str) -> Coup:
    """``coup("9h 2c Kd 5s")``: the coup of these cards in dealing order, checked."""
    return play_out(cards(text))


APPENDIX_REQUEST: dict[str, Any] = {
    "options": {
        "game": "ez_baccarat",
        "decks": 8,
        "seats": 9,
        "tie_pays": 8,
        "dragon_7_pays": 40,
        "panda_8_pays": 25,
        "chip_unit_cents": 1,
    },
    "player_dealer": {"seat": 5, "bank": 50000},
    "cards": ["9h", "2c", "Kd", "5s", "4d", "3h"],
    "seats": [
        {"seat": 1, "player": 2500, "banker": 0, "tie": 500, "dragon_7": 0, "panda_8": 500},
        {"seat": 7, "player": 0, "banker": 10000, "tie": 0, "dragon_7": 1000, "panda_8": 0},
    ],
}


def baccarat_request(**fields: Any) -> dict[str, Any]:
    """A deep copy of the appendix example with top-level ``fields`` replaced."""
    request = copy.deepcopy(APPENDIX_REQUEST)
    request.update(copy.deepcopy(fields))
    return request


LINE_KEYS = (
    "seat",
    "wager",
    "stake",
    "outcome",
    "paid",
    "collected",
    "returned_uncovered",
    "unpaid_uncovered",
)


def line_tuple(line: dict[str, Any]) -> tuple:
    """A line of the calculator's ``settlement`` as (seat, wager, stake, outcome, paid,
    collected, returned uncovered, unpaid uncovered)."""
    assert set(line) == set(LINE_KEYS), sorted(line)
    return tuple(line[key] for key in LINE_KEYS)
