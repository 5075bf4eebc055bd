"""Compliance reports: request any report, watch its status change, download it.

The reports app does the work (``reports.services``: one run per report type and
parameters, a Celery worker, the file stored with its SHA-256, every download recorded).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import FileResponse, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_POST

from cardroom.clock import now
from cardroom.errors import RuleError, StateError, describe
from cardroom.forms import GamingDayField, ModelChoiceField
from reports import selectors as report_selectors
from reports import services as report_services
from reports.models import QUEUE_UNREACHABLE, QueueState, ReportRequest, ReportType
from tables.models import Table

from ..permissions import console_view
from ..refusals import refuse

FORMATS = [("", "default"), ("csv", "CSV"), ("pdf", "PDF")]


class ReportForm(forms.Form):
    report_type = forms.ChoiceField(choices=ReportType.choices, label="Report")
    gaming_day = GamingDayField(
        required=False, widget=forms.DateInput(attrs={"type": "date"}), label="Gaming day"
    )
    from_day = GamingDayField(
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        label="or from the first day",
    )
    to_day = GamingDayField(
        required=False, widget=forms.DateInput(attrs={"type": "date"}), label="to the last day"
    )
    table = ModelChoiceField(
        queryset=Table.objects.order_by("name"), required=False, empty_label="all tables"
    )
    format = forms.ChoiceField(choices=FORMATS, required=False)

    def parameters(self) -> dict:
        """The reports app's parameters, only those given (it validates them)."""
        data = self.cleaned_data
        given = {
            "gaming_day": data["gaming_day"],
            "from_day": data["from_day"],
            "to_day": data["to_day"],
            "table": data["table"].pk if data["table"] else None,
            "format": data["format"] or None,
        }
        return {
            key: value.isoformat() if hasattr(value, "isoformat") else value
            for key, value in given.items()
            if value is not None
        }


def _rows() -> dict:
    """The list of requests (a queued one with what is happening to it), and how many wait
    for an unreachable queue (said above it)."""
    reports, moment = list(report_selectors.report_list()[:50]), now()
    periods = report_selectors.period_words(reports)
    for report in reports:
        report.period_words = periods[report.pk]
        status = report_selectors.queue_status(report, moment=moment)
        report.queue_words = "" if status is None else status.words
    return {"reports": reports, "waiting": report_selectors.waiting_for_the_queue()}


def _page(request, form=None, status=200):
    context = {"form": form or ReportForm(), **_rows()}
    return render(request, "console/reports.html", context, status=status)


@console_view("reports")
def reports(request):
    if request.headers.get("HX-Request"):  # the status list, polled while a report runs
        return HttpResponse(render_to_string("console/_report_rows.html", _rows(), request=request))
    return _page(request)


@require_POST
@console_view("reports")
def request_report(request):
    request.audit_action = "request a report"
    form = ReportForm(request.POST)
    if not form.is_valid():
        return _page(request, form, status=400)
    parameters = form.parameters()
    request.audit_detail = str({"report_type": form.cleaned_data["report_type"], **parameters})
    try:
        requested = report_services.request_report(
            report_type=form.cleaned_data["report_type"], parameters=parameters, by=request.user
        )
    except RuleError as error:
        return _page(request, form, status=refuse(request, form, error, error.field))
    report = requested.report
    if not requested.created:  # what is happening to it, the queue included
        messages.info(request, already(report, requested.queue, "report"))
    elif requested.queue == QueueState.UNREACHABLE:
        messages.warning(request, f"{QUEUE_UNREACHABLE} (report {report.pk})")
    else:
        messages.success(request, f"report {report.pk} requested: it runs in the background")
    return redirect("console:reports")


def already(report: ReportRequest, queue: QueueState | None, what: str) -> str:
    """The answer to asking again for a report in flight: its status and, while it is queued,
    what is happening to it (``reports.selectors.queue_status``)."""
    said = f"the same {what} is already {report.get_status_display().lower()} (report {report.pk})"
    status = report_selectors.queue_status(report, state=queue)
    return f"{said}: {status.words}" if status is not None else f"{said}; shown below"


@console_view("reports")
def download(request, report_id: int):
    request.audit_action = "download a report"
    try:
        report, copy = report_services.download(
            report_id=report_id, by=request.user, remote_addr=request.META.get("REMOTE_ADDR", "")
        )
    except ReportRequest.DoesNotExist:
        from django.http import Http404

        raise Http404("no such report") from None
    except StateError as error:
        messages.error(request, describe(error))
        return redirect("console:reports")
    response = FileResponse(
        copy, as_attachment=True, filename=report.file_name, content_type=report.content_type
    )
    response["X-Content-SHA256"] = report.sha256
    return response
