"""A table's options sheet (docs/rules.md §3.4, §12): validation, the frozen snapshot a round
keeps, and the rules' view of it."""

from __future__ import annotations

from typing import Any

from cardroom.errors import Rule, RuleError
from cardroom.money import dollars
from tables.rules.decisions import validate_preflop_multiples
from tables.rules.options import GameOptions, OptionLabel
from tables.rules.paytables import (
    BAD_BEAT_CATEGORIES,
    BAD_BEAT_PAYTABLES,
    TRIPS_CATEGORIES,
    TRIPS_PAYTABLES,
    resolve_paytable,
)
from tables.rules.rotation import RotationPolicy

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


def snapshot(table: Table) -> dict[str, Any]:
    """The options in force, as JSON, frozen into each round for replay and audit."""
    return {name: getattr(table, name) for name in EDITABLE_OPTIONS}


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
    for name in ("backline_allowed", "offer_every_hand", "tppp_may_bank_twice_in_a_row"):
        if not isinstance(values[name], bool):
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
    try:
        values["preflop_multiples"] = list(validate_preflop_multiples(values["preflop_multiples"]))
    except (RuleError, TypeError) as error:
        message = error.message if isinstance(error, RuleError) else "a list of 3 and/or 4"
        raise RuleError(message, rule=Rule.PREFLOP_MULTIPLES, field="preflop_multiples") from None
    game_options(values)  # the pay tables must resolve
    return values


def _paytable(value, named, categories, field):
    try:
        return resolve_paytable(value, named, categories)
    except RuleError as error:
        raise error.with_field(field) from None


def game_options(options: dict[str, Any] | Table) -> GameOptions:
    """The rules core's view of an options sheet (a snapshot dict or a table)."""
    values = snapshot(options) if isinstance(options, Table) else options
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


def rotation_policy(options: dict[str, Any]) -> RotationPolicy:
    return RotationPolicy(
        max_consecutive_hands=options["max_consecutive_hands"],
        offer_every_hand=options["offer_every_hand"],
        max_tppp_per_table=options["max_tppp_per_table"],
        tppp_may_bank_twice_in_a_row=options["tppp_may_bank_twice_in_a_row"],
        window_minutes=options["rotation_window_minutes"],
        min_non_tppp_dealers_in_window=options["min_non_tppp_dealers_in_window"],
    )
