"""Narrowing a list by its query parameters (django-filter), for every app's selectors.

Ids are plain numbers: filtering by a row that does not exist answers an empty list, not an
error. A malformed value (a state that is not a state, a date that is not a date, an id that
is not a whole number in the ASCII digits or beyond the largest id) is a 400 naming the
parameter.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import django_filters
from django.db.models import QuerySet
from django_filters.fields import IsoDateTimeField
from django_filters.utils import translate_validation

from cardroom import bounds
from cardroom.forms import InstantField, IntegerField


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


def filter_queryset(
    filterset_class: type[django_filters.FilterSet],
    data: Mapping[str, Any] | None,
    queryset: QuerySet,
) -> QuerySet:
    """``queryset`` narrowed by ``data`` (query parameters); invalid values raise a DRF 400."""
    filterset = filterset_class(data or {}, queryset=queryset)
    if not filterset.is_valid():
        raise translate_validation(filterset.errors)
    return filterset.qs
