"""A hand's theo, stored when "no more bets" is called (docs/rules.md §13.5).

Called by the round lifecycle (``rounds.services.close_wagering``) inside its transaction,
under the table lock, with the bets it has already read: one INSERT, no read. The figures
come from the table's game (``games.interface.Game.theo``: its exact game math under the
round's frozen options), rounded as ``wagers.rules.theo`` keeps them; the row is never edited
afterwards.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime

from games.registry import game as game_of_key
from tables.models import Round
from tables.options import rules_options
from wagers.models import RoundTheo
from wagers.rules.theo import stored_theo


def layout_of(round_: Round, bets: Iterable[Mapping[str, int]]) -> list[dict[str, int]]:
    """Each bettor's wagers on the squares of the round's game wagered before "no more bets",
    by square name, from rows with the ``Bet``'s columns (``ante_cents``, ``player_cents``)."""
    squares = game_of_key(round_.options.get("game")).opening_squares
    return [{name: row[f"{name}_cents"] for name in squares} for row in bets]


def record_theo(round_: Round, bets: Iterable[Mapping[str, int]], *, moment: datetime) -> RoundTheo:
    """Store the theo of the wagers on the layout (every bettor, seated and backline) under
    the options frozen into the round when it started."""
    game = game_of_key(round_.options.get("game"))
    exact = game.theo(rules_options(round_.options), layout_of(round_, bets))
    figures = stored_theo(exact.theo, exact.std_dev, exact.squares)
    return RoundTheo.objects.create(
        round=round_,
        theo_cents=figures.theo,
        std_dev_cents=figures.std_dev,
        ante_cents=figures.ante,
        trips_cents=figures.trips,
        bad_beat_cents=figures.bad_beat,
        base_game_edge=figures.base_game_edge,
        trips_edge=figures.trips_edge,
        bad_beat_edge=figures.bad_beat_edge,
        squares=figures.squares,
        recorded_at=moment,
    )
