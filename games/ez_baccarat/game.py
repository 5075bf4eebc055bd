"""EZ Baccarat as the money layer and the round lifecycle see it (``games.interface.Game``)."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from typing import Any

from games.interface import Game, Square

from .calculator import parse_options, settle_request
from .gamemath import BaccaratMath, figures, figures_json
from .listing import LISTING, sheet
from .options import GAME, BaccaratOptions
from .wagers import BASE_WAGERS, BaccaratWager


def game_math(data: object) -> dict[str, Any]:
    """The figures of every wager for an ``options`` object (``game`` may be omitted here: the
    command and the API have already chosen the game)."""
    if data is None:
        data = {}
    if isinstance(data, dict) and "game" not in data:
        data = {"game": GAME, **data}
    options: BaccaratOptions = parse_options(data)
    return _answer(figures(options))


def _answer(math: BaccaratMath) -> dict[str, Any]:
    """Per wager: ``house_edge``, ``hit_frequency``, ``std_dev`` (decimal strings of 20
    significant digits), the house edge as an exact fraction and as a percentage to 4
    decimals."""
    answer = figures_json(math)
    for kind, wager in math.wagers.items():
        edge = wager.house_edge
        answer[kind.value] |= {
            "house_edge_exact": f"{edge.numerator}/{edge.denominator}",
            "house_edge_percent": _percent(edge),
        }
    return answer


def _percent(share: Fraction) -> str:
    """A share as a percentage to 4 decimals, rounded half to even: ``1.0183%``."""
    value = Decimal(share.numerator * 100) / Decimal(share.denominator)
    return f"{value.quantize(Decimal('0.0001'), rounding=ROUND_HALF_EVEN)}%"


GAME_DESCRIPTION = Game(
    listing=LISTING,
    squares=tuple(
        Square(kind.value, kind.label, f"{kind.value}_cents", kind in BASE_WAGERS)
        for kind in BaccaratWager
    ),
    steps=(),
    cards="shoe",
    settle_request=settle_request,
    game_math=game_math,
    sheet_math=lambda values: _answer(figures(sheet(values))),
)
