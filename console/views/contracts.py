"""TPPP contracts (docs/rules.md §8.7, ``tppp.contract``): every contract, newest first, a
page at a time, with its player, tables, hours, dates, the Bureau's approval and a "renew by"
flag for a TPPP's latest contract within the renewal notice; a floor supervisor or a
compliance officer records one (a renewal is a new contract) through the service the API
calls (``tables.services.contracts.record_contract``), a refusal shown on the field it
names, in the floor's words. Read by the roles that read the floor, as the API's list."""

from __future__ import annotations

import json

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from cardroom.clock import today
from cardroom.errors import RuleError
from tables.models import Player, Table
from tables.selectors.contracts import RENEWAL_NOTICE_DAYS, contract_list, contracts_to_renew
from tables.services import contracts

from ..paging import page_of
from ..permissions import console_view, request_capabilities, require
from ..refusals import heading, refuse

RECORD = "record a TPPP contract"
CONTRACTS_PER_PAGE = 50
# The service's field -> the form's
FIELDS = {"player": "player_number"}


def _date(label: str, **kwargs) -> forms.DateField:
    return forms.DateField(label=label, widget=forms.DateInput(attrs={"type": "date"}), **kwargs)


def _time(label: str) -> forms.TimeField:
    return forms.TimeField(
        required=False, label=label, widget=forms.TimeInput(attrs={"type": "time"})
    )


class ContractForm(forms.Form):
    player_number = forms.CharField(max_length=32, label="TPPP's player number")
    tables = forms.ModelMultipleChoiceField(
        queryset=Table.objects.order_by("name"),
        required=False,
        label="Tables (none chosen: every table)",
        widget=forms.SelectMultiple(attrs={"size": 4}),
    )
    starts_on = _date("From")
    ends_on = _date("Until")
    opens_at = _time("Hours from (empty: any hour)")
    closes_at = _time("Hours to")
    approved_on = _date("Approved by the Bureau on")
    # Not required here: the service refuses a contract without it, in the floor's words.
    approval_number = forms.CharField(max_length=64, required=False, label="Bureau approval number")


def _page(request, form=None, *, failed: str = "", status: int = 200):
    renew = {contract.pk for contract in contracts_to_renew()}
    context = {
        "page": page_of(request, contract_list(), CONTRACTS_PER_PAGE),
        "renew": renew,
        "today": today(),
        "notice_days": RENEWAL_NOTICE_DAYS,
        "form": form or ContractForm(),
        "can_keep": request_capabilities(request)["keep_contracts"],
        "refused_heading": heading(failed) if failed else "",
    }
    return render(request, "console/contracts.html", context, status=status)


@console_view("view_floor")
def contract_page(request):
    return _page(request)


@require_POST
@console_view("view_floor")
def record_contract(request):
    require(request, "keep_contracts")
    request.audit_action = RECORD
    form = ContractForm(request.POST)
    if not form.is_valid():
        request.audit_message = json.dumps(form.errors.get_json_data())
        return _page(request, form, failed=RECORD, status=400)
    data = dict(form.cleaned_data)
    tables = data.pop("tables")
    number = data.pop("player_number").strip()
    player = Player.objects.filter(player_number=number).first()
    request.audit_detail = json.dumps(
        {
            "player": player.pk if player else number,
            "tables": [table.name for table in tables] or "every table",
            **data,
        },
        default=str,
    )
    if player is None:
        form.add_error("player_number", "no player has this number")
        request.audit_message = "no player has this number"
        return _page(request, form, failed=RECORD, status=400)
    try:
        contract = contracts.record_contract(
            player_id=player.pk, table_ids=[table.pk for table in tables], by=request.user, **data
        )
    except RuleError as error:
        status = refuse(request, form, error, FIELDS.get(error.field, error.field))
        return _page(request, form, failed=RECORD, status=status)
    messages.success(
        request,
        f"{player.name}'s contract recorded: {contract.starts_on} to {contract.ends_on}, "
        f"{', '.join(t.name for t in tables) or 'every table'}, {contract.hours}",
    )
    return redirect("console:tppp-contracts")
