"""The game's figures shown to people (cardroom/figures.py): exact, rounded half-even, in the
floor's words ("3.4979%", "1 in 30,940", "50 to 1")."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from cardroom.figures import number, odds, one_in, percent


@pytest.mark.parametrize(
    ("share", "shown"),
    [
        (Fraction(349793728, 10**10), "3.4979%"),  # Trips UTH-03's house edge, to four decimals
        (Fraction(1, 2), "50.0000%"),
        (Fraction(-1, 3), "-33.3333%"),
        (Fraction(-264028912, 10**8), "-264.0289%"),
        (Fraction(0), "0.0000%"),
        (Fraction(-1, 10**9), "-0.00000010%"),  # small: two significant digits, sign kept
        (Fraction(1, 2781381), "0.000036%"),  # a Bad Beat straight flush
        (Fraction(1, 30940), "0.0032%"),
        (Decimal("0.000012345"), "0.0012%"),
        (Fraction(1234567, 100), "1,234,567.0000%"),
        (1, "100.0000%"),
    ],
)
def test_percent(share, shown):
    assert percent(share) == shown


def test_percent_rounds_half_to_even_and_takes_fewer_decimals():
    assert percent(Fraction(5, 10**7)) == "0.000050%"
    assert percent(Fraction(1, 2 * 10**6), decimals=4, significant=1) == "0.00005%"
    assert percent(Fraction(25, 10**6), significant=1) == "0.0025%"
    assert percent(Fraction(125, 10**7), decimals=3, significant=1) == "0.001%"  # half: even
    assert percent(Fraction(135, 10**7), decimals=3, significant=1) == "0.001%"
    assert percent(Fraction(126, 1326), decimals=1) == "9.5%"


@pytest.mark.parametrize(
    ("chance", "shown"),
    [
        (Fraction(4324, 133784560), "1 in 30,940"),
        (Fraction(1, 2781381), "1 in 2,781,381"),
        (Fraction(2, 201), "1 in 100"),  # 100.5: whole from 100 on, half to even
        (Fraction(10, 207), "1 in 20.7"),
        (Fraction(1, 6), "1 in 6"),  # a whole number stays whole
        (Fraction(1), "1 in 1"),
        (Fraction(0), "never"),
        (Decimal("0.15269998"), "1 in 6.5"),
    ],
)
def test_one_in(chance, shown):
    assert one_in(chance) == shown


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (Fraction(50), "50 to 1"),
        (Fraction(10_000), "10,000 to 1"),
        (Fraction(3, 2), "3 to 2"),
        (Decimal("1234.125"), "9,873 to 8"),
        (7, "7 to 1"),
    ],
)
def test_odds(value, shown):
    assert odds(value) == shown


@pytest.mark.parametrize(
    ("value", "decimals", "shown"),
    [
        (Decimal("2.6838185481614664482"), 4, "2.6838"),
        (Fraction(16, 5), 4, "3.2000"),
        (Fraction(-1, 10**5), 4, "0.0000"),  # rounds to zero: no sign
        (Fraction(5, 2), 0, "2"),  # half to even
        (Fraction(7, 2), 0, "4"),
        (Decimal("-1234.56789"), 2, "-1,234.57"),
    ],
)
def test_number(value, decimals, shown):
    assert number(value, decimals) == shown
