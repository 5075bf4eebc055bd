"""API conventions shared by every app: role permissions, error answers, idempotency keys.

- A broken rule (RuleError) answers 400 with the field and the rule named.
- An action not allowed in the current state (StateError) answers 409 naming the state.
- A role that may not act answers 403.
- A write carrying an ``Idempotency-Key`` header is applied once: a repeat with
  the same key and the same request replays the first answer.
"""

from __future__ import annotations

import functools
import hashlib
import json

from django.core.exceptions import ObjectDoesNotExist
from django.db import IntegrityError, transaction
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import BasePermission
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from cardroom.clock import now
from cardroom.models import IdempotencyKey
from cardroom.roles import Role, has_role
from tables.rules.errors import RuleError, StateError

IDEMPOTENCY_HEADER = "HTTP_IDEMPOTENCY_KEY"


def role_permission(*roles: Role, read: tuple[Role, ...] | None = None) -> type[BasePermission]:
    """Writes need one of ``roles``; reads need one of ``read`` (by default the same roles)."""

    readers = roles if read is None else read

    class HasRole(BasePermission):
        message = "your role may not do this"

        def has_permission(self, request, view) -> bool:
            needed = readers if request.method in ("GET", "HEAD", "OPTIONS") else roles
            return has_role(request.user, *needed)

    HasRole.__name__ = "HasRole_" + "_".join(role.value for role in roles)
    return HasRole


def rule_error_body(error: RuleError) -> dict:
    field = error.field or "non_field_errors"
    return {field: [error.message], "rule": error.rule, "detail": error.message}


def state_error_body(error: StateError) -> dict:
    return {"detail": error.message, "state": error.state, "rule": error.rule}


def exception_handler(exc, context):
    """DRF's handler, taught our two domain errors and missing rows."""
    if isinstance(exc, RuleError):
        return Response(rule_error_body(exc), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, StateError):
        return Response(state_error_body(exc), status=status.HTTP_409_CONFLICT)
    if isinstance(exc, ObjectDoesNotExist):
        exc = NotFound(str(exc) or "not found")
    return drf_exception_handler(exc, context)


def _fingerprint(request) -> str:
    body = json.dumps(request.data, sort_keys=True, default=str) if request.data else ""
    return hashlib.sha256(f"{request.method} {request.path}\n{body}".encode()).hexdigest()


def _replay(record: IdempotencyKey, request) -> Response:
    if record.request_hash != _fingerprint(request):
        return Response(
            {
                "detail": "this Idempotency-Key was used for a different request",
                "state": "key_reused",
            },
            status=status.HTTP_422_UNPROCESSABLE_ENTITY,
        )
    response = Response(record.response_body, status=record.status_code)
    response["Idempotent-Replayed"] = "true"
    return response


def idempotent(method):
    """Wrap an APIView write method so a repeated ``Idempotency-Key`` never applies twice.

    The key row is inserted in the same transaction as the action: a concurrent
    duplicate waits on the unique key, then finds the stored answer and replays it.
    """

    @functools.wraps(method)
    def wrapper(view, request, *args, **kwargs):
        key = request.META.get(IDEMPOTENCY_HEADER)
        if not key:
            return method(view, request, *args, **kwargs)
        if len(key) > 128:
            return Response({"Idempotency-Key": ["at most 128 characters"]}, status=400)
        existing = IdempotencyKey.objects.filter(user=request.user, key=key).first()
        if existing is not None:
            return _replay(existing, request)
        try:
            with transaction.atomic():
                try:
                    with transaction.atomic():
                        record = IdempotencyKey.objects.create(
                            user=request.user,
                            key=key,
                            method=request.method,
                            path=request.path[:512],
                            request_hash=_fingerprint(request),
                            created_at=now(),
                        )
                except IntegrityError:
                    # A concurrent request with this key committed first: replay its answer.
                    return _replay(IdempotencyKey.objects.get(user=request.user, key=key), request)
                try:
                    response = method(view, request, *args, **kwargs)
                except (RuleError, StateError, ObjectDoesNotExist) as error:
                    response = exception_handler(error, {"view": view, "request": request})
                if response.status_code >= 500:
                    raise _ServerError(response)
                record.status_code = response.status_code
                record.response_body = response.data
                record.save(update_fields=["status_code", "response_body"])
                return response
        except _ServerError as failure:
            return failure.response  # not stored: a retry may succeed

    return wrapper


class _ServerError(Exception):
    def __init__(self, response) -> None:
        self.response = response
