"""The options sheet of an EZ Baccarat table (docs/rules.md §14.1).

Typed and checked on construction: a ``BaccaratOptions`` that exists is a valid sheet, and a
value out of range is a RuleError naming the option by its JSON name. ``from_json`` reads the
sheet as the settlement calculator and the game math take it (``options``); ``to_json`` writes
it back. Every option has a default; ``OPTION_LABELS`` names each in the floor's words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardroom.errors import Rule, RuleError
from cardroom.money import dollars
from tables.rules.options import OptionLabel
from tables.rules.paytables import MAX_ODDS

GAME = "ez_baccarat"

DECK_COUNTS = (6, 8)
SEAT_COUNTS = (6, 7, 8, 9)
TIE_PAYS = (8, 9)
MAX_PAYS = MAX_ODDS  # odds to 1, the bound every pay table of the room has
# The cut card sits this many cards from the end of the shoe. At least 6: a hand may begin
# with the cut card and still need six cards, and the shoe must hold them.
CUT_CARD_MIN = 6
CUT_CARD_MAX = 104  # two decks

# The options in the order the sheet lists them, by their JSON names.
OPTION_LABELS: dict[str, OptionLabel] = {
    "decks": OptionLabel("Decks in the shoe", "the number of decks in the shoe"),
    "seats": OptionLabel("Seats", "the number of seats"),
    "tie_pays": OptionLabel("Tie pays", "the Tie's pay"),
    "dragon_7_pays": OptionLabel("Dragon 7 pays", "the Dragon 7's pay"),
    "panda_8_pays": OptionLabel("Panda 8 pays", "the Panda 8's pay"),
    "cut_card": OptionLabel("Cut card", "the cut card's place from the end of the shoe"),
    "chip_unit_cents": OptionLabel("Chip", "the chip"),
    "table_minimum_cents": OptionLabel("Minimum", "the table minimum"),
    "table_maximum_cents": OptionLabel("Maximum", "the table maximum"),
    "side_wager_maximum_cents": OptionLabel("Side wager maximum", "the side wagers' maximum"),
}
# JSON name -> attribute: amounts are cents, named so in JSON as everywhere in the room.
_ATTRIBUTES = {
    "decks": "decks",
    "seats": "seats",
    "tie_pays": "tie_pays",
    "dragon_7_pays": "dragon_7_pays",
    "panda_8_pays": "panda_8_pays",
    "cut_card": "cut_card",
    "chip_unit_cents": "chip_unit",
    "table_minimum_cents": "table_minimum",
    "table_maximum_cents": "table_maximum",
    "side_wager_maximum_cents": "side_wager_maximum",
}
OPTIONAL = ("table_minimum_cents", "table_maximum_cents", "side_wager_maximum_cents")


@dataclass(frozen=True)
class BaccaratOptions:
    """An EZ Baccarat table's options.

    Amounts are cents. ``table_minimum`` and ``table_maximum`` bound every wager (``None``: no
    bound). ``side_wager_maximum`` bounds each Tie, Dragon 7 and Panda 8 wager; ``None`` (the
    default) means the bettor's own base wager. The chip defaults to 1 cent, the calculator's
    default; a table's sheet names its own.
    """

    decks: int = 8
    seats: int = 9
    tie_pays: int = 8
    dragon_7_pays: int = 40
    panda_8_pays: int = 25
    cut_card: int = 14
    chip_unit: int = 1
    table_minimum: int | None = None
    table_maximum: int | None = None
    side_wager_maximum: int | None = None

    def __post_init__(self) -> None:
        _one_of(self.decks, "decks", DECK_COUNTS)
        _one_of(self.seats, "seats", SEAT_COUNTS)
        _one_of(self.tie_pays, "tie_pays", TIE_PAYS, unit=" to 1")
        for name in ("dragon_7_pays", "panda_8_pays"):
            _whole(getattr(self, name), name, 1, MAX_PAYS, unit=" to 1")
        _whole(self.cut_card, "cut_card", CUT_CARD_MIN, CUT_CARD_MAX, unit=" cards")
        _cents(self.chip_unit, "chip_unit_cents", 1)
        for name in OPTIONAL:
            amount = getattr(self, _ATTRIBUTES[name])
            if amount is None:
                continue
            _cents(amount, name, 1)
            if amount % self.chip_unit:
                raise RuleError(
                    f"{OPTION_LABELS[name].phrase} of {dollars(amount)} is not in whole chips "
                    f"of {dollars(self.chip_unit)}",
                    rule=Rule.BACCARAT_OPTIONS,
                    field=name,
                )
        low, high, side = self.table_minimum, self.table_maximum, self.side_wager_maximum
        if low is not None and high is not None and low > high:
            raise RuleError(
                f"the table minimum of {dollars(low)} is above the table maximum of "
                f"{dollars(high)}",
                rule=Rule.BACCARAT_OPTIONS,
                field="table_maximum_cents",
            )
        if side is not None and low is not None and side < low:
            raise RuleError(
                f"the side wagers' maximum of {dollars(side)} is below the table minimum of "
                f"{dollars(low)}",
                rule=Rule.BACCARAT_OPTIONS,
                field="side_wager_maximum_cents",
            )
        if side is not None and high is not None and side > high:
            raise RuleError(
                f"the side wagers' maximum of {dollars(side)} is above the table maximum of "
                f"{dollars(high)}",
                rule=Rule.BACCARAT_OPTIONS,
                field="side_wager_maximum_cents",
            )

    @classmethod
    def from_json(cls, data: object) -> BaccaratOptions:
        """The sheet from its JSON form; absent options take their defaults. ``game``, when
        given, must name this game; an unknown option is refused."""
        if data is None:
            data = {}
        if not isinstance(data, Mapping):
            raise RuleError("the options must be a JSON object", rule=Rule.BACCARAT_OPTIONS)
        for name in data:
            if name != "game" and name not in _ATTRIBUTES:
                raise RuleError(
                    f"unknown option {name!r}", rule=Rule.BACCARAT_OPTIONS, field=str(name)
                )
        if "game" in data and data["game"] != GAME:
            raise RuleError(
                f"these are the options of {GAME!r}, not {data['game']!r}",
                rule=Rule.BACCARAT_OPTIONS,
                field="game",
            )
        return cls(**{_ATTRIBUTES[name]: value for name, value in data.items() if name != "game"})

    def to_json(self) -> dict[str, Any]:
        """The sheet as JSON, every option named (``from_json`` reads it back)."""
        return {"game": GAME} | {
            name: getattr(self, attribute) for name, attribute in _ATTRIBUTES.items()
        }


def _refuse(name: str, allowed: str, value: object) -> RuleError:
    return RuleError(
        f"{OPTION_LABELS[name].phrase} must be {allowed}, not {value!r}",
        rule=Rule.BACCARAT_OPTIONS,
        field=name,
    )


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _one_of(value: object, name: str, allowed: tuple[int, ...], *, unit: str = "") -> None:
    if not _is_whole(value) or value not in allowed:
        joined = " to " if len(allowed) > 2 else " or "
        choices = f"{allowed[0]}{joined}{allowed[-1]}"
        raise _refuse(name, choices + unit, value)


def _whole(value: object, name: str, low: int, high: int, *, unit: str = "") -> None:
    if not _is_whole(value) or not low <= value <= high:  # type: ignore[operator]
        raise _refuse(name, f"a whole number from {low:,} to {high:,}{unit}", value)


def _cents(value: object, name: str, low: int) -> None:
    if not _is_whole(value) or value < low:  # type: ignore[operator]
        raise _refuse(name, f"a whole number of cents, at least {dollars(low)}", value)
