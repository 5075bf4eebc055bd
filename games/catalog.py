"""The games the room runs, as the floor lists them (``games.interface.Listing``), by key.

The floor (``tables``) reads this list; the layers above read ``games.registry``, which holds
the same games in full. Adding a game is adding its package and one line here and one there.
"""

from __future__ import annotations

from cardroom.errors import Rule, RuleError
from cardroom.money import dollar_range
from games.ez_baccarat.listing import LISTING as EZ_BACCARAT
from games.interface import Listing
from games.ultimate_texas_holdem.listing import LISTING as ULTIMATE_TEXAS_HOLDEM

LISTINGS: dict[str, Listing] = {
    listing.key: listing for listing in (ULTIMATE_TEXAS_HOLDEM, EZ_BACCARAT)
}
# A table, an options object or a hand that names no game is Ultimate Texas Hold'em's: the
# room's first game, as every table and request was before there was a second.
DEFAULT_GAME = ULTIMATE_TEXAS_HOLDEM.key
CHOICES = [(listing.key, listing.name) for listing in LISTINGS.values()]


def listing(key: str | None) -> Listing:
    """The game of ``key`` (the default game for ``None`` or ``""``); a RuleError otherwise."""
    if not key:
        return LISTINGS[DEFAULT_GAME]
    try:
        return LISTINGS[key]
    except (KeyError, TypeError):
        raise RuleError(
            f"the room runs no game {key!r}; its games are "
            + ", ".join(repr(name) for name in LISTINGS),
            rule=Rule.CALCULATOR_FORMAT,
            field="game",
        ) from None


def at_stakes(minimum_cents: int, maximum_cents: int, game: str | None) -> str:
    """A game at its stakes as the floor says it, on the waitlists, the board and the floor
    map: "$20.00 - $2,000.00 EZ Baccarat" (the limits as the room writes money, then the
    game's name)."""
    return f"{dollar_range(minimum_cents, maximum_cents)} {listing(game).name}"
