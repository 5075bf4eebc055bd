"""Reads of report requests and their download log."""

from __future__ import annotations

import django_filters
from django.db.models import QuerySet

from cardroom.filtering import IdFilter, InstantFilter, filter_queryset
from reports.models import ReportDownload, ReportRequest, ReportStatus, ReportType


class ReportRequestFilter(django_filters.FilterSet):
    report_type = django_filters.ChoiceFilter(choices=ReportType.choices, help_text="report type")
    status = django_filters.ChoiceFilter(choices=ReportStatus.choices, help_text="status")
    requested_by = IdFilter(field_name="requested_by_id", help_text="requester's user id")
    scheduled = django_filters.BooleanFilter(help_text="requested by the daily schedule")
    requested_after = InstantFilter(
        field_name="requested_at", lookup_expr="gte", help_text="requested at or after"
    )
    requested_before = InstantFilter(
        field_name="requested_at", lookup_expr="lt", help_text="requested before"
    )
    gaming_day = django_filters.DateFilter(
        method="filter_gaming_day", help_text="covering this gaming day (YYYY-MM-DD)"
    )

    class Meta:
        model = ReportRequest
        fields = []

    def filter_gaming_day(self, queryset, name, value):
        # ISO dates compare as text, so the JSON values can be compared directly.
        day = value.isoformat()
        return queryset.filter(parameters__from_day__lte=day, parameters__to_day__gte=day)


def report_list(*, filters=None) -> QuerySet[ReportRequest]:
    return filter_queryset(
        ReportRequestFilter,
        filters,
        ReportRequest.objects.select_related("requested_by").order_by("-requested_at", "-id"),
    )


def waiting_for_the_queue() -> int:
    """How many queued requests the report queue could not take (each runs once it is back)."""
    return (
        ReportRequest.objects.filter(status=ReportStatus.QUEUED).exclude(enqueue_error="").count()
    )


def report_get(*, report_id: int) -> ReportRequest:
    return ReportRequest.objects.select_related("requested_by").get(pk=report_id)


def download_list(*, report_id: int) -> QuerySet[ReportDownload]:
    report_get(report_id=report_id)  # 404 for an unknown report
    return ReportDownload.objects.filter(report_id=report_id).select_related("downloaded_by")
