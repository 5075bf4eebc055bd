"""Report 6: the fee schedule filing (docs/rules.md §9), by the fees app's own filing.

The schedule version in force at each table (in scope) at the end of the period, or now
if the period is still open, in the layout of the Bureau's Example Table, written by
``fees.filing`` (CSV or PDF, deterministic). The file is exactly the fees app's filing, so
it carries no report header; the period and when it was generated are on the request. The
PDF adds a page per table in scope: its math sheet for the options in force at the same
moment (``reports/math_sheet.py``).
"""

from __future__ import annotations

from datetime import timedelta

from cardroom.clock import now
from fees import filing, selectors

from . import math_sheet
from .common import tables_in_scope
from .parameters import Period


def render(period: Period, output_format: str) -> tuple[bytes, int]:
    """(the filing's bytes, the number of collection rates filed)."""
    moment = min(now(), period.end - timedelta(microseconds=1))
    tables = list(tables_in_scope(period))
    filed = selectors.filed_in_force(moment, [table.pk for table in tables])
    rates = sum(item.version.rates.count() for item in filed)
    if output_format == "pdf":
        return filing.filing_pdf(filed, appendix=math_sheet.pages(tables, moment)), rates
    return filing.filing_csv(filed), rates
