"""Recording staff actions. Called by ``AuditMiddleware`` after every write request."""

from __future__ import annotations

import json
import logging

from django.http import HttpRequest, HttpResponse

from cardroom.clock import now

from .models import Outcome, StaffAction

logger = logging.getLogger(__name__)

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
SIGN_IN_VIEWS = {"console:login": "sign in", "api-token": "API token sign-in"}
SIGN_OUT_VIEWS = {"console:logout": "sign out"}
MAX_DETAIL = 1000


def _outcome(status: int) -> str:
    if status >= 500:
        return Outcome.FAILED
    if status >= 400:
        return Outcome.REFUSED
    return Outcome.DONE


def _ip(request: HttpRequest) -> str | None:
    return request.META.get("REMOTE_ADDR") or None


def _without_secrets(value):
    if isinstance(value, dict):
        return {
            k: ("***" if "password" in str(k).lower() or "token" in str(k).lower() else v)
            for k, v in value.items()
        }
    return value


def api_body(request: HttpRequest) -> str:
    """A JSON request's body (passwords masked), read before the view so DRF can re-read it."""
    if request.content_type != "application/json":
        return ""
    if int(request.META.get("CONTENT_LENGTH") or 0) > 16_384:
        return "(body too large to record)"
    try:
        return json.dumps(_without_secrets(json.loads(request.body or b"null")), sort_keys=True)
    except (ValueError, UnicodeDecodeError):
        return "(body not JSON)"


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
        username = request.POST.get("username", "")[:150] if user is None else user.get_username()
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
    detail = getattr(request, "audit_detail", "") or body
    try:
        StaffAction.objects.create(
            at=now(),
            user=user,
            username=username,
            channel=channel,
            action=action[:64],
            method=request.method,
            path=request.path[:300],
            table_id=kwargs.get("table_id"),
            round_id=kwargs.get("round_id"),
            detail=detail[:MAX_DETAIL],
            outcome=_outcome(response.status_code),
            status_code=response.status_code,
            message=str(message)[:MAX_DETAIL],
            ip_address=_ip(request),
        )
    except Exception:  # the answer already happened; a lost audit row must be loud, not fatal
        logger.exception("could not record the staff action %s %s", request.method, request.path)
