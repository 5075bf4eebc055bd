"""Query filters for the money API's list endpoints (applied by the selectors).

As on the floor (``tables.filters``): ids are plain numbers, an unknown one answers an
empty list; a malformed value is a 400 naming the parameter.
"""

from __future__ import annotations

import django_filters

from cardroom.clock import today
from cardroom.filtering import IdFilter
from wagers.models import (
    Account,
    AccountKind,
    ComplianceReview,
    CurrencyDirection,
    CurrencyTransactionReport,
    MtlEntry,
    ReviewKind,
)


class AccountFilter(django_filters.FilterSet):
    player = IdFilter(field_name="player_id", help_text="player id")
    table = IdFilter(field_name="table_id", help_text="table id")
    round = IdFilter(field_name="round_id", help_text="round id (its wagers and bank in play)")
    kind = django_filters.ChoiceFilter(choices=AccountKind.choices)
    open = django_filters.BooleanFilter(
        field_name="closed_at",
        lookup_expr="isnull",
        help_text="true: open; false: closed (a table session's chips all back at the cage)",
    )

    class Meta:
        model = Account
        fields = ["player", "table", "round", "kind", "open"]


class MtlFilter(django_filters.FilterSet):
    """The Multiple Transaction Log, by gaming day (docs/rules.md §10.7)."""

    gaming_day = django_filters.DateFilter(help_text="the gaming day (ISO date)")
    player = IdFilter(field_name="player_id", help_text="player id")
    table = IdFilter(field_name="table_id", help_text="table id")
    direction = django_filters.ChoiceFilter(
        choices=CurrencyDirection.choices, help_text="in: cash in; out: cash out"
    )
    identified = django_filters.BooleanFilter(
        help_text="true: the patron's ID was on record; false: described only"
    )

    class Meta:
        model = MtlEntry
        fields = ["gaming_day", "player", "table", "direction", "identified"]


CTR_STATUSES = [("due", "due, not filed"), ("overdue", "past its due date"), ("filed", "filed")]


class CtrFilter(django_filters.FilterSet):
    """The CTRs due and filed, by gaming day."""

    gaming_day = django_filters.DateFilter(help_text="the gaming day (ISO date)")
    player = IdFilter(field_name="player_id", help_text="player id")
    status = django_filters.ChoiceFilter(
        choices=CTR_STATUSES, method="filter_status", help_text="due, overdue or filed"
    )

    class Meta:
        model = CurrencyTransactionReport
        fields = ["gaming_day", "player", "status"]

    def filter_status(self, queryset, name, value):
        if value == "filed":
            return queryset.filter(filed_at__isnull=False)
        queryset = queryset.filter(filed_at__isnull=True)
        if value == "overdue":
            queryset = queryset.filter(due_on__lt=today())
        return queryset


class ReviewFilter(django_filters.FilterSet):
    gaming_day = django_filters.DateFilter(help_text="the gaming day (ISO date)")
    kind = django_filters.ChoiceFilter(choices=ReviewKind.choices)
    open = django_filters.BooleanFilter(
        field_name="closed_at", lookup_expr="isnull", help_text="true: not yet reviewed"
    )

    class Meta:
        model = ComplianceReview
        fields = ["gaming_day", "kind", "open"]
