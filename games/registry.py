"""The games the room runs in full (``games.interface.Game``), by key, for the money layer and
above (docs/architecture.md, "Adding a game"); the floor reads ``games.catalog``.

Adding a game is adding its package and one line here and in the catalog; nothing else of the
apps names a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardroom.errors import RuleError
from games.catalog import DEFAULT_GAME, LISTINGS, listing
from games.ez_baccarat.game import GAME_DESCRIPTION as EZ_BACCARAT
from games.interface import Game
from games.ultimate_texas_holdem.game import GAME_DESCRIPTION as ULTIMATE_TEXAS_HOLDEM

GAMES: dict[str, Game] = {game.key: game for game in (ULTIMATE_TEXAS_HOLDEM, EZ_BACCARAT)}
assert set(GAMES) == set(LISTINGS), "every game is listed for the floor and registered in full"
# Every square a bettor can wager before "no more bets", whatever the game, in the games'
# order: a ``Bet`` column each (``<square>_cents``); what a fee schedule can charge.
OPENING_SQUARES: tuple[str, ...] = tuple(
    dict.fromkeys(name for each in GAMES.values() for name in each.opening_squares)
)
__all__ = [
    "DEFAULT_GAME",
    "GAMES",
    "OPENING_SQUARES",
    "game",
    "game_math",
    "game_of_options",
    "settle_request",
]


def game(key: str | None) -> Game:
    """The game of ``key`` (the default game for ``None`` or ``""``); a RuleError otherwise."""
    return GAMES[listing(key).key]


def game_of_options(options: object) -> Game:
    """The game an ``options`` object names (``options.game``), the default when it names none."""
    key = options.get("game") if isinstance(options, Mapping) else None
    return game(key)


def settle_request(data: object) -> dict[str, Any]:
    """The settlement calculator, any game: the hand's ``options.game`` chooses the format."""
    options = data.get("options") if isinstance(data, Mapping) else None
    try:
        chosen = game_of_options(options)
    except RuleError as error:
        raise RuleError(error.message, rule=error.rule, field="options.game") from None
    return chosen.settle_request(data)


def game_math(options: object) -> dict[str, Any]:
    """The exact figures of each wager, any game: ``options.game`` chooses the game."""
    return game_of_options(options).game_math(options)
