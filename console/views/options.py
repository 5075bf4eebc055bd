"""A table's options sheet, changed by a floor supervisor between rounds (docs/rules.md §3.4),
and the game math of the options in force (docs/rules.md §13).

The form is the whole sheet (the new-table form's options and the rest: pre-flop multiples,
pay tables, backline, the rotation policy), filled with the table's; only the options the
supervisor changed are sent to ``tables.services.floor.change_table_options``, the service
the API calls, which judges every value and logs each change. Its refusal (a round in play:
409; a value out of range: 400) is shown on the form with the rule, and nothing changes.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from cardroom.errors import RuleError, StateError
from games import registry
from tables.models import Table
from tables.options import game_options, own_option_words, snapshot
from tables.services import floor
from wagers.math_sheet import figures_sheet, math_sheet

from .. import forms, selectors
from ..permissions import console_view
from ..refusals import refuse


def _render(request, table: Table, form: forms.OptionsSheetForm, status: int = 200):
    context = {
        "table": table,
        "form": form,
        "sheet": selectors.options_sheet(table),
        "changes": selectors.option_changes(table),
    }
    return render(request, "console/options.html", context, status=status)


@require_http_methods(["GET", "POST"])
@console_view("supervise")
def options_sheet(request, table_id: int):
    """GET: the sheet, filled; POST: the options changed, through the floor's service."""
    table = get_object_or_404(Table, pk=table_id)
    if request.method != "POST":
        return _render(request, table, forms.OptionsSheetForm(table=table))
    request.audit_action = "change the options sheet"
    form = forms.OptionsSheetForm(request.POST, table=table)
    if not form.is_valid():
        request.audit_message = json.dumps(form.errors.get_json_data())
        return _render(request, table, form, status=400)
    changes = form.changes()
    request.audit_detail = json.dumps(changes, sort_keys=True)
    if not changes:
        messages.info(request, "no option changed")
        return redirect("console:table", table_id=table.pk)
    before = snapshot(table)
    game = table.game_listing
    try:
        changed = floor.change_table_options(table_id=table.pk, by=request.user, changes=changes)
    except (RuleError, StateError) as error:
        field = error.field if isinstance(error, RuleError) else None
        status = refuse(request, form, error, field)
        return _render(request, Table.objects.get(pk=table.pk), form, status=status)
    said = "; ".join(
        f"{selectors.option_label(name, game)}: {selectors.option_text(name, before[name], game)}"
        f" → {selectors.option_text(name, value, game)}"
        for name, value in changes.items()
    )
    messages.success(request, f"options sheet changed: {said}")
    if changed.waitlist_moved is not None:
        source, target, moved = changed.waitlist_moved
        count = len(moved)
        messages.warning(
            request,
            f"no open table plays {source} any more: its list "
            f"({count} player{'s' if count != 1 else ''}) moved to the {target} list, "
            "in its order, after those already waiting there; tell them (Waitlists)",
        )
    return redirect("console:table", table_id=table.pk)


@require_http_methods(["GET"])
@console_view("view_floor")
def game_math(request, table_id: int):
    """The math sheet of the options in force: each wager's pay table and figures, and the
    strategy card (``wagers.math_sheet``, the same sheet the fee filing prints per table).
    Everyone who may see the floor reads it: the strategy card is written for the dealers."""
    table = get_object_or_404(Table, pk=table_id)
    game = table.game_listing
    if game.own_defaults:  # a game of figures alone (EZ Baccarat): no strategy card
        values = snapshot(table)
        sheet = figures_sheet(registry.game(game.key), values, own_option_words(game, values))
        return render(request, "console/game_figures.html", {"table": table, "sheet": sheet})
    context = {"table": table, "sheet": math_sheet(game_options(table))}
    return render(request, "console/game_math.html", context)
