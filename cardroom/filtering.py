"""Narrowing a list by its query parameters (django-filter), for every app's selectors.

Ids are plain numbers: filtering by a row that does not exist answers an empty list, not an
error. A malformed value (a state that is not a state, a date that is not a date, an id that
is not a whole number in the ASCII digits or beyond the largest id) is a 400 naming the
parameter.

No filter reads a secret column (``cardroom.secret_columns``: hole cards, the stored deck):
a FilterSet declaring one is refused when it is used (and by ``manage.py check``), here and
in DRF's filter backend for generic views (``FilterBackend``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

import django_filters
from django.core.exceptions import ImproperlyConfigured
from django.db.models import QuerySet
from django_filters.fields import IsoDateTimeField
from django_filters.rest_framework import DjangoFilterBackend
from django_filters.utils import translate_validation

from cardroom import bounds
from cardroom.forms import InstantField, IntegerField
from cardroom.secret_columns import filterset_secrets

# A list selector's query parameters (None: the whole list).
Filters = Mapping[str, Any] | None


class _IdField(IntegerField):
    def __init__(self, **kwargs):
        kwargs.pop("max_value", None)
        kwargs.pop("min_value", None)
        super().__init__(min_value=1, max_value=bounds.ID_MAX, **kwargs)


class IdFilter(django_filters.NumberFilter):
    """A row's id, parsed strictly (``cardroom.bounds``): ``249.9`` is no id."""

    field_class = _IdField

    def get_max_validator(self):
        return None  # the field's own bound


class _IsoInstantField(InstantField, IsoDateTimeField):
    pass


class InstantFilter(django_filters.IsoDateTimeFilter):
    """An ISO 8601 instant whose UTC offset PostgreSQL accepts (at most ±15:59)."""

    field_class = _IsoInstantField


@cache
def require_public(filterset_class: type[django_filters.FilterSet] | None) -> None:
    """Refuse a FilterSet that filters by a secret column (a programming error)."""
    if filterset_class is not None and (secrets := filterset_secrets(filterset_class)):
        named = ", ".join(
            f"{name} ({field.model._meta.label}.{field.name})" for name, field in secrets
        )
        raise ImproperlyConfigured(
            f"{filterset_class.__qualname__} filters by secret columns: {named}"
        )


def filter_queryset(
    filterset_class: type[django_filters.FilterSet],
    data: Mapping[str, Any] | None,
    queryset: QuerySet,
) -> QuerySet:
    """``queryset`` narrowed by ``data`` (query parameters); invalid values raise a DRF 400."""
    require_public(filterset_class)
    filterset = filterset_class(data or {}, queryset=queryset)
    if not filterset.is_valid():
        raise translate_validation(filterset.errors)
    return filterset.qs


class FilterBackend(DjangoFilterBackend):
    """DRF's django-filter backend (``DEFAULT_FILTER_BACKENDS``), refusing a FilterSet that
    filters by a secret column."""

    def get_filterset_class(self, view, queryset=None):
        filterset_class = super().get_filterset_class(view, queryset)
        require_public(filterset_class)
        return filterset_class
