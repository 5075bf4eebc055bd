"""A table's options sheet (docs/rules.md §3.4, §12, §14.1): validation, the frozen snapshot a
round keeps, and the rules' view of it.

Every table has the limits, the chip, the deal and the rotation policy; its game adds its own
options (``games.interface.Game.own_options``: Ultimate Texas Hold'em's pay tables, Play sizes
and backline, columns of the table; EZ Baccarat's decks, pays and cut card, kept in the table's
``game_options``), and a game of several seat counts the ``seats``. The sheet of an Ultimate
Texas Hold'em table is exactly what it was before there was a second game (no ``game`` in it);
every other game's sheet names its game, so a round's frozen sheet says which rules settle it.
"""

from __future__ import annotations

from typing import Any

from cardroom.errors import Rule, RuleError
from cardroom.money import dollars
from games import catalog
from games.interface import Listing
from games.ultimate_texas_holdem.listing import sheet as uth_sheet
from tables.rules.decisions import validate_preflop_multiples
from tables.rules.options import GameOptions, OptionLabel
from tables.rules.rotation import RotationPolicy
from tables.rules.seats import SEAT_COUNT

from .models import DealMode, Table

EDITABLE_OPTIONS = (
    "minimum_cents",
    "maximum_cents",
    "chip_unit_cents",
    "preflop_multiples",
    "trips_paytable",
    "bad_beat_paytable",
    "backline_allowed",
    "deal_mode",
    "max_consecutive_hands",
    "offer_every_hand",
    "max_tppp_per_table",
    "tppp_may_bank_twice_in_a_row",
    "rotation_window_minutes",
    "min_non_tppp_dealers_in_window",
)

# Every table's options, whatever its game, around the game's own (``editable_options``).
LIMITS = ("minimum_cents", "maximum_cents", "chip_unit_cents")
ROTATION = (
    "max_consecutive_hands",
    "offer_every_hand",
    "max_tppp_per_table",
    "tppp_may_bank_twice_in_a_row",
    "rotation_window_minutes",
    "min_non_tppp_dealers_in_window",
)


def editable_options(game: Listing) -> tuple[str, ...]:
    """The options sheet of a table of ``game``, in the sheet's order (for Ultimate Texas
    Hold'em, ``EDITABLE_OPTIONS``)."""
    seats = ("seats",) if len(game.seat_counts) > 1 else ()
    return (*LIMITS, *seats, *game.own_options, "deal_mode", *ROTATION)


def option_labels(game: Listing) -> dict[str, OptionLabel]:
    """Each option of ``game``'s sheet in the floor's words."""
    return {**OPTION_LABELS, **game.option_labels}


# An option of a game's own left empty, in the floor's words (the default it then takes).
NONE_WORDS = {"side_wager_maximum_cents": "each side wager up to the bettor's base wager"}


def own_option_words(game: Listing, values: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """The seats and the game's own options of a sheet as (label, value) in the floor's words,
    in its unit ("8 to 1", "8 decks"), money in dollars: for the game math page and the fee
    filing's math sheet of a game whose own options are no columns (EZ Baccarat)."""
    labels = option_labels(game)
    names = [n for n in ("seats", *game.own_options) if n in values and n in labels]
    return tuple((labels[name].label, option_word(game, name, values[name])) for name in names)


def option_word(game: Listing, name: str, value: Any) -> str:
    """One of a game's own options' value in the floor's words."""
    if value is None:
        return NONE_WORDS.get(name, "none")
    if name.endswith("_cents"):
        return dollars(value)
    unit = game.option_units.get(name)
    return f"{value} {unit}" if unit else str(value)


# Each option as the floor names it: the one place (the console reads it too).
OPTION_LABELS: dict[str, OptionLabel] = {
    "minimum_cents": OptionLabel("Minimum", "the table minimum"),
    "maximum_cents": OptionLabel("Maximum", "the table maximum"),
    "chip_unit_cents": OptionLabel("Chip", "the chip"),
    "preflop_multiples": OptionLabel("Pre-flop Play", "the pre-flop Play sizes"),
    "trips_paytable": OptionLabel("Trips pay table", "the Trips pay table"),
    "bad_beat_paytable": OptionLabel("Bad Beat pay table", "the Bad Beat pay table"),
    "backline_allowed": OptionLabel("Backline wagering", "betting behind"),
    "deal_mode": OptionLabel("Deal", "the deal"),
    "max_consecutive_hands": OptionLabel(
        "Most consecutive hands as player-dealer", "the most hands banked in a row"
    ),
    "offer_every_hand": OptionLabel(
        "Offer the button every hand", "offering the button every hand"
    ),
    "max_tppp_per_table": OptionLabel("TPPP players per table", "the most TPPPs at the table"),
    "tppp_may_bank_twice_in_a_row": OptionLabel(
        "TPPP may bank twice in a row", "a TPPP banking twice in a row"
    ),
    "rotation_window_minutes": OptionLabel("Rotation window", "the rotation window in minutes"),
    "min_non_tppp_dealers_in_window": OptionLabel(
        "Non-TPPP player-dealers needed in the window",
        "the non-TPPP player-dealers in the window",
    ),
}


def _is_column(name: str) -> bool:
    return any(field.name == name for field in Table._meta.concrete_fields)


def _value(table: Table, name: str) -> Any:
    if name == "seats":
        return table.seat_count
    if _is_column(name):
        return getattr(table, name)
    return table.game_options.get(name, table.game_listing.own_defaults.get(name))


def snapshot(table: Table) -> dict[str, Any]:
    """The options in force, as JSON, frozen into each round for replay and audit."""
    game = table.game_listing
    named = {} if game.key == catalog.DEFAULT_GAME else {"game": game.key}
    return named | {name: _value(table, name) for name in editable_options(game)}


def store(table: Table, values: dict[str, Any]) -> None:
    """Write a checked sheet (``validate``) into the table's columns and ``game_options``."""
    own = dict(table.game_options)
    for name in editable_options(table.game_listing):
        if name == "seats":
            table.seat_count = values[name]
        elif _is_column(name):
            setattr(table, name, values[name])
        else:
            own[name] = values[name]
    table.game_options = own


def game_of(values: dict[str, Any]) -> Listing:
    """The game of a sheet (a snapshot): the one it names, Ultimate Texas Hold'em when none."""
    return catalog.listing(values.get("game"))


def rules_options(values: dict[str, Any]) -> Any:
    """The game's rules core's view of a sheet (a round's frozen snapshot)."""
    return game_of(values).sheet(values)


def _whole(values: dict[str, Any], name: str, *, minimum: int, maximum: int | None = None) -> None:
    value = values[name]
    if value is None and name in ("max_tppp_per_table", "rotation_window_minutes"):
        return
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < minimum
        or (maximum is not None and value > maximum)
    ):
        money = name.endswith("_cents")
        shown = dollars if money else str
        upper = f" and at most {shown(maximum)}" if maximum is not None else ""
        label = OPTION_LABELS[name].phrase
        raise RuleError(
            f"{label} must be a whole number {'of cents, ' if money else 'of '}"
            f"at least {shown(minimum)}{upper}",
            rule=Rule.OPTIONS,
            field=name,
        )


def validate(values: dict[str, Any]) -> dict[str, Any]:
    """Check a complete options sheet; answer it normalised, or raise RuleError naming the field."""
    for name in ("minimum_cents", "maximum_cents", "chip_unit_cents"):
        _whole(values, name, minimum=1)
    if values["minimum_cents"] > values["maximum_cents"]:
        raise RuleError(
            "the table minimum is above the table maximum", rule=Rule.OPTIONS, field="minimum_cents"
        )
    for name in ("minimum_cents", "maximum_cents"):
        if values[name] % values["chip_unit_cents"]:
            raise RuleError(
                f"{OPTION_LABELS[name].phrase} of {dollars(values[name])} is not in whole chips of "
                f"{dollars(values['chip_unit_cents'])}",
                rule=Rule.OPTIONS,
                field=name,
            )
    _whole(
        values,
        "max_consecutive_hands",
        minimum=1,
        maximum=2,
    )  # `004`: never more than two consecutive hands, whatever the cardroom sets
    _whole(values, "max_tppp_per_table", minimum=0, maximum=6)
    _whole(values, "rotation_window_minutes", minimum=1)
    _whole(values, "min_non_tppp_dealers_in_window", minimum=1, maximum=5)
    game = game_of(values)
    if "seats" in values and values["seats"] not in game.seat_counts:
        counts = game.seat_counts
        raise RuleError(
            f"a table of {game.name} has {counts[0]} to {counts[-1]} seats, not "
            f"{values['seats']!r}",
            rule=Rule.OPTIONS,
            field="seats",
        )
    for name in ("backline_allowed", "offer_every_hand", "tppp_may_bank_twice_in_a_row"):
        if name in values and not isinstance(values[name], bool):
            raise RuleError(
                f"{OPTION_LABELS[name].phrase} is either allowed or not (true or false)",
                rule=Rule.OPTIONS,
                field=name,
            )
    if values["deal_mode"] not in DealMode.values:
        raise RuleError(
            f"the deal is one of {', '.join(str(label) for label in DealMode.labels)}",
            rule=Rule.OPTIONS,
            field="deal_mode",
        )
    if "preflop_multiples" in values:
        try:
            multiples = validate_preflop_multiples(values["preflop_multiples"])
        except (RuleError, TypeError) as error:
            message = error.message if isinstance(error, RuleError) else "a list of 3 and/or 4"
            raise RuleError(
                message, rule=Rule.PREFLOP_MULTIPLES, field="preflop_multiples"
            ) from None
        values["preflop_multiples"] = list(multiples)
    game.sheet(values)  # the game's own rules (pay tables that resolve, pays, decks)
    return values


def game_options(options: dict[str, Any] | Table) -> GameOptions:
    """The rules core's view of an Ultimate Texas Hold'em sheet (a snapshot dict or a table)."""
    values = snapshot(options) if isinstance(options, Table) else options
    return uth_sheet(values)


def rotation_policy(options: dict[str, Any]) -> RotationPolicy:
    return RotationPolicy(
        max_consecutive_hands=options["max_consecutive_hands"],
        offer_every_hand=options["offer_every_hand"],
        max_tppp_per_table=options["max_tppp_per_table"],
        tppp_may_bank_twice_in_a_row=options["tppp_may_bank_twice_in_a_row"],
        window_minutes=options["rotation_window_minutes"],
        min_non_tppp_dealers_in_window=options["min_non_tppp_dealers_in_window"],
        seat_count=options.get("seats", SEAT_COUNT),
    )
