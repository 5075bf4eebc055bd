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
from tables.services import floor as floor_services
from wagers import selectors as money_selectors

from .. import forms, selectors
from ..models import Outcome, StaffAction
from ..permissions import console_view, require
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


@console_view("view_floor")
def floor(request, table_form=None, status=200):
    tables = floor_tables_html(request)
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
    request.audit_detail = str({k: data[k] for k in ("player_number", "name", "tppp")})
    try:
        player = floor_services.create_player(
            player_number=data["player_number"], name=data["name"], tppp=form.registration()
        )
    except RuleError as error:
        return players(request, player_form=form, status=refuse(request, form, error, error.field))
    messages.success(request, f"{player.name} ({player.player_number}) registered")
    return redirect("console:players")


@console_view("view_floor")
def bankroll(request, player_id: int):
    player = get_object_or_404(Player.objects.select_related("tppp"), pk=player_id)
    points = selectors.bankroll_points(player)
    context = {
        "player": player,
        "bankroll": money_selectors.bankroll(player),
        "banks": money_selectors.banks(player)[:50],
        "sessions": money_selectors.sessions(player),
        "chart": selectors.chart(points),
        "points": points,
    }
    return render(request, "console/bankroll.html", context)


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
