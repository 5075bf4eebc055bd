"""The waitlist page's and the seat holds' forms (docs/rules.md §3.6): they parse what the
floor types and nothing more; every rule is the service's, and its refusal comes back as the
form's error."""

from __future__ import annotations

from django import forms

from cardroom.forms import IntegerField, id_field
from tables.models import SEAT_NUMBERS
from tables.rules.waitlist import PassOver

PASS_OVER_CHOICES = [
    (PassOver.KEEP_PLACE.value, "keeps their place"),
    (PassOver.TO_BOTTOM.value, "goes to the bottom"),
]
HOLD_MINUTES = (1, 120)  # what the form offers; the service refuses anything else itself


class StakesForm(forms.Form):
    """A list for the game and stakes of an open table: chosen as "minimum-maximum" in cents,
    then "@game" (none: Ultimate Texas Hold'em)."""

    stakes = forms.CharField(max_length=64)
    # Empty: the list's defaults (3 minutes to answer, 30 for a call-in, keeps their place).
    response_minutes = IntegerField(min_value=1, max_value=24 * 60, required=False)
    call_in_minutes = IntegerField(min_value=1, max_value=24 * 60, required=False)
    pass_over = forms.ChoiceField(choices=PASS_OVER_CHOICES, required=False)

    def clean_stakes(self) -> tuple[int, int, str | None]:
        limits, _, game = self.cleaned_data["stakes"].partition("@")
        low, sep, high = limits.partition("-")
        if not sep or not low.isascii() or not high.isascii():
            raise forms.ValidationError("choose the game and stakes of an open table")
        if not (low.isdigit() and high.isdigit()):
            raise forms.ValidationError("choose the game and stakes of an open table")
        return int(low), int(high), game or None


class PolicyForm(forms.Form):
    response_minutes = IntegerField(min_value=1, max_value=24 * 60, label="Response (min)")
    call_in_minutes = IntegerField(min_value=1, max_value=24 * 60, label="Call-in window (min)")
    pass_over = forms.ChoiceField(choices=PASS_OVER_CHOICES, label="Passed over")


class ListForm(forms.Form):
    waitlist = id_field(label="List")


class JoinForm(forms.Form):
    player = id_field()
    by_phone = forms.BooleanField(required=False)


class PlayerForm(forms.Form):
    """Check in, remove, seated, declined, no answer: the player on the list."""

    player = id_field()


class CallForm(forms.Form):
    table = id_field()
    seat = forms.TypedChoiceField(choices=SEAT_NUMBERS, coerce=int)
    player = id_field(required=False)


class HoldForm(forms.Form):
    """A seated player steps away: their seat is held for some minutes."""

    seat = forms.TypedChoiceField(choices=SEAT_NUMBERS, coerce=int)
    minutes = IntegerField(min_value=HOLD_MINUTES[0], max_value=HOLD_MINUTES[1], initial=15)


class SeatForm(forms.Form):
    seat = forms.TypedChoiceField(choices=SEAT_NUMBERS, coerce=int)


# --- Must-move tables and table changes (docs/rules.md §3.6) ----------------------------------


class MustMoveForm(forms.Form):
    table = id_field(label="Must-move table")
    main_table = id_field(label="Main game")


class LinkForm(forms.Form):
    must_move = id_field()


class TableChangeForm(forms.Form):
    player = id_field(label="Seated player")
    # Empty: any other table of the stakes the player plays.
    to_table = id_field(label="To table", required=False)


class ChangeForm(forms.Form):
    table_change = id_field()


class OfferForm(forms.Form):
    """The open seat offered first, and the player it is offered to (moved, or passing)."""

    table = id_field()
    seat = forms.TypedChoiceField(choices=SEAT_NUMBERS, coerce=int)
    player = id_field()
