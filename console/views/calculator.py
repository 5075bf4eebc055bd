"""The settlement calculator page (docs/rules.md §11): one hand, entered or opened from a
settled round, resolved and settled in settlement order; nothing is written."""

from __future__ import annotations

import json

from django.http import Http404
from django.shortcuts import get_object_or_404, render

from cardroom import bounds
from cardroom.errors import Rule, RuleError, StateError, describe
from tables.models import Round
from wagers import selectors as money_selectors
from wagers.rules.calculator import settle_request

from ..permissions import console_view

MAX_HAND_TEXT = 100_000  # characters: a hand in the calculator's format is a few thousand


@console_view("view_floor")
def calculator(request):
    text, result, error, opened = "", None, "", None
    if request.method == "POST":
        text = request.POST.get("hand", "")
        try:
            if len(text) > MAX_HAND_TEXT:
                raise RuleError(
                    f"the hand is longer than {MAX_HAND_TEXT:,} characters",
                    rule=Rule.CALCULATOR_FORMAT,
                )
            data = bounds.loads(text)
            result = settle_request(data)
        except RuleError as refused:
            where = f"{refused.field}: " if refused.field else ""
            error = where + describe(refused)
        except ValueError as refused:  # not JSON, or nested too deep
            error = f"the hand is not the calculator's JSON: {refused}"
    elif request.GET.get("round"):
        try:
            round_id = bounds.strict_int(request.GET["round"], minimum=1, maximum=bounds.ID_MAX)
        except bounds.OutOfBounds:
            raise Http404("no such round") from None
        opened = get_object_or_404(Round.objects.select_related("table"), pk=round_id)
        try:
            text = json.dumps(money_selectors.calculator_request(opened), indent=2)
            result = settle_request(json.loads(text))
        except StateError as refused:
            error = describe(refused)
    status = 400 if error and request.method == "POST" else 200
    context = {"text": text, "result": result, "error": error, "opened": opened}
    return render(request, "console/calculator.html", context, status=status)
