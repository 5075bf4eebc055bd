"""The game's figures shown to people: percentages, chances ("1 in 30,940"), odds ("50 to 1")
and plain numbers, exactly (no float on the way).

Plain Python (no Django), beside ``cardroom.money``: the one place an exact fraction of the
game math (``wagers.rules.gamemath``) becomes text, for the console's game math page and the
fee filing's math sheet alike. Rounding is half-even, as the game math's own decimals.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

PERCENT_DECIMALS = 4  # "3.4979%": four decimals of a percent, at least
NUMBER_DECIMALS = 4


def _exact(value: Fraction | Decimal | int) -> Fraction:
    return value if isinstance(value, Fraction) else Fraction(value)


def _fixed(value: Fraction, places: int) -> str:
    """``value`` rounded half-even to ``places`` decimals, thousands separated: ``-1,234.5000``
    (no sign when it rounds to zero)."""
    whole = round(value * 10**places)  # Fraction.__round__ rounds half to even, exactly
    sign = "-" if whole < 0 else ""
    units, part = divmod(abs(whole), 10**places)
    return f"{sign}{units:,}" + (f".{part:0{places}d}" if places else "")


def number(value: Fraction | Decimal | int, decimals: int = NUMBER_DECIMALS) -> str:
    """``Fraction(16, 5)`` -> ``3.2000``; ``Decimal("2.68381854")`` -> ``2.6838``."""
    return _fixed(_exact(value), decimals)


def percent(
    share: Fraction | Decimal | int, decimals: int = PERCENT_DECIMALS, significant: int = 2
) -> str:
    """A share of one as a percentage: ``0.0349793728`` -> ``3.4979%``.

    At least ``decimals`` decimals; more when a small share would otherwise read as nothing,
    until ``significant`` digits show (``3.595e-7`` -> ``0.000036%``). A negative share keeps
    its sign (``-264.0289%``).
    """
    value = _exact(share) * 100
    places = decimals
    if value:
        leading = Decimal(abs(value.numerator)) / Decimal(value.denominator)
        # The position of the first significant digit after the point (0.000036 -> 5).
        first = -leading.adjusted()
        places = max(decimals, first + significant - 1)
    return f"{_fixed(value, places)}%"


def one_in(probability: Fraction | Decimal | int) -> str:
    """How often, as the floor says it: ``1 in 30,940``, ``1 in 20.7``; ``never`` for zero.

    Whole numbers from 1 in 100 on (and for a whole number below); otherwise one decimal
    (``1 in 6.5``).
    """
    chance = _exact(probability)
    if chance <= 0:
        return "never"
    times = 1 / chance
    if times >= 100 or times.denominator == 1:
        return f"1 in {round(times):,}"
    return f"1 in {_fixed(times, 1)}"


def odds(value: Fraction | Decimal | int) -> str:
    """Odds to 1 as posted on a pay table: ``50 to 1``, ``10,000 to 1``, ``3 to 2``."""
    exact = _exact(value)
    return f"{exact.numerator:,} to {exact.denominator:,}"
