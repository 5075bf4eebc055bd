"""Pay tables as data (docs/rules.md §6.2): Blind, Trips UTH-01..04, Bad Beat options, custom.

Odds are exact fractions "to 1". A payout is the stake times the odds, rounded
down to the table's smallest chip; the part rounded off is kept so it can be
recorded with the settlement line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import NamedTuple

from cardroom.bounds import ASCII_DECIMAL
from cardroom.errors import Rule, RuleError

from .hands import Category

MAX_ODDS = 100_000  # the largest posted odds are 10,000 to 1 (Bad Beat option 1)
MAX_ODDS_DECIMALS = 4

C = Category


@dataclass(frozen=True)
class PayTable:
    """Odds to 1 by hand category; a category absent from the table does not pay."""

    name: str
    odds: tuple[tuple[Category, Fraction], ...]

    def odds_for(self, category: Category) -> Fraction | None:
        for paying, odds in self.odds:
            if paying is category:
                return odds
        return None


def _table(name: str, *pairs: tuple[Category, int | Fraction]) -> PayTable:
    return PayTable(name, tuple((category, Fraction(odds)) for category, odds in pairs))


BLIND = _table(
    "blind",
    (C.ROYAL_FLUSH, 500),
    (C.STRAIGHT_FLUSH, 50),
    (C.FOUR_OF_A_KIND, 10),
    (C.FULL_HOUSE, 3),
    (C.FLUSH, Fraction(3, 2)),
    (C.STRAIGHT, 1),
)

_TRIPS_ORDER = (
    C.ROYAL_FLUSH,
    C.STRAIGHT_FLUSH,
    C.FOUR_OF_A_KIND,
    C.FULL_HOUSE,
    C.FLUSH,
    C.STRAIGHT,
    C.THREE_OF_A_KIND,
)
_BAD_BEAT_ORDER = _TRIPS_ORDER[1:]  # a royal flush can never be beaten


def _trips(name: str, *odds: int) -> PayTable:
    return _table(name, *zip(_TRIPS_ORDER, odds, strict=True))


def _bad_beat(name: str, *odds: int) -> PayTable:
    return _table(name, *zip(_BAD_BEAT_ORDER, odds, strict=True))


TRIPS_PAYTABLES: Mapping[str, PayTable] = {
    table.name: table
    for table in (
        _trips("UTH-01", 50, 40, 30, 9, 7, 4, 3),
        _trips("UTH-02", 50, 40, 30, 8, 6, 5, 3),
        _trips("UTH-03", 50, 40, 30, 8, 7, 4, 3),
        _trips("UTH-04", 50, 40, 20, 7, 6, 5, 3),
    )
}

BAD_BEAT_PAYTABLES: Mapping[str, PayTable] = {
    table.name: table
    for table in (
        _bad_beat("option-1", 10_000, 500, 40, 25, 20, 9),
        _bad_beat("option-2", 7_500, 500, 50, 30, 20, 9),
    )
}


def paytable_label(name: str) -> str:
    """A pay table as the floor and the options sheet name it: "option-1" -> "Option 1"
    (the rules' own words), "UTH-01" as it is, "custom" -> "custom (given in full)". The
    identifier stays what the API and the stored options carry."""
    if name == "custom":
        return "custom (given in full)"
    if name.startswith("option-"):
        return "Option " + name.removeprefix("option-")
    return name


# The categories a custom table must give odds for, per wager.
TRIPS_CATEGORIES = _TRIPS_ORDER
BAD_BEAT_CATEGORIES = _BAD_BEAT_ORDER


def parse_odds(value: object) -> Fraction:
    """Odds from JSON: an integer or an exact decimal string ("1.5"); never a float."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise RuleError(
            f'odds {value!r} must be an integer or an exact decimal in a string, e.g. "1.5"',
            rule=Rule.PAYTABLES,
        )
    # Written in the ASCII digits (cardroom/bounds.py): Decimal() would take other scripts'.
    if isinstance(value, str) and not ASCII_DECIMAL.fullmatch(value.strip()):
        raise RuleError(f"odds {value!r} is not a number", rule=Rule.PAYTABLES)
    try:
        exact = Decimal(value)
    except (InvalidOperation, ValueError):
        raise RuleError(f"odds {value!r} is not a number", rule=Rule.PAYTABLES) from None
    if not exact.is_finite():
        raise RuleError(f"odds {value!r} is not a number", rule=Rule.PAYTABLES)
    if exact <= 0:
        raise RuleError(f"odds {value!r} must be positive", rule=Rule.PAYTABLES)
    # Bounded before any exact arithmetic: "1e99999999" would otherwise build a huge integer.
    if exact > MAX_ODDS or exact.as_tuple().exponent < -MAX_ODDS_DECIMALS:
        raise RuleError(
            f"odds {value!r} must be at most {MAX_ODDS:,} to 1, with at most "
            f"{MAX_ODDS_DECIMALS} decimal places",
            rule=Rule.PAYTABLES,
        )
    return Fraction(exact)


def custom_paytable(name: str, odds: object, categories: tuple[Category, ...]) -> PayTable:
    """A table given in full, e.g. the `003` Trips variant 100/40/20/7/6/5/3.

    Every category in ``categories`` must be given (a custom table that forgot
    the royal flush would otherwise silently not pay it), and no other.
    """
    if not isinstance(odds, Mapping):
        raise RuleError(
            "a pay table is a name or an object of odds by category", rule=Rule.PAYTABLES
        )
    given = {}
    for label, value in odds.items():
        category = Category.from_label(str(label))
        if category not in categories:
            raise RuleError(
                f"{label} does not belong in this pay table", rule=Rule.PAYTABLES, field=str(label)
            )
        try:
            given[category] = parse_odds(value)
        except RuleError as error:
            raise error.with_field(str(label)) from None
    missing = [category.label for category in categories if category not in given]
    if missing:
        raise RuleError(f"pay table lacks odds for {', '.join(missing)}", rule=Rule.PAYTABLES)
    return PayTable(name, tuple((category, given[category]) for category in categories))


def resolve_paytable(
    value: object, named: Mapping[str, PayTable], categories: tuple[Category, ...]
) -> PayTable:
    """A pay table given by name (``"UTH-01"``) or in full (a mapping of odds)."""
    if isinstance(value, str):
        if value not in named:
            raise RuleError(
                f"unknown pay table {value!r} (one of {', '.join(named)}, or the odds in full)",
                rule=Rule.PAYTABLES,
            )
        return named[value]
    return custom_paytable("custom", value, categories)


class Payout(NamedTuple):
    """A payout in cents, and the exact fraction of a cent rounded off to reach it."""

    amount: int
    rounded_off: Fraction


def payout(stake: int, odds: Fraction, chip_unit: int) -> Payout:
    """Stake times odds, rounded down to the smallest chip (``chip_unit`` cents)."""
    scaled = stake * odds.numerator  # integer arithmetic: Fraction is slow on the hot path
    amount = scaled // (odds.denominator * chip_unit) * chip_unit
    remainder = scaled - amount * odds.denominator
    return Payout(amount, Fraction(remainder, odds.denominator) if remainder else _NO_ROUNDING)


_NO_ROUNDING = Fraction(0)
