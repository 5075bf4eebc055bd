"""Cents shown to people as dollars, exactly, negative amounts included; spans of time in
minutes."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from fractions import Fraction

import pytest

from cardroom.money import amount, dollar_range, dollars, duration, whole_cents


@pytest.mark.parametrize(
    ("cents", "shown"),
    [(0, "$0.00"), (5, "$0.05"), (-5, "-$0.05"), (-100, "-$1.00"), (123_456, "$1,234.56"),
     (-123_456, "-$1,234.56"), (10**12 + 1, "$10,000,000,000.01"), (None, "")],
)  # fmt: skip
def test_dollars(cents, shown):
    assert dollars(cents) == shown


@pytest.mark.parametrize(
    ("cents", "shown"), [(0, "0.00"), (-1, "-0.01"), (-250, "-2.50"), (99_999, "999.99")]
)
def test_amount_without_the_sign_of_money(cents, shown):
    assert amount(cents) == shown


@pytest.mark.parametrize(
    ("cents", "shown"),
    [(Decimal("524.3928"), "$5.24"), (Decimal("-1234.5"), "-$12.34"), (Decimal("0.5"), "$0.00"),
     (Decimal("1.5"), "$0.02"), (Decimal("-0.4"), "$0.00"), (Fraction(-2, 3), "-$0.01")],
)  # fmt: skip
def test_a_fraction_of_a_cent_is_shown_to_the_nearest_cent_half_to_even(cents, shown):
    """A theo (docs/rules.md §13.5) is kept in fractions of a cent: shown to the cent."""
    assert dollars(cents) == shown
    assert whole_cents(cents) == round(Fraction(cents))


def test_a_range_of_amounts():
    assert dollar_range(500, 2_500) == "$5.00 - $25.00"
    assert dollar_range(50_000, None) == "$500.00 and above"
    assert dollar_range(None, 100) == ""


@pytest.mark.parametrize(
    ("span", "shown"),
    [
        (timedelta(minutes=15), "15 minutes"),
        (timedelta(minutes=1), "1 minute"),
        (timedelta(seconds=30), "1 minute"),
        (timedelta(0), "0 minutes"),
        (timedelta(seconds=-5), "0 minutes"),
        (timedelta(minutes=90), "90 minutes"),
        (timedelta(hours=2), "2 hours"),
    ],
)
def test_a_span_of_time_in_minutes(span, shown):
    assert duration(span) == shown
