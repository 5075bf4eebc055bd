"""Read-only pages: the floor map, players and bankrolls, the audit trail."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from cardroom import bounds
from cardroom.errors import RuleError
from tables import selectors as floor_selectors
from tables.models import Player
from tables.rules.identity import masked
from tables.services import floor as floor_services
from wagers import selectors as money_selectors

from .. import forms, selectors
from ..models import Outcome, StaffAction
from ..permissions import console_view, request_capabilities, require
from ..refusals import refuse

FLOOR_CACHE_KEY = "console:floor-tables"


def floor_tables_html(request) -> str:
    """The floor map's table list, the same for every role; rendered at most once per
    ``CONSOLE_FLOOR_CACHE_SECONDS`` per server process (0: every time), since twenty staff
    polling every 5 seconds would otherwise each pay for the same page."""
    seconds = getattr(settings, "CONSOLE_FLOOR_CACHE_SECONDS", 0)
    html = cache.get(FLOOR_CACHE_KEY) if seconds else None
    if html is None:
        context = {"rows": selectors.floor_map()}
        html = render_to_string("console/_floor_tables.html", context, request=request)
        if seconds:
            cache.set(FLOOR_CACHE_KEY, html, seconds)
    return html


def closed_tables_html(request) -> str:
    """For a supervisor, each closed table with its Reopen button: rendered for each request
    (never in the shared floor cache), as it carries the user's own CSRF token."""
    if not request_capabilities(request)["supervise"]:
        return ""
    context = {"closed": selectors.closed_tables()}
    return render_to_string("console/_closed_tables.html", context, request=request)


@console_view("view_floor")
def floor(request, table_form=None, status=200):
    tables = closed_tables_html(request) + floor_tables_html(request)
    if request.headers.get("HX-Request"):
        return HttpResponse(tables)
    # Our own template's output (autoescaped when it was rendered), so safe to insert.
    context = {
        "tables": mark_safe(tables),
        "warning_minutes": selectors.WARNING_MINUTES,
        "table_form": table_form or forms.TableForm(),
    }
    return render(request, "console/floor.html", context, status=status)


@require_POST
@console_view("view_floor")
def create_table(request):
    """A supervisor opens a new table from the floor map, with its first options."""
    require(request, "supervise")
    request.audit_action = "create a table"
    form = forms.TableForm(request.POST)
    if not form.is_valid():
        return floor(request, table_form=form, status=400)
    options = dict(form.cleaned_data)
    name = options.pop("name")
    request.audit_detail = str({"name": name, **options})
    try:
        table = floor_services.create_table(name=name, by=request.user, options=options)
    except RuleError as error:
        return floor(request, table_form=form, status=refuse(request, form, error, error.field))
    messages.success(request, f"table {table.name} created: seat players, then open the game")
    return redirect("console:table", table_id=table.pk)


def _unsearchable(request, *texts: str) -> bool:
    """Whether a search holds text nothing stored can hold (a NUL character): said on the
    page, which answers 400 with nothing found."""
    problem = next((p for text in texts if (p := bounds.text_problem(text))), None)
    if problem:
        messages.error(request, f"search: {problem}")
    return problem is not None


def _page_number(request) -> int:
    """The page asked for, in the ASCII digits; anything else is the first page."""
    try:
        return bounds.strict_int(request.GET.get("page", "1"), minimum=1, maximum=bounds.ID_MAX)
    except bounds.OutOfBounds:
        return 1


@console_view("view_floor")
def players(request, player_form=None, status=200):
    query = request.GET.get("q", "").strip()
    refused = _unsearchable(request, query)
    if refused:
        found = Player.objects.none()
    else:
        found = floor_selectors.player_list(filters={"q": query} if query else None)
    page = Paginator(found.order_by("name"), 50).get_page(_page_number(request))
    context = {
        "page": page,
        "q": bounds.storable(query),
        "player_form": player_form or forms.PlayerForm(),
    }
    return render(request, "console/players.html", context, status=400 if refused else status)


@require_POST
@console_view("view_floor")
def create_player(request):
    """A supervisor registers a player (and a TPPP's registration) from the players page."""
    require(request, "supervise")
    request.audit_action = "register a player"
    form = forms.PlayerForm(request.POST)
    if not form.is_valid():
        return players(request, player_form=form, status=400)
    data = form.cleaned_data
    identification = form.identification()
    request.audit_detail = str(
        {
            **{k: data[k] for k in ("player_number", "name", "tppp")},
            **_masked(identification),
        }
    )
    try:
        player = floor_services.create_player(
            player_number=data["player_number"],
            name=data["name"],
            tppp=form.registration(),
            **identification,
        )
    except RuleError as error:
        return players(request, player_form=form, status=refuse(request, form, error, error.field))
    messages.success(request, f"{player.name} ({player.player_number}) registered")
    return redirect("console:players")


def _masked(identification: dict) -> dict:
    """Identification as the audit trail records it: the number masked (docs/rules.md §3.3)."""
    if "id_number" in identification:
        return {**identification, "id_number": masked(identification["id_number"])}
    return identification


@console_view("view_floor")
def bankroll(request, player_id: int, identification_form=None, status=200):
    player = get_object_or_404(Player.objects.select_related("tppp"), pk=player_id)
    points = selectors.bankroll_points(player)
    context = {
        "player": player,
        "identification_form": identification_form or forms.EditIdentificationForm(player=player),
        "bankroll": money_selectors.bankroll(player),
        "banks": money_selectors.banks(player)[:50],
        "sessions": money_selectors.sessions(player),
        "chart": selectors.chart(points),
        "points": points,
    }
    return render(request, "console/bankroll.html", context, status=status)


@require_POST
@console_view("view_floor")
def edit_identification(request, player_id: int):
    """A supervisor records or corrects a player's identification, on the player's page."""
    require(request, "supervise")
    request.audit_action = "edit a player's identification"
    player = get_object_or_404(Player, pk=player_id)
    form = forms.EditIdentificationForm(request.POST, player=player)
    if not form.is_valid():
        return bankroll(request, player_id, identification_form=form, status=400)
    changes = form.changes()
    request.audit_detail = str({"player": player.player_number, **_masked(changes)})
    try:
        floor_services.update_player_identification(
            player_id=player.pk, by=request.user, changes=changes
        )
    except RuleError as error:
        status = refuse(request, form, error, error.field)
        return bankroll(request, player_id, identification_form=form, status=status)
    messages.success(request, f"{player.name}'s identification recorded")
    return redirect("console:bankroll", player_id=player.pk)


@console_view("audit")
def audit(request):
    filters = {
        "username": request.GET.get("username", "").strip(),
        "outcome": request.GET.get("outcome", ""),
        "channel": request.GET.get("channel", ""),
    }
    refused = _unsearchable(request, *filters.values())
    actions = StaffAction.objects.none() if refused else selectors.staff_actions(**filters)
    page = Paginator(actions, 100).get_page(_page_number(request))
    filters = {key: bounds.storable(value) for key, value in filters.items()}
    context = {"page": page, "filters": filters, "outcomes": Outcome.choices}
    return render(request, "console/audit.html", context, status=400 if refused else 200)
