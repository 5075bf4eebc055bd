"""The audit page's filters: gaming days, table, staff member, action, outcome, channel.

The same filters narrow the page and the CSV export asked for from it (``console.audit_export``
normalises them again for the reports pipeline)."""

from __future__ import annotations

from django import forms

from cardroom import bounds

from .models import Outcome

CHANNELS = [("console", "console"), ("api", "API"), ("auth", "sign-in")]
USERNAME_MAX = 150
ACTION_MAX = 64


class AuditFilterForm(forms.Form):
    from_day = forms.DateField(
        required=False, label="Gaming day from", widget=forms.DateInput(attrs={"type": "date"})
    )
    to_day = forms.DateField(
        required=False, label="to", widget=forms.DateInput(attrs={"type": "date"})
    )
    table = forms.TypedChoiceField(required=False, coerce=int, empty_value=None, label="Table")
    username = forms.CharField(required=False, max_length=USERNAME_MAX, label="Staff member")
    action = forms.ChoiceField(required=False, label="Action")
    outcome = forms.ChoiceField(
        required=False, choices=[("", "any"), *Outcome.choices], label="Outcome"
    )
    channel = forms.ChoiceField(required=False, choices=[("", "any"), *CHANNELS], label="Channel")

    def __init__(self, *args, tables=(), actions=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].choices = [("", "any"), *((t.pk, t.name) for t in tables)]
        self.fields["action"].choices = [("", "any"), *((a, a) for a in actions)]
        self.fields["username"].widget.attrs["list"] = "audit-staff"

    def _day(self, name: str):
        day = self.cleaned_data.get(name)
        if day is not None and (problem := bounds.day_problem(day)):
            raise forms.ValidationError(problem)
        return day

    def clean_from_day(self):
        return self._day("from_day")

    def clean_to_day(self):
        return self._day("to_day")

    def clean(self):
        data = super().clean()
        low, high = data.get("from_day"), data.get("to_day")
        if low and high and high < low:
            self.add_error("to_day", "the last gaming day is before the first")
        return data

    def filters(self) -> dict:
        """The valid filters, empty ones left out (for the selector and the export)."""
        data = self.cleaned_data
        return {
            key: value
            for key, value in (
                ("from_day", data.get("from_day")),
                ("to_day", data.get("to_day")),
                ("table", data.get("table")),
                ("username", (data.get("username") or "").strip()),
                ("action", data.get("action") or ""),
                ("outcome", data.get("outcome") or ""),
                ("channel", data.get("channel") or ""),
            )
            if value not in (None, "")
        }
