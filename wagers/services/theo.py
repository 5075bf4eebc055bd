"""A hand's theo, stored when "no more bets" is called (docs/rules.md §13.5).

Called by the round lifecycle (``rounds.services.close_wagering``) inside its transaction,
under the table lock, with the bets it has already read: one INSERT, no read. The figures
come from the game-math core (``wagers.rules.gamemath``) with the round's frozen options,
rounded as ``wagers.rules.theo`` keeps them; the row is never edited afterwards.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime

from tables.models import Round
from tables.options import game_options
from wagers.models import RoundTheo
from wagers.rules.gamemath import game_math
from wagers.rules.theo import hand_theo
from wagers.rules.wagers import Stakes


def layout_of(bets: Iterable[Mapping[str, int]]) -> list[Stakes]:
    """The opening wagers of each bettor, from rows with the ``Bet``'s columns
    (``ante_cents``, ``blind_cents``, ``trips_cents``, ``bad_beat_cents``)."""
    return [
        Stakes(
            ante=row["ante_cents"],
            blind=row["blind_cents"],
            trips=row["trips_cents"],
            bad_beat=row["bad_beat_cents"],
        )
        for row in bets
    ]


def record_theo(round_: Round, bets: Iterable[Mapping[str, int]], *, moment: datetime) -> RoundTheo:
    """Store the theo of the wagers on the layout (every bettor, seated and backline) under
    the options frozen into the round when it started."""
    figures = hand_theo(layout_of(bets), game_math(game_options(round_.options)))
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
        recorded_at=moment,
    )
