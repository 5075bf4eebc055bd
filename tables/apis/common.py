"""Shared pieces of the floor API: permissions, timestamps, pagination, schema helpers."""

from __future__ import annotations

from functools import cache

import django_filters
from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from cardroom.api import role_permission
from cardroom.roles import READ_FLOOR, RUN_TABLE, SUPERVISE

# Reads need a floor role; writes the role named. IsAuthenticated first, so an anonymous
# caller is told to authenticate rather than that their role may not act.
READ = [IsAuthenticated, role_permission(*READ_FLOOR)]
RUN_TABLE_OR_READ = [IsAuthenticated, role_permission(*RUN_TABLE, read=READ_FLOOR)]
SUPERVISE_OR_READ = [IsAuthenticated, role_permission(*SUPERVISE, read=READ_FLOOR)]


class Timestamp(serializers.DateTimeField):
    """ISO 8601 in the cardroom's time zone, always with microseconds (to match video)."""

    def to_representation(self, value):
        if not value:
            return None
        value = self.enforce_timezone(value)
        text = value.isoformat(timespec="microseconds")
        return text[:-6] + "Z" if text.endswith("+00:00") else text


class Pagination(LimitOffsetPagination):
    default_limit = 50
    max_limit = 500


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


PAGE_PARAMETERS = [
    OpenApiParameter("limit", OpenApiTypes.INT, description="page size (default 50, at most 500)"),
    OpenApiParameter("offset", OpenApiTypes.INT, description="index of the first result"),
]

_FILTER_TYPES = [
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


# --- Error answers (cardroom.api.exception_handler and the idempotent decorator) ---------


class StateErrorSerializer(serializers.Serializer):
    detail = serializers.CharField()
    state = serializers.CharField(allow_null=True, help_text="the state that forbids the action")
    rule = serializers.CharField(allow_null=True)


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
    400: OpenApiResponse(description="a malformed filter, named"),
    401: OpenApiResponse(description="not authenticated"),
    403: OpenApiResponse(description="your role may not read the floor"),
    404: OpenApiResponse(description="not found"),
}
WRITE_ERRORS = {
    **READ_ERRORS,
    400: OpenApiResponse(
        description="invalid input, or a broken rule: field errors, with `rule` naming it"
    ),
    403: OpenApiResponse(description="your role may not do this"),
    404: OpenApiResponse(description="no such table, round, offer, seat or player"),
    409: OpenApiResponse(
        StateErrorSerializer, description="not allowed in the current state, which is named"
    ),
    422: OpenApiResponse(description="the Idempotency-Key was used for a different request"),
}


def write_schema(status: int, serializer, **extra) -> dict:
    """``extend_schema`` arguments for a write: its answer, the error answers, the key header."""
    return {
        "responses": {status: serializer, **WRITE_ERRORS},
        "parameters": [IDEMPOTENCY_PARAMETER, *extra.pop("parameters", [])],
        **extra,
    }
