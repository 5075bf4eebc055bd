"""The drop count (docs/rules.md §10.4): each table's drop box for a shift of a gaming day,
the fees the system recorded into it, the count the count team made, and the difference,
all in dollars. Read by the roles that read the floor (as the API's drop-box list); a floor
supervisor registers a box and enters a count (a recount is a new count, never an edit).

Validation is the fees app's (``fees.services.drop``); its refusals are shown on the form in
the floor's words, with the rule they name.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from cardroom import shifts
from cardroom.clock import now
from cardroom.errors import RuleError, StateError
from cardroom.gaming_day import gaming_day_of
from cardroom.money import dollars
from fees import selectors as fee_selectors
from fees.models import DropBox
from fees.services import drop

from .. import forms
from ..permissions import console_view, require
from ..refusals import heading, refuse

REGISTER, COUNT = "register a drop box", "enter a drop count"


def _page(request, *, box_form=None, count_form=None, failed="", failed_box=None, status=200):
    choose = forms.DropFilterForm(request.GET or None)
    day, table = gaming_day_of(now()), None
    if choose.is_valid():
        day = choose.cleaned_data["gaming_day"] or day
        table = choose.cleaned_data["table"]
    boxes = fee_selectors.drop_boxes(table_id=table.pk if table else None, gaming_day=day)
    rows = fee_selectors.reconciliations(boxes)
    totals = {
        "recorded": sum(r.recorded_cents for r in rows),
        "counted": sum(r.counted_cents for r in rows if r.counted_cents is not None),
        "uncounted": sum(1 for r in rows if r.count is None),
    }
    context = {
        "choose": choose,
        "day": day,
        "table": table,
        "rows": rows,
        "totals": totals,
        "box_form": box_form or forms.DropBoxForm(initial={"gaming_day": day, "table": table}),
        "count_form": count_form,
        "failed": failed,
        "failed_box": failed_box,
        "refused_heading": heading(failed) if failed else "",
        "shifts": shifts.names(),
    }
    return render(request, "console/drop.html", context, status=status)


@console_view("drop")
def drop_page(request):
    return _page(request)


def _back(day, table) -> str:
    query = f"?gaming_day={day.isoformat()}" + (f"&table={table.pk}" if table else "")
    return reverse("console:drop") + query


@require_POST
@console_view("drop")
def register_box(request):
    require(request, "supervise")
    request.audit_action = REGISTER
    form = forms.DropBoxForm(request.POST)
    if not form.is_valid():
        request.audit_message = json.dumps(form.errors.get_json_data())
        return _page(request, box_form=form, failed=REGISTER, status=400)
    data = form.cleaned_data
    try:
        box = drop.register_box(
            box_number=data["box_number"],
            table_id=data["table"].pk,
            gaming_day=data["gaming_day"],
            shift=data["shift"],
            by=request.user,
        )
    except (RuleError, StateError) as error:
        field = error.field if isinstance(error, RuleError) else None
        status = refuse(request, form, error, field)
        return _page(request, box_form=form, failed=REGISTER, status=status)
    messages.success(
        request, f"box {box.box_number} registered for {box.table.name}, {box.shift} shift"
    )
    return redirect(_back(box.gaming_day, None))


@require_POST
@console_view("drop")
def enter_count(request, box_id: int):
    require(request, "supervise")
    request.audit_action = COUNT
    get_object_or_404(DropBox, pk=box_id)
    form = forms.DropCountForm(request.POST)
    if not form.is_valid():
        request.audit_message = json.dumps(form.errors.get_json_data())
        return _page(request, count_form=form, failed=COUNT, failed_box=box_id, status=400)
    data = form.cleaned_data
    request.audit_detail = json.dumps({"box": box_id, **data}, default=str, sort_keys=True)
    try:
        count = drop.enter_count(
            box_id=box_id,
            amount_cents=data["amount"],
            counters=data["counters"],
            counted_at=data["counted_at"],
            note=data["note"],
            by=request.user,
        )
    except (RuleError, StateError) as error:
        field = None
        if isinstance(error, RuleError):
            field = {"amount_cents": "amount"}.get(error.field, error.field)
        status = refuse(request, form, error, field)
        return _page(request, count_form=form, failed=COUNT, failed_box=box_id, status=status)
    box = count.box
    messages.success(request, f"box {box.box_number} counted: {dollars(count.amount_cents)}")
    return redirect(_back(box.gaming_day, None))
