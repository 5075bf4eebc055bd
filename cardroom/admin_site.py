"""The admin site: every ModelAdmin on it refuses secret columns (docs/rules.md §2.6).

The Django admin takes field paths from the query string: any lookup on a model's own
columns (``?dealer_hole__icontains=Ks``), searches (``?q=``) over ``search_fields``, sorting
(``?o=``) by the columns of ``list_display``, and counts the result ("1 result"), the facets
(``?_facets``) and the date drill-down. A count that answers "is K♠ in this hole?" shows the
card. So the site is this project's (``cardroom.apps.CardroomAdminConfig`` makes it the
default): ``register`` mixes ``SecretColumnsGuard`` into every ModelAdmin registered, the
project's, Django's own (users, groups) and the third parties' (knox, axes), and into each
one's inlines. The guard, whatever the role (a superuser too):

- refuses a lookup whose path reaches a secret column, through any relation: Django then
  answers **400** (``DisallowedModelAdminLookup``, logged on ``django.security``), before any
  row is read or counted;
- never searches, filters (``list_filter``, facets), sorts (``?o=``, ``ordering``,
  ``sortable_by``) or shows (``list_display``, forms, inlines) a secret column, whatever the
  ModelAdmin says; ``manage.py check`` names such a configuration as an error
  (``cardroom.E001``), so it is fixed where it was written.

The hole cards are shown, once the rule allows, through the models' ``shown_*`` properties.
"""

from __future__ import annotations

from functools import cache

from django.contrib import admin
from django.core import checks

from cardroom.secret_columns import secret_in_ordering, secret_in_path


def _named(entry) -> str | None:
    """The field path an admin option entry names (a string, or the field of a
    ``(field, ListFilter)`` pair); None for a callable or a filter class."""
    if isinstance(entry, str):
        return entry
    if isinstance(entry, list | tuple) and entry and isinstance(entry[0], str):
        return entry[0]
    return None


def _secret(model, entry) -> bool:
    path = _named(entry)
    return path is not None and secret_in_path(model, path) is not None


def _public(model, entries) -> list:
    return [entry for entry in entries or () if not _secret(model, entry)]


class SecretFieldsGuard:
    """For a ModelAdmin and its inlines: no form, fieldset or column shows a secret column."""

    def get_exclude(self, request, obj=None):
        secret = [f.name for f in self.model._meta.concrete_fields if _secret(self.model, f.name)]
        return [*(super().get_exclude(request, obj) or ()), *secret] or None

    def get_fields(self, request, obj=None):
        return _public(self.model, super().get_fields(request, obj))

    def get_fieldsets(self, request, obj=None):
        return [
            (name, {**options, "fields": _public_fieldset(self.model, options.get("fields"))})
            for name, options in super().get_fieldsets(request, obj)
        ]

    def get_readonly_fields(self, request, obj=None):
        return _public(self.model, super().get_readonly_fields(request, obj))


def _public_fieldset(model, fields):
    public = []
    for entry in fields or ():
        if isinstance(entry, list | tuple):  # fields on one line
            public.append(tuple(_public(model, entry)))
        elif not _secret(model, entry):
            public.append(entry)
    return public


class SecretColumnsGuard(SecretFieldsGuard):
    """Mixed into every ModelAdmin of the site (``CardroomAdminSite.register``)."""

    def lookup_allowed(self, lookup, value, request=None):
        if secret_in_path(self.model, lookup) is not None:
            return False  # Django answers 400 and logs it on django.security
        return super().lookup_allowed(lookup, value, request)

    def get_search_fields(self, request):
        return _public(self.model, super().get_search_fields(request))

    def get_list_filter(self, request):
        return _public(self.model, super().get_list_filter(request))

    def get_list_display(self, request):
        return _public(self.model, super().get_list_display(request))

    def get_ordering(self, request):
        ordering = super().get_ordering(request) or ()
        return [entry for entry in ordering if secret_in_ordering(self.model, entry) is None]

    def get_sortable_by(self, request):
        return [name for name in super().get_sortable_by(request) if not _sorts_secret(self, name)]

    def get_changelist(self, request, **kwargs):
        return guarded_changelist(super().get_changelist(request, **kwargs))

    def get_inlines(self, request, obj):
        return [guarded_inline(inline) for inline in super().get_inlines(request, obj)]

    def check(self, **kwargs):
        return [*super().check(**kwargs), *configuration_errors(self)]


def _sorts_secret(model_admin, column):
    """The secret column sorting by the list_display ``column`` would order by, or None: the
    column itself, or the ``admin_order_field`` of the admin's or model's method."""
    model = model_admin.model
    if isinstance(column, str):
        if (field := secret_in_path(model, column)) is not None:
            return field
        column = getattr(model_admin, column, None) or getattr(model, column, None)
    if isinstance(column, property):
        column = column.fget
    ordering = getattr(column, "admin_order_field", None)
    return None if ordering is None else secret_in_ordering(model, ordering)


@cache
def guarded_changelist(base):
    """``base`` (a ChangeList class) that never sorts by a secret column (``?o=``)."""

    class GuardedChangeList(base):
        def get_ordering_field(self, field_name):
            ordering = super().get_ordering_field(field_name)
            if ordering is not None and secret_in_ordering(self.model, ordering) is not None:
                return None
            return ordering

    GuardedChangeList.__name__ = GuardedChangeList.__qualname__ = f"Guarded{base.__name__}"
    return GuardedChangeList


@cache
def guarded_inline(inline):
    """``inline`` (an InlineModelAdmin class) showing no secret column."""
    if issubclass(inline, SecretFieldsGuard):
        return inline
    return type(inline.__name__, (SecretFieldsGuard, inline), {"__module__": inline.__module__})


def guarded(admin_class):
    """``admin_class`` with ``SecretColumnsGuard`` mixed in (itself if it has it already)."""
    if issubclass(admin_class, SecretColumnsGuard):
        return admin_class
    attributes = {"__module__": admin_class.__module__, "__doc__": admin_class.__doc__}
    return type(admin_class.__name__, (SecretColumnsGuard, admin_class), attributes)


def configuration_errors(model_admin) -> list[checks.CheckMessage]:
    """An error for each option of ``model_admin`` (and its inlines) that names a secret
    column: the guard ignores it at run time; the check makes it fixed where it was written."""
    model = model_admin.model
    options = {
        "search_fields": model_admin.search_fields,
        "list_filter": model_admin.list_filter,
        "list_display": model_admin.list_display,
        "list_display_links": model_admin.list_display_links,
        "sortable_by": model_admin.sortable_by,
        "ordering": model_admin.ordering,
        "date_hierarchy": [model_admin.date_hierarchy] if model_admin.date_hierarchy else [],
        "fields": model_admin.fields,
        "readonly_fields": model_admin.readonly_fields,
    }
    errors = []
    for option, entries in options.items():
        for entry in entries or ():
            path = _named(entry)
            if path is not None and (field := secret_in_path(model, path)) is not None:
                errors.append(_error(model_admin, option, path, field))
    for column in model_admin.list_display or ():
        if not _secret(model, column) and (field := _sorts_secret(model_admin, column)):
            errors.append(_error(model_admin, "list_display (admin_order_field)", column, field))
    for inline in model_admin.inlines or ():
        for option in ("fields", "readonly_fields"):
            for entry in getattr(inline, option, None) or ():
                if isinstance(entry, str) and (field := secret_in_path(inline.model, entry)):
                    errors.append(_error(inline, option, entry, field))
    return errors


def _error(owner, option: str, path, field) -> checks.Error:
    return checks.Error(
        f"{option} names {path!r}, which reads the secret column "
        f"{field.model._meta.label}.{field.name}",
        hint=(
            "hole cards and the deck are never searched, filtered, sorted or shown in lists; "
            "show them through the model's shown_* properties (docs/rules.md §2.6)"
        ),
        obj=owner if isinstance(owner, type) else owner.__class__,
        id="cardroom.E001",
    )


class CardroomAdminSite(admin.AdminSite):
    """Django's admin site; every ModelAdmin registered on it refuses secret columns."""

    def register(self, model_or_iterable, admin_class=None, **options):
        return super().register(
            model_or_iterable, guarded(admin_class or admin.ModelAdmin), **options
        )
