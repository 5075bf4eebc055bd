"""Ultimate Texas Hold'em as the money layer and the round lifecycle see it
(``games.interface.Game``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardroom.errors import Rule, RuleError
from games.interface import Game, Square
from wagers.rules import calculator
from wagers.rules.gamemath import game_math, game_math_json

from .listing import GAME, LISTING, sheet


def _options(data: object) -> object:
    """The calculator's ``options`` without ``game`` (which, when given, names this game)."""
    if isinstance(data, Mapping) and "game" in data:
        if data["game"] != GAME:
            raise RuleError(
                f"the game must be {GAME!r}, not {data['game']!r}",
                rule=Rule.CALCULATOR_FORMAT,
                field="game",
            )
        return {name: value for name, value in data.items() if name != "game"}
    return data


def settle_request(data: object) -> dict[str, Any]:
    """The calculator's format of docs/rules.md §11 (``options.game`` may name this game)."""
    if isinstance(data, Mapping) and isinstance(data.get("options"), Mapping):
        data = {**data, "options": _options(data["options"])}
    return calculator.settle_request(data)


def figures(data: object) -> dict[str, Any]:
    return game_math_json(game_math(calculator.parse_options(_options(data))))


GAME_DESCRIPTION = Game(
    listing=LISTING,
    squares=(
        Square("ante", "Ante", "ante_cents", True),
        Square("blind", "Blind", "blind_cents", True),
        Square("play", "Play", "play_cents", True),
        Square("trips", "Trips", "trips_cents", False),
        Square("bad_beat", "Bad Beat", "bad_beat_cents", False),
    ),
    steps=("preflop", "flop", "river"),
    cards="deck",
    settle_request=settle_request,
    game_math=figures,
    sheet_math=lambda values: game_math_json(game_math(sheet(values))),
)
