"""Money shown to people: integer cents written as dollars, exactly (no float on the way).

Plain Python (no Django). Amounts are stored and computed as integer cents everywhere;
these are the only functions that turn them into text, for the console, the PDF reports
and the fee filing alike.
"""

from __future__ import annotations


def amount(cents: int) -> str:
    """``123456`` -> ``1,234.56``; ``-5`` -> ``-0.05`` (the sign before the digits)."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(int(cents)), 100)
    return f"{sign}{whole:,}.{part:02d}"


def dollars(cents: int | None) -> str:
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
