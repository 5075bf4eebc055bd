"""Recording staff actions. Called by ``AuditMiddleware`` after every write request."""

from __future__ import annotations

import json
import logging

from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse

from cardroom import bounds
from cardroom.clock import now
from tables.models import Round, Table
from tables.rules.identity import masked

from .models import Outcome, StaffAction

logger = logging.getLogger(__name__)

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
SIGN_IN_VIEWS = {"console:login": "sign in", "api-token": "API token sign-in"}
SIGN_OUT_VIEWS = {
    "console:logout": "sign out",
    "api-token-logout": "API token sign-out",
    "api-token-logout-all": "API sign-out of every token",
}
MAX_DETAIL = 1000
# The card-entry steps (docs/rules.md §2.3): a card keyed may be a hole card, secret until
# the showdown (§2.6). The trail, read while the hand is in play, records that cards were
# keyed, never which: the hand keeps those it accepted, and a refused entry keeps none.
CARD_ENTRY_VIEWS = frozenset(
    {"rounds:round-deal", "rounds:round-flop", "rounds:round-turn-river", "rounds:round-showdown"}
)
KEYED_CARDS_NOT_RECORDED = "(keyed cards are not recorded here: docs/rules.md §2.6)"


# Why a sign-in was refused, as the trail says it (the page and the API say less: they do
# not tell a caller whether the user name exists).
LOCKED_OUT = (
    "locked out: too many failed sign-ins for this user name from this address "
    "(django-axes); the password was not checked"
)
BAD_PASSWORD = "bad password"
UNKNOWN_USER = "unknown user name"
NOT_STAFF = "not staff: this account may not use the console"
INACTIVE = "account inactive"
API_MESSAGE_LIMIT = 65_536  # an error body larger than this is not read for its message


def bad_credentials(username: str) -> str:
    """A refused password check: whether the user name typed is an account's."""
    users = get_user_model()._default_manager
    if not username or len(username) > 150 or bounds.text_problem(username):
        return UNKNOWN_USER  # no account can have it (and PostgreSQL would refuse a NUL)
    known = users.filter(username=username).exists()
    return BAD_PASSWORD if known else UNKNOWN_USER


def _outcome(status: int) -> str:
    if status >= 500:
        return Outcome.FAILED
    if status >= 400:
        return Outcome.REFUSED
    return Outcome.DONE


def _ip(request: HttpRequest) -> str | None:
    return request.META.get("REMOTE_ADDR") or None


def _without_secret(key: str, value):
    key = key.lower()
    if "password" in key or "token" in key:
        return "***"
    if key == "id_number":  # shown only masked, the trail included (docs/rules.md §3.3)
        return masked(value) if isinstance(value, str) else "***"
    return value


def _without_secrets(value):
    if isinstance(value, dict):
        return {k: _without_secret(str(k), v) for k, v in value.items()}
    return value


def _without_keyed_cards(body: str) -> str:
    """A card-entry request's body as the trail keeps it: the names of its fields, none of
    their values (whatever the shape, a card may be anywhere in it)."""
    try:
        value = json.loads(body)
    except ValueError:
        return KEYED_CARDS_NOT_RECORDED
    if not isinstance(value, dict):
        return KEYED_CARDS_NOT_RECORDED
    return json.dumps(
        dict.fromkeys(value, KEYED_CARDS_NOT_RECORDED), sort_keys=True, ensure_ascii=False
    )


def api_body(request: HttpRequest) -> str:
    """A JSON request's body (passwords masked), read before the view so DRF can re-read it."""
    if request.content_type != "application/json":
        return ""
    if int(request.META.get("CONTENT_LENGTH") or 0) > 16_384:
        return "(body too large to record)"
    try:
        text = (request.body or b"null").decode("utf-8")
    except UnicodeDecodeError:
        return "(body not JSON)"
    if bounds.too_deep(text):  # the API refuses it too: the row records that it was sent
        return f"(body nested deeper than {bounds.JSON_MAX_DEPTH} levels)"
    try:
        return json.dumps(_without_secrets(bounds.loads(text)), sort_keys=True)
    except ValueError:
        return "(body not JSON)"


def _typed_username(request: HttpRequest, body: str) -> str:
    """The user name a failed sign-in typed: the console's form, or the API's JSON body."""
    try:
        typed = request.POST.get("username", "")
        if not typed and body.startswith("{"):
            typed = json.loads(body).get("username", "")
    except Exception:  # a body that does not parse: the sign-in is still recorded
        return ""
    return typed if isinstance(typed, str) else str(typed)


def _api_message(response: HttpResponse) -> str:
    """The message of the API's error body (``cardroom.api.error_body``), or ""."""
    data = getattr(response, "data", None)
    if data is None and response.get("Content-Type", "").startswith("application/json"):
        content = getattr(response, "content", b"")
        if len(content) <= API_MESSAGE_LIMIT:
            try:
                data = json.loads(content)
            except ValueError:
                data = None
    if isinstance(data, dict) and isinstance(data.get("message"), str):
        return data["message"]
    return ""


def _refusal_message(request, response, view_name: str, username: str) -> str:
    """The message a refusal showed (the view's, else the API's error body); for a refused
    sign-in, why: locked out, bad password, unknown user name, not staff."""
    message = str(getattr(request, "audit_message", "") or "")
    status = response.status_code
    if status < 400:
        return message
    if view_name in SIGN_IN_VIEWS:
        if status == 429:
            return LOCKED_OUT
        if view_name == "api-token" and not message:
            shown = _api_message(response)
            if response.status_code == 400 and "credentials" in shown:
                return f"{shown} ({bad_credentials(username)})"
            return shown
        return message
    if not message and status == 429:
        message = LOCKED_OUT
    if not message and request.path.startswith("/api/"):
        message = _api_message(response)
    return message


def _where(kwargs: dict, detail: str) -> tuple[int | None, str, int | None, int | None]:
    """The table (id, name) and the round (id, number) the action was on: from the path, or
    the round the console's form posted (``round_id``); names as they are now, at the write."""
    table_id, round_id = kwargs.get("table_id"), kwargs.get("round_id")
    if round_id is None and detail.startswith("{"):
        try:
            posted = json.loads(detail).get("round_id")
        except (ValueError, AttributeError):
            posted = None
        if isinstance(posted, int) and not isinstance(posted, bool) and 0 < posted <= bounds.ID_MAX:
            round_id = posted
    table_name, round_number = "", None
    if round_id is not None:
        found = Round.objects.filter(pk=round_id).values_list("table_id", "table__name", "number")
        if (row := found.first()) is not None and table_id in (None, row[0]):
            table_id, table_name, round_number = row
    if table_id is not None and not table_name:
        table_name = Table.objects.filter(pk=table_id).values_list("name", flat=True).first() or ""
    return table_id, table_name, round_id, round_number


def record(request: HttpRequest, response: HttpResponse, *, user_before, body: str) -> None:
    """One StaffAction row for this write; never lets a failure to record hide the answer."""
    match = getattr(request, "resolver_match", None)
    view_name = match.view_name if match else ""
    kwargs = match.kwargs if match else {}
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        user = user_before if user_before is not None and user_before.is_authenticated else None
    if view_name in SIGN_IN_VIEWS:
        channel, action = "auth", SIGN_IN_VIEWS[view_name]
        username = _typed_username(request, body) if user is None else user.get_username()
        body = ""
    elif view_name in SIGN_OUT_VIEWS:
        channel, action = "auth", SIGN_OUT_VIEWS[view_name]
        username = user.get_username() if user else ""
    else:
        channel = "console" if view_name.startswith("console:") else "api"
        action = getattr(request, "audit_action", "") or view_name or "unrouted"
        username = user.get_username() if user else ""
    if view_name in CARD_ENTRY_VIEWS and body:
        body = _without_keyed_cards(body)
    detail = getattr(request, "audit_detail", "") or body
    try:
        message = _refusal_message(request, response, view_name, username)
        table_id, table_name, round_id, round_number = _where(kwargs, detail)
    except Exception:  # a lookup that fails must not lose the row: recorded without it
        logger.exception("could not describe the staff action %s %s", request.method, request.path)
        message = str(getattr(request, "audit_message", "") or "")
        table_id, table_name = kwargs.get("table_id"), ""
        round_id, round_number = kwargs.get("round_id"), None
    try:
        # Whatever was typed is recorded: a NUL or a lone surrogate escaped (bounds.storable),
        # which PostgreSQL would refuse and the row would be lost with it.
        StaffAction.objects.create(
            at=now(),
            user=user,
            username=bounds.storable(username)[:150],
            channel=channel,
            action=bounds.storable(action)[:64],
            method=bounds.storable(request.method)[:8],
            path=bounds.storable(request.path)[:300],
            table_id=table_id,
            table_name=bounds.storable(table_name)[:64],
            round_id=round_id,
            round_number=round_number,
            detail=bounds.storable(detail)[:MAX_DETAIL],
            outcome=_outcome(response.status_code),
            status_code=response.status_code,
            message=bounds.storable(str(message))[:MAX_DETAIL],
            ip_address=_ip(request),
        )
    except Exception:  # the answer already happened; a lost audit row must be loud, not fatal
        logger.exception("could not record the staff action %s %s", request.method, request.path)
