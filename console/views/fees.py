"""Fee schedules: the versions in force and past, and forms for a new schedule or version.

Validation is the fees app's (``fees.services.schedules``); its refusals are shown on the form.
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from cardroom.errors import RuleError, StateError
from fees.services import schedules as schedule_services

from .. import forms, selectors
from ..permissions import console_view, require
from ..refusals import refuse


def _copied_version(row):
    """The version a new version of ``row``'s schedule starts from: the one in force, else
    (a schedule whose first version is still to come) the newest filed; None if none."""
    for marked in row.versions:  # newest first
        if marked.status.startswith("in force"):
            return marked.version
    return row.versions[0].version if row.versions else None


def _page(request, *, schedule_form=None, version_form=None, failed_schedule=None, status=200):
    rows = selectors.fee_schedules()
    context = {
        # Each schedule with the form of its next version, a copy of the version in force.
        "schedules": [(row, forms.VersionForm.copy_of(_copied_version(row))) for row in rows],
        "schedule_form": schedule_form or forms.ScheduleForm(),
        "version_form": version_form,
        "failed_schedule": failed_schedule,
    }
    return render(request, "console/fees.html", context, status=status)


@console_view("view_floor")
def fee_schedules(request):
    return _page(request)


@require_POST
@console_view("view_floor")
def create_schedule(request):
    require(request, "supervise")
    request.audit_action = "create a fee schedule"
    form = forms.ScheduleForm(request.POST)
    if not form.is_valid():
        return _page(request, schedule_form=form, status=400)
    data = form.cleaned_data
    request.audit_detail = str({k: getattr(v, "pk", v) for k, v in data.items()})
    try:
        schedule = schedule_services.create_schedule(
            name=data["name"],
            by=request.user,
            table_id=data["table"].pk if data["table"] else None,
            class_minimum_cents=data["class_minimum"],
            class_maximum_cents=data["class_maximum"],
        )
    except (RuleError, StateError) as error:
        field = error.field if isinstance(error, RuleError) else None
        field = {
            "class_minimum_cents": "class_minimum",
            "class_maximum_cents": "class_maximum",
        }.get(field, field)
        status = refuse(request, form, error, field)
        return _page(request, schedule_form=form, status=status)
    messages.success(request, f"schedule “{schedule.name}” created: add its first version")
    return redirect("console:fees")


@require_POST
@console_view("view_floor")
def create_version(request):
    require(request, "supervise")
    request.audit_action = "create a fee schedule version"
    form = forms.VersionForm(request.POST)
    schedule_id = request.POST.get("schedule_id")
    if not form.is_valid():
        return _page(request, version_form=form, failed_schedule=schedule_id, status=400)
    data = form.cleaned_data
    rates = form.rates()
    request.audit_detail = str({"schedule_id": data["schedule_id"], "rates": rates})
    try:
        version = schedule_services.create_version(
            schedule_id=data["schedule_id"],
            rates=rates,
            player_dealer_basis=data["player_dealer_basis"],
            by=request.user,
            effective_at=data["effective_at"],
            charged_squares=tuple(data["charged_squares"]),
            note=data["note"],
        )
    except (RuleError, StateError) as error:
        field = form.field_for(error.field) if isinstance(error, RuleError) else None
        status = refuse(request, form, error, field)
        return _page(request, version_form=form, failed_schedule=schedule_id, status=status)
    messages.success(request, f"version {version.number} of “{version.schedule.name}” filed")
    return redirect("console:fees")
