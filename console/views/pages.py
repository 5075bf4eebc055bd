"""Read-only pages: the floor map, players and bankrolls, the audit trail."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from cardroom import bounds
from tables import selectors as floor_selectors
from tables.models import Player
from wagers import selectors as money_selectors

from .. import selectors
from ..models import Outcome, StaffAction
from ..permissions import console_view

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
def floor(request):
    tables = floor_tables_html(request)
    if request.headers.get("HX-Request"):
        return HttpResponse(tables)
    # Our own template's output (autoescaped when it was rendered), so safe to insert.
    context = {"tables": mark_safe(tables), "warning_minutes": selectors.WARNING_MINUTES}
    return render(request, "console/floor.html", context)


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
def players(request):
    query = request.GET.get("q", "").strip()
    refused = _unsearchable(request, query)
    if refused:
        found = Player.objects.none()
    else:
        found = floor_selectors.player_list(filters={"q": query} if query else None)
    page = Paginator(found.order_by("name"), 50).get_page(_page_number(request))
    context = {"page": page, "q": bounds.storable(query)}
    return render(request, "console/players.html", context, status=400 if refused else 200)


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
