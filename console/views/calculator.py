"""The settlement calculator page (docs/rules.md §11): one hand, entered on the form (the
options, the player-dealer, the board, each seat's cards, wagers and decision) or as the
calculator's JSON, or opened from a settled round; resolved and settled in settlement order,
shown as a settlement table in dollars. Nothing is written.

The form builds the same JSON the API and the command take (``console.calculator_forms``);
the JSON itself stays on the page for experts, under a disclosure, and either may be edited
and settled. A refusal names its field and rule in the floor's words: on the form, the
field's label; in the JSON, its path."""

from __future__ import annotations

import json

from django.http import Http404
from django.shortcuts import get_object_or_404, render

from cardroom import bounds
from cardroom.errors import Rule, RuleError, StateError, describe
from games.catalog import CHOICES as GAME_CHOICES
from games.registry import settle_request
from tables.models import Round
from wagers import selectors as money_selectors

from .. import selectors
from ..calculator_forms import form_for, initial_for
from ..permissions import console_view

MAX_HAND_TEXT = 100_000  # characters: a hand in the calculator's format is a few thousand
JSON, FORM = "json", "form"  # which of the page's two ways the hand came in


def _from_json(text: str) -> tuple[dict | None, dict | None, str]:
    """(the hand, its settlement, the refusal in words) for the calculator's JSON as typed."""
    hand = None
    try:
        if len(text) > MAX_HAND_TEXT:
            raise RuleError(
                f"the hand is longer than {MAX_HAND_TEXT:,} characters",
                rule=Rule.CALCULATOR_FORMAT,
            )
        hand = bounds.loads(text)
        return hand, settle_request(hand), ""
    except RuleError as refused:
        where = f"{refused.field}: " if refused.field else ""
        return hand, None, where + describe(refused)
    except ValueError as refused:  # not JSON, or nested too deep
        return (
            None,
            None,
            f"the hand is not the calculator's JSON: {bounds.json_problem_words(refused)}",
        )


def _form_for(hand, game: str | None = None):
    """The form of the hand's game filled with ``hand``, and whether it could hold it (else it
    is left empty and the hand is edited as JSON)."""
    if hand is None:
        return form_for(game)(), True
    form, initial = initial_for(hand)
    return form(initial=initial), initial is not None


@console_view("view_floor")
def calculator(request):
    text, result, error, opened, came_in = "", None, "", None, ""
    chosen = request.POST.get("game") or request.GET.get("game") or None
    form, held = _form_for(None, chosen)
    if request.method == "POST" and "hand" in request.POST:
        came_in = JSON
        text = request.POST.get("hand", "")
        hand, result, error = _from_json(text)
        form, held = _form_for(hand, chosen)
    elif request.method == "POST":
        came_in = FORM
        form = form_for(chosen)(request.POST)
        if form.is_valid():
            hand = form.hand()
            text = json.dumps(hand, indent=2)
            try:
                result = settle_request(hand)
            except RuleError as refused:
                error = form.refuse(refused)
        else:
            error = "; ".join(
                f"{form.fields[name].label}: {' '.join(problems)}"
                if name != "__all__"
                else " ".join(problems)
                for name, problems in form.errors.items()
            )
    elif request.GET.get("round"):
        try:
            round_id = bounds.strict_int(request.GET["round"], minimum=1, maximum=bounds.ID_MAX)
        except bounds.OutOfBounds:
            raise Http404("no such round") from None
        opened = get_object_or_404(Round.objects.select_related("table"), pk=round_id)
        try:
            hand = money_selectors.calculator_request(opened)
        except StateError as refused:
            error = describe(refused)
        else:
            text = json.dumps(hand, indent=2)
            result = settle_request(json.loads(text))
            form, held = _form_for(hand)
    status = 400 if error and request.method == "POST" else 200
    context = {
        "text": text,
        "result": result,
        "error": error,
        "opened": opened,
        "form": form,
        "held": held,
        "json_open": came_in == JSON or not held,
        "all_cards": selectors.all_cards(),
        "games": GAME_CHOICES,
        "baccarat": result is not None and "outcome" in result,
    }
    return render(request, "console/calculator.html", context, status=status)
