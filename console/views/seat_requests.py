"""The waitlist page's must-move tables and table changes (docs/rules.md §3.6, docs/floor.md):
who is offered each open seat before the list, the move (the player leaves their seat with
their chips carried there, ``wagers.services.leaving``), a pass, and the lines themselves.

Floor supervisors run them; the other roles see them read-only. Each action is one form and
one service call, the API's; a refusal comes back on the waitlist page in the floor's words.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from django.contrib import messages
from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from cardroom.errors import Rule, RuleError, StateError
from tables.models import Player, Seating, Table
from tables.services import seat_requests
from wagers.services.leaving import Chips, leave_seat

from .. import waitlist_forms as wforms
from ..permissions import console_view, require
from ..refusals import refuse
from . import waitlists

# --- What the floor does ------------------------------------------------------------------------


@dataclass(frozen=True)
class Action:
    label: str
    form: type
    run: Callable  # (cleaned data, user) -> success message


def _name(player_id: int) -> str:
    player = Player.objects.filter(pk=player_id).only("name").first()
    return player.name if player else f"player {player_id}"


def _start(data, by):
    link = seat_requests.start_must_move(
        table_id=data["table"], main_table_id=data["main_table"], by=by
    )
    return f"{link.table} is a must-move table: its players move to {link.main_table}, first come"


def _end(data, by):
    link = seat_requests.end_must_move(must_move_id=data["must_move"], by=by)
    return f"{link.table} no longer feeds {link.main_table}"


def _ask(data, by):
    change = seat_requests.ask_table_change(
        player_id=data["player"], to_table_id=data.get("to_table"), by=by
    )
    where = change.to_table or f"any {change.stakes} table"
    return f"{change.player.name} asked for a table change to {where}"


def _cancel(data, by):
    change = seat_requests.cancel_table_change(table_change_id=data["table_change"], by=by)
    return f"{change.player.name}'s table change cancelled"


def _move(data, by):
    table = Table.objects.get(pk=data["table"])
    seat_requests.require_offered(table, data["seat"], data["player"])  # as the page showed
    seating = Seating.objects.filter(player_id=data["player"], left_at__isnull=True).first()
    if seating is None:
        raise RuleError(
            f"{_name(data['player'])} is not seated", rule=Rule.TABLE_CHANGE, field="player"
        )
    left = leave_seat(
        table_id=seating.table_id,
        seat=seating.seat,
        by=by,
        chips=Chips.CARRY,
        to_table_id=table.pk,
        to_seat=data["seat"],
    )
    return left.message


def _pass(data, by):
    seat_requests.pass_seat(
        table_id=data["table"], seat=data["seat"], player_id=data["player"], by=by
    )
    table = Table.objects.get(pk=data["table"])
    return (
        f"{_name(data['player'])} passes {table} seat {data['seat']}: it goes to the next in line"
    )


ACTIONS: dict[str, Action] = {
    "start": Action("start a must-move table", wforms.MustMoveForm, _start),
    "end": Action("end a must-move table", wforms.LinkForm, _end),
    "ask": Action("ask for a table change", wforms.TableChangeForm, _ask),
    "cancel": Action("cancel a table change", wforms.ChangeForm, _cancel),
    "move": Action("move a player to the seat offered", wforms.OfferForm, _move),
    "pass": Action("record a pass of the seat offered", wforms.OfferForm, _pass),
}


@require_POST
@console_view("view_floor")
def seat_request_action(request, action: str):
    if action not in ACTIONS:
        raise Http404("no such action")
    require(request, waitlists.SUPERVISE)
    spec = ACTIONS[action]
    request.audit_action = spec.label
    form = spec.form(request.POST)
    failed = spec.label
    if not form.is_valid():
        request.audit_message = json.dumps(form.errors.get_json_data())
        return waitlists.waitlist_page(request, failed=failed, form=form, status=400)
    data = form.cleaned_data
    request.audit_detail = json.dumps(data, default=str, sort_keys=True)
    try:
        done = spec.run(data, request.user)
    except (RuleError, StateError) as error:
        field = error.field if isinstance(error, RuleError) else None
        status = refuse(request, form, error, field)
        return waitlists.waitlist_page(request, failed=failed, form=form, status=status)
    except ObjectDoesNotExist as error:
        raise Http404(str(error)) from None
    messages.success(request, done)
    return redirect(reverse("console:waitlists"))
