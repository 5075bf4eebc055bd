"""Read-only pages: the floor map, players and bankrolls, the audit trail."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import get_template, render_to_string
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from cardroom import bounds, sharedcache
from cardroom.clock import now, today
from cardroom.errors import RuleError, describe
from cardroom.gaming_day import gaming_day_of, gaming_day_window
from games.catalog import CHOICES as GAME_CHOICES
from reports import services as report_services
from reports.models import QUEUE_UNREACHABLE, QueueState
from tables.models import Player
from tables.rules.identity import masked
from tables.selectors.floor import floor_versions
from tables.selectors.players import player_list
from tables.services import floor as floor_services
from wagers import selectors as money_selectors

from .. import audit_export as audit_export_report
from .. import forms, selectors
from ..audit_forms import AuditFilterForm
from ..audit_words import Names, RowWords
from ..models import StaffAction
from ..paging import page_of
from ..permissions import console_view, request_capabilities, require
from ..refusals import refuse
from .reports import already


def _floor_key(table_id: int, version: int, moment, seconds: int) -> str:
    """A table's part of the floor map, at this version, in this poll-long slice of time.

    The slices are staggered by table (a fifth of the tables start a new one each second
    at a 5 s poll), so the counters' minutes are never staler than the poll and no single
    request re-renders the whole floor. The key names the deployment (``sharedcache.key``),
    so two floors sharing one cache are kept apart."""
    slice_ = (int(moment.timestamp()) + table_id % seconds) // seconds
    return sharedcache.key("floor", table_id, version, slice_)


def floor_tables_html(request) -> str:
    """The floor map's table list, the same for every role. Each table's part is rendered
    once per table version (every write that locks a table bumps it) and poll-long slice,
    and shared through the ``floor`` cache by every viewer and server process
    (``CONSOLE_FLOOR_CACHE_SECONDS``, the poll; 0 renders every part on every request). A
    poll reads the versions (one query), fetches the parts in one round trip, and renders
    only the tables that changed."""
    seconds = getattr(settings, "CONSOLE_FLOOR_CACHE_SECONDS", 0)
    moment = now()
    versions = floor_versions()
    parts: dict[int, str] = {}
    keys = {}
    if seconds:
        keys = {pk: _floor_key(pk, version, moment, seconds) for pk, version in versions}
        found = sharedcache.get_many("floor", keys.values())
        parts = {pk: found[key] for pk, key in keys.items() if key in found}
    stale = [pk for pk, _ in versions if pk not in parts]
    if stale:
        template = get_template("console/_floor_table.html")
        fresh = {
            row.table.pk: template.render({"row": row})
            for row in selectors.floor_map(moment, table_ids=stale)
        }
        if seconds:
            stored = {keys[pk]: html for pk, html in fresh.items()}
            sharedcache.set_many("floor", stored, 2 * seconds)
        parts.update(fresh)
    ordered = [mark_safe(parts[pk]) for pk, _ in versions if pk in parts]
    return render_to_string("console/_floor_tables.html", {"parts": ordered})


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
    chosen = request.GET.get("game") or None  # the game chosen for the new table's form
    context = {
        "tables": mark_safe(tables),
        "warning_minutes": selectors.WARNING_MINUTES,
        "table_form": table_form
        or forms.TableForm(game=chosen if isinstance(chosen, str) else None),
        "game_chosen": table_form is not None or bool(chosen),
        "games": GAME_CHOICES,
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
    name, game, options = form.table()
    request.audit_detail = str({"name": name, "game": game, **options})
    try:
        table = floor_services.create_table(name=name, game=game, by=request.user, options=options)
    except RuleError as error:
        return floor(request, table_form=form, status=refuse(request, form, error, error.field))
    messages.success(
        request,
        f"table {table.name} created ({table.game_listing.name}): seat players, then open the game",
    )
    return redirect("console:table", table_id=table.pk)


def _unsearchable(request, *texts: str) -> bool:
    """Whether a search holds text nothing stored can hold (a NUL character): said on the
    page, which answers 400 with nothing found."""
    problem = next((p for text in texts if (p := bounds.text_problem(text))), None)
    if problem:
        messages.error(request, f"search: {problem}")
    return problem is not None


@console_view("view_floor")
def players(request, player_form=None, status=200):
    query = request.GET.get("q", "").strip()
    refused = _unsearchable(request, query)
    if refused:
        found = Player.objects.none()
    else:
        found = player_list(filters={"q": query} if query else None)
    page = page_of(request, found.order_by("name"), 50)
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


REGISTRATION_CHANGES_SHOWN = 10  # a TPPP's latest renewals and corrections, on its page


@console_view("view_floor")
def bankroll(
    request,
    player_id: int,
    identification_form=None,
    tppp_form=None,
    sign_in_form=None,
    status=200,
):
    player = get_object_or_404(Player.objects.select_related("tppp", "sign_in__user"), pk=player_id)
    registration = getattr(player, "tppp", None)
    context = {
        "player": player,
        "identification_form": identification_form or forms.EditIdentificationForm(player=player),
        "registration": registration,
        "badge_valid": registration is not None and registration.badge_expires_on >= today(),
        "registration_changes": (
            registration.changes.select_related("changed_by").order_by("-changed_at", "-id")[
                :REGISTRATION_CHANGES_SHOWN
            ]
            if registration is not None
            else []
        ),
        "tppp_form": tppp_form or forms.TPPPRegistrationForm(registration=registration),
        "bankroll": money_selectors.bankroll(player),
        "banks": money_selectors.banks(player)[:50],
        "sessions": money_selectors.sessions(player),
        "chart": selectors.bankroll_chart(player),
        "gaming_day_start": settings.CARDROOM_GAMING_DAY_START,
        "patron_sign_in": getattr(player, "sign_in", None),
        "sign_in_form": sign_in_form or forms.PatronSignInForm(),
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


@require_POST
@console_view("view_floor")
def edit_tppp_registration(request, player_id: int):
    """A supervisor renews a TPPP's badge or corrects the registration, on the player's
    page (docs/rules.md §8.7); every change is kept with what it replaced."""
    require(request, "supervise")
    request.audit_action = "renew or correct a TPPP registration"
    player = get_object_or_404(Player.objects.select_related("tppp"), pk=player_id)
    form = forms.TPPPRegistrationForm(request.POST)
    if not form.is_valid():
        return bankroll(request, player_id, tppp_form=form, status=400)
    changes = form.changes()
    expires = changes["badge_expires_on"]
    request.audit_detail = str(
        {
            "player": player.player_number,
            **changes,
            "badge_expires_on": expires.isoformat() if expires else None,
        }
    )
    try:
        registration = floor_services.update_tppp_registration(
            player_id=player.pk, by=request.user, changes=changes
        )
    except RuleError as error:
        status = refuse(request, form, error, error.field)
        return bankroll(request, player_id, tppp_form=form, status=status)
    expiry = f"{registration.badge_expires_on:%Y-%m-%d}"
    if registration.badge_expires_on >= today():
        messages.success(
            request,
            f"{player.name}'s TPPP registration recorded: badge {registration.badge_number}, "
            f"valid through {expiry}",
        )
    else:
        messages.warning(
            request,
            f"{player.name}'s TPPP registration recorded: badge {registration.badge_number} "
            f"expired on {expiry}, so {player.name} is not seated until it is renewed",
        )
    return redirect("console:bankroll", player_id=player.pk)


def _audit_form(data) -> tuple[AuditFilterForm, selectors.AuditChoices]:
    choices = selectors.audit_choices()
    form = AuditFilterForm(data, tables=choices.tables, actions=choices.actions)
    return form, choices


def _audit_actions(filters: dict):
    """The trail narrowed by the page's valid filters (gaming days as their instants)."""
    start = gaming_day_window(filters["from_day"])[0] if "from_day" in filters else None
    end = gaming_day_window(filters["to_day"])[1] if "to_day" in filters else None
    keys = ("username", "outcome", "channel", "table", "action")
    return selectors.staff_actions(
        **{key: filters[key] for key in keys if key in filters}, start=start, end=end
    )


@console_view("audit")
def audit(request, export_form=None, status=200):
    form, choices = _audit_form(request.GET)
    typed = [value for value in request.GET.values() if isinstance(value, str)]
    refused = _unsearchable(request, *typed)
    if not refused and not form.is_valid():
        refused = True
        for field, errors in form.errors.items():
            name = form.fields[field].label if field in form.fields else field
            messages.error(request, f"{name}: {' '.join(errors)}")
    actions = StaffAction.objects.none() if refused else _audit_actions(form.filters())
    page = page_of(request, actions, 100)
    names = Names()  # each player, table, offer... of the page looked up once
    for action in page:
        action.words = RowWords(action, names)
    context = {
        "page": page,
        "form": form,
        "staff": choices.staff,
        "filters": form.filters() if not refused else {},
        "can_export": request_capabilities(request)["reports"],
        "today": gaming_day_of(now()),
    }
    return render(request, "console/audit.html", context, status=400 if refused else status)


@require_POST
@console_view("reports")
def audit_export(request):
    """A compliance officer asks for the trail as the page filters it: a CSV report of the
    reports pipeline (``console.audit_export``), listed on the reports page when asked."""
    request.audit_action = "export the audit trail"
    form, _ = _audit_form(request.POST)
    if not form.is_valid():
        request.audit_message = json.dumps(form.errors.get_json_data())
        return _audit_refused(request, "; ".join(" ".join(e) for e in form.errors.values()))
    filters = form.filters()
    today = gaming_day_of(now())
    parameters = {
        "from_day": (filters.get("from_day") or filters.get("to_day") or today).isoformat(),
        "to_day": (filters.get("to_day") or today).isoformat(),
        "table": filters.get("table"),
        **{key: filters[key] for key in audit_export_report.FILTERS if key in filters},
    }
    request.audit_detail = json.dumps(
        audit_export_report.described(parameters, _table_name(form)), ensure_ascii=False
    )
    try:
        requested = report_services.request_report(
            report_type=audit_export_report.REPORT_TYPE, parameters=parameters, by=request.user
        )
    except RuleError as error:
        request.audit_message = describe(error)
        return _audit_refused(request, describe(error))
    report = requested.report
    if not requested.created:  # what is happening to it, the queue included
        messages.info(request, already(report, requested.queue, "export"))
    elif requested.queue == QueueState.UNREACHABLE:
        messages.warning(request, f"{QUEUE_UNREACHABLE} (report {report.pk})")
    else:
        messages.success(
            request, f"audit trail export requested as report {report.pk}: it runs in the "
            "background; download it here once it is done"
        )  # fmt: skip
    return redirect("console:reports")


def _table_name(form: AuditFilterForm) -> str:
    chosen = form.cleaned_data.get("table")
    return next((name for pk, name in form.fields["table"].choices if pk == chosen), "")


def _audit_refused(request, text: str):
    messages.error(request, f"export refused: {text}")
    request.GET = request.POST.copy()
    request.GET.pop("csrfmiddlewaretoken", None)
    return audit(request, status=400)
