"""Cents shown to people as dollars, exactly, negative amounts included."""

from __future__ import annotations

import pytest

from cardroom.money import amount, dollar_range, dollars


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


def test_a_range_of_amounts():
    assert dollar_range(500, 2_500) == "$5.00 - $25.00"
    assert dollar_range(50_000, None) == "$500.00 and above"
    assert dollar_range(None, 100) == ""
