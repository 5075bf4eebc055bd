"""Money and time shown to people: integer cents written as dollars, exactly (no float on
the way), and spans of time in minutes.

Plain Python (no Django). Amounts are stored and computed as integer cents everywhere;
these are the only functions that turn them into text, for the console, the PDF reports,
the fee filing and refusals alike. A span of time is written in minutes (or whole hours),
never as an ISO 8601 duration ("PT15M").
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from fractions import Fraction


def whole_cents(cents: int | Decimal | Fraction) -> int:
    """An amount in cents as whole cents: a fraction of a cent (a hand's theo, docs/rules.md
    §13.5) rounded to the nearest cent, half to even; whole cents as they are."""
    if isinstance(cents, Decimal | Fraction):
        return round(Fraction(cents))  # Fraction rounds half to even, exactly
    return int(cents)


def amount(cents: int | Decimal | Fraction) -> str:
    """``123456`` -> ``1,234.56``; ``-5`` -> ``-0.05`` (the sign before the digits);
    ``Decimal("-1234.5678")`` -> ``-12.35`` (to the nearest cent)."""
    whole_amount = whole_cents(cents)
    sign = "-" if whole_amount < 0 else ""
    whole, part = divmod(abs(whole_amount), 100)
    return f"{sign}{whole:,}.{part:02d}"


def dollars(cents: int | Decimal | Fraction | None) -> str:
    """``123456`` -> ``$1,234.56``; ``-5`` -> ``-$0.05``; ``None`` -> ``""``."""
    if cents is None:
        return ""
    text = amount(cents)
    return f"-${text[1:]}" if text.startswith("-") else f"${text}"


def dollar_range(low: int | None, high: int | None) -> str:
    """A range of amounts: ``$5.00 - $25.00``, or ``$500.00 and above`` when open-ended."""
    if low is None:
        return ""
    return f"{dollars(low)} and above" if high is None else f"{dollars(low)} - {dollars(high)}"


def duration(span: timedelta) -> str:
    """``15 min`` -> ``15 minutes``; ``1 min`` -> ``1 minute``; ``2 h`` -> ``2 hours``; parts of
    a minute are rounded up (a wait of 30 s reads "1 minute")."""
    minutes = max(0, -((-span) // timedelta(minutes=1)))
    if minutes >= 120 and minutes % 60 == 0:
        return f"{minutes // 60} hours"
    return f"{minutes} minute{'' if minutes == 1 else 's'}"
