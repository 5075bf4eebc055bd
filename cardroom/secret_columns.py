"""Secret columns: what no interface searches, filters, sorts or counts by (docs/rules.md §2.6).

A model declares the columns that hold hidden cards in a class attribute, ``secret_columns``
(a mapping of field names; ``tables.models.Round`` and ``Hand`` name their hole cards and the
stored deck there, next to the visibility rule that says when they are shown). This module
collects them from every installed model, so the kernel needs no import of the apps above it,
and answers one question for every interface that takes a field path from a request: does
this path reach a secret column?

- ``secret_in_path(model, path)``: the secret column a lookup, search or ordering path
  (``round__dealer_hole__icontains``, ``-hole``, ``hands__hole__0``) reaches from ``model``,
  following relations both ways; None when it reaches none.
- ``secret_parameter(name, values)``: for a request's query parameter whose model is not
  known (the API refuses before its view runs): the parameter names a secret column by one of
  its parts, or, for a sorting parameter (``ordering``, ``o``), one of its values does.
- ``filterset_secrets(filterset_class)``: the secret columns a django-filter FilterSet's
  declared filters read (a filter named innocently may still read one).

A column is secret for every role and in every state: the rule shows hole cards from the
showdown on, but a search or a count is a question about every row, the hands in play
included, so it is never asked. The admin's guard (``cardroom.admin_site``) and the API's
(``cardroom.api.SecretParametersMiddleware``, ``cardroom.filtering``) refuse such paths, and
``manage.py check`` fails for an admin (``cardroom.E001``, the guard's check) or a FilterSet
(``cardroom.E002``, below) configured to use one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache

from django.apps import apps
from django.core import checks
from django.core.exceptions import FieldDoesNotExist
from django.db.models import F, Field, Model
from django.db.models.constants import LOOKUP_SEP

ATTRIBUTE = "secret_columns"
# Query parameters whose values are field paths to sort by: DRF's and the admin's names.
SORTING_PARAMETERS = frozenset({"ordering", "order", "order_by", "sort", "o"})
REFUSED = (
    "hole cards and the deck are secret until the showdown: no list is searched, filtered, "
    "sorted or counted by them"
)


@cache
def secret_columns() -> frozenset[Field]:
    """Every column an installed model declares secret (``secret_columns``)."""
    found = set()
    for model in apps.get_models():
        for name in getattr(model, ATTRIBUTE, ()) or ():
            found.add(model._meta.get_field(name))
    return frozenset(found)


@cache
def secret_names() -> frozenset[str]:
    """The names of the secret columns (``dealer_hole``, ``hole``, ``shuffled_deck``)."""
    return frozenset(field.name for field in secret_columns())


def secret_in_path(model: type[Model], path: str) -> Field | None:
    """The secret column ``path`` reaches from ``model`` (a lookup, a search field with its
    ``^``/``=``/``@`` prefix, an ordering with its ``-``), or None.

    The path is followed part by part through relations, forward and reverse; the first part
    that is not a relation ends it (what follows is a lookup, a transform or a JSON key of that
    column). A part that names no field ends it too: the query would refuse it.
    """
    opts = model._meta
    for part in path.lstrip("-+^=@").split(LOOKUP_SEP):
        try:
            field = opts.pk if part == "pk" else opts.get_field(part)
        except FieldDoesNotExist:
            return None
        if field in secret_columns():
            return field
        related = field.related_model if field.is_relation else None
        if related is None or isinstance(related, str):
            return None
        opts = related._meta
    return None


def expression_paths(ordering) -> Iterator[str]:
    """The field paths an ordering reads: a string, or every ``F()`` inside an expression."""
    if isinstance(ordering, str):
        yield ordering
        return
    for node in getattr(ordering, "flatten", lambda: ())():
        if isinstance(node, F):
            yield node.name


def secret_in_ordering(model: type[Model], ordering) -> Field | None:
    """The secret column an ordering (a path or an expression) sorts by, or None."""
    for path in expression_paths(ordering):
        if (field := secret_in_path(model, path)) is not None:
            return field
    return None


def secret_parameter(name: str, values: Iterable[str]) -> bool:
    """Whether a query parameter names a secret column: one part of its name does (``hole``,
    ``round__dealer_hole__icontains``), or it sorts and one of its values does."""
    names = secret_names()
    if any(part in names for part in name.split(LOOKUP_SEP)):
        return True
    if name not in SORTING_PARAMETERS:
        return False
    return any(
        part.strip().lstrip("-+") in names
        for value in values
        for term in value.split(",")
        for part in term.split(LOOKUP_SEP)
    )


def filterset_secrets(filterset_class) -> list[tuple[str, Field]]:
    """(filter name, secret column) for each declared filter of ``filterset_class`` that reads
    a secret column through its ``field_name``."""
    model = filterset_class._meta.model
    if model is None:
        return []
    return [
        (name, field)
        for name, declared in filterset_class.base_filters.items()
        if (field := secret_in_path(model, declared.field_name or name)) is not None
    ]


def _subclasses(cls) -> Iterator[type]:
    for subclass in cls.__subclasses__():
        yield subclass
        yield from _subclasses(subclass)


@checks.register(checks.Tags.security)
def check_filtersets(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """Every FilterSet the URLs reach filters by no secret column."""
    import django_filters
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - imports every app's views and their filters
    return [
        checks.Error(
            f"{filterset.__module__}.{filterset.__qualname__} filter {name!r} reads the secret "
            f"column {field.model._meta.label}.{field.name}",
            hint="hole cards and the deck are never filtered on (docs/rules.md §2.6)",
            obj=filterset,
            id="cardroom.E002",
        )
        for filterset in _subclasses(django_filters.FilterSet)
        for name, field in filterset_secrets(filterset)
    ]
