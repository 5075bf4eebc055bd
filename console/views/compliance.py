"""Title 31 and the barred list for the compliance office (docs/rules.md §10.7, §3.9).

- Compliance (compliance officers, administrators): the CTRs due, overdue and filed (mark one
  filed with its number), a gaming day's Multiple Transaction Log, the review queue (close a
  review with a note).
- The barred and self-restricted list: floor supervisors and compliance keep it (add an
  entry, lift one); every floor role reads it.
Each write is one call of the service the API calls; a refusal shows in the floor's words.
Every list is paged (``console.paging``), each by its own parameter, the others' pages and
the gaming day kept: the CTRs due by due date (the most pressing first), the rest newest
first."""

from __future__ import annotations

import json
from datetime import date

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from cardroom.clock import now, today
from cardroom.errors import RuleError, StateError, describe
from cardroom.gaming_day import gaming_day_of
from tables.models import ExclusionKind, Player
from tables.selectors.contracts import contracts_to_renew
from tables.selectors.exclusions import exclusion_list
from tables.services import exclusions
from wagers import selectors as money_selectors
from wagers.models import CurrencyTransactionReport
from wagers.rules.title31 import Totals
from wagers.services import title31

from ..paging import page_of
from ..permissions import console_view, request_capabilities, require

# Rows per page of each list (a busy room logs thousands of MTL entries a month).
CTRS_PER_PAGE = 50
FILED_PER_PAGE = 20
REVIEWS_PER_PAGE = 50
MTL_PER_PAGE = 100
BARRED_PER_PAGE = 100


class FiledForm(forms.Form):
    ctr_id = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    filing_number = forms.CharField(max_length=title31.FILING_NUMBER_MAX, label="Filing number")


class CloseReviewForm(forms.Form):
    review_id = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    note = forms.CharField(max_length=title31.NOTE_MAX, label="What was decided")


class ExcludeForm(forms.Form):
    player_number = forms.CharField(max_length=32, label="Player number")
    kind = forms.ChoiceField(choices=ExclusionKind.choices, label="Kind")
    reason = forms.CharField(max_length=exclusions.REASON_MAX, label="Why")
    starts_on = forms.DateField(
        required=False, label="From", widget=forms.DateInput(attrs={"type": "date"})
    )
    ends_on = forms.DateField(
        required=False, label="Until (empty: until lifted)",
        widget=forms.DateInput(attrs={"type": "date"}),
    )  # fmt: skip


class LiftForm(forms.Form):
    exclusion_id = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    reason = forms.CharField(max_length=exclusions.REASON_MAX, label="Why lifted")


def _day(request) -> date:
    try:
        return date.fromisoformat(request.GET.get("day", ""))
    except ValueError:
        return gaming_day_of(now())


def _ctr_rows(page):
    """The page's CTRs, each with its day's totals in words and its transactions (one query
    for the page); ``page.object_list`` becomes the rows."""
    ctrs = list(page.object_list)
    transactions = money_selectors.ctr_transactions(ctrs)
    rows = []
    for ctr in ctrs:
        day = ctr.currency_day
        rows.append(
            {
                "ctr": ctr,
                "over": " and ".join(Totals(day.cash_in_cents, day.cash_out_cents).over()),
                "overdue": ctr.filed_at is None and ctr.due_on < today(),
                "transactions": transactions.get(ctr.pk, []),
            }
        )
    page.object_list = rows
    return page


@console_view("compliance")
def compliance(request, status=200, **forms_in_error):
    day = _day(request)
    unfiled = money_selectors.ctr_list(filters={"status": "due"}).order_by("due_on", "id")
    filed = money_selectors.ctr_list(filters={"status": "filed"}).order_by("-filed_at", "-id")
    mtl = money_selectors.mtl_list(filters={"gaming_day": day.isoformat()})
    reviews = money_selectors.review_list(filters={"open": "true"})
    context = {
        "day": day,
        "unfiled": _ctr_rows(
            page_of(request, unfiled, CTRS_PER_PAGE, param="ctrs_page", anchor="ctrs-due")
        ),
        "filed": _ctr_rows(
            page_of(request, filed, FILED_PER_PAGE, param="filed_page", anchor="ctrs-filed")
        ),
        "overdue": money_selectors.overdue_ctr_count(),
        "mtl": page_of(
            request, mtl.order_by("-at", "-id"), MTL_PER_PAGE, param="mtl_page", anchor="mtl"
        ),
        "reviews": page_of(
            request,
            reviews.order_by("-gaming_day", "-raised_at", "-id"),
            REVIEWS_PER_PAGE,
            param="reviews_page",
            anchor="reviews",
        ),
        "renewals": contracts_to_renew(),
        **forms_in_error,
    }
    return render(request, "console/compliance.html", context, status=status)


def _refused(request, error) -> None:
    text = describe(error)
    request.audit_message = text
    messages.error(request, text)


@require_POST
@console_view("compliance")
def ctr_filed(request):
    request.audit_action = "mark a CTR filed"
    form = FiledForm(request.POST)
    if not form.is_valid():
        request.audit_message = json.dumps(form.errors.get_json_data())
        messages.error(request, "the filing's number is recorded with the filing")
        return compliance(request, status=400)
    data = form.cleaned_data
    request.audit_detail = json.dumps(data)
    try:
        ctr = title31.mark_ctr_filed(
            ctr_id=data["ctr_id"], filing_number=data["filing_number"], by=request.user
        )
    except CurrencyTransactionReport.DoesNotExist:
        messages.error(request, "no such CTR")
        return compliance(request, status=404)
    except (RuleError, StateError) as error:
        _refused(request, error)
        return compliance(request, status=400 if isinstance(error, RuleError) else 409)
    messages.success(request, f"the CTR of {ctr.player.name} for {ctr.gaming_day} is filed")
    return redirect("console:compliance")


@require_POST
@console_view("compliance")
def review_close(request):
    request.audit_action = "close a compliance review"
    form = CloseReviewForm(request.POST)
    if not form.is_valid():
        request.audit_message = json.dumps(form.errors.get_json_data())
        messages.error(request, "a review is closed with a note of what was decided")
        return compliance(request, status=400)
    data = form.cleaned_data
    request.audit_detail = json.dumps(data)
    try:
        title31.close_review(review_id=data["review_id"], note=data["note"], by=request.user)
    except (RuleError, StateError) as error:
        _refused(request, error)
        return compliance(request, status=400 if isinstance(error, RuleError) else 409)
    messages.success(request, "review closed")
    return redirect("console:compliance")


# --- The barred and self-restricted list ---------------------------------------------------


@console_view("view_floor")
def excluded(request, form=None, status=200):
    context = {
        "entries": page_of(request, exclusion_list(), BARRED_PER_PAGE),
        "today": today(),
        "form": form or ExcludeForm(),
        "can_keep": request_capabilities(request)["keep_list"],
    }
    return render(request, "console/exclusions.html", context, status=status)


@require_POST
@console_view("view_floor")
def exclude(request):
    require(request, "keep_list")
    request.audit_action = "bar or self-restrict a patron"
    form = ExcludeForm(request.POST)
    if not form.is_valid():
        request.audit_message = json.dumps(form.errors.get_json_data())
        return excluded(request, form, status=400)
    data = form.cleaned_data
    request.audit_detail = json.dumps(data, default=str)
    player = Player.objects.filter(player_number=data["player_number"].strip()).first()
    if player is None:
        form.add_error("player_number", "no player has this number")
        request.audit_message = "no player has this number"
        return excluded(request, form, status=400)
    try:
        entry = exclusions.exclude(
            player_id=player.pk, kind=data["kind"], reason=data["reason"], by=request.user,
            starts_on=data["starts_on"], ends_on=data["ends_on"],
        )  # fmt: skip
    except RuleError as error:
        text = describe(error)
        form.add_error(error.field if error.field in form.fields else None, text)
        request.audit_message = text
        return excluded(request, form, status=400)
    messages.success(request, f"{player.name} is {entry.words}")
    return redirect("console:exclusions")


@require_POST
@console_view("view_floor")
def lift(request):
    require(request, "keep_list")
    request.audit_action = "lift a barring or self-restriction"
    form = LiftForm(request.POST)
    if not form.is_valid():
        request.audit_message = json.dumps(form.errors.get_json_data())
        messages.error(request, "an entry is lifted with the reason why")
        return excluded(request, status=400)
    data = form.cleaned_data
    request.audit_detail = json.dumps(data)
    try:
        entry = exclusions.lift(
            exclusion_id=data["exclusion_id"], reason=data["reason"], by=request.user
        )
    except (RuleError, StateError) as error:
        _refused(request, error)
        return excluded(request, status=400 if isinstance(error, RuleError) else 409)
    messages.success(request, f"{entry.player.name}'s entry is lifted")
    return redirect("console:exclusions")
