"""The API toolkit every app's API uses: permissions, error answers, idempotency keys,
timestamps, pagination and the schema helpers.

Every error answers one body, whatever raised it::

    {"code": ..., "rule": ..., "section": ..., "field": ..., "message": ...}

- a broken rule (``RuleError``): 400, ``code`` ``rule_broken``, the rule's identifier and
  its section of docs/rules.md, the field that broke it;
- input that does not parse (a serializer's validation): 400, ``code`` ``invalid``, the
  first field and message, and every field's messages under ``errors``;
- an action not allowed in the current state (``StateError``): 409, ``code`` the state;
- a role that may not act: 403 ``permission_denied``; no credentials: 401
  ``not_authenticated``, a token that is wrong, expired or ended: 401
  ``authentication_failed``, both with the challenge ``WWW-Authenticate: Token`` (the token
  authenticator comes first; cardroom/tokens.py); no such row: 404 ``not_found``; a body
  that is not JSON: 400 ``parse_error``.

A write carrying an ``Idempotency-Key`` header is applied once: a repeat with the same key
and the same request replays the first answer; with another request it answers 422.

A write that offers it (``write_answer``, ``write_schema(..., minimal=...)``) honours
``Prefer: return=minimal`` (RFC 7240): the same status code with a small body built from what
the service returned, without reading the row back, and ``Preference-Applied:
return=minimal``; without the preference (or with ``return=representation``) the full answer.
A minimal answer stored under an ``Idempotency-Key`` replays as that minimal answer, with
``Preference-Applied``, whatever the repeat prefers.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

import django_filters
from django.core.exceptions import ObjectDoesNotExist
from django.db import IntegrityError, InterfaceError, OperationalError, transaction
from django.db.models import QuerySet
from django.http import Http404, JsonResponse
from django.utils.crypto import salted_hmac
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, PolymorphicProxySerializer
from rest_framework import exceptions, parsers, serializers, status
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from cardroom import bounds
from cardroom.clock import now
from cardroom.errors import Refused, Rule, RuleError, State, StateError
from cardroom.filtering import IdFilter
from cardroom.models import IdempotencyKey
from cardroom.roles import READ_FLOOR, RUN_TABLE, SUPERVISE, Role, has_role
from cardroom.secret_columns import REFUSED, secret_parameter

log = logging.getLogger(__name__)

IDEMPOTENCY_HEADER = "HTTP_IDEMPOTENCY_KEY"
RULE_BROKEN = "rule_broken"
INVALID = "invalid"
PARSE_ERROR = "parse_error"
UNAVAILABLE = "unavailable"
DATABASE_UNAVAILABLE = (
    "the database did not answer; nothing was changed: try again in a few seconds"
)


# --- Permissions --------------------------------------------------------------------------


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


# Reads need a floor role; writes the role named. IsAuthenticated first, so an anonymous
# caller is told to authenticate rather than that their role may not act.
READ = [IsAuthenticated, role_permission(*READ_FLOOR)]
RUN_TABLE_OR_READ = [IsAuthenticated, role_permission(*RUN_TABLE, read=READ_FLOOR)]
SUPERVISE_OR_READ = [IsAuthenticated, role_permission(*SUPERVISE, read=READ_FLOOR)]


# --- Error answers ------------------------------------------------------------------------


def error_body(
    *,
    code: str,
    message: str,
    rule: Rule | None = None,
    field: str | None = None,
    errors: Any = None,
) -> dict:
    body = {
        "code": str(code),
        "rule": None if rule is None else rule.value,
        "section": None if rule is None else rule.section,
        "field": field,
        "message": message,
    }
    if errors is not None:
        body["errors"] = errors
    return body


def _first_error(detail: Any, path: str = "") -> tuple[str | None, str]:
    """The first field (as a dotted path) and message of a validation error's detail."""
    if isinstance(detail, Mapping):
        for key, value in detail.items():
            if key == "non_field_errors":
                return _first_error(value, path)
            child = f"{path}.{key}" if path else str(key)
            return _first_error(value, child)
        return (path or None), "invalid input"
    if isinstance(detail, Sequence) and not isinstance(detail, str):
        for index, value in enumerate(detail):
            if isinstance(value, Mapping | list):
                return _first_error(value, f"{path}[{index}]")
            return (path or None), str(value)
        return (path or None), "invalid input"
    return (path or None), str(detail)


def refusal_response(error: RuleError | StateError) -> Response:
    """The answer to a domain refusal: 400 for a broken rule, 409 for the wrong state."""
    if isinstance(error, RuleError):
        body = error_body(
            code=RULE_BROKEN, message=error.message, rule=error.rule, field=error.field
        )
        return Response(body, status=status.HTTP_400_BAD_REQUEST)
    body = error_body(code=error.state, message=error.message, rule=error.rule)
    return Response(body, status=status.HTTP_409_CONFLICT)


def refused_response(refused: Refused) -> Response:
    """A refusal the service recorded and returned (``Refused``): answered as a 409."""
    return refusal_response(refused.error)


def exception_handler(exc, context):
    """DRF's handler, taught the domain refusals and missing rows, answering one body."""
    if isinstance(exc, RuleError | StateError):
        return refusal_response(exc)
    if isinstance(exc, ObjectDoesNotExist | Http404):
        exc = exceptions.NotFound(str(exc) or "not found")
    if isinstance(exc, OperationalError | InterfaceError):
        # The database went away (restarted, unreachable) or gave up on the statement: the
        # transaction rolled back, so nothing was written, and the same request may be sent
        # again (with its Idempotency-Key) in a moment.
        log.warning("database unavailable: %r", exc)
        return Response(
            error_body(code=UNAVAILABLE, message=DATABASE_UNAVAILABLE),
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": "5"},
        )
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        field, message = _first_error(exc.detail)
        errors = exc.detail if isinstance(exc.detail, Mapping) else {"non_field_errors": exc.detail}
        response.data = error_body(code=INVALID, message=message, field=field, errors=errors)
    elif isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
        response.data = error_body(code=code, message=str(exc.detail))
    return response


class SecretParametersMiddleware:
    """Under ``/api/``, a query parameter that names a secret column (a hole card, the stored
    deck: ``?dealer_hole__icontains=Ks``, ``?round__hands__hole=...``, ``?ordering=hole``) is
    answered 400 ``rule_broken`` (``cards.secret``, docs/rules.md §2.6) naming the parameter,
    before any view runs: whoever asks, whatever the rows, so no answer depends on a hidden
    card (``cardroom.secret_columns``)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        if request.path.startswith("/api/"):
            for name in request.GET:
                if secret_parameter(name, request.GET.getlist(name)):
                    log.warning(
                        "refused a query on a secret column: %s %s?%s= from %s",
                        request.method,
                        request.path,
                        name,
                        request.META.get("REMOTE_ADDR") or "an unknown address",
                    )
                    body = error_body(
                        code=RULE_BROKEN, message=REFUSED, rule=Rule.SECRET_CARDS, field=name
                    )
                    return JsonResponse(body, status=status.HTTP_400_BAD_REQUEST)
        return self.get_response(request)


# --- Prefer: return=minimal (RFC 7240) --------------------------------------------------------

PREFER_HEADER = "HTTP_PREFER"
PREFERENCE_APPLIED = "Preference-Applied"
RETURN_MINIMAL = "return=minimal"
RETURN_REPRESENTATION = "return=representation"


def preferred_return(request) -> str | None:
    """The ``return`` preference of the request's ``Prefer`` header (``minimal``,
    ``representation``, or anything else the caller wrote), lower-cased; None without one.

    Preferences are comma-separated, each ``name[=value]`` with ``;`` parameters; names are
    case-insensitive, a value may be quoted, and only the first ``return`` counts (RFC 7240
    §2). An unknown preference is ignored, never refused."""
    for preference in request.META.get(PREFER_HEADER, "").split(","):
        name, _, value = preference.split(";", 1)[0].partition("=")
        if name.strip().lower() == "return":
            return value.strip().strip('"').lower()
    return None


def prefers_minimal(request) -> bool:
    return preferred_return(request) == "minimal"


def write_answer(
    request,
    *,
    minimal: Mapping[str, Any],
    full: Callable[[], Any],
    status_code: int = status.HTTP_200_OK,
) -> Response:
    """A write's answer: ``full()`` (the row read back and serialized), or under ``Prefer:
    return=minimal`` the ``minimal`` body (built from what the service returned: no read) with
    ``Preference-Applied: return=minimal``. The status code is the same either way."""
    if prefers_minimal(request):
        response = Response(minimal, status=status_code)
        response[PREFERENCE_APPLIED] = RETURN_MINIMAL
        return response
    return Response(full(), status=status_code)


# --- Idempotency keys ---------------------------------------------------------------------


_FINGERPRINT_SALT = "cardroom.api.idempotency"


def _fingerprint(request, *, minimal: bool = False) -> str:
    """The request a key stands for: method, path and body; ``minimal`` when the stored answer
    was a minimal one (so a replay knows to say so, without another column).

    A keyed HMAC (the deployment's SECRET_KEY), not a bare hash: a body can hold cards keyed
    at the showdown or a patron's amounts, and a bare SHA-256 of so small a space is read back
    by trying every body; without the key the stored fingerprint says nothing."""
    body = json.dumps(request.data, sort_keys=True, default=str) if request.data else ""
    applied = f"\nPrefer: {RETURN_MINIMAL}" if minimal else ""
    message = f"{request.method} {request.path}\n{body}{applied}"
    return salted_hmac(_FINGERPRINT_SALT, message, algorithm="sha256").hexdigest()


def _replay(record: IdempotencyKey, request) -> Response:
    if record.request_hash == _fingerprint(request):
        minimal = False
    elif record.request_hash == _fingerprint(request, minimal=True):
        minimal = True
    else:
        body = error_body(
            code=State.KEY_REUSED, message="this Idempotency-Key was used for a different request"
        )
        return Response(body, status=status.HTTP_422_UNPROCESSABLE_ENTITY)
    response = Response(record.response_body, status=record.status_code)
    response["Idempotent-Replayed"] = "true"
    if minimal:  # the first answer was minimal: it is replayed as it was, and says so
        response[PREFERENCE_APPLIED] = RETURN_MINIMAL
    return response


def idempotent(method):
    """Wrap an APIView write method so a repeated ``Idempotency-Key`` never applies twice.

    The key row is inserted in the same transaction as the action: a concurrent
    duplicate waits on the unique key, then finds the stored answer and replays it. A
    minimal answer (``write_answer``) is stored as it was sent and replayed as minimal.
    """

    @functools.wraps(method)
    def wrapper(view, request, *args, **kwargs):
        key = request.META.get(IDEMPOTENCY_HEADER)
        if not key:
            return method(view, request, *args, **kwargs)
        if len(key) > 128:
            body = error_body(
                code=INVALID, message="at most 128 characters", field="Idempotency-Key"
            )
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
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
                saved = ["status_code", "response_body"]
                if response.get(PREFERENCE_APPLIED) == RETURN_MINIMAL:
                    record.request_hash = _fingerprint(request, minimal=True)
                    saved.append("request_hash")
                record.status_code = response.status_code
                record.response_body = response.data
                record.save(update_fields=saved)
                return response
        except _ServerError as failure:
            return failure.response  # not stored: a retry may succeed

    return wrapper


class _ServerError(Exception):
    def __init__(self, response) -> None:
        self.response = response


# --- Serializer fields ----------------------------------------------------------------------


class Timestamp(serializers.DateTimeField):
    """ISO 8601 in the cardroom's time zone, always with microseconds (to match video)."""

    def to_representation(self, value):
        if not value:
            return None
        value = self.enforce_timezone(value)
        text = value.isoformat(timespec="microseconds")
        return text[:-6] + "Z" if text.endswith("+00:00") else text


def username_field(source: str) -> serializers.CharField:
    """The user name of the staff member at ``source`` (null when nobody is recorded)."""
    return serializers.CharField(source=f"{source}.username", allow_null=True, default=None)


# --- Input at the edge (cardroom/bounds.py) ---------------------------------------------------


class JSONParser(parsers.JSONParser):
    """JSON bodies parsed with a depth limit (``bounds.loads``: deeper than
    ``bounds.JSON_MAX_DEPTH`` is 400 ``parse_error``); a string or key that cannot be stored
    (a NUL character, a lone surrogate) is 400 ``invalid`` naming where it is."""

    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding") or "utf-8"
        try:
            data = bounds.loads(stream.read().decode(encoding))
        except (ValueError, UnicodeDecodeError) as error:
            raise exceptions.ParseError(f"JSON parse error - {error}") from None
        if problem := bounds.json_problem(data):
            where, message = problem
            raise exceptions.ValidationError({where: [message]} if where else [message])
        return data


def _bounded(data, minimum: int, maximum: int) -> int:
    try:
        return bounds.strict_int(data, minimum=minimum, maximum=maximum)
    except bounds.OutOfBounds as error:
        raise serializers.ValidationError(str(error), code="invalid") from None


class Integer(serializers.IntegerField):
    """A whole number (``bounds.strict_int``): a JSON integer or ASCII digits, never a float,
    a boolean or digits of another script; by default within a 32-bit column's range."""

    def __init__(self, *, max_value: int = bounds.INTEGER_MAX, min_value: int | None = None, **kw):
        super().__init__(
            max_value=max_value, min_value=-max_value if min_value is None else min_value, **kw
        )

    def to_internal_value(self, data):
        return _bounded(data, self.min_value, self.max_value)


def cents(**kwargs) -> Integer:
    """An amount of money in cents: at most ``bounds.CENTS_MAX`` either way (the rules refuse
    a negative amount, naming their rule)."""
    return Integer(max_value=bounds.CENTS_MAX, **kwargs)


def count(**kwargs) -> Integer:
    """A seat, a number of hands, minutes or players (a 16-bit column)."""
    return Integer(max_value=bounds.COUNT_MAX, **kwargs)


def identifier(**kwargs) -> Integer:
    """A row's id: 1 to ``bounds.ID_MAX``."""
    return Integer(min_value=1, max_value=bounds.ID_MAX, **kwargs)


def primary_key(queryset, **kwargs) -> serializers.PrimaryKeyRelatedField:
    """A row by its id, the id parsed strictly: ``249.9`` is refused, never player 249."""
    return serializers.PrimaryKeyRelatedField(queryset=queryset, pk_field=identifier(), **kwargs)


class JSONValue(serializers.JSONField):
    """Any JSON value; given as form text, parsed with the depth limit of the JSON bodies."""

    def to_internal_value(self, data):
        if getattr(data, "is_json_string", False):
            try:
                data = bounds.loads(data)
            except ValueError:
                self.fail("invalid")
        if problem := bounds.json_problem(data):
            raise serializers.ValidationError(problem[1], code="invalid")
        return data


class Instant(serializers.DateTimeField):
    """A date and time; a UTC offset beyond ±15:59 (PostgreSQL's limit) or a date out of
    range (``bounds.instant_problem``) is refused."""

    def enforce_timezone(self, value):
        if problem := bounds.instant_problem(value):
            raise serializers.ValidationError(problem, code="invalid")
        return super().enforce_timezone(value)


class GamingDay(serializers.DateField):
    """A gaming day whose window can be computed (``bounds.GAMING_DAY_MIN`` to ``_MAX``)."""

    def to_internal_value(self, value):
        day = super().to_internal_value(value)
        if problem := bounds.day_problem(day):
            raise serializers.ValidationError(problem, code="invalid")
        return day


def error_page(status_code: int, message: str):
    """Django's error pages (``handler400``/``404``/``500``, cardroom/urls.py): under /api/ the
    one error body, in JSON; elsewhere the HTML page."""
    from django.http import JsonResponse
    from django.views import defaults

    html = {
        400: defaults.bad_request,
        404: defaults.page_not_found,
        500: defaults.server_error,
    }[status_code]

    def view(request, exception=None):
        if request.path.startswith("/api/"):
            code = {400: "invalid", 404: "not_found", 500: "error"}[status_code]
            return JsonResponse(error_body(code=code, message=message), status=status_code)
        return html(request) if exception is None else html(request, exception)

    return view


bad_request = error_page(400, "the request could not be read")
not_found = error_page(404, "not found")
server_error = error_page(500, "the server failed; nothing was changed")


# --- Pagination -----------------------------------------------------------------------------


class Pagination(LimitOffsetPagination):
    """``limit`` (1 or more; above 500 answers 500) and ``offset`` (0 or more), parsed strictly:
    a malformed one is a 400 naming it, never the default in its place."""

    default_limit = 50
    max_limit = 500

    def _parameter(self, request, name: str, minimum: int) -> int | None:
        raw = request.query_params.get(name)
        if raw is None:
            return None
        try:
            return bounds.strict_int(raw, minimum=minimum, maximum=bounds.BIGINT_MAX)
        except bounds.OutOfBounds as error:
            raise exceptions.ValidationError({name: [str(error)]}) from None

    def get_limit(self, request):
        limit = self._parameter(request, self.limit_query_param, 1)
        return self.default_limit if limit is None else min(limit, self.max_limit)

    def get_offset(self, request):
        return self._parameter(request, self.offset_query_param, 0) or 0


def paginated_response(
    *, queryset: QuerySet, serializer_class: type[serializers.Serializer], request, view
) -> Response:
    paginator = Pagination()
    page = paginator.paginate_queryset(queryset, request, view=view)
    return paginator.get_paginated_response(serializer_class(page, many=True).data)


@cache
def paginated(serializer_class: type[serializers.Serializer]) -> type[serializers.Serializer]:
    """The schema of a page of ``serializer_class`` (count, next, previous, results)."""
    name = serializer_class.__name__.removesuffix("Serializer")
    return type(
        f"Paginated{name}List",
        (serializers.Serializer,),
        {
            "count": serializers.IntegerField(),
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": serializer_class(many=True),
            "__module__": __name__,
        },
    )


# --- The schema ---------------------------------------------------------------------------

PAGE_PARAMETERS = [
    OpenApiParameter(
        "limit",
        {"type": "integer", "minimum": 1, "maximum": bounds.BIGINT_MAX},
        description="page size (default 50; above 500 answers 500)",
    ),
    OpenApiParameter(
        "offset",
        {"type": "integer", "minimum": 0, "maximum": bounds.BIGINT_MAX},
        description="index of the first result",
    ),
]

_FILTER_TYPES = [
    (IdFilter, {"type": "integer", "minimum": 1, "maximum": bounds.ID_MAX}),
    (django_filters.BooleanFilter, OpenApiTypes.BOOL),
    (django_filters.IsoDateTimeFilter, OpenApiTypes.DATETIME),
    (django_filters.DateFilter, OpenApiTypes.DATE),
    (django_filters.NumberFilter, OpenApiTypes.INT),
    (django_filters.ChoiceFilter, OpenApiTypes.STR),
    (django_filters.CharFilter, OpenApiTypes.STR),
]


def filter_parameters(filterset_class: type[django_filters.FilterSet]) -> list[OpenApiParameter]:
    """The query parameters of a FilterSet, for ``extend_schema`` on a plain APIView."""
    parameters = []
    for name, field in filterset_class.base_filters.items():
        kind = next(t for cls, t in _FILTER_TYPES if isinstance(field, cls))
        choices = field.extra.get("choices")
        parameters.append(
            OpenApiParameter(
                name,
                kind,
                enum=[value for value, _ in choices] if choices else None,
                description=field.extra.get("help_text") or "",
            )
        )
    return parameters


def list_parameters(filterset_class: type[django_filters.FilterSet]) -> list[OpenApiParameter]:
    return [*filter_parameters(filterset_class), *PAGE_PARAMETERS]


class ErrorSerializer(serializers.Serializer):
    """Every error's body."""

    code = serializers.CharField(
        help_text="why: `rule_broken`, `invalid` or `parse_error` (400), the state (409), "
        "`not_authenticated` or `authentication_failed` (401), `permission_denied` (403), "
        "`not_found` (404), "
        "`method_not_allowed` (405), `unsupported_media_type` (415), `key_reused` (422), "
        "`throttled` (429), `unavailable` (503)"
    )
    rule = serializers.ChoiceField(
        choices=[rule.value for rule in Rule],
        allow_null=True,
        help_text="the rule refused, by its identifier in docs/rules.md",
    )
    section = serializers.CharField(
        allow_null=True, help_text="the rule's section of docs/rules.md"
    )
    field = serializers.CharField(allow_null=True, help_text="the input that broke it")
    message = serializers.CharField(help_text="the refusal in the floor's words")


class RuleErrorSerializer(ErrorSerializer):
    """400: a broken rule (`rule_broken`), input that does not parse (`invalid`, with every
    field's messages under `errors`), or a body that is not JSON or nested too deep
    (`parse_error`)."""

    code = serializers.ChoiceField(choices=[RULE_BROKEN, INVALID, PARSE_ERROR])
    errors = serializers.DictField(required=False, help_text="`invalid` only: every field's errors")


class StateErrorSerializer(ErrorSerializer):
    """409: the action is not allowed in the current state, named by `code`."""

    code = serializers.ChoiceField(
        choices=[state.value for state in State], help_text="the state that forbids the action"
    )


IDEMPOTENCY_PARAMETER = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    location=OpenApiParameter.HEADER,
    description=(
        "at most 128 characters; a repeat with the same key and body replays the first "
        "answer (header Idempotent-Replayed: true), a different body with it answers 422"
    ),
)

READ_ERRORS = {
    400: OpenApiResponse(RuleErrorSerializer, description="a malformed filter, named"),
    401: OpenApiResponse(
        ErrorSerializer,
        description="no credentials, or a token that is wrong, expired or ended "
        "(WWW-Authenticate: Token)",
    ),
    403: OpenApiResponse(ErrorSerializer, description="your role may not read the floor"),
    404: OpenApiResponse(ErrorSerializer, description="not found"),
    503: OpenApiResponse(
        ErrorSerializer,
        description="the database cannot be reached: send the same request again (Retry-After)",
    ),
}
WRITE_ERRORS = {
    **READ_ERRORS,
    400: OpenApiResponse(
        RuleErrorSerializer,
        description="invalid input, or a broken rule: the rule and the field are named",
    ),
    403: OpenApiResponse(ErrorSerializer, description="your role may not do this"),
    404: OpenApiResponse(
        ErrorSerializer, description="no such table, round, offer, seat or player"
    ),
    409: OpenApiResponse(
        StateErrorSerializer, description="not allowed in the current state, which is named"
    ),
    415: OpenApiResponse(
        ErrorSerializer,
        description="a body in a media type the API does not read (JSON, form or multipart), "
        "or one that names none",
    ),
    422: OpenApiResponse(
        ErrorSerializer, description="the Idempotency-Key was used for a different request"
    ),
}
CONFLICT = {409: WRITE_ERRORS[409]}


PREFER_PARAMETER = OpenApiParameter(
    "Prefer",
    OpenApiTypes.STR,
    location=OpenApiParameter.HEADER,
    enum=[RETURN_MINIMAL, RETURN_REPRESENTATION],
    description=(
        "`return=minimal` (RFC 7240): the same status code with a small body (the ids and "
        "state the write left) instead of the row in full, and the header "
        "`Preference-Applied: return=minimal`; `return=representation` or none: in full"
    ),
)


class MinimalSerializer(serializers.Serializer):
    """A minimal answer's body (``Prefer: return=minimal``): exactly its fields, so its schema
    says ``additionalProperties: false`` and a full answer never matches it as well (the
    answer's schema is a oneOf of the two)."""


class MinimalSerializerExtension(OpenApiSerializerExtension):
    target_class = MinimalSerializer
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_basic_serializer(self.target, direction)
        return {**schema, "additionalProperties": False}


def _component(serializer) -> str:
    cls = serializer if isinstance(serializer, type) else type(serializer)
    return cls.__name__.removesuffix("Serializer")


@cache
def full_or_minimal(serializer, minimal) -> PolymorphicProxySerializer:
    """The schema of a write's answer that honours ``Prefer``: one of the full body and the
    minimal one (no discriminator: the minimal one admits no other field)."""
    return PolymorphicProxySerializer(
        component_name=f"{_component(serializer)}Or{_component(minimal)}",
        serializers=[serializer, minimal],
        resource_type_field_name=None,
        many=False,
    )


def write_schema(status_code: int, serializer, *, minimal=None, **extra) -> dict:
    """``extend_schema`` arguments for a write: its answer, the error answers, the key header.

    With ``minimal`` (a ``MinimalSerializer``), the write honours ``Prefer: return=minimal``
    (``write_answer``): the ``Prefer`` header is documented, the answer is one of the two
    bodies and may carry ``Preference-Applied``."""
    parameters = [IDEMPOTENCY_PARAMETER]
    answer = serializer
    if minimal is not None:
        answer = OpenApiResponse(
            full_or_minimal(serializer, minimal),
            description=f"in full; under `Prefer: {RETURN_MINIMAL}` the minimal body",
        )
        applied = OpenApiParameter(
            PREFERENCE_APPLIED,
            OpenApiTypes.STR,
            location=OpenApiParameter.HEADER,
            enum=[RETURN_MINIMAL],
            description="present when the answer is the minimal body",
            response=[status_code],
        )
        parameters += [PREFER_PARAMETER, applied]
    return {
        "responses": {status_code: answer, **WRITE_ERRORS},
        "parameters": [*parameters, *extra.pop("parameters", [])],
        **extra,
    }
