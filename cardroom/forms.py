"""Form fields at the edge of the system (``cardroom.bounds``), for the console's forms and the
query filters: strict integers and row choices within the columns' ranges, instants with a
UTC offset PostgreSQL accepts, and gaming days whose windows can be computed."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

from cardroom import bounds


class IntegerField(forms.IntegerField):
    """A whole number typed in the ASCII digits (``bounds.strict_int``), never a decimal or
    digits of another script, between ``min_value`` and ``max_value`` (by default the range
    of a 32-bit column)."""

    def __init__(self, *, max_value: int = bounds.INTEGER_MAX, min_value: int | None = None, **kw):
        super().__init__(
            max_value=max_value, min_value=-max_value if min_value is None else min_value, **kw
        )

    def to_python(self, value):
        if value in self.empty_values:
            return None
        try:
            return bounds.strict_int(value, minimum=self.min_value, maximum=self.max_value)
        except bounds.OutOfBounds as error:
            raise ValidationError(str(error), code="invalid") from None


def id_field(**kwargs) -> IntegerField:
    """A row's id: 1 to the largest 64-bit id."""
    return IntegerField(min_value=1, max_value=bounds.ID_MAX, **kwargs)


class ModelChoiceField(forms.ModelChoiceField):
    """A row chosen by its id, parsed strictly: ``"249.9"`` or an Arabic-Indic five is no id."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if not isinstance(value, self.queryset.model):
            try:
                bounds.strict_int(value, minimum=1, maximum=bounds.ID_MAX)
            except bounds.OutOfBounds:
                raise ValidationError(
                    self.error_messages["invalid_choice"], code="invalid_choice"
                ) from None
        return super().to_python(value)


class InstantField(forms.DateTimeField):
    """A date and time; a UTC offset PostgreSQL refuses (beyond ±15:59) or a date out of
    range (``bounds.instant_problem``) is refused here."""

    def to_python(self, value):
        moment = super().to_python(value)
        if moment is not None and (problem := bounds.instant_problem(moment)):
            raise ValidationError(problem, code="invalid")
        return moment


class GamingDayField(forms.DateField):
    """A gaming day whose window (and a report's period) can be computed."""

    def to_python(self, value):
        day = super().to_python(value)
        if day is not None and (problem := bounds.day_problem(day)):
            raise ValidationError(problem, code="invalid")
        return day
