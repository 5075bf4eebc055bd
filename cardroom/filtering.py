"""Narrowing a list by its query parameters (django-filter), for every app's selectors.

Ids are plain numbers: filtering by a row that does not exist answers an empty list, not an
error. A malformed value (a state that is not a state, a date that is not a date) is a 400
naming the parameter.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import django_filters
from django.db.models import QuerySet
from django_filters.utils import translate_validation


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
