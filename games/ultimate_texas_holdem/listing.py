"""Ultimate Texas Hold'em as the floor sees it (``games.interface.Listing``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardroom.errors import RuleError
from games.interface import Listing
from tables.rules.options import GameOptions
from tables.rules.paytables import (
    BAD_BEAT_CATEGORIES,
    BAD_BEAT_PAYTABLES,
    TRIPS_CATEGORIES,
    TRIPS_PAYTABLES,
    resolve_paytable,
)
from tables.rules.seats import SEAT_COUNT

GAME = "ultimate_texas_holdem"

# The options of a table's sheet that are this game's own (every game has the limits, the chip,
# the deal and the rotation policy): columns of the table.
OWN_OPTIONS = ("preflop_multiples", "trips_paytable", "bad_beat_paytable", "backline_allowed")


def _paytable(value, named, categories, field):
    try:
        return resolve_paytable(value, named, categories)
    except RuleError as error:
        raise error.with_field(field) from None


def sheet(values: Mapping[str, Any]) -> GameOptions:
    """The rules core's view of a table's options sheet (the snapshot a round freezes)."""
    bad_beat = values["bad_beat_paytable"]
    return GameOptions(
        trips_paytable=_paytable(
            values["trips_paytable"], TRIPS_PAYTABLES, TRIPS_CATEGORIES, "trips_paytable"
        ),
        bad_beat_paytable=None
        if bad_beat is None
        else _paytable(bad_beat, BAD_BEAT_PAYTABLES, BAD_BEAT_CATEGORIES, "bad_beat_paytable"),
        chip_unit=values["chip_unit_cents"],
        allowed_preflop_multiples=tuple(values["preflop_multiples"]),
        table_minimum=values["minimum_cents"],
        table_maximum=values["maximum_cents"],
        backline_allowed=values["backline_allowed"],
    )


LISTING = Listing(
    key=GAME,
    name="Ultimate Texas Hold'em",
    seat_counts=(SEAT_COUNT,),
    default_seats=SEAT_COUNT,
    own_options=OWN_OPTIONS,
    own_defaults={},
    option_labels={},
    sheet=sheet,
    tablet="console/table.html",
)
