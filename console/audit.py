"""Recording staff actions. Called by ``AuditMiddleware`` after every write request."""

from __future__ import annotations

import json
import logging

from django.http import HttpRequest, HttpResponse

from cardroom import bounds
from cardroom.clock import now
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
# Hole cards keyed in at the deal are secret until the showdown (docs/rules.md §2.6): the
# round keeps them; the trail, read while the hand is in play, records only that they were.
HOLE_CARD_ENTRY_VIEWS = frozenset({"rounds:round-deal"})
HOLE_CARDS_WITHHELD = "(withheld until the showdown, docs/rules.md §2.6)"


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


def _without_hole_cards(body: str) -> str:
    try:
        value = json.loads(body)
    except ValueError:
        return body
    if not isinstance(value, dict) or "cards" not in value:
        return body
    return json.dumps({**value, "cards": HOLE_CARDS_WITHHELD}, sort_keys=True, ensure_ascii=False)


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
    message = getattr(request, "audit_message", "")
    if not message and response.status_code == 429:
        message = "sign-in locked after repeated failures (django-axes)"
    if view_name in HOLE_CARD_ENTRY_VIEWS and body:
        body = _without_hole_cards(body)
    detail = getattr(request, "audit_detail", "") or body
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
            table_id=kwargs.get("table_id"),
            round_id=kwargs.get("round_id"),
            detail=bounds.storable(detail)[:MAX_DETAIL],
            outcome=_outcome(response.status_code),
            status_code=response.status_code,
            message=bounds.storable(str(message))[:MAX_DETAIL],
            ip_address=_ip(request),
        )
    except Exception:  # the answer already happened; a lost audit row must be loud, not fatal
        logger.exception("could not record the staff action %s %s", request.method, request.path)
