"""Builders for the rules-core tests: plain Python, no Django (the bottom of the stack).

- ``cards``, ``value``: card codes to cards, and the value of hole cards on a board.
- ``lowest_paying``, ``paytable_as_dict``: what a pay table pays least, and its JSON form.
- ``pending``, ``running_nets``, ``player_net``, ``uncovered_lines``: settlement inputs and
  what the tests read back from the lines.
- ``APPENDIX_REQUEST``: the settlement calculator's example request (docs/rules.md §11);
  ``set_at``, ``drop_at``, ``both``: changes to a request, for the calculators' refusal rows.
- ``STANDARD``, ``ACTION``: fee schedules as entered (docs/rules.md §9), for the fee engine's
  tests and for ``tests.builders.fees``.
- ``expected_theo``, ``four_places``: a layout's theo and spread by the definition of
  docs/rules.md §13.5 (each wager times its edge, from ``game_math``), and the rounding a
  stored theo gets, by integer arithmetic.
"""

from __future__ import annotations

import copy
from decimal import Decimal
from fractions import Fraction
from typing import Any

from tables.rules.cards import Card, parse_card
from tables.rules.hands import Category, HandValue, evaluate
from tables.rules.paytables import PayTable
from wagers.rules.resolution import Outcome, Resolution
from wagers.rules.settlement import PendingWager, Settlement, SettlementLine, SettlementPass
from wagers.rules.wagers import WagerKind


def cards(text: str) -> tuple[Card, ...]:
    """``cards("As Kd")`` -> the ace of spades and the king of diamonds."""
    return tuple(parse_card(code) for code in text.split())


def value(hole: str, board: str) -> HandValue:
    """The value of hole cards ``hole`` on the board ``board`` (both as card codes)."""
    return evaluate((*cards(hole), *cards(board)))


# --- Pay tables ----------------------------------------------------------------------------


def lowest_paying(table: PayTable) -> Category:
    """The weakest category the table pays."""
    return min(category for category, _ in table.odds)


def _odds_text(odds: Fraction) -> str:
    if odds.denominator == 1:
        return str(odds.numerator)
    return str(Decimal(odds.numerator) / Decimal(odds.denominator))


def paytable_as_dict(table: PayTable) -> dict[str, str]:
    """JSON form: category label -> odds as an exact decimal string ("1.5", "500")."""
    return {category.label: _odds_text(odds) for category, odds in table.odds}


# --- Settlement ----------------------------------------------------------------------------


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


def player_net(line: SettlementLine) -> int:
    """What the bettor gained (+) or lost (-) on this line's wager."""
    return line.paid - line.collected


def uncovered_lines(settlement: Settlement) -> tuple[SettlementLine, ...]:
    """The lines the bank did not cover, wholly or in part."""
    return tuple(
        line for line in settlement.lines if line.returned_uncovered or line.unpaid_uncovered
    )


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


# --- Changing a calculator request, for refusal rows --------------------------------------


def set_at(path: str, value: Any):
    """A change setting ``path`` (dotted, with [i] indexes) of a request to ``value``."""

    def change(request):
        target, key = walk(request, path)
        target[key] = value

    return change


def drop_at(path: str):
    """A change removing ``path`` from a request."""

    def change(request):
        target, key = walk(request, path)
        del target[key]

    return change


def walk(request: Any, path: str) -> tuple[Any, Any]:
    """The container of ``path`` in ``request`` and its last key or index."""
    parts: list[Any] = []
    for piece in path.split("."):
        name, _, rest = piece.partition("[")
        parts.append(name)
        if rest:
            parts.extend(int(index) for index in rest.rstrip("]").split("]["))
    target = request
    for part in parts[:-1]:
        target = target[part]
    return target, parts[-1]


def both(*changes):
    """The changes made one after the other."""

    def change(request):
        for one in changes:
            one(request)

    return change


# --- Fee schedules as entered (docs/rules.md §9) -------------------------------------------

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


# --- Theo (docs/rules.md §13.5) ---------------------------------------------------------------


def expected_theo(bettors, options) -> tuple[Fraction, Decimal]:
    """The sum of each wager times its house edge, and of each wager times its standard
    deviation (the base game per Ante), over ``bettors`` (``Stakes``) under ``options``."""
    from wagers.rules.gamemath import game_math

    math = game_math(options)
    theo, spread = Fraction(0), Decimal(0)
    for s in bettors:
        theo += s.ante * math.base_game.house_edge + s.trips * math.trips.house_edge
        spread += s.ante * math.base_game.std_dev + s.trips * math.trips.std_dev
        if s.bad_beat:
            theo += s.bad_beat * math.bad_beat.house_edge
            spread += s.bad_beat * math.bad_beat.std_dev
    return theo, spread


def four_places(value: Fraction | Decimal) -> Decimal:
    """Half-even to 1/10,000 (of a cent), by integer arithmetic."""
    return Decimal(round(Fraction(value) * 10_000)).scaleb(-4)  # Fraction: half to even
