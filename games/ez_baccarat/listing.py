"""EZ Baccarat as the floor sees it (``games.interface.Listing``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardroom.errors import RuleError
from games.interface import Listing

from .options import GAME, OPTION_LABELS, SEAT_COUNTS, BaccaratOptions

# The options of a table's sheet that are this game's own, with their defaults (the limits,
# the chip and the seats are the table's, every game's).
OWN_DEFAULTS: dict[str, Any] = {
    "decks": 8,
    "tie_pays": 8,
    "dragon_7_pays": 40,
    "panda_8_pays": 25,
    "cut_card": 14,
    "side_wager_maximum_cents": None,
}
# A table's sheet names the limits as the floor does; the rules core's options as the
# calculator does.
_TABLE_NAMES = {
    "seats": "seats",
    "chip_unit_cents": "chip_unit_cents",
    "minimum_cents": "table_minimum_cents",
    "maximum_cents": "table_maximum_cents",
}


def sheet(values: Mapping[str, Any]) -> BaccaratOptions:
    """The rules core's options from a table's sheet; a broken rule names the sheet's field."""
    data = {name: values[name] for name in OWN_DEFAULTS if name in values}
    data |= {json: values[name] for name, json in _TABLE_NAMES.items() if name in values}
    try:
        return BaccaratOptions.from_json(data)
    except RuleError as error:
        back = {json: name for name, json in _TABLE_NAMES.items()}
        field = back.get(error.field or "", error.field)
        raise RuleError(error.message, rule=error.rule, field=field) from None


LISTING = Listing(
    key=GAME,
    name="EZ Baccarat",
    seat_counts=SEAT_COUNTS,
    default_seats=9,
    own_options=tuple(OWN_DEFAULTS),
    own_defaults=OWN_DEFAULTS,
    option_labels={name: OPTION_LABELS[name] for name in OWN_DEFAULTS},
    sheet=sheet,
    tablet="console/table_baccarat.html",
)
