"""The floor's waitlist page (docs/rules.md §3.6): every list by stakes, its players in order,
the open seats of its stakes with whom the system proposes, and the floor's actions.

Floor supervisors run the lists; house dealers and compliance see them read-only (the forms
are not shown and a POST is refused with 403). Each action is one form and one call of the
service the API calls; a refusal comes back on the form, naming the rule (400) or the state
(409). Nothing here decides a rule: the proposal shown for a seat is the rules' own
``first_eligible``, and the service checks it again when the floor calls.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.contrib import messages
from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from cardroom import bounds
from cardroom.clock import now
from cardroom.errors import RuleError, StateError
from cardroom.money import duration
from games.catalog import at_stakes
from tables.models import Player, Table, Waitlist
from tables.rules import waitlist as rules
from tables.selectors.floor import seating_list
from tables.selectors.players import player_list
from tables.selectors.waitlists import ListView, stakes_of_list, waitlist_views
from tables.services import waitlists

from .. import selectors
from .. import waitlist_forms as wforms
from ..permissions import console_view, require
from ..refusals import heading, refuse

SUPERVISE = "supervise"
PICKER_LIMIT = 50  # players offered by the join form's picker


# --- What the page shows ----------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    position: int
    player: Player
    entry: rules.Entry
    table_name: str = ""
    overdue: bool = False  # called, and the response time ran out: "No answer" is enabled
    lapsed: bool = False  # a call-in past its window (the clock takes it off)

    @property
    def status(self) -> str:
        if self.lapsed:
            return "phone — call-in lapsed"
        if not self.entry.by_phone:
            return "in the room"
        return "phone — checked in" if self.entry.checked_in else "phone — not checked in"


@dataclass(frozen=True)
class SeatLine:
    table: Table
    seat: int
    hold: object = None  # a hold that ran out: the absent player is picked up first
    calling: Player | None = None
    proposed: Player | None = None
    offered: object = None  # a must-move player or a table change is offered it first


@dataclass(frozen=True)
class ListPanel:
    view: ListView
    rows: tuple[Row, ...]
    seats: tuple[SeatLine, ...]

    @property
    def waitlist(self) -> Waitlist:
        return self.view.waitlist

    @property
    def stakes(self) -> str:
        """The list's game at its stakes: "$20.00 - $2,000.00 EZ Baccarat"."""
        return str(self.waitlist)

    @property
    def policy_text(self) -> str:
        policy = self.view.policy
        where = (
            "keeps their place"
            if policy.pass_over == rules.PassOver.KEEP_PLACE
            else "goes to the bottom"
        )
        return (
            f"answer within {duration(policy.response)} · call-ins hold their place "
            f"{duration(policy.call_in)} · a player passed over {where}"
        )


def list_panels(moment: datetime, offers=None) -> list[ListPanel]:
    """Every list as the floor sees it: the recorded calls (a call whose time ran out is shown
    until the floor or the clock passes the player over), and for each open seat the player
    being called or the first eligible one (the rules' own choice)."""
    views = waitlist_views(moment=moment)
    called_anywhere = {
        (view.waitlist.pk, e.player) for view in views for e in view.now.entries if e.call
    }
    panels = []
    for view in views:
        names = {t.pk: t.name for t in view.tables}
        lapsed = {d.player for d in view.due if d.kind == rules.Kind.LAPSED}
        rows = tuple(
            Row(
                position=number,
                player=view.player(entry.player),
                entry=entry,
                table_name=names.get(entry.call.table, "") if entry.call else "",
                overdue=bool(entry.call and moment >= entry.call.answer_by),
                lapsed=entry.player in lapsed,
            )
            for number, entry in enumerate(view.recorded.entries, start=1)
        )
        recorded_calls = {
            (e.call.table, e.call.seat): e.player for e in view.recorded.entries if e.call
        }
        elsewhere = {p for (pk, p) in called_anywhere if pk != view.waitlist.pk}
        skip = elsewhere | set(view.seated_at_stakes)
        first = rules.first_eligible(view.now, skip=skip)
        seats = []
        for open_seat in view.open_seats:
            calling = recorded_calls.get((open_seat.table.pk, open_seat.seat))
            offered = offers.offered(open_seat.table.pk, open_seat.seat) if offers else None
            seats.append(
                SeatLine(
                    table=open_seat.table,
                    seat=open_seat.seat,
                    hold=open_seat.hold,
                    calling=view.player(calling) if calling else None,
                    proposed=(
                        view.player(first.player) if first and not (calling or offered) else None
                    ),
                    offered=None if calling else offered,
                )
            )
        panels.append(ListPanel(view=view, rows=rows, seats=tuple(seats)))
    return panels


def _stakes_without_list(panels: list[ListPanel]) -> list[tuple[str, str]]:
    """The open tables' games and stakes that have no list yet: the "Open a list" choices."""
    listed = {stakes_of_list(p.waitlist) for p in panels}
    stakes = (
        Table.objects.filter(closed_at__isnull=True)
        .values_list("game", "minimum_cents", "maximum_cents")
        .distinct()
        .order_by("minimum_cents", "maximum_cents", "game")
    )
    return [
        (f"{lo}-{hi}@{game}", at_stakes(lo, hi, game))
        for game, lo, hi in stakes
        if (game, lo, hi) not in listed
    ]


def _picker(request) -> tuple[str, list[Player]]:
    """The join form's players: those matching the search (name or player number), else
    the players not seated; at most PICKER_LIMIT."""
    query = request.GET.get("q", "").strip()
    if bounds.text_problem(query):
        return "", []
    if query:
        found = player_list(filters={"q": query}).order_by("name")
    else:
        seated = seating_list().filter(left_at__isnull=True).values("player_id")
        found = Player.objects.exclude(pk__in=seated).order_by("name")
    return bounds.storable(query), list(found[:PICKER_LIMIT])


def _panel_html(request, moment: datetime, panels: list[ListPanel], seat_requests) -> str:
    return render_to_string(
        "console/_waitlists.html",
        {"panels": panels, "moment": moment, "seat_requests": seat_requests},
        request=request,
    )


def _refused_heading(failed: str) -> str:
    if not failed:
        return ""
    return heading(ACTIONS[failed].label if failed in ACTIONS else OPEN_LIST)


@console_view("view_floor")
def waitlist_page(request, failed: str = "", form=None, status: int = 200):
    moment = now()
    seat_requests = selectors.seat_requests_panel(moment)
    panels = list_panels(moment, seat_requests)
    if request.headers.get("HX-Request") and not failed:
        return HttpResponse(_panel_html(request, moment, panels, seat_requests))
    query, players = _picker(request)
    context = {
        # Our own template's output (autoescaped when it was rendered), so safe to insert.
        "panel": mark_safe(_panel_html(request, moment, panels, seat_requests)),
        "panels": panels,
        "stakes_choices": _stakes_without_list(panels),
        "q": query,
        "players": players,
        "open_form": form if failed == "open" else wforms.StakesForm(),
        "failed": failed,
        "refused_heading": _refused_heading(failed),
        "failed_form": form,
        **selectors.seat_request_choices(),
    }
    return render(request, "console/waitlists.html", context, status=status)


# --- What the floor does ------------------------------------------------------------------------


@dataclass(frozen=True)
class Action:
    label: str  # what the audit trail and the messages call it
    form: type
    run: Callable  # (waitlist id, cleaned data, user) -> success message


def _name(player_id: int) -> str:
    player = Player.objects.filter(pk=player_id).only("name").first()
    return player.name if player else f"player {player_id}"


def _policy(waitlist_id, data, by):
    waitlists.change_policy(waitlist_id=waitlist_id, by=by, **data)
    return "policy changed: from now on"


def _join(waitlist_id, data, by):
    waitlists.join(
        waitlist_id=waitlist_id, player_id=data["player"], by=by, by_phone=data["by_phone"]
    )
    return f"{_name(data['player'])} joins the list" + (" (by phone)" if data["by_phone"] else "")


def _check_in(waitlist_id, data, by):
    waitlists.check_in(waitlist_id=waitlist_id, player_id=data["player"], by=by)
    return f"{_name(data['player'])} checked in"


def _remove(waitlist_id, data, by):
    waitlists.remove(waitlist_id=waitlist_id, player_id=data["player"], by=by)
    return f"{_name(data['player'])} is off the list"


def _call(waitlist_id, data, by):
    event = waitlists.call(
        waitlist_id=waitlist_id,
        table_id=data["table"],
        seat=data["seat"],
        by=by,
        player_id=data.get("player"),
    )
    return f"{_name(event.player_id)} called to {event.table}, seat {event.seat}"


def _seated(waitlist_id, data, by):
    seating = waitlists.answer(waitlist_id=waitlist_id, player_id=data["player"], by=by, take=True)
    return f"{seating.player.name} sits at {seating.table}, seat {seating.seat}"


def _declined(waitlist_id, data, by):
    waitlists.answer(waitlist_id=waitlist_id, player_id=data["player"], by=by, take=False)
    return f"{_name(data['player'])} declined the seat: the next player is called"


def _no_answer(waitlist_id, data, by):
    waitlists.pass_over(waitlist_id=waitlist_id, player_id=data["player"], by=by)
    return f"{_name(data['player'])} passed over (no answer): the next player is called"


def _withdraw(waitlist_id, data, by):
    waitlists.withdraw(waitlist_id=waitlist_id, player_id=data["player"], by=by)
    return f"{_name(data['player'])}'s call withdrawn: they keep their place"


OPEN_LIST = "open a waitlist"  # the one action not on a list of its own

ACTIONS: dict[str, Action] = {
    "policy": Action("change a waitlist's policy", wforms.PolicyForm, _policy),
    "join": Action("add a player to a waitlist", wforms.JoinForm, _join),
    "check_in": Action("check in a call-in", wforms.PlayerForm, _check_in),
    "remove": Action("remove a player from a waitlist", wforms.PlayerForm, _remove),
    "call": Action("call a player to a seat", wforms.CallForm, _call),
    "seated": Action("seat a called player", wforms.PlayerForm, _seated),
    "declined": Action("record a declined call", wforms.PlayerForm, _declined),
    "no_answer": Action("pass over a called player", wforms.PlayerForm, _no_answer),
    "withdraw": Action("withdraw a call", wforms.PlayerForm, _withdraw),
}


def _refused(request, form, error, action: str):
    field = error.field if isinstance(error, RuleError) else None
    status = refuse(request, form, error, field)
    return waitlist_page(request, failed=action, form=form, status=status)


def _done(request, text: str):
    messages.success(request, text)
    return redirect(reverse("console:waitlists"))


@require_POST
@console_view("view_floor")
def waitlist_action(request, waitlist_id: int, action: str):
    if action not in ACTIONS:
        raise Http404("no such action")
    require(request, SUPERVISE)
    return _act(request, waitlist_id, action)


@require_POST
@console_view("view_floor")
def join_list(request):
    """The join form names its list among its fields (one form for every list)."""
    require(request, SUPERVISE)
    chosen = wforms.ListForm(request.POST)
    if not chosen.is_valid():
        request.audit_action = ACTIONS["join"].label
        request.audit_message = json.dumps(chosen.errors.get_json_data())
        return waitlist_page(request, failed="join", form=chosen, status=400)
    return _act(request, chosen.cleaned_data["waitlist"], "join")


def _act(request, waitlist_id: int, action: str):
    spec = ACTIONS[action]
    request.audit_action = spec.label
    if not Waitlist.objects.filter(pk=waitlist_id).exists():
        raise Http404("no such waitlist")
    form = spec.form(request.POST)
    if not form.is_valid():
        request.audit_message = json.dumps(form.errors.get_json_data())
        return waitlist_page(request, failed=action, form=form, status=400)
    data = form.cleaned_data
    request.audit_detail = json.dumps(
        {"waitlist": waitlist_id, **data}, default=str, sort_keys=True
    )
    try:
        done = spec.run(waitlist_id, data, request.user)
    except (RuleError, StateError) as error:
        return _refused(request, form, error, action)
    except ObjectDoesNotExist as error:
        raise Http404(str(error)) from None
    return _done(request, done)


@require_POST
@console_view("view_floor")
def open_list(request):
    """A supervisor opens the list for the stakes of an open table, with its policy."""
    require(request, SUPERVISE)
    request.audit_action = OPEN_LIST
    form = wforms.StakesForm(request.POST)
    if not form.is_valid():
        request.audit_message = json.dumps(form.errors.get_json_data())
        return waitlist_page(request, failed="open", form=form, status=400)
    data = {k: v for k, v in form.cleaned_data.items() if v not in (None, "")}
    low, high, game = data.pop("stakes")
    request.audit_detail = json.dumps(
        {"game": game, "minimum_cents": low, "maximum_cents": high, **data}
    )
    try:
        row = waitlists.open_waitlist(
            minimum_cents=low, maximum_cents=high, game=game, by=request.user, **data
        )
    except (RuleError, StateError) as error:
        field = "stakes" if isinstance(error, RuleError) else None
        status = refuse(request, form, error, field)
        return waitlist_page(request, failed="open", form=form, status=status)
    return _done(request, f"the {row} list is open")
