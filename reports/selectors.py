"""Reads of report requests and their download log, and what is happening to a queued one."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import django_filters
from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from cardroom.clock import now
from cardroom.filtering import IdFilter, InstantFilter, filter_queryset
from reports.models import QueueState, ReportDownload, ReportRequest, ReportStatus, ReportType
from tables.models import Table


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


def period_words(reports) -> dict[int, str]:
    """Each report's period in words, its table by name ("2026-11-19 to 2026-11-20 · Main
    1", "2026-11-20 · all tables"), by report id: one query for every table named."""
    reports = list(reports)
    wanted = {r.parameters.get("table") for r in reports} - {None}
    names = dict(Table.objects.filter(pk__in=wanted).values_list("pk", "name"))
    words = {}
    for report in reports:
        first, last = report.parameters.get("from_day"), report.parameters.get("to_day")
        days = first if first == last else f"{first} to {last}"
        table = report.parameters.get("table")
        scope = "all tables" if table is None else names.get(table, "a table since removed")
        words[report.pk] = f"{days} · {scope}"
    return words


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


# --- A queued report: what is happening ------------------------------------------------------


@dataclass(frozen=True)
class QueueStatus:
    """What is happening to a queued report (docs/reports.md), for the API and the console."""

    state: QueueState
    queued_since: datetime
    hand_overs: int  # times its task was handed to the queue (taken by the broker), in all
    last_hand_over: datetime | None  # the latest, while the queue has it
    missing_since: datetime | None  # the queue was found no longer holding it
    next_hand_over: datetime | None  # by when the sweeper hands it over (again); None: held
    words: str


def _clock(moment: datetime, today: datetime) -> str:
    local = timezone.localtime(moment)
    same_day = local.date() == timezone.localtime(today).date()
    return local.strftime("%H:%M:%S" if same_day else "%Y-%m-%d %H:%M:%S")


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def queue_status(
    report: ReportRequest, *, state: QueueState | None = None, moment: datetime | None = None
) -> QueueStatus | None:
    """What is happening to ``report`` while it is queued (``state``: its queue state as the
    answer knows it, by default the row's); None once it runs or ran. The next hand-over is
    the next sweep's (every ``REPORTS_SWEEP_INTERVAL`` seconds) for a task never taken, refused
    or lost; none while the queue holds it (a worker runs it when one is free)."""
    state = state or report.queue_state
    if state is None:
        return None
    moment = moment or now()
    next_sweep = moment + timedelta(seconds=settings.REPORTS_SWEEP_INTERVAL)
    since = report.queued_at or report.requested_at
    said = [f"queued since {_clock(since, moment)}"]
    if report.hand_overs:
        handed = f"handed to the report queue {_times(report.hand_overs)}"
        if report.enqueued_at is not None and state == QueueState.SENT:
            handed += f", last at {_clock(report.enqueued_at, moment)}"
        said.append(handed)
    missing = report.message_missing_since if state == QueueState.SENT else None
    next_hand_over = next_sweep
    if state == QueueState.UNREACHABLE:
        said.append(f"the report queue cannot be reached: handed over when it is back, at the "
                    f"next sweep (by {_clock(next_sweep, moment)})")  # fmt: skip
    elif state == QueueState.PENDING:
        said.append(f"not handed to the report queue yet: at the next sweep at the latest (by "
                    f"{_clock(next_sweep, moment)})")  # fmt: skip
    elif missing is not None:
        said.append(f"the report queue lost it (noticed at {_clock(missing, moment)}): handed "
                    f"over again at the next sweep (by {_clock(next_sweep, moment)})")  # fmt: skip
    else:
        said.append("the report queue has it: a worker runs it when one is free")
        next_hand_over = None
    return QueueStatus(
        state=state,
        queued_since=since,
        hand_overs=report.hand_overs,
        last_hand_over=report.enqueued_at,
        missing_since=missing,
        next_hand_over=next_hand_over,
        words="; ".join(said),
    )
